package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webgate/webgate/internal/extract/hidden"
)

// cloneTree deep-copies n (attributes included) without parent links, so
// candidates can prune freely while the parsed page stays intact.
func cloneTree(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace}
	if len(n.Attr) > 0 {
		c.Attr = append([]html.Attribute(nil), n.Attr...)
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.AppendChild(cloneTree(ch))
	}
	return c
}

// wordCount counts whitespace-separated words in text nodes under n.
func wordCount(n *html.Node) int {
	if n.Type == html.TextNode {
		return countWords(n.Data)
	}
	if n.Type == html.ElementNode && dropAlways[n.DataAtom] {
		return 0
	}
	c := 0
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c += wordCount(ch)
	}
	return c
}

// childWords counts the words of n's children, also where n is an
// element wordCount reads nothing of (a <noscript>, a <button>).
func childWords(n *html.Node) int {
	w := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w += wordCount(c)
	}
	return w
}

// wordCountOver reports whether n holds more than limit words, counting
// no further than that: rules that look at small boxes ask it of every
// container on the way down, and a full count there would cost the
// page's text once per level of nesting.
func wordCountOver(n *html.Node, limit int) bool {
	var count func(n *html.Node) bool
	seen := 0
	count = func(n *html.Node) bool {
		if n.Type == html.TextNode {
			seen += countWords(n.Data)
			return seen > limit
		}
		if n.Type == html.ElementNode && dropAlways[n.DataAtom] {
			return false
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if count(c) {
				return true
			}
		}
		return false
	}
	return count(n)
}

// countWords counts runs of non-space characters, as strings.Fields
// splits, except in scripts that put no spaces between words: there a
// run of letters counts one word per so many characters (unspacedRun).
// A Chinese or Thai paragraph then weighs about what its translation
// would, instead of one "word" per sentence or phrase, and the word
// thresholds of the selection and the article rules hold for it too.
// It runs on every text node several times per page, so ASCII bytes
// (nearly all of them) are judged by a table instead of decoding each
// rune.
func countWords(s string) int {
	c, _ := countScriptWords(s)
	return c
}

// countScriptWords counts s's words as countWords does, and how many of
// them are in a script without spaces between words.
func countScriptWords(s string) (c, unspaced int) {
	in := false
	// The run of an unspaced script in progress: its characters so far,
	// its characters per word, and the byte where its last one ended (a
	// character of that script there continues it).
	run, per, runEnd := 0, 0, -1
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			i++
			if asciiSpace[b] {
				in = false
			} else if !in {
				in = true
				c++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		start := i
		i += size
		if unicode.IsSpace(r) {
			in = false
			continue
		}
		p := unspacedRun(r)
		if p == 0 {
			if !in {
				in = true
				c++
			}
			continue
		}
		if start != runEnd || p != per {
			run, per = 0, p
		}
		// The first character of each group of per adds a word.
		if run%per == 0 {
			c++
			unspaced++
		}
		run++
		in, runEnd = true, i
	}
	return c, unspaced
}

// unspacedRun returns, for a character of a script written without
// spaces between words, how many of its characters count as one word: two
// for Chinese ideographs and Japanese kana (a Chinese word averages under
// two characters), five for Thai, Lao, Khmer and Myanmar, whose words run
// to about four letters and whose vowel and tone marks are characters of
// their own. It returns 0 for every other character.
func unspacedRun(r rune) int {
	switch {
	case r < 0x0e00:
		return 0
	case r >= 0x2e80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
		return 2
	case (r < 0x1a00 || r >= 0xa900) && unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
		return 5
	}
	return 0
}

// asciiSpace marks the ASCII bytes unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// linkWords counts words inside <a> under n.
func linkWords(n *html.Node) int {
	if isElem(n, atom.A) {
		return wordCount(n)
	}
	c := 0
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode {
			c += linkWords(ch)
		}
	}
	return c
}

func findBody(doc *html.Node) *html.Node {
	return findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Body) })
}

// cleanedPage is webgate's own recall-oriented candidate: the page body
// minus everything a reader's eye skips (navigation, banners, footers,
// sidebars, forms, hidden and decorative elements), scoped to <main> when
// the page declares one. Libraries built for articles keep only the densest
// block of prose; forums, product pages and listings spread their content
// over many sibling blocks, which this keeps.
func cleanedPage(doc *html.Node) *html.Node {
	body := findBody(doc)
	if body == nil {
		return nil
	}
	root := cloneTree(body)
	total := wordCount(root)
	if total == 0 {
		return nil
	}
	pruneFurniture(root, total)
	pruneLinkLists(root)
	dedupeBlocks(root)
	// A consent notice that no consent manager's name or dialog marks
	// (isOverlay), told by its words, as on a story.
	dropConsent(root)
	if m := mainLandmark(root); m != nil && wordCount(m)*4 >= wordCount(root) {
		root = m
	}
	out := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	if root.Parent != nil {
		root.Parent.RemoveChild(root)
	}
	if isElem(root, atom.Body) {
		adopt(out, root)
	} else {
		out.AppendChild(root)
	}
	return out
}

// pruneFurniture removes boilerplate elements under root. An element that
// holds more than half the page's words is never removed by class or
// landmark alone: themes put "sidebar" or "nav" in wrapper classes.
// Overlays and the site footer (isOverlay) go at any size, and so does a
// site header that is all menu (headerMenu).
func pruneFurniture(root *html.Node, total int) {
	panels := hidden.FindPanels(root)
	var walk func(n *html.Node, sectioned bool)
	walk = func(n *html.Node, sectioned bool) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			switch c.Type {
			case html.CommentNode, html.DoctypeNode:
				n.RemoveChild(c)
			case html.ElementNode:
				if dropAlways[c.DataAtom] || isHidden(c) && !revealedLater(c, panels) && !(displayNone(c) && wordCount(c)*2 >= total) {
					n.RemoveChild(c)
				} else if isFurniture(c) && (wordCount(c)*2 < total || headerMenu(c)) || isOverlay(c, sectioned) {
					n.RemoveChild(c)
				} else {
					walk(c, sectioned || sectioning[c.DataAtom])
				}
			}
			c = next
		}
	}
	walk(root, false)
}

// headerMenu reports a site header (a <header>, or an element siteHeader
// names) whose words are nearly all link text: a mega menu, whose entries
// carry a line of description inside each link, can hold more of the page's
// words than a short story. A header of prose (a theme's story header) and
// link lists under other names (a listing in a "sidebar" wrapper) are not
// judged by it.
func headerMenu(n *html.Node) bool {
	return (n.DataAtom == atom.Header || siteHeader(n)) && linkWords(n)*10 >= wordCount(n)*9
}

// revealedLater reports a hidden element that is the page's content,
// shown by a script once the page loads: React's streamed server
// rendering parks each finished part of the page in <div hidden
// id="S:n"> until its script moves it into place (prepareDoc moves the
// segments whose instructions it finds; this keeps the others).
//
// So is a block hidden with display:none or the hidden attribute that
// holds half the page's words: content-locking and deferred-rendering
// widgets hide the page until a script runs; no popup or closed menu is
// half a page. (visibility:hidden and aria-hidden are left out: Readability
// drops such blocks, and Mozilla's test pages expect it.)
//
// Collapsed sections are content too: an accordion panel, a "read more"
// expander, a tab or a FAQ answer is hidden only until the reader opens
// it with a control beside it. hidden.Panels says which those are, as it
// does when hidden content is stripped (hidden.Strip), so a panel the
// stripping keeps is not dropped here. Menus that collapse are still
// dropped as furniture by their other names (navbar-collapse).
func revealedLater(n *html.Node, panels hidden.Panels) bool {
	if hasAttr(n, "hidden") && streamedSegmentID(attr(n, "id")) {
		return true
	}
	return panels.Disclosed(n)
}

// displayNone reports an element hidden by the hidden attribute or by
// display:none, the way scripts that reveal content later hide it
// (visibility:hidden and aria-hidden are not that).
func displayNone(n *html.Node) bool {
	return hasAttr(n, "hidden") || strings.Contains(strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", ""), "display:none")
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func isFurniture(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Nav, atom.Aside, atom.Footer:
		return true
	case atom.Header:
		// Article headers carry the title and byline; site headers do not
		// hold an <h1> on content pages, or hold it inside a logo link.
		return !holdsH1(n)
	}
	return isBoilerRole(n) || looksBoiler(n) || screenReaderOnly(n) || siteHeader(n) && !holdsH1(n)
}

// siteHeader reports an element named as the page's header, as pages
// before HTML5 named it (<div id="header">, "site-header"): the <header>
// of those pages, judged as isFurniture judges that.
func siteHeader(n *html.Node) bool {
	return classOrID(n, siteHeaderNames)
}

var siteHeaderNames = wordSet(`header site-header siteheader site_header global-header globalheader top-header topheader`)

// screenReaderOnly reports text hidden from the eye by a utility class:
// kept for screen readers (hidden.ScreenReaderClass: "visuallyhidden",
// "screen-reader-text", "sr-only", Drupal's "element-invisible": labels
// such as "opens in a new window", "Skip to navigation" or a second copy
// of a price; looksBoiler misses the first, one word, and lets the
// second through for its "text"), or not shown at all ("d-none").
func screenReaderOnly(n *html.Node) bool {
	cls := strings.Fields(attr(n, "class"))
	for _, c := range cls {
		if hidden.ScreenReaderClass(c) {
			return true
		}
		switch strings.ToLower(c) {
		case "d-none":
			// Bootstrap's display:none utility (Stack Exchange hides
			// its machine-readable timestamps with it), unless a
			// breakpoint class shows the element again ("d-none
			// d-md-block"). Foundation's "hide" is rejected: shops
			// reveal whole product grids from it with a script.
			for _, o := range cls {
				if strings.HasPrefix(o, "d-") && o != "d-none" {
					return false
				}
			}
			return true
		}
	}
	return false
}

// mainLandmark returns the page's main content region: its one <main>
// (or role main) or, on a page that declares none, its one element whose
// id or class is "main". Pages written before HTML5 named the region so
// (<div id="main">, <td class="main">); HTML5 named <main> after them.
// A list so named is a menu, not the region. Two candidates name none.
func mainLandmark(root *html.Node) *html.Node {
	if m, n := onlyElement(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Main || strings.EqualFold(attr(n, "role"), "main")
	}); n > 0 {
		return m
	}
	m, _ := onlyElement(root, func(n *html.Node) bool {
		return classOrID(n, mainNames) && !listAtoms[n.DataAtom]
	})
	return m
}

var mainNames = wordSet(`main`)

// listAtoms are the elements a menu is built of.
var listAtoms = map[atom.Atom]bool{atom.Ul: true, atom.Ol: true, atom.Nav: true, atom.Menu: true, atom.Li: true}

// onlyElement returns the one outermost element under root that match
// accepts, and how many there are; with more than one it returns nil.
func onlyElement(root *html.Node, match func(*html.Node) bool) (*html.Node, int) {
	var found []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			found = append(found, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if len(found) == 1 {
		return found[0], 1
	}
	return nil, len(found)
}

// classOrID reports whether one of n's class tokens, or its id, is one of
// names (lowercase).
func classOrID(n *html.Node, names map[string]bool) bool {
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != "class" && a.Key != "id" {
			continue
		}
		for tok := range strings.FieldsSeq(a.Val) {
			if names[strings.ToLower(tok)] {
				return true
			}
		}
	}
	return false
}

// pruneLinkLists removes blocks that are nothing but links: menus, tag
// clouds, "more stories" rails and footers without semantic markup. A block
// qualifies when it has at least three links and nearly all of its words
// are link text; product grids survive because prices, ratings and
// descriptions are plain text beside the links. Counts are gathered in one
// bottom-up pass so deep pages stay linear.
func pruneLinkLists(root *html.Node) {
	type counts struct{ words, linkWords, links int }
	stats := map[*html.Node]counts{}
	var gather func(n *html.Node, inLink bool) counts
	gather = func(n *html.Node, inLink bool) counts {
		var c counts
		switch n.Type {
		case html.TextNode:
			c.words = countWords(n.Data)
			if inLink {
				c.linkWords = c.words
			}
			return c
		case html.ElementNode:
			if n.DataAtom == atom.A {
				c.links++
				inLink = true
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			cc := gather(ch, inLink)
			c.words += cc.words
			c.linkWords += cc.linkWords
			c.links += cc.links
		}
		if n.Type == html.ElementNode {
			stats[n] = c
		}
		return c
	}
	gather(root, false)
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				switch c.DataAtom {
				case atom.Ul, atom.Ol, atom.Div, atom.Section, atom.Table, atom.P, atom.Dl, atom.Span:
					// Long link texts are headlines of a listing, which is
					// content on a listing page; short ones are navigation.
					st := stats[c]
					if st.words > 0 && st.links >= 3 && st.linkWords*10 >= st.words*9 && st.linkWords <= st.links*4 {
						n.RemoveChild(c)
						c = next
						continue
					}
				}
				walk(c)
			}
			c = next
		}
	}
	walk(root)
}

// dedupeBlocks drops a leaf block whose text already appeared earlier in
// the page: carousels, sticky headers and responsive layouts repeat the
// same captions and labels, which a reader sees once.
func dedupeBlocks(root *html.Node) {
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				if blockAtoms[c.DataAtom] && !hasBlockChild(c) {
					t := collapseSpace(textOf(c))
					if countWords(t) >= 4 {
						if seen[t] {
							n.RemoveChild(c)
							c = next
							continue
						}
						seen[t] = true
					}
				} else {
					walk(c)
				}
			}
			c = next
		}
	}
	walk(root)
}

// hasBlockChild reports whether a block element sits anywhere under n.
func hasBlockChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (blockAtoms[c.DataAtom] || c.FirstChild != nil && hasBlockChild(c)) {
			return true
		}
	}
	return false
}

// layoutName reports whether the words of one class token (or id) name
// the page's arrangement or a CSS utility rather than a piece of
// furniture, although they contain a furniture word:
//   - "layout-sidebar-left" and "row-offcanvas" wrap the sidebar and the
//     content together, and "side-by-side" sets two columns;
//   - "search-results" and "search-page" hold a listing's items;
//   - "overflow-hidden" clips rather than hides, also behind a prefix or
//     a variant ("vds-overflow_hidden", "md:overflow-x-hidden");
//   - "hidden-xs" hides only on small screens, "hidden-900" below 900
//     pixels;
//   - "icon-side-right" places an icon, and an accordion's "drawer" or
//     "dropdown" is its panel;
//   - Drupal marks every field whose label it does not print
//     "field--label-hidden" (Drupal 7: "field-label-hidden";
//     "field--label-visually_hidden" for a label kept for screen
//     readers): the label is hidden, and the field is the text, often
//     the story's standfirst or body.
func layoutName(ws []string) bool {
	if len(ws) < 2 {
		return false
	}
	switch ws[0] {
	case "overflow", "layout":
		return true
	}
	for i, w := range ws[:len(ws)-1] {
		switch {
		case (w == "overflow" || strings.HasSuffix(w, ":overflow")) && overflowValues[ws[i+1]]:
			// A CSS utility behind a design system's prefix or a
			// breakpoint ("vds-overflow_hidden", "md:overflow-x-hidden").
			return true
		case w == "hidden" && (breakpoints[ws[i+1]] || strings.ContainsAny(ws[i+1], "0123456789")):
			// "hidden-900" hides below a width; "hidden-1rq27kw" is a
			// generated media-query class that hides one of a page's
			// copies rendered per screen size (Fresnel's SSR variants).
			return true
		case w == "search" && (ws[i+1] == "results" || ws[i+1] == "result" || ws[i+1] == "page"):
			return true
		case w == "label" && (ws[i+1] == "hidden" || ws[i+1] == "visually"):
			return true
		case w == "side" && ws[i+1] == "by":
			return true // "side-by-side" lays out two columns
		case placedParts[w] && ws[i+1] == "side":
			return true // "kt-accodion-icon-side-right" places an icon
		case w == "accordion" && slices.ContainsFunc(ws[i+1:], func(v string) bool { return v == "drawer" || v == "dropdown" }):
			return true // an accordion's panel ("accordion-item__dropdown") is its text
		case w == "row" && ws[i+1] == "offcanvas":
			return true // Bootstrap's off-canvas layout row holds the content too
		}
	}
	return false
}

// placedParts are parts of a component whose side a name places.
var placedParts = wordSet(`icon image img media btn button text`)

var overflowValues = wordSet(`hidden x y auto clip scroll`)

var breakpoints = wordSet(`xs sm md lg xl xxl mobile tablet desktop`)
