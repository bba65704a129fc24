package extract

import (
	"context"
	nurl "net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"codeberg.org/readeck/go-readability/v2"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// mainContent returns a detached <div> holding the page's main content, or
// nil when nothing readable was found.
//
// Several extractors run and a selector picks one. Readability is the most
// faithful on articles (it keeps the original markup) but drops everything
// outside the densest block; trafilatura with its fallbacks is steadier
// on mixed pages; webgate's cleaned page keeps every visible block and so
// wins where content is spread out (forums, products, listings). When the
// article extractors keep only a small part of what the cleaned page shows
// on a page not declared as an article (under 70%), they most likely
// latched onto one block of many, and the cleaned page is the better answer.
func mainContent(ctx context.Context, doc *html.Node, base *nurl.URL, pm pageMeta) *html.Node {
	// A body without a single word (a page that builds everything with
	// JavaScript) has no content, whatever the extractors say: trafilatura's
	// last resort is the whole document's text, which is then the <title>.
	body := findBody(doc)
	bodyWords := words(body)
	if bodyWords == 0 || furnitureOnly(body) {
		return nil
	}
	kind := classifyPage(doc, pm, base)
	// At a headline's address, a page that declares nothing is most
	// likely a story (storySlug), and gets a story's rules.
	undeclaredStory := kind == kindOther && storySlug(base)
	switch kind {
	case kindArticle:
		dropCommentSections(doc)
		dropSignupBoxes(doc)
	case kindOther:
		dropMinorComments(doc)
		// Its signup boxes go as a declared article's do: undeclared,
		// AEB and WCXB-dev's articles gain six pages (up to +0.14) and
		// lose one (−0.003); no declared page moves.
		if undeclaredStory {
			dropSignupBoxes(doc)
		}
	}
	if kind == kindProduct {
		pruneProductAsides(doc) // reviews and other products, for every extractor
		pruneFineprint(doc)
	}
	if kind == kindProduct || kind == kindOther {
		pruneProductRails(doc) // rails named by their label, for every extractor
	}
	if kind == kindForum {
		pruneForumChrome(doc) // member panels and signatures, for every extractor
	}
	if kind != kindArticle {
		pruneLandmarks(doc) // for every extractor
	}
	// On articles too: trafilatura's reading pruned readability's
	// whole-body fallback well, but from the story's own block
	// readability keeps less furniture (AEB +0.0004: four stories gain
	// up to +0.076, and one with a photo gallery loses 0.019 to the
	// gallery's "Image 1 of 8" bar).
	unnameRoot(doc)
	if measurePage(doc).large() {
		return largeContent(ctx, doc, base, kind)
	}
	read := candReadability(doc, base)
	if ctx.Err() != nil {
		return nil
	}
	if kind == kindOther && read != nil && inComments(read, doc) {
		// Readability latched onto the comment thread under a short
		// story (its block is mostly text of the page's comment
		// sections): without them it finds the story.
		if commentSections(doc, minNetWords, false) {
			read = candReadability(doc, base)
		}
	}
	wr := words(read)

	// The cleaned page is built only when the selection needs it.
	// cleanedPage only removes from the body, so the body's own word
	// count bounds the cleaned page's from above: an article holding a
	// fifth of the whole body holds a fifth of the cleaned page.
	var clean *html.Node
	wc, cleaned := 0, false
	cleanPage := func() {
		if !cleaned {
			clean, cleaned = cleanedPage(doc), true
			wc = words(clean)
		}
	}
	if kind == kindArticle {
		if wr > 0 && wr*5 < bodyWords {
			cleanPage()
		}
		if wr > 0 && wr*5 >= wc {
			// The safety nets (select.go): readability's densest block
			// can be a consent notice, a list of names or a column of
			// teaser cards beside a short story, or what its cleaning
			// left of a page builder's sections (hollowed); then
			// trafilatura's reading of the whole page (its own, without
			// the fallback that would hand back readability's block)
			// decides. Only such a block pays for the extra run: the
			// body's own text, which holds every word trafilatura could
			// find, tells a hollowed block first (21 of the 918
			// declared articles of the dev sets), and a block holding
			// over three quarters of the body cannot be one.
			// A block that holds none of the paragraphs under the
			// page's headline may be another story (headlineNet): 19
			// of the dev sets' 939 articles pay for the run this way.
			leads := headlineLeads(doc, pm.Title)
			elsewhere := len(leads) > 0 && !holdsAny(read, leads)
			// The page's description quotes the story's first paragraph
			// on many sites (descriptionPhrase): a block without that
			// paragraph may be a sidebar, and pays for the run too (14
			// more of the dev sets' articles; a standfirst, which may
			// sit apart from its story, does not count); a block with
			// it is the story, whatever the nets read in trafilatura's
			// reading, unless that holds the paragraph as well. Both
			// are checked with -eval.anonymous, where no class name
			// tells a sidebar: AEB's two catastrophic pages there (a
			// standings table beside a column of teasers, a review
			// whose sections look like teaser cards) go from F1 0.00
			// to 0.95 and 0.97; no page moves in the other modes.
			// The block is read first: it holds the phrase on most
			// pages, and the body's prose then need not be written.
			phrase, _ := descriptionPhrase(read, pm.Description)
			readQuoted, standfirst := phrase != "", false
			if !readQuoted {
				phrase, standfirst = descriptionPhrase(body, pm.Description)
			}
			quotes := func(n *html.Node) bool { return phrase != "" && strings.Contains(proseTokens(n), phrase) }
			quotedElsewhere := phrase != "" && !readQuoted && !standfirst
			if teasers := teaserShaped(read); teasers || elsewhere || quotedElsewhere || candidateShape(read) != "" || wr*4 <= bodyWords*3 && hollowed(read, body) {
				full := candTrafilatura(doc, base, trafRun{focus: trafilatura.Balanced, comments: true})
				if readQuoted && !quotes(full) {
					full = nil
				}
				if safetyNet(read, full) || teasers && teaserNet(read, full) || hollowNet(read, full) || elsewhere && headlineNet(read, full, holdsLeads(leads)) || quotedElsewhere && descriptionNet(read, full, quotes) {
					tidyStory(full, pm.headline(), "", siteOf(base))
					return full
				}
			}
			// An introduction set as a section of its own, above the
			// section readability took (article_opening.go).
			addOpening(doc, read, base)
			addClosing(doc, read)
			// The reference only vetoes: a block it lacks is pruned, so
			// it runs with trafilatura's recall focus. The balanced focus
			// also drops every block whose class names a "teaser" (news
			// sites' name for the standfirst) and recovers less of the
			// text outside the container it settles on (divs, lists), and
			// the pruning then took those from the story; bylines,
			// credits and link teasers are dropped under either focus.
			refText := ""
			if ref := candTrafilatura(asDocument(read), base, trafRun{focus: trafilatura.FavorRecall, comments: true}); ref != nil {
				// Its text as rendered, a block to a line: textOf
				// joins blocks without a space, and the reference then
				// held "WarningThe" where the page has a callout's title
				// and its first sentence, so the title went as a word
				// the reference lacks; on pages with many blocks, the
				// joined words made the one-third guard give up pruning.
				refText = renderText(ref)
			}
			tidyStory(read, pm.headline(), refText, siteOf(base))
			return read
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	cleanPage()
	// trafilatura's fallback reuses readability's candidate instead of
	// running its own readability port (go-shiori's, slower than ours).
	// That port picks a different block on some pages and, as a second
	// opinion, gained WCXB-dev 0.0010 (a recipe's 677 words instead of
	// its 113-word introduction), but it cost 7% of extraction's CPU and
	// took the p95 per page from 23 ms to 27-31 ms, past the 30 ms goal.
	var fbc *trafilatura.FallbackCandidates
	if read != nil {
		fbc = &trafilatura.FallbackCandidates{Readability: cloneTree(read)}
	}
	traf := candTrafilatura(doc, base, trafRun{focus: trafilatura.Balanced, fallback: true, candidates: fbc, comments: kind == kindForum})
	if traf != nil {
		// Counted twice, an echo would also outweigh the other
		// candidates.
		dedupeEchoes(traf, doc)
	}
	if traf != nil && kind != kindArticle {
		// A layout that ships a section twice (one copy per screen
		// size) has it twice in trafilatura's reading too.
		dedupeRuns(traf)
	}
	wt := words(traf)
	// Readability's block may be a picture and its caption
	// (captionShaped), no reading of the page: where trafilatura's
	// reading is prose that disagrees with it (safetyNet), that stands
	// for both before the cleaned page is weighed against them. The net
	// for every shape here (a list, a consent notice) cost a listing
	// whose cleaned page was right (WCXB-dev 2908 −0.425); those go by
	// the net below, after the cleaned page has had its say.
	if captionShaped(read) && safetyNet(read, traf) {
		read, wr = traf, wt
	}
	if cleanedWins(kind, base, read, traf, clean, wr, wt, wc) {
		if kind != kindForum {
			dropLabelLines(clean)
		}
		return clean
	}
	// Readability copies the page's own markup (code classes, nested
	// lists, tables, links) where trafilatura rebuilds a simplified tree,
	// so when both found about the same text the readability copy wins;
	// so it does at a headline's address when trafilatura's story lies
	// inside it (agreedReading).
	pick := traf
	if traf == nil || wr*5 >= wt*4 && wr <= wt*3/2+50 || storyAmidLines(read, traf) || undeclaredStory && readingWithin(traf, read) {
		pick = read
		if read == nil {
			pick = clean
		}
	}
	// The safety net, as on articles: a chosen consent notice or list
	// that trafilatura's reading of the page disagrees with gives way.
	if pick != traf && safetyNet(pick, traf) {
		pick = traf
	}
	// And at a headline's address, a reading that holds none of the
	// headline's paragraphs gives way to trafilatura's own reading (its
	// fallback hands back readability's block) when that holds them
	// (headlineNet).
	if undeclaredStory && pick != clean {
		if leads := headlineLeads(doc, pm.Title); len(leads) > 0 && !holdsAny(pick, leads) {
			if own := candTrafilatura(doc, base, trafRun{focus: trafilatura.Balanced}); headlineNet(pick, own, holdsLeads(leads)) {
				pick = own
			}
		}
	}
	// A reply quotes the post it answers; the quote repeats that post's
	// text (the cleaned page has already dropped such repeats).
	if kind == kindForum && pick != clean {
		dedupeBlocks(pick)
	}
	// A layout that ships a second copy of a section (one for small
	// screens) repeats it in readability's candidate too.
	if pick == read && read != nil {
		dedupeRuns(pick)
	}
	if kind != kindForum {
		if pick != clean {
			dropDialogs(pick) // the cleaned page has lost them already
			// A newsletter box or a search form inside the block, and
			// a breadcrumb (the cleaned page has dropped both); a page
			// that is mostly its form keeps it (dropForms).
			dropForms(pick)
			dropBreadcrumbs(pick)
			dropFlankedCards(pick)
		}
		// A story's reading at a headline's address on a page that
		// declares nothing gets the article rules (related-link lines,
		// captions, author boxes, datelines): news and blog software
		// makes such addresses. Undeclared articles of the dev sets
		// (-eval.undeclared): AEB 0.9604 to 0.9656.
		if pick != clean && undeclaredStory {
			tidyStory(pick, pm.headline(), "", siteOf(base))
		}
		dropLabelLines(pick)
		// A forum's table rows hold the poster beside the post.
		dropLayoutLinkCells(pick)
	}
	return pick
}

// cleanedWins reports whether the cleaned page (wc words) is the answer
// rather than readability's (wr words) or trafilatura's (wt) reading.
//
// The cleaned page has already lost the chrome an article extractor
// would drop, so on a page not declared as an article trafilatura should
// keep most of it, not a part; unless both extractors read the same story
// and all the cleaned page adds to it is links and labels, or the page
// may be a story and its address or the story's length says it is one
// (agreedReading). The cleaned page also wins when both readings lie
// outside it (elsewhere).
//
// A declared article comes here when readability's block is under a
// fifth of the cleaned page. When trafilatura's reading is too and the
// two do not agree on a story, neither found the article: they read the
// introduction of a recipe or a listicle, whose steps or entries are the
// rest of the page (WCXB-dev 0.8706 to 0.8714; a short news story both
// read stays theirs, whatever teasers surround it).
func cleanedWins(kind pageKind, base *nurl.URL, read, traf, clean *html.Node, wr, wt, wc int) bool {
	if kind == kindArticle {
		return wr*5 < wc && wt*5 < wc && !agreedReading(kind, base, read, traf, clean)
	}
	return wt*10 < wc*7 && !agreedReading(kind, base, read, traf, clean) || elsewhere(read, traf, clean, wc)
}

// Pages past these sizes (counted after scripts, styles and SVG are gone)
// take the large-page path. go-trafilatura gathers the text of every <p>
// by appending one paragraph at a time to a string, so its time and
// memory grow with paragraphs × paragraph text: a 1 MiB thread allocated
// 760 MB, an 8 MiB one 1.6 GB and 30 s. The largest of the 1,800 benchmark
// pages has 10,019 elements and a paragraph cost of 41 million.
const (
	largeElements = 20_000
	largeParaCost = 256 << 20 // paragraphs × bytes of paragraph text
	hugeElements  = 100_000   // readability declines pages past this
)

// pageSize is what the cost of the candidate extractors grows with.
type pageSize struct {
	elements, paras, paraBytes int
}

func (s pageSize) large() bool {
	return s.elements > largeElements || s.paras*s.paraBytes > largeParaCost
}

func measurePage(doc *html.Node) pageSize {
	var s pageSize
	var walk func(n *html.Node, inPara bool)
	walk = func(n *html.Node, inPara bool) {
		switch n.Type {
		case html.TextNode:
			if inPara {
				s.paraBytes += len(n.Data)
			}
		case html.ElementNode:
			s.elements++
			if n.DataAtom == atom.P {
				s.paras++
				inPara = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inPara)
		}
	}
	walk(doc, false)
	return s
}

// largeContent extracts a page too large for the full candidate set with
// the extractors whose cost grows linearly: the cleaned page, and
// readability on declared articles (pages this large are long threads,
// archives and single-page manuals, where keeping every block is right).
func largeContent(ctx context.Context, doc *html.Node, base *nurl.URL, kind pageKind) *html.Node {
	clean := cleanedPage(doc)
	if kind != kindArticle || ctx.Err() != nil {
		return clean
	}
	if read := candReadability(doc, base); read != nil && words(read)*5 >= words(clean) {
		return read
	}
	return clean
}

func words(n *html.Node) int {
	if n == nil {
		return 0
	}
	return wordCount(n)
}

// trafRun says how candTrafilatura runs go-trafilatura.
type trafRun struct {
	focus trafilatura.ExtractionFocus
	// fallback turns on its fallback extractors (its own readability
	// port and DOM distiller); candidates, when set, replaces them with
	// ones already computed.
	fallback   bool
	candidates *trafilatura.FallbackCandidates
	// comments appends the comments it finds to the content: on forums
	// and Q&A pages they are the content, elsewhere a thread under the
	// page (declared articles drop theirs before extraction).
	comments bool
}

// candTrafilatura runs go-trafilatura as run says.
func candTrafilatura(doc *html.Node, base *nurl.URL, run trafRun) *html.Node {
	cfg := trafilatura.DefaultConfig()
	cfg.MinExtractedSize = scriptScaled(cfg.MinExtractedSize, doc)
	res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{
		Config:             cfg,
		OriginalURL:        base,
		EnableFallback:     run.fallback,
		FallbackCandidates: run.candidates,
		Focus:              run.focus,
		IncludeLinks:       true,
		HtmlDateMode:       trafilatura.Disabled,
		// Metadata and language detection (a fifth of the extraction's
		// CPU) change nothing in the content, and webgate reads its own
		// metadata; see third_party/go-trafilatura/FORK.md.
		SkipMetadata: true,
	})
	if err != nil || res == nil || res.ContentNode == nil {
		return nil
	}
	root := newDiv()
	adopt(root, res.ContentNode)
	fixAtoms(root)
	restorePre(root)
	dropFlatRepeat(root, headText(doc))
	if run.comments && res.CommentsNode != nil {
		adopt(root, res.CommentsNode)
		fixAtoms(root)
	}
	return root
}

// scriptScaled scales trafilatura's threshold for a failed extraction
// (MinExtractedSize, 250 characters) to the script doc's text is
// written in. It stands for some 45 words of English, about six
// characters each with its space; a Chinese or Japanese word is about
// two characters with none (unspacedRun). Trafilatura took a short
// Chinese story (100 words, 200-odd characters) for a failure and
// rescued it with its baseline, every paragraph of the page, a
// footer's contact lines included. The threshold shrinks in proportion
// to the share of the text's words (countWords) in such a script, to
// two fifths on a page wholly in one; a page in a spaced script keeps
// it as it is.
//
// Readability's own threshold (CharThresholds, 500 characters, under
// which it retries with fewer of its cleaning steps) stays: scaled the
// same way, it lost on pages in ideographs (-eval.foreign.script=han,
// WCXB-dev −0.0007, four more catastrophic pages), its retries finding
// more of a listing's or forum's text than its first pass.
func scriptScaled(threshold int, doc *html.Node) int {
	all, unspaced := 0, 0
	for n := range doc.Descendants() {
		if n.Type == html.TextNode {
			a, u := countScriptWords(n.Data)
			all, unspaced = all+a, unspaced+u
		}
	}
	if unspaced == 0 {
		return threshold
	}
	return threshold - threshold*3*unspaced/(5*all)
}

// restorePre turns the code blocks of trafilatura's reading back into
// <pre>. Trafilatura renames a <pre> it takes for code to <code> (its
// XML's code element), around the page's own <code>, so the block stood
// among the paragraphs as inline code: the Markdown made it one line in
// backticks, its line breaks gone ("`postgres=# EXPLAIN SELECT … QUERY
// PLAN ----`": 14 blocks on 2 dev pages) and the language lost. A <code>
// that stands alone in a block container (no text beside it) is such a
// block; inline code sits in a paragraph, a list item or a cell.
func restorePre(root *html.Node) {
	for _, c := range collectElements(root, func(c *html.Node) visit {
		switch c.DataAtom {
		case atom.Pre:
			return skip
		case atom.Code:
			return take
		}
		return descend
	}) {
		if !codeContainer[c.Parent.DataAtom] {
			continue
		}
		alone := true
		for _, s := range []*html.Node{c.PrevSibling, c.NextSibling} {
			if s != nil && (s.Type == html.TextNode && strings.TrimSpace(s.Data) != "" || s.Type == html.ElementNode && !blockAtoms[s.DataAtom]) {
				alone = false
			}
		}
		if !alone {
			continue
		}
		if inner := soleElement(c); inner != nil && inner.DataAtom == atom.Code {
			moveChildrenBefore(inner, inner)
			c.RemoveChild(inner)
		}
		pre := &html.Node{Type: html.ElementNode, Data: "pre", DataAtom: atom.Pre}
		c.Parent.InsertBefore(pre, c)
		c.Parent.RemoveChild(c)
		pre.AppendChild(c)
	}
}

// codeContainer are the elements a code block of trafilatura's reading
// stands in.
var codeContainer = map[atom.Atom]bool{atom.Div: true, atom.Body: true, atom.Section: true, atom.Article: true, atom.Main: true, atom.Blockquote: true}

// fixAtoms sets each element's DataAtom from its name. go-trafilatura
// creates elements without one and renames elements (a <div> to <p>, a
// <br> to <p>) without updating it, and everything downstream (block
// boundaries in the text renderer, code normalisation, pruning) reads
// DataAtom.
func fixAtoms(n *html.Node) {
	if n.Type == html.ElementNode {
		n.DataAtom = atom.Lookup([]byte(n.Data))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		fixAtoms(c)
	}
}

// dropFlatRepeat undoes go-trafilatura's last resort on short pages
// (under 100 characters of paragraphs): it appends the whole document's
// text, <title> included, as one last <p>, after the paragraphs it had
// already collected. Such a last paragraph is removed when it repeats,
// flattened, the text before it (with or without the head's text in
// front). When it starts with the head's text and holds more than the
// paragraphs before it (text outside paragraphs), it is the page's
// whole text: it alone stays, without the head's text, so the page's
// title is not passed off as its first words.
func dropFlatRepeat(root *html.Node, head string) {
	last := root.LastChild
	for last != nil && last.Type == html.TextNode && strings.TrimSpace(last.Data) == "" {
		last = last.PrevSibling
	}
	if !isElem(last, atom.P) {
		return
	}
	var before strings.Builder
	for c := root.FirstChild; c != last; c = c.NextSibling {
		before.WriteString(textOf(c))
	}
	flat, h, b := textOf(last), squeeze(head), squeeze(before.String())
	sf := squeeze(flat)
	whole := h != "" && strings.HasPrefix(sf, h)
	rest := sf
	if whole {
		rest = sf[len(h):]
	}
	switch {
	case b != "" && (sf == b || rest == b):
		removeNode(last)
	case whole && len(rest) > len(b) && strings.HasPrefix(rest, b):
		for c := root.FirstChild; c != last; {
			next := c.NextSibling
			root.RemoveChild(c)
			c = next
		}
		for c := last.FirstChild; c != nil; {
			next := c.NextSibling
			last.RemoveChild(c)
			c = next
		}
		last.AppendChild(&html.Node{Type: html.TextNode, Data: strings.TrimSpace(cutSqueezedPrefix(flat, len(h)))})
	}
}

// squeeze drops every space from s, so texts that differ only in how
// their blocks were joined compare equal.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// cutSqueezedPrefix returns s after its first n bytes of non-space text.
func cutSqueezedPrefix(s string, n int) string {
	for i := 0; i < len(s); {
		if n <= 0 {
			return s[i:]
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			n -= w
		}
		i += w
	}
	return ""
}

// headText is the text of the document's <head> (its <title>, after
// prepareDoc dropped scripts and styles).
func headText(doc *html.Node) string {
	if h := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Head) }); h != nil {
		return textOf(h)
	}
	return ""
}

// candReadability runs readeck's go-readability (a port of Mozilla
// Readability.js), which keeps the original markup of the article subtree.
func candReadability(doc *html.Node, base *nurl.URL) *html.Node {
	p := readability.NewParser()
	p.KeepClasses = true // code-language classes live there
	p.MaxElemsToParse = hugeElements
	// prepareDoc has removed every <script>, JSON-LD included (webgate's
	// metadata has read it), so readability's search for it finds nothing.
	p.DisableJSONLD = true
	if h := readabilityTitle(doc); h != nil {
		// Hidden, it is removed from readability's copy of the page as
		// the title heading would be; ours keeps it.
		h.Attr = append(h.Attr, html.Attribute{Key: "hidden"})
		defer dropAttrs(h, "hidden")
	}
	art, err := p.ParseDocument(doc, base)
	if err != nil || art.Node == nil {
		return nil
	}
	// art.Node lives in readability's own copy of the page.
	removeNode(art.Node)
	root := newDiv()
	root.AppendChild(art.Node)
	// Readability renames elements (a <div> of text to <p>) and creates
	// wrappers without setting DataAtom, which everything downstream
	// reads: without it such a paragraph was no block to any rule.
	fixAtoms(root)
	unnestParagraphs(root)
	restoreTables(root)
	return root
}

// readabilityTitle returns the heading that readability would drop as the
// story's title if it read words in every script, where it does not.
// Readability.js drops the first <h1> or <h2> whose words are mostly
// the title's (_headerDuplicatesTitle, _textSimilarity over 0.75; the
// title a <meta> gives, else the <title> cut), but it
// splits words at /\W+/, which knows only ASCII letters: a Russian, Greek
// or Chinese heading holds no word of its own, the similarity is NaN,
// and the heading stays a block of the page to score. On an agency story
// in a made-up language written in Cyrillic, readability then took the
// parent of the story's column, photo caption, byline and video links
// with it (338 words where the story has 129).
// Where readability's own reading of a heading matches (its words are
// ASCII), the heading is left to readability.
func readabilityTitle(doc *html.Node) *html.Node {
	title := readabilityMetaTitle(doc)
	if title == "" {
		t := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Title) })
		if t == nil {
			return nil
		}
		title = storyTitle(textOf(t))
	}
	if title == "" {
		return nil
	}
	asciiTitle, letterTitle := titleWords(title, asciiWords), titleWords(title, letterWords)
	var found *html.Node
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.DataAtom == atom.Head {
				continue
			}
			if c.DataAtom != atom.H1 && c.DataAtom != atom.H2 {
				if walk(c) {
					return true
				}
				continue
			}
			if hasAttr(c, "hidden") {
				continue // readability drops it unread, and reads on
			}
			heading := textOf(c)
			if titleSimilarity(asciiTitle, heading, asciiWords) > 0.75 {
				return true // readability drops this one itself
			}
			if titleSimilarity(letterTitle, heading, letterWords) > 0.75 {
				found = c
				return true
			}
		}
		return false
	}
	walk(doc)
	return found
}

// readabilityMetaTitle is the title readability compares headings to
// when a <meta> gives one (getArticleMetadata, its JSON-LD reading off):
// the first of dc:title, dcterm:title, og:title, Weibo's titles, title,
// twitter:title and parsely-title, a later <meta> of a key replacing an
// earlier one; "" when none does, and readability cuts the <title>
// (storyTitle).
func readabilityMetaTitle(doc *html.Node) string {
	values := map[string]string{}
	for _, m := range collectElements(doc, func(c *html.Node) visit {
		if c.DataAtom == atom.Meta {
			return take
		}
		return descend
	}) {
		content := strings.TrimSpace(attr(m, "content"))
		if content == "" {
			continue
		}
		if p := attr(m, "property"); p != "" {
			for _, k := range metaProperty.FindAllString(p, -1) {
				values[strings.Join(strings.Fields(strings.ToLower(k)), "")] = content
			}
			if metaProperty.MatchString(p) {
				continue
			}
		}
		if n := attr(m, "name"); metaName.MatchString(n) {
			values[strings.ReplaceAll(strings.Join(strings.Fields(strings.ToLower(n)), ""), ".", ":")] = content
		}
	}
	for _, k := range []string{"dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title", "title", "twitter:title", "parsely-title"} {
		if v := values[k]; v != "" {
			return v
		}
	}
	return ""
}

// metaProperty and metaName are the <meta> properties and names
// readability reads metadata from (its rxPropertyPattern and
// rxNamePattern).
var (
	metaProperty = regexp.MustCompile(`(?i)\s*(dc|dcterm|og|article|twitter)\s*:\s*(author|creator|description|title|site_name|published_time|modified_time|image\S*)\s*`)
	metaName     = regexp.MustCompile(`(?i)^\s*(?:(dc|dcterm|article|og|twitter|parsely|weibo:(article|webpage))\s*[-\.:]\s*)?(author|creator|pub-date|description|title|site_name|published_time|modified_time|image)\s*$`)
)

// storyTitle is the part of a page's <title> readability compares
// headings to (Readability.js, _getArticleTitle): the title without its
// last part after a separator ("Story | Site"), or without its first
// where that leaves under three words; the whole title where either
// leaves four words or fewer. Readability.js's other cases (a title cut
// at a colon, a title too short or too long) keep words of the whole
// title, which a heading's words are measured against here.
func storyTitle(title string) string {
	title = collapseSpace(title)
	seps := titleSeparator.FindAllStringIndex(title, -1)
	if len(seps) == 0 {
		return title
	}
	cut := title[:seps[len(seps)-1][0]]
	if len(strings.Fields(cut)) < 3 {
		cut = title[seps[0][1]-1:]
	}
	if len(strings.Fields(cut)) <= 4 {
		return title
	}
	return cut
}

// titleSeparator is Readability.js's title separator, between spaces.
var titleSeparator = regexp.MustCompile(` [|\-–—\\/>»] `)

// titleWords is the set of a title's lower-cased words, split by split.
func titleWords(title string, split func(rune) bool) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(title), split) {
		words[w] = true
	}
	return words
}

// titleSimilarity is Readability.js's _textSimilarity of a heading to a
// title: the share of the heading's word characters (its words joined
// by spaces) in words the title also has (inTitle, as titleWords splits
// them), with words split by split. A heading without words has none
// (NaN in Readability.js).
func titleSimilarity(inTitle map[string]bool, heading string, split func(rune) bool) float64 {
	all, unique, n := 0, 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(heading), split) {
		c := utf8.RuneCountInString(w)
		if n > 0 {
			c++ // the joining space
		}
		all += c
		if !inTitle[w] {
			unique += c
		}
		n++
	}
	if all == 0 {
		return 0
	}
	return 1 - float64(unique)/float64(all)
}

// asciiWords splits words as /\W+/ does: at anything but an ASCII
// letter, a digit or "_".
func asciiWords(r rune) bool {
	return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'))
}

// letterWords splits words at anything but a character of a word
// (wordRune), in any script.
func letterWords(r rune) bool { return !wordRune(r) }

// holdsRows reports an element with a row group or a row among its
// children.
func holdsRows(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.DataAtom {
		case atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr:
			return true
		}
	}
	return false
}

// restoreTables renames back to <table> a <div> that holds a table's row
// groups or rows. Readability renames every block it joins to the story
// that is not a <div>, <article>, <section>, <p> or list into a <div>
// (Readability.js, _grabArticle: ALTER_TO_DIV_EXCEPTIONS), the top
// candidate itself included: a data table beside the story's paragraphs
// lost its name, and without a <table> its rows and cells were no table
// to the Markdown converter, which ran each row's cells together
// ("…spend the moneyA best-in-class model…"). Only a table holds a
// <tbody>, <thead>, <tfoot> or <tr> (an HTML parser moves them nowhere
// else), so such a <div> was one.
func restoreTables(root *html.Node) {
	for _, c := range elementsUnder(root) {
		if c.DataAtom == atom.Div && holdsRows(c) {
			c.Data, c.DataAtom = "table", atom.Table
		}
	}
}

// unnestParagraphs renames to <div> every <p> that holds a block.
// Readability wraps the phrasing content of a <div> in a <p>, a <span>
// that holds a whole story (text, <br> lines and figures) included, and
// then turns the <br> runs inside the span into paragraphs: <p><span><p>,
// which no HTML parser would build (a block start closes the open <p>).
// Trafilatura, reading the outer paragraph as one block, kept the text
// before the first figure and lost the rest: whole sections of a review
// went missing. Readability.js renames a new paragraph's parent <p> the
// same way, but only its direct parent.
func unnestParagraphs(root *html.Node) {
	collectElements(root, func(c *html.Node) visit {
		if c.DataAtom == atom.P && hasBlockChild(c) {
			c.Data, c.DataAtom = "div", atom.Div
		}
		return descend
	})
}

// asDocument wraps a copy of n in a document of its own, so an extractor
// can judge just that subtree.
func asDocument(n *html.Node) *html.Node {
	doc := &html.Node{Type: html.DocumentNode}
	h := &html.Node{Type: html.ElementNode, Data: "html", DataAtom: atom.Html}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	doc.AppendChild(h)
	h.AppendChild(&html.Node{Type: html.ElementNode, Data: "head", DataAtom: atom.Head})
	h.AppendChild(body)
	body.AppendChild(cloneTree(n))
	return doc
}

func newDiv() *html.Node {
	return &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
}

// adopt moves all children of src under dst.
func adopt(dst, src *html.Node) {
	for c := src.FirstChild; c != nil; {
		next := c.NextSibling
		src.RemoveChild(c)
		dst.AppendChild(c)
		c = next
	}
}

// leadWords name the story's lead: the standfirst or summary printed
// between the headline and the body ("article__lead", "standfirst",
// "dek", French "chapo" or "article__desc", German "Vorspann").
// Trafilatura reads only the body's container when it finds one by name
// ("article-body"), so its absence from the reference says nothing about
// the lead. "teaser", German sites' name for it, names the teasers of
// other stories as often, a linked headline over prose: it counts only
// above the story's first paragraph (topLeadWords).
var leadWords = wordSet(`lead intro standfirst dek deck subhead subheadline subtitle summary abstract chapo chapeau vorspann sapo entradilla sommario desc`)

// topLeadWords name a lead only above the story's first paragraph:
// German sites' "teaser" is the standfirst there and another story's
// teaser further down; "description" (Vietnamese and other news sites'
// lead) names an author's or an item's description further down.
var topLeadWords = wordSet(`teaser description`)

// minLeadWords: a named lead shorter than this ("Summary", a one-line
// kicker named "intro") is judged like any block.
const minLeadWords = 8

// isLead reports a named lead's shape: a few sentences of prose, not
// links (a teaser list named like a lead is links).
func isLead(n *html.Node) bool {
	w := wordCount(n)
	return w >= minLeadWords && linkWords(n)*4 <= w
}

// referenceList reports a definition list of addressable or coded
// terms: a documentation page's functions, options or fields (Sphinx,
// javadoc, MDN, man pages), each term an anchor or set in code. Boxes of
// facts ("Acceptance Rate" / "96%") and old caption markup ("<dl
// class="wp-caption">") are definition lists too, with neither.
func referenceList(dl *html.Node) bool {
	if !isElem(dl, atom.Dl) {
		return false
	}
	for dt := dl.FirstChild; dt != nil; dt = dt.NextSibling {
		if isElem(dt, atom.Dt) && (attr(dt, "id") != "" || findFirst(dt, func(c *html.Node) bool {
			return c.Type == html.ElementNode && (c.DataAtom == atom.Code || c.DataAtom == atom.Kbd || c.DataAtom == atom.Samp || c.DataAtom == atom.Tt)
		}) != nil) {
			return true
		}
	}
	return false
}

// definitionItem returns n if it is a definition list's term or
// description, or the nearest such holding it below root (a
// description's paragraph); nil otherwise.
func definitionItem(n, root *html.Node) *html.Node {
	for ; n != nil && n != root; n = n.Parent {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Dt || n.DataAtom == atom.Dd) {
			return n
		}
	}
	return nil
}

// pruneByConsensus removes from an article the leaf blocks that a second,
// independent extractor (trafilatura) did not keep: bylines, photo
// credits, "read more" teasers and share prompts that readability lets
// through inside the article container. Code, tables, headings (a
// <details>' <summary> too) and quotes (a <blockquote>, or a <figure>
// holding one: a pull quote, which trafilatura drops with every figure)
// and a named lead (see leadWords) are never pruned, and the reference must be substantial, so a
// reference that missed most of the article cannot gut it.
func pruneByConsensus(root *html.Node, ref string) {
	refToks := compareTokens(ref)
	if len(refToks) < 60 {
		return
	}
	refPairs := wordPairs(refToks)
	refWords := make(map[string]bool, len(refToks))
	for _, t := range refToks {
		refWords[t] = true
	}
	var kept bodyParts // named containers of prose the reference has
	seenProse := false // a paragraph the reference has came before
	drop := collectElements(root, func(c *html.Node) visit {
		switch c.DataAtom {
		case atom.Pre, atom.Table, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote, atom.Summary:
			// A <summary> heads its <details>: an FAQ's question over
			// its answer. Trafilatura drops it and keeps the answer.
			return skip
		case atom.Figure:
			if findFirst(c, func(n *html.Node) bool { return isElem(n, atom.Blockquote) }) != nil {
				return skip
			}
		}
		if (classWords(c, leadWords) || !seenProse && classWords(c, topLeadWords)) && isLead(c) {
			return skip
		}
		if !blockAtoms[c.DataAtom] || hasBlockChild(c) {
			return descend
		}
		toks := compareTokens(textOf(c))
		if len(toks) == 1 && !refWords[toks[0]] {
			return take // "Advert", "Tags", "Share"
		}
		if len(toks) < 2 {
			return skip
		}
		if !refPairs.holdHalf(toks) {
			return take
		}
		if len(toks) >= minSplitProse {
			kept.add(namedContainer(c, root))
			seenProse = true
		}
		return skip
	})
	dropped := 0
	for _, n := range drop {
		dropped += wordCount(n)
	}
	if dropped*3 > wordCount(root) {
		return // disagreement this large means the reference is wrong
	}
	// Every block is judged on the article as it stands, before any goes
	// (splitBody reads a block's container, which a removal would change).
	drop = slices.DeleteFunc(drop, func(n *html.Node) bool {
		// A list item without links is a step, a note or a fact of the
		// story: trafilatura drops many lists whole (and its absence
		// then says nothing), while teaser lists are links. So are a
		// definition list's terms and descriptions, which it drops too
		// (a documentation page's every function and option). The item
		// still counts as disagreement above.
		if n.DataAtom == atom.Li && linkWords(n) == 0 || kept.splitBody(n, root) {
			return true
		}
		item := definitionItem(n, root)
		return item != nil && linkWords(item) == 0 && referenceList(item.Parent)
	})
	for _, n := range drop {
		removeNode(n)
	}
}

// minSplitProse is the length of a paragraph that, kept by the reference
// or not, counts as prose of the story for splitBody.
const minSplitProse = 10

// bodyParts are the named containers (see namedContainer) of the prose
// that the consensus reference kept, and their classes.
type bodyParts struct {
	nodes   map[*html.Node]bool
	classes map[string]bool
}

func (b *bodyParts) add(c *html.Node) {
	if c == nil {
		return
	}
	if b.nodes == nil {
		b.nodes, b.classes = map[*html.Node]bool{}, map[string]bool{}
	}
	b.nodes[c] = true
	if k := classKey(c); k != "" {
		b.classes[k] = true
	}
	for _, t := range storyClasses(c) {
		b.classes[t] = true
	}
}

// storyClasses returns the class names of c that name a story
// ("crux-article", "story-text"). A template's components share such a
// name while their other names differ: a story's text blocks
// ("cda-article__text crux-article") and the one a related-stories
// component wraps around the paragraphs that go on after its links
// ("text-container crux-article"), which trafilatura drops for the
// component's name. Layout names ("clearfix", "row") say nothing.
func storyClasses(c *html.Node) []string {
	var out []string
	for _, t := range strings.Fields(strings.ToLower(attr(c, "class"))) {
		if strings.Contains(t, "article") || strings.Contains(t, "story") {
			out = append(out, t)
		}
	}
	return out
}

// splitBody reports a paragraph of prose that the reference lacks only
// because trafilatura reads the first container it finds by name
// ("article-body") and no further: the paragraph stands in another
// container of the same class as one whose prose the reference kept.
// News templates split the story's body this way around ads, a
// subscription offer or a gallery, and the story's tail was cut. The
// paragraph may carry the class itself: readability turns a container
// that holds one paragraph into that paragraph. A container sharing
// only a class that names the story (storyClasses) counts too.
func (b *bodyParts) splitBody(n, root *html.Node) bool {
	w := wordCount(n)
	if w < minSplitProse || linkWords(n)*4 > w || n.DataAtom == atom.Figcaption || hasAncestor(n, atom.Figure) {
		return false // a label, a list of links or a caption: not prose
	}
	another := func(c *html.Node) bool {
		if c == nil || b.nodes[c] {
			return false
		}
		k := classKey(c)
		return k != "" && b.classes[k] || slices.ContainsFunc(storyClasses(c), func(t string) bool { return b.classes[t] })
	}
	if attr(n, "class") != "" && another(n) {
		return true
	}
	c := namedContainer(n, root)
	if another(c) {
		return true
	}
	// Page builders wrap each text widget in a container of its own
	// inside the section that readability's cleaning flattened elsewhere
	// into the section alone. So a container of nothing but prose
	// paragraphs counts as the section around it: the named containers
	// above it, up to one whose prose the reference kept (a paragraph
	// the reference left out there is judged as it is). An author box or
	// a promo holds a name, a label or a button besides its paragraph.
	if c == nil || !proseOnly(c) {
		return false
	}
	for a, i := namedContainer(c, root), 0; a != nil && i < maxSplitDepth && !b.nodes[a]; a, i = namedContainer(a, root), i+1 {
		if another(a) {
			return true
		}
	}
	return false
}

// proseOnly reports a container whose every element child is a paragraph
// of prose (minSplitProse words or more), text widget style.
func proseOnly(c *html.Node) bool {
	paragraphs := 0
	for ch := c.FirstChild; ch != nil; ch = ch.NextSibling {
		switch {
		case ch.Type == html.ElementNode && ch.DataAtom == atom.P && wordCount(ch) >= minSplitProse:
			paragraphs++
		case !blankText(ch):
			return false
		}
	}
	return paragraphs > 0
}

// maxSplitDepth bounds the named containers splitBody looks through.
const maxSplitDepth = 3

// classKey is c's class list without the names that end in an element's
// own number or hash, which page builders give each element
// ("elementor-element-ec356f6", WPBakery's "vc_custom_1603…", "post-4390"):
// two text widgets of one builder differ only in those, and their class
// lists are then one kind of container. Short numbers stay: a grid's
// "col-33" and "col-66" are a sidebar and a main column. A list of such
// names only (CSS modules' hashes, "css-1nm6rmy") is kept whole: it is
// all there is to tell containers apart.
func classKey(c *html.Node) string {
	class := strings.ToLower(attr(c, "class"))
	var b strings.Builder
	for _, t := range strings.Fields(class) {
		last := t[strings.LastIndexAny(t, "-_")+1:]
		if len(last) >= 4 && strings.ContainsFunc(last, unicode.IsDigit) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	if b.Len() == 0 {
		return strings.Join(strings.Fields(class), " ")
	}
	return b.String()
}

// namedContainer is n's nearest ancestor under root with a class, or nil.
func namedContainer(n, root *html.Node) *html.Node {
	for p := n.Parent; p != nil && p != root; p = p.Parent {
		if attr(p, "class") != "" {
			return p
		}
	}
	return nil
}

// wordTokens splits s into lower-cased runs of wordRune.
func wordTokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !wordRune(r) })
}

// wordRune reports a character of a word: a letter, a digit, "_" or a
// combining mark. The vowel signs and viramas of Hindi and the other
// Indic scripts, and of Thai, are marks; split at them, "विज्ञापन"
// (advertisement) was no word of any vocabulary. (No mark precedes
// U+0300, so ASCII punctuation skips the table.)
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r >= 0x300 && unicode.IsMark(r)
}

// compareTokens splits s into the tokens two texts are compared by: the
// words of wordTokens, except that a run of a script written without
// spaces (unspacedRun: Chinese, Japanese, Thai) becomes its overlapping
// pairs of characters. To wordTokens such a run is a whole sentence or
// line, so one extractor joining two lines that another keeps apart (at
// a <br>, or a paragraph's end with no space before the next) left two
// readings of the same Chinese story sharing half their "words".
func compareTokens(s string) []string { return unspacedTokens(s, true) }

// unspacedTokens splits s into wordTokens, each run of a script written
// without spaces into its characters: overlapping pairs of them with
// pairs (compareTokens), else one by one (charTokens). Only a text that
// holds such a run is copied.
func unspacedTokens(s string, pairs bool) []string {
	toks := wordTokens(s)
	var out []string
	for i, t := range toks {
		if !hasUnspaced(t) {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, 2*len(toks)), toks[:i]...)
		}
		out = appendUnspaced(out, t, pairs)
	}
	if out == nil {
		return toks
	}
	return out
}

// hasUnspaced reports whether t holds a character of a script written
// without spaces.
func hasUnspaced(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] >= utf8.RuneSelf {
			for _, r := range t[i:] {
				if unspacedRun(r) > 0 {
					return true
				}
			}
			return false
		}
	}
	return false
}

// appendUnspaced appends t's tokens to out: each run of unspaced-script
// characters as its overlapping pairs with pairs (a lone character as
// itself), else as its characters, and each run of other letters and
// digits whole.
func appendUnspaced(out []string, t string, pairs bool) []string {
	for t != "" {
		r, n := utf8.DecodeRuneInString(t)
		unspaced := unspacedRun(r) > 0
		for n < len(t) {
			r, size := utf8.DecodeRuneInString(t[n:])
			if (unspacedRun(r) > 0) != unspaced {
				break
			}
			n += size
		}
		run := t[:n]
		t = t[n:]
		if !unspaced || utf8.RuneCountInString(run) == 1 {
			out = append(out, run)
			continue
		}
		for i, r := range run {
			next := i + utf8.RuneLen(r)
			if !pairs {
				out = append(out, run[i:next])
				continue
			}
			if next == len(run) {
				break
			}
			_, size := utf8.DecodeRuneInString(run[next:])
			out = append(out, run[i:next+size])
		}
	}
	return out
}

// pairSet holds the pairs of adjacent words of a text. A block is part
// of that text when half its word pairs are: single words are shared by
// any text on the same topic (a reply under a post, a second story).
// Consensus pruning, the agreed-story test and storyAmidLines judge
// blocks so.
type pairSet map[[2]string]bool

func wordPairs(toks []string) pairSet {
	s := make(pairSet, len(toks))
	for i := 1; i < len(toks); i++ {
		s[[2]string{toks[i-1], toks[i]}] = true
	}
	return s
}

// holdHalf reports whether half of toks' word pairs are in s; a block of
// one word has no pair and is not held.
func (s pairSet) holdHalf(toks []string) bool {
	in := 0
	for i := 1; i < len(toks); i++ {
		if s[[2]string{toks[i-1], toks[i]}] {
			in++
		}
	}
	return len(toks) > 1 && in*2 >= len(toks)-1
}

// commentSection matches the id or a class of the container of reader
// comments under an article (WordPress, Disqus and most themes), also
// named in the site's language: German, French, Spanish, Italian, Dutch,
// Polish, Scandinavian and Finnish plurals ("kommentare",
// "commentaires"). The plural only: German "Kommentar" also names an
// opinion piece, the story itself.
var commentSection = regexp.MustCompile(`^(comments?|comment-?list|comments?-(area|section|wrapper|container|block|list)|(box|block|section|wrap|area)[-_]?comments?|respond|comment-respond|disqus_thread|binh-?luan|` +
	`((leser-?)?kommentare|commentaires|comentarios|commenti|reacties|komentarze|kommentarer|kommentit)(-?(area|section|wrapper|container|block|list|bereich|liste|zone|lista))?)$`)

// dropCommentSections removes reader comments from a declared article:
// they are not the article, and readability keeps them when the comment
// list outweighs the story. A page with little prose outside its comments
// (a link post, an open thread) is a discussion that declares itself an
// article, and keeps them, as forums and Q&A pages do.
func dropCommentSections(doc *html.Node) { commentSections(doc, minArticleProse, false) }

// dropMinorComments removes the comment sections of a page that declares
// nothing when the story outside them outweighs them (and has
// minArticleProse words): a blog post or a news story with a few reader
// comments under it. The cleaned page, which such a page may be read
// from, keeps every block. A page whose comments outweigh its text is left
// alone: it may be a discussion, and when readability latches onto the
// comments, mainContent removes them then.
func dropMinorComments(doc *html.Node) { commentSections(doc, minArticleProse, true) }

// commentSections removes the page's comment sections when at least
// minProse words of paragraphs (<p>, or loose prose: see looseProse)
// stand outside them, and, with outweigh, as many words as the sections
// hold; it reports whether it removed them.
func commentSections(doc *html.Node, minProse int, outweigh bool) bool {
	var drop []*html.Node
	prose, comments := 0, 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch {
			case isCommentSection(c):
				drop = append(drop, c)
				if outweigh {
					comments += wordCount(c)
				}
			case c.DataAtom == atom.P:
				prose += wordCount(c)
			case !blockAtoms[c.DataAtom] && !hasBlockChild(c):
				// inline: counted in its parent's loose prose
			default:
				prose += looseProse(c)
				walk(c)
			}
		}
	}
	walk(doc)
	if prose < minProse || len(drop) == 0 || prose < comments {
		return false
	}
	for _, n := range drop {
		removeNode(n)
	}
	return true
}

// inComments reports whether most of n's words (seven in ten) are words
// of the page's comment sections.
func inComments(n, doc *html.Node) bool {
	var b strings.Builder
	for _, c := range commentBoxes(doc) {
		b.WriteString(textOf(c))
		b.WriteByte(' ')
	}
	if b.Len() == 0 {
		return false
	}
	toks := compareTokens(textOf(n))
	return len(toks) > 0 && sharedTokens(toks, compareTokens(b.String()))*10 >= len(toks)*7
}

// commentBoxes returns the outermost comment sections under root
// (isCommentSection).
func commentBoxes(root *html.Node) []*html.Node {
	return collectElements(root, func(c *html.Node) visit {
		if isCommentSection(c) {
			return take
		}
		return descend
	})
}

// minArticleProse is the number of words in paragraphs outside the
// comments that makes a page an article with comments rather than a
// discussion.
const minArticleProse = 80

func isCommentSection(n *html.Node) bool {
	if id := attr(n, "id"); id != "" && commentSection.MatchString(strings.ToLower(id)) {
		return true
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if commentSection.MatchString(strings.ToLower(c)) {
			return true
		}
	}
	return opensThread(n)
}

// opensThread reports a container whose first words are a heading that
// names a comment thread ("Comments", "10 comments:", "Top Rated
// Comments", threadHeading): a thread whose container's name says
// nothing, as with every class name hashed (CSS modules), or in a
// theme's own words. The reply form's container is not one (dropForms
// removes the form from a reading; its heading alone is a label). A
// bare "Discussion", "Responses" or "Replies" is left alone: papers and
// reports title sections so. Empty elements before the heading (a named
// anchor) do not count.
func opensThread(n *html.Node) bool {
	if n.DataAtom == atom.Body {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return false
		case c.Type != html.ElementNode:
		case headingRank[c.DataAtom] > 0:
			text := strings.ToLower(collapseSpace(textOf(c)))
			return threadHeading.MatchString(text) && !bareSectionTitle[strings.TrimSuffix(text, ":")]
		case findFirst(c, func(t *html.Node) bool { return t.Type == html.TextNode && !blankText(t) }) != nil:
			return false
		}
	}
	return false
}

// bareSectionTitle are thread headings that also title a paper's or a
// report's sections.
var bareSectionTitle = map[string]bool{"discussion": true, "responses": true, "response": true, "replies": true}

// looseProse counts the words n holds outside its block children and
// links, when they make a paragraph (minLooseProse words or more): a
// story written as text and <br> line breaks straight into a <div>, as
// older CMSs and news aggregators print it. Fewer are a label, a byline
// or a caption, and count as nothing.
func looseProse(n *html.Node) int {
	w := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			w += countWords(c.Data)
		case c.Type == html.ElementNode && !blockAtoms[c.DataAtom] && c.DataAtom != atom.A && !hasBlockChild(c):
			w += wordCount(c)
		}
	}
	if w < minLooseProse {
		return 0
	}
	return w
}

const minLooseProse = 20
