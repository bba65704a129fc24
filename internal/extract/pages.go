package extract

import (
	"maps"
	nurl "net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A product page's main content is the product: its name, description,
// details and specifications. Around it, shops render what the cleaned
// page cannot tell from content by shape alone: customer reviews (often
// longer than the description), seller feedback, and rails of other
// products ("you may also like", upsells, recently viewed). Their
// containers are named after what they hold, by the shop themes and by the
// review widgets shops embed, so on pages that declare a single product
// those names are enough to drop them.

// productAsideWords are class/id words of the parts of a product page that
// are not the product. "related" is furniture on every page, but
// "related-products" escapes that rule by its content word; carousels on a
// product page hold its photos (no text) or other products. They are matched against the words of each class
// token and of the id, split on "-", "_" and camelCase humps.
var productAsideWords = wordSet(`review reviews reviewer ratings feedback
	upsell upsells crosssell crosssells recommendations recently viewed similar related carousel
	yotpo okendo jdgm judgeme stamped trustpilot bazaarvoice reevoo feefo`)

// pruneProductAsides removes reviews and product rails from the cleaned
// page of a product page. An element holding the page's <h1> is never
// removed: a theme may name the whole product block after its rating.
func pruneProductAsides(root *html.Node) {
	removeElements(root, func(c *html.Node) bool { return isProductAside(c) && !holdsH1(c) })
}

func isProductAside(n *html.Node) bool {
	if t := strings.ToLower(attr(n, "itemtype")); strings.HasSuffix(t, "/review") || strings.HasSuffix(t, "/aggregaterating") {
		return true
	}
	if p := strings.ToLower(attr(n, "itemprop")); p == "review" || p == "aggregaterating" {
		return true
	}
	return classWords(n, productAsideWords)
}

// nameWords splits a class name or id into lower-cased words at "-", "_",
// ":", "." and lower-to-upper case changes ("okeReviews-reviewsWidget" is
// oke, reviews, reviews, widget).
func nameWords(name string) []string {
	var out []string
	eachNameWord(name, func(w []byte) bool {
		out = append(out, string(w))
		return false
	})
	return out
}

// elsewhere reports that both article extractors found their text outside
// the cleaned page: under a fifth of their words are among its words. The
// cleaned page dropped that text as hidden or as furniture; on a page
// that is no article, what readability and trafilatura latch onto there is
// a popup (a rewards scheme, a shipping banner, a cookie notice), not the
// page. A cleaned page of under 50 words is too little to trust instead.
//
// Chinese and Japanese are compared character by character (charTokens),
// as other scripts word by word: a page's story shares the words its
// shop's grid is written in, and so the characters, but hardly a pair of
// characters in a row. Compared by pairs (compareTokens), in ideographs
// (-eval.foreign.script=han) a market's story lay "elsewhere" than its
// product grid, which won (WCXB-dev 4852, 0.972 in Latin letters, 0.373).
func elsewhere(read, traf, clean *html.Node, wc int) bool {
	if wc < 50 || read == nil && traf == nil {
		return false
	}
	have := map[string]int{}
	for _, t := range charTokens(textOf(clean)) {
		have[t]++
	}
	for _, cand := range []*html.Node{read, traf} {
		if cand == nil {
			continue
		}
		toks := charTokens(textOf(cand))
		if len(toks) == 0 {
			continue
		}
		left := maps.Clone(have)
		in := 0
		for _, t := range toks {
			if left[t] > 0 {
				left[t]--
				in++
			}
		}
		if in*5 >= len(toks) {
			return false
		}
	}
	return true
}

// agreedReading reports a page whose content the two article extractors
// agree on and the cleaned page adds no prose to: readability's and
// trafilatura's readings share four fifths of their words, trafilatura's
// holds at least minAgreedParagraphs paragraphs of prose (storyParagraphs:
// a block of lines parted by <br> counts each), and the paragraphs of
// prose the cleaned page has beyond it hold fewer than maxExtraProse
// words. What the cleaned page adds is then link lists, dates and labels:
// the navigation, teaser columns and footer of a template that names its
// furniture in words the cleaner does not know ("hauptnavigation",
// "rechte-spalte", "fuss"). An older news or blog page that declares no
// article is the common case; there the cleaned page doubled the story
// with the site's chrome. Words are compared as compareTokens splits
// them.
//
// A declared article is a story: there the two readings' agreement, or
// one lying inside the other (below), is enough.
//
// A page that declares nothing (kindOther) needs less when it may be a
// story:
//   - At a headline's address (storySlug, never a site's front) the two
//     readings' agreement is enough: news and blog software makes the
//     address from the title, and a short news item has no paragraphs to
//     count. Nor need they agree there when one reading's story lies
//     inside the other's (within): trafilatura's adds the standfirst, the
//     byline or the author box to readability's (undeclared AEB 0.9662
//     to 0.9673, WCXB-dev articles 0.9498 to 0.9501), or readability's
//     adds a box of related reading to trafilatura's, when it holds half
//     the cleaned page (mainContent then keeps readability's; undeclared
//     AEB 0.9673 to 0.9694, WCXB-dev articles 0.9521 to 0.9528, as
//     published WCXB-dev 0.8704 to 0.8706). A recipe's introduction is a
//     small part of its page.
//   - Elsewhere, unless the page is the front of a site or a section, the
//     prose beside the story may be up to a fifth of its length: one
//     teaser's summary or a short author note beside a news story of
//     short paragraphs.
//   - A story of minStoryParagraphs paragraphs does not count the
//     summaries of teaser cards beside it (isTeaserCard: a headline
//     linking to another page over a sentence or two), the "recommended
//     for you" stream under a news story, where a shop category's
//     introduction of a paragraph or two keeps its products' cards; nor
//     its comment sections (isCommentSection), which dropMinorComments
//     keeps when they outweigh the story. With the fifth above,
//     undeclared Mozilla pages 0.9604 to 0.9751.
//   - A story agreed on more firmly may have more: when the two readings
//     share nine tenths of their words and trafilatura's holds
//     minStoryParagraphs paragraphs of minStoryParagraph words, the
//     cleaned page may add paragraphs of 20 words or more up to twice the
//     story's length: the teasers with summaries, the author box and the
//     comments around a story whose page declares nothing.
//
// The declared sets score as before with each of these, but for one
// listing (storyExtraShare). Forums and shops keep the stricter rule: a
// thread's other posts and a product's description are such prose; so do
// home pages, where both extractors may read the featured story.
func agreedReading(kind pageKind, base *nurl.URL, read, traf, clean *html.Node) bool {
	if read == nil || traf == nil || clean == nil {
		return false
	}
	rt, tt := compareTokens(textOf(read)), compareTokens(textOf(traf))
	shared, most := sharedTokens(rt, tt), max(len(rt), len(tt))
	story := kind == kindArticle || kind == kindOther && storySlug(base)
	if story && (within(rt, shared) || within(tt, shared) && wordCount(read)*2 >= wordCount(clean)) {
		return true
	}
	if shared*5 < most*4 {
		return false
	}
	if story {
		return true
	}
	paragraphs, long := 0, 0
	for _, w := range storyParagraphs(traf) {
		paragraphs++
		if w >= minStoryParagraph {
			long++
		}
	}
	if paragraphs < minAgreedParagraphs {
		return false
	}
	pairs := wordPairs(tt)
	extra, extraParagraphs := 0, 0
	mayBeStory := kind == kindOther && !sectionFront(base)
	beside := map[*html.Node]bool{}
	if mayBeStory && paragraphs >= minStoryParagraphs {
		for _, c := range append(teaserCards(clean, false), commentBoxes(clean)...) {
			beside[c] = true
		}
	}
	for _, b := range proseBlocks(clean, 10) {
		if len(beside) > 0 && inAny(b, beside) {
			continue
		}
		if !pairs.holdHalf(compareTokens(textOf(b))) {
			w := wordCount(b)
			extra += w
			if w >= 20 {
				extraParagraphs += w
			}
		}
	}
	if extra < maxExtraProse || mayBeStory && extra*storyExtraShare < len(tt) {
		return true
	}
	return mayBeStory && shared*10 >= most*9 && long >= minStoryParagraphs && extraParagraphs < 2*len(tt)
}

// within reports that a reading of tokens a, sharing shared tokens with
// another, holds a story (minNetWords) that lies inside the other: nine
// tenths of its tokens are shared.
func within(a []string, shared int) bool {
	return len(a) >= minNetWords && shared*10 >= len(a)*9
}

// readingWithin reports that reading a (minNetWords or more) lies inside
// reading b.
func readingWithin(a, b *html.Node) bool {
	if a == nil || b == nil {
		return false
	}
	at := compareTokens(textOf(a))
	return within(at, sharedTokens(at, compareTokens(textOf(b))))
}

// storyAmidLines reports a reading of trafilatura's that holds
// readability's story and, beyond it, only short lines: the headline, a
// date, a source, a view count, labels, one-line comments, a poll's
// question. Trafilatura takes in a layout table's whole row (the story's
// cell with the cells beside it) where readability keeps the story's
// block; the lines around it are the table's chrome, and the story is
// the reading. Readability's block must be a story (minAgreedParagraphs
// paragraphs of prose), nearly all of it in trafilatura's reading, and
// the rest of that reading must hold no paragraph of prose and fewer
// words than the story, so a listing whose items are sentences, or many
// short items, stays trafilatura's.
func storyAmidLines(read, traf *html.Node) bool {
	if read == nil || traf == nil || len(proseBlocks(read, 20)) < minAgreedParagraphs {
		return false
	}
	rt := compareTokens(textOf(read))
	if sharedTokens(rt, compareTokens(textOf(traf)))*10 < len(rt)*9 {
		return false
	}
	pairs := wordPairs(rt)
	extra := 0
	for _, b := range leafBlocks(traf) {
		if pairs.holdHalf(compareTokens(textOf(b))) {
			continue
		}
		if isProse(b, 15) {
			return false
		}
		extra += wordCount(b)
	}
	return extra < wordCount(read)
}

const (
	// minAgreedParagraphs: a teaser, a product card or one forum post
	// is a paragraph; a story is more. With one, the intro of a listing
	// or collection that both extractors read stood for the whole page
	// (WCXB-dev: six pages lost up to 0.74); three missed four pages
	// whose two paragraphs were all the content.
	minAgreedParagraphs = 2
	// maxExtraProse: a caption or an address line beside the story is
	// not content the story's reading missed; a second post or an item
	// description is. On a page that may be a story it may be up to a
	// fifth of the story (storyExtraShare): undeclared Mozilla pages
	// (-eval.undeclared) 0.9604 to 0.9670; as published, one WCXB-dev
	// listing of a story with a teaser beside it loses 0.017.
	maxExtraProse   = 30
	storyExtraShare = 5
	// minStoryParagraphs paragraphs of minStoryParagraph words make a
	// story firm enough to outweigh prose beside it: a product's
	// description or a listing's intro is one or two.
	minStoryParagraphs = 3
	minStoryParagraph  = 40
)

// storyParagraphs returns the word counts of root's paragraphs of prose
// (proseBlocks of 20 words). A block whose <br> line breaks part two or
// more stretches of 20 words counts each stretch: older sites, and
// trafilatura's reading of them, write a story as one block of lines.
func storyParagraphs(root *html.Node) []int {
	var out []int
	for _, b := range proseBlocks(root, 20) {
		n := len(out)
		for _, w := range lineWords(b) {
			if w >= 20 {
				out = append(out, w)
			}
		}
		if len(out)-n < 2 {
			out = append(out[:n], wordCount(b))
		}
	}
	return out
}

// lineWords returns the word counts of the stretches of n's text between
// <br> elements.
func lineWords(n *html.Node) []int {
	counts := []int{0}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				counts[len(counts)-1] += countWords(c.Data)
			case c.Type != html.ElementNode || dropAlways[c.DataAtom]:
			case c.DataAtom == atom.Br:
				counts = append(counts, 0)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return counts
}

// proseBlocks returns the leaf blocks under root that read as prose
// (isProse). A story's paragraph has 20 words or more; the cleaned page's
// extra text counts from 10, so that short item descriptions count as
// content missed.
func proseBlocks(root *html.Node, minWords int) []*html.Node {
	var out []*html.Node
	for _, b := range leafBlocks(root) {
		if isProse(b, minWords) {
			out = append(out, b)
		}
	}
	return out
}

// isProse reports a block of at least minWords words, under a quarter of
// them in links.
func isProse(b *html.Node, minWords int) bool {
	w := wordCount(b)
	return w >= minWords && linkWords(b)*4 < w
}

// furnitureOnlyWords is how many words a page may show outside its
// landmark furniture and still have no content: a skip link, a "loading"
// line, a search box's label, an accessibility note.
const furnitureOnlyWords = 20

// furnitureOnly reports whether every word of the body but a handful sits
// in landmark furniture: top-level <header> and <footer> (banner and
// contentinfo), <nav>, <aside>, and their ARIA roles, and dialogs. Shops
// and apps that build their content with JavaScript still render that
// chrome on the server; what the extractors find there is the footer's
// link list, which is not the page's content. A landmark that holds
// <main> or an <article> is not furniture: an unclosed <aside> can
// swallow the whole page.
func furnitureOnly(body *html.Node) bool {
	outside, inside := 0, 0
	var walk func(n *html.Node, sectioned bool)
	walk = func(n *html.Node, sectioned bool) {
		if outside >= furnitureOnlyWords {
			return
		}
		switch n.Type {
		case html.TextNode:
			outside += countWords(n.Data)
			return
		case html.ElementNode:
			if dropAlways[n.DataAtom] {
				return
			}
			if isLandmarkFurniture(n, sectioned) && !holdsMain(n) {
				inside += wordCount(n)
				return
			}
			sectioned = sectioned || sectioning[n.DataAtom]
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, sectioned)
		}
	}
	walk(body, false)
	return outside < furnitureOnlyWords && inside > outside
}

// isLandmarkFurniture reports whether n is a banner, navigation,
// complementary, contentinfo or dialog region. <header> and <footer> are
// banner and contentinfo only outside sectioning content; inside an
// <article> or <section> they head and close that item (HTML-AAM).
func isLandmarkFurniture(n *html.Node, sectioned bool) bool {
	switch attr(n, "role") {
	case "banner", "navigation", "complementary", "contentinfo", "dialog":
		return true
	case "":
	default:
		return false
	}
	switch n.DataAtom {
	case atom.Nav, atom.Aside, atom.Dialog:
		return true
	case atom.Header, atom.Footer:
		return !sectioned
	}
	return false
}

// holdsMain reports whether the main content or an article sits under n.
func holdsMain(n *html.Node) bool {
	return findFirst(n, func(c *html.Node) bool { return c != n && isMainOrArticle(c) }) != nil
}

// isMainOrArticle reports whether n is the page's main landmark or an
// article.
func isMainOrArticle(n *html.Node) bool {
	return isElem(n, atom.Main) || isElem(n, atom.Article) || strings.EqualFold(attr(n, "role"), "main")
}

// charTokens splits s into wordTokens, and each run of a script written
// without spaces (unspacedRun) into its characters; letters and digits
// of another script within such a run stay a token.
func charTokens(s string) []string { return unspacedTokens(s, false) }
