// Package hidden removes from a parsed HTML page what a person viewing it
// would not see (comments, hidden and off-screen elements, invisible
// text), so that text planted for a model alone does not reach it.
// Extraction runs it when asked to (extract.Options.StripHidden, set by
// the content guard through fetch.Request.StripHidden).
package hidden

import (
	"slices"
	"strings"
	"unicode"

	"github.com/tdewolff/parse/v2/css"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Strip removes from a parsed HTML document what a person viewing
// the page would not see, so that text planted for a model alone does
// not reach it. It returns the number of nodes removed. Removed are:
//
//   - comments;
//   - <template> elements, never rendered;
//   - elements with the hidden attribute (but not hidden="until-found",
//     which the browser reveals to find-in-page);
//   - elements whose inline style hides them and all they hold:
//     display:none, opacity near 0, zero width or height with overflow
//     hidden, clipping to nothing (clip: rect(0 0 0 0), clip-path:
//     inset(50%)), scale(0), and positioning or text-indent far
//     off-screen;
//   - text whose inherited style makes it invisible: visibility hidden or
//     collapse, a font size of 1px or less, a transparent colour, or the
//     colour of the background painted behind it. These properties are
//     inherited, and a descendant that sets them again is seen (a
//     visibility:visible child of a visibility:hidden parent is shown, as
//     a browser shows it): only the text that stays invisible goes, and
//     an element goes whole when nothing in it is left to see;
//   - elements with the class names of the visually-hidden pattern
//     (sr-only, visually-hidden, screen-reader-text and kin), and the
//     utility classes that mean display:none (hidden, d-none, invisible)
//     when no responsive variant on the same element shows it again.
//
// Not removed, whatever hides it, is an element that holds at least half
// of the page's words (on pages of minWrapperWords or more, at most
// maxWrappers of them): pages hide their whole content
// wrapper until their scripts run (opacity 0 for a fade-in, visibility
// hidden until the fonts load, a "hide" class until hydration, React's
// streamed segments) and every reader sees it then. So is the largest
// element hidden whole when it holds more words than the page shows
// (wrapper). Hidden elements inside it are judged as usual.
//
// Nor is a panel the page discloses (Panels): a tab panel
// (role="tabpanel"), an element a control names in aria-controls (the
// WAI-ARIA Authoring Practices' disclosure, accordion and tabs patterns),
// one whose class or id names a folding panel, or whose first element is
// one. Such a panel is kept, and opened (openPanel). A collapsed FAQ
// answer, a closed accordion section or an inactive tab is hidden until
// the reader opens it with a control the page shows beside it: the
// reader can see it, and the page's author
// meant it as content (on WCXB-dev, stripping them lost FAQ answers,
// specifications and tabs of product and service pages). Hidden
// elements inside a panel are judged as usual.
//
// Styles from <style> sheets and scripts are not evaluated, so content
// hidden that way stays (see docs/security.md).
func Strip(doc *html.Node) int {
	removed := 0
	pageWords := textWords(doc)
	hiddenWords, largest := hiddenBlocks(doc)
	wrappers := 0
	panels := FindPanels(doc)
	remove := func(n *html.Node) {
		n.Parent.RemoveChild(n)
		removed++
	}
	// walk strips n's children under the inherited context cx and
	// reports whether anything visible is left in n.
	var walk func(n *html.Node, cx textContext) bool
	walk = func(n *html.Node, cx textContext) bool {
		visible := false
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			switch c.Type {
			case html.TextNode:
				if strings.TrimSpace(c.Data) != "" {
					if cx.hidden() {
						remove(c)
					} else {
						visible = true
					}
				}
			case html.CommentNode:
				remove(c)
			case html.ElementNode:
				switch c.DataAtom {
				case atom.Html, atom.Body:
					// Never removed, and only their colours count: pages
					// hide <body> until their scripts run, and show it
					// then.
					st := styleOf(c)
					ccx := cx.inherit(c, style{"color": st["color"], "background-color": st["background-color"], "background-image": st["background-image"]})
					visible = walk(c, ccx) || visible
				case atom.Head:
					walk(c, textContext{})
				case atom.Script, atom.Style, atom.Title, atom.Meta, atom.Link, atom.Noscript:
					// Never removed: metadata and structured data live
					// there, and scripts and styles are dropped by
					// extraction anyway. <noscript> is not rendered with
					// scripts on and holds crawler-readable content.
				default:
					st := styleOf(c)
					hides := hiddenElement(c, st)
					// (Text already invisible above is not counted again:
					// the check stays linear in the page.)
					if (hides || hidesText(st) && !cx.invisible) && c.DataAtom != atom.Template && wrappers < maxWrappers &&
						pageWords >= minWrapperWords && wrapper(textWords(c), hides, pageWords, pageWords-hiddenWords, largest) {
						// The page's content wrapper, hidden until a
						// script shows it: seen, as the page is.
						wrappers++
						hides, st = false, shown(st)
					}
					if hides && panels.Disclosed(c) {
						hides, st = false, shown(st)
						openPanel(c)
					}
					if hides {
						if screenReaderText(c) {
							showTwins(c)
						}
						remove(c)
						break
					}
					ccx := cx.inherit(c, st)
					v := walk(c, ccx)
					if !v && ccx.hidden() {
						remove(c) // nothing in it to see (an image, an input)
						break
					}
					visible = visible || v || !ccx.hidden() && rendersItself[c.DataAtom]
				}
			default:
				if c.Type == html.DocumentNode {
					visible = walk(c, cx) || visible
				}
			}
			c = next
		}
		return visible
	}
	walk(doc, textContext{})
	return removed
}

// maxControlled bounds the ids collected from aria-controls: a page has
// one per control, a few hundred at most.
const maxControlled = 4096

// controlledIDs returns the ids that the page's controls name in
// aria-controls (an ID reference list, WAI-ARIA 1.2 section 6.7): buttons,
// links, summaries and tabs, whatever element they are made of. A text
// field's or a combobox's aria-controls names its list of suggestions,
// which is no content, and is left out.
func controlledIDs(doc *html.Node) map[string]bool {
	ids := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && len(ids) < maxControlled; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if v := attrOf(c, "aria-controls"); v != "" && c.DataAtom != atom.Input && c.DataAtom != atom.Textarea && c.DataAtom != atom.Select &&
				!strings.EqualFold(attrOf(c, "role"), "combobox") {
				for _, id := range strings.Fields(v) {
					ids[id] = true
				}
			}
			walk(c)
		}
	}
	walk(doc)
	return ids
}

// Panels answers, for one page, which hidden elements are panels a
// reader opens (Disclosed). Strip keeps those panels, and extraction,
// which drops hidden elements on its own, keeps them too: both ask here,
// so the two cannot disagree about what a reader can open.
type Panels struct {
	controlled map[string]bool
}

// FindPanels collects what Disclosed needs from the page under root: the
// ids its disclosure controls name.
func FindPanels(root *html.Node) Panels {
	return Panels{controlled: controlledIDs(root)}
}

// Disclosed reports a hidden element that a control of the page opens: a
// tab panel, an element named in a disclosure control's aria-controls,
// or one whose class or id names a folding panel (panelWords); itself or
// as its first element child (a collapse wrapper around the panel, as
// Chakra's and Bootstrap's accordions set it). A menu, a list box, a
// dialog or a tooltip is no such panel: menus open from controls too. Nor
// is anything in the site's navigation, banner or footer (inChrome).
func (p Panels) Disclosed(n *html.Node) bool {
	return (p.panel(n) || p.panel(firstElement(n))) && !inChrome(n)
}

// firstElement is n's first element child, or nil.
func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

// inChrome reports an element inside the site's navigation, banner or
// footer: there a control opens a submenu or the site's own notices, not
// the page's content (the U.S. Web Design System's menus are <ul hidden>
// lists that a <button aria-controls> in the <nav> opens). A <header> or
// <footer> inside an article, aside, main or section is that part's own,
// no landmark (HTML-AAM, "header" and "footer"), and is not chrome.
func inChrome(n *html.Node) bool {
	edge := false
	for a := n; a != nil; a = a.Parent {
		if a.Type != html.ElementNode {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(attrOf(a, "role"))) {
		case "navigation", "menu", "menubar", "banner", "contentinfo":
			return true
		}
		switch a.DataAtom {
		case atom.Nav, atom.Menu:
			return true
		case atom.Header, atom.Footer:
			edge = true
		case atom.Article, atom.Aside, atom.Main, atom.Section:
			edge = false
		}
	}
	return edge
}

func (p Panels) panel(e *html.Node) bool {
	if e == nil {
		return false
	}
	switch e.DataAtom {
	case atom.Template, atom.Dialog, atom.Nav, atom.Menu:
		return false
	}
	switch strings.ToLower(strings.TrimSpace(attrOf(e, "role"))) {
	case "tabpanel":
		return true
	case "menu", "menubar", "listbox", "dialog", "alertdialog", "tooltip", "navigation":
		return false
	}
	id := attrOf(e, "id")
	return id != "" && p.controlled[id] || namesPanel(attrOf(e, "class")) || namesPanel(id)
}

// openPanel shows a disclosed panel as the reader who opens it sees it: the
// attributes that hid it go (hidden, aria-hidden, its inline style), so
// extraction, which drops hidden elements on its own and whose libraries
// (trafilatura, readability) do not ask Panels, reads the panel that
// Strip kept. Its class stays: extraction judges blocks by their names.
func openPanel(n *html.Node) {
	dropAttrs(n, "hidden", "aria-hidden", "style")
}

// dropAttrs removes n's attributes named keys (case-blind).
func dropAttrs(n *html.Node, keys ...string) {
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool {
		return slices.ContainsFunc(keys, func(k string) bool { return strings.EqualFold(a.Key, k) })
	})
}

// panelWords name a folding panel in a class or id ("faq__answer",
// "accordion__content", "chakra-collapse", "Collapsible__contentOuter",
// "a-expander-content", "tab-pane", "read-more-text", Bootstrap's
// "collapseOne"). Not "toggle" or "dropdown": menus are named so.
var panelWords = map[string]bool{"accordion": true, "collapse": true, "collapsed": true, "collapsible": true,
	"expander": true, "expandable": true, "expand": true, "faq": true, "answer": true, "readmore": true,
	"tabpanel": true, "pane": true}

// namesPanel reports a class list or id with a word of panelWords; words
// are split at punctuation and at a lower-to-upper case change.
func namesPanel(class string) bool {
	word := make([]rune, 0, 16)
	found := false
	flush := func() {
		if len(word) > 0 && panelWords[strings.ToLower(string(word))] {
			found = true
		}
		word = word[:0]
	}
	prevLower := false
	for _, r := range class {
		switch {
		case unicode.IsLetter(r):
			if unicode.IsUpper(r) && prevLower {
				flush()
			}
			word = append(word, r)
			prevLower = unicode.IsLower(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return found
}

// attrOf is n's attribute key (case-blind, no namespace), or "".
func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// wrapper reports whether a hidden element of words words is the page's
// content wrapper, hidden until a script shows it: it holds half the
// page's words, or, hidden whole, it is the largest of the page's hidden
// blocks and holds more words than the page shows. The second is a page
// that hides its content and its menus alike until its scripts run (a
// shop's product block of 800 words beside ten hidden mega menus of a
// hundred or so, with 50 words shown): no half of the page is in one
// block, yet what a reader sees is that block.
func wrapper(words int, whole bool, pageWords, shownWords, largest int) bool {
	return words*2 >= pageWords || whole && words == largest && words > shownWords
}

// hiddenBlocks returns the words of the page under root that elements
// hidden whole hold (what it does not show before its scripts run), and
// the words of the largest such element. Elements inside a hidden one are
// not counted apart.
func hiddenBlocks(root *html.Node) (hidden, largest int) {
	eachElement(root, func(e *html.Node) bool {
		if !hiddenElement(e, styleOf(e)) {
			return true
		}
		w := textWords(e)
		hidden += w
		largest = max(largest, w)
		return false
	})
	return hidden, largest
}

// eachElement calls fn on every element under root but <head>, scripts,
// styles, templates and <noscript>, which show no text of the page, in
// document order; fn reports whether to go on into the element.
func eachElement(root *html.Node, fn func(*html.Node) bool) {
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Head, atom.Script, atom.Style, atom.Template, atom.Noscript:
			continue
		}
		if fn(c) {
			eachElement(c, fn)
		}
	}
}

// minWrapperWords: a page with fewer words than this has no content
// wrapper to reveal; what it hides is all it hides.
const minWrapperWords = 50

// maxWrappers bounds the wrappers one page may have revealed (each is
// counted whole, so nested ones cost their depth times the page).
const maxWrappers = 8

// hidesText reports an inline style that makes the text inside invisible
// (visibility hidden or collapse), which descendants may undo.
func hidesText(st style) bool {
	switch st.get("visibility").keyword() {
	case "hidden", "collapse":
		return true
	}
	return false
}

// shown is st without the declarations that hide an element or its text.
func shown(st style) style {
	out := make(style, len(st))
	for k, v := range st {
		switch k {
		case "visibility", "opacity", "display":
			continue
		}
		out[k] = v
	}
	return out
}

// textWords counts the words of the text under n, scripts and styles
// left out.
func textWords(n *html.Node) int {
	if n.Type == html.TextNode {
		return len(strings.Fields(n.Data))
	}
	if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Head) {
		return 0
	}
	w := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w += textWords(c)
	}
	return w
}

// rendersItself are elements a reader sees without text in them.
var rendersItself = map[atom.Atom]bool{
	atom.Img: true, atom.Picture: true, atom.Svg: true, atom.Video: true, atom.Audio: true, atom.Canvas: true,
	atom.Iframe: true, atom.Embed: true, atom.Object: true, atom.Input: true, atom.Select: true, atom.Textarea: true,
	atom.Button: true, atom.Hr: true, atom.Math: true,
}

func styleOf(n *html.Node) style {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, "style") {
			return parseStyle(a.Val)
		}
	}
	return nil
}

// hiddenElement reports an element hidden with everything it holds,
// whatever its descendants say.
func hiddenElement(n *html.Node, st style) bool {
	if n.DataAtom == atom.Template {
		return true
	}
	var class string
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden":
			if !strings.EqualFold(strings.TrimSpace(a.Val), "until-found") {
				return true
			}
		case "class":
			class = a.Val
		}
	}
	return (st != nil && hiddenStyle(st)) || (class != "" && hiddenClass(class))
}

// textContext is what an element's text inherits from its ancestors'
// inline styles.
type textContext struct {
	// invisible: visibility hidden or collapse.
	invisible bool
	// tiny: a font size of 1px or less.
	tiny bool
	// color is the text colour, when an inline style set one.
	color    rgba
	hasColor bool
	// bg is the background colour painted behind the text, when an
	// inline style set one; bgIsColor: the background is the text colour
	// itself (currentcolor).
	bg        rgba
	hasBg     bool
	bgIsColor bool
	// paired: the colour and the background were set together on one
	// element, and nothing below it set either; such a pair holds for
	// everything inside, classes or not. open: no element since the
	// background's has a class or id, through which a style sheet may
	// have painted another background.
	paired, open bool
}

// hidden reports text no reader sees in this context.
func (cx textContext) hidden() bool {
	switch {
	case cx.invisible, cx.tiny, cx.bgIsColor:
		return true
	case cx.hasColor && cx.color.a < 0.05:
		return true
	}
	return cx.hasColor && cx.hasBg && (cx.paired || cx.open) && indistinct(cx.color, cx.bg)
}

// inherit is the context of element n, with inline style st, inside cx
// (CSS Cascade 4, section 7.2: inherited properties take the parent's
// value unless the element sets its own; inherit and unset take it
// explicitly; initial and revert restore the initial value).
//
// Colours come from inline styles only, so a pair of colour and
// background set on different elements is trusted only where no style
// sheet can have come between: an element with a class or id may have
// a background of its own (the colour below it is then compared with
// nothing), and one that sets a background inline but not its colour is
// given its colour by a style sheet, most likely a contrasting one.
func (cx textContext) inherit(n *html.Node, st style) textContext {
	out := cx
	switch st.get("visibility").keyword() {
	case "hidden", "collapse":
		out.invisible = true
	case "visible", "initial", "revert", "revert-layer":
		out.invisible = false
	}
	if v := st.get("font-size"); len(v) > 0 {
		if t, ok := v.single(); ok {
			n, unit, isNum := number(t)
			switch {
			case isNum && n <= 0:
				out.tiny = true
			case isNum && (unit == "em" || unit == "%" || unit == "ex" || unit == "ch" || unit == "cap" || unit == "ic" || unit == "lh"):
				// Relative to the parent's size: tiny stays tiny.
			case isNum:
				out.tiny = unit == "px" && n <= 1 || unit == "pt" && n <= 0.75
			case t.s == "smaller" || t.s == "inherit" || t.s == "unset":
			case t.tt == css.IdentToken:
				out.tiny = false // a size keyword, initial
			}
		}
	}
	classed := hasAttr(n, "class") || hasAttr(n, "id")
	setColor, setBg := false, false
	if v := st.get("color"); len(v) > 0 {
		setColor = true
		out.bgIsColor = false // the background that was the text colour was the parent's
		if c, ok := colorOf(v); ok {
			out.color, out.hasColor = c, true
		} else if k := v.keyword(); k != "inherit" && k != "unset" && k != "currentcolor" {
			out.hasColor = false // unknown: initial, var(), a system colour
		}
	}
	bg := st.get("background-color")
	switch {
	case bg.keyword() == "currentcolor":
		out.bgIsColor, out.hasBg = true, false
	case len(bg) > 0:
		if c, ok := colorOf(bg); ok && c.a > 0 {
			base := rgba{1, 1, 1, 1} // the canvas
			if cx.hasBg {
				base = cx.bg
			}
			out.bg, out.hasBg, out.bgIsColor, setBg = c.over(base), true, false, true
		} else if !ok {
			out.hasBg, out.bgIsColor = false, false // var(), inherit...
		}
	}
	if img := st.get("background-image"); len(img) > 0 && img.keyword() != "none" {
		out.hasBg, out.bgIsColor, setBg = false, false, false // text over an image can be read
	}
	switch {
	case setColor && setBg:
		out.paired, out.open = true, true
	case setBg:
		out.paired, out.open = false, true
		if classed {
			out.hasColor = false
		}
	case setColor:
		out.paired, out.open = false, out.open && !classed
	default:
		out.open = out.open && !classed
	}
	return out
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

// srOnly are class names of the visually-hidden pattern across CSS
// frameworks and CMSs: Bootstrap's "sr-only" and "visually-hidden",
// WordPress's "screen-reader-text", Drupal's "element-invisible",
// Foundation's "show-for-sr", Moodle's "accesshide".
var srOnly = map[string]bool{
	"sr-only": true, "visually-hidden": true, "visuallyhidden": true, "screen-reader-text": true,
	"screen-reader-only": true, "screenreader-only": true, "sr-text": true, "a11y-hidden": true,
	"hidden-visually": true, "u-hidden-visually": true, "element-invisible": true, "offscreen": true,
	"assistive-text": true, "vh": true, "is-visually-hidden": true, "show-for-sr": true, "accesshide": true,
}

// screenReaderText reports an element of the visually-hidden pattern:
// text written for screen readers only.
func screenReaderText(n *html.Node) bool {
	return slices.ContainsFunc(strings.Fields(attrOf(n, "class")), ScreenReaderClass)
}

// ScreenReaderClass reports a class name of the visually-hidden pattern
// (srOnly): the element's text is written for screen readers only. Design
// systems and themes set their own prefix before the name ("usa-sr-only",
// "govuk-visually-hidden", "u-srOnly", "wt-cli-sr-only"), and one of
// srPrefixed after a hyphen or an underscore names the pattern too;
// Tailwind's "not-sr-only" and a variant ("md:sr-only") do not.
func ScreenReaderClass(c string) bool {
	c = strings.ToLower(c)
	if srOnly[c] {
		return true
	}
	if strings.Contains(c, ":") {
		return false
	}
	for _, s := range srPrefixed {
		if rest, ok := strings.CutSuffix(c, s); ok && rest != "" && (strings.HasSuffix(rest, "-") || strings.HasSuffix(rest, "_")) && !strings.HasSuffix(rest, "not-") {
			return true
		}
	}
	return false
}

// srPrefixed are the names of srOnly that keep their sense after a
// prefix, and "sronly" (XenForo's "srOnly", lowered); not "vh",
// "offscreen" or "hidden-visually", which end other names
// ("menu-offscreen", an off-canvas menu).
var srPrefixed = []string{"sr-only", "sronly", "visually-hidden", "visuallyhidden", "screen-reader-text",
	"screen-reader-only", "screenreader-only", "show-for-sr", "element-invisible", "a11y-hidden"}

// showTwins clears aria-hidden on the element siblings either side of
// screen-reader text that Strip removes. Pages pair the two: what the eye
// reads is hidden from screen readers, and its accessible wording is
// hidden from the eye (WooCommerce's sale price: <del aria-hidden>$30
// </del><span class="screen-reader-text">Original price was: $30.</span>;
// "4.5 <span aria-hidden>★★★★½</span>"). With the wording gone, the
// visible twin is the only copy left, and extraction drops what is
// aria-hidden (as Readability does): the price would vanish. The twin is
// visible, and Strip still judges what it holds.
func showTwins(n *html.Node) {
	twin := func(sib *html.Node, step func(*html.Node) *html.Node) {
		for sib != nil && sib.Type == html.TextNode && strings.TrimSpace(sib.Data) == "" {
			sib = step(sib)
		}
		if sib != nil && sib.Type == html.ElementNode && strings.EqualFold(strings.TrimSpace(attrOf(sib, "aria-hidden")), "true") {
			dropAttrs(sib, "aria-hidden")
		}
	}
	twin(n.PrevSibling, func(x *html.Node) *html.Node { return x.PrevSibling })
	twin(n.NextSibling, func(x *html.Node) *html.Node { return x.NextSibling })
}

// displayNone are utility classes that mean display:none or
// visibility:hidden on every screen size.
var displayNone = map[string]bool{"hidden": true, "d-none": true, "invisible": true, "is-hidden": true, "hide": true}

func hiddenClass(class string) bool {
	names := strings.FieldsSeq(class)
	none := false
	for c := range names {
		if ScreenReaderClass(c) {
			// "sr-only focus:not-sr-only" (skip links) still is hidden
			// until focused.
			return true
		}
		none = none || displayNone[strings.ToLower(c)]
	}
	if !none {
		return false
	}
	// A responsive or state variant ("md:block", "d-md-flex",
	// "group-hover:visible") shows the element somewhere: keep it.
	for c := range names {
		if strings.Contains(c, ":") || strings.HasPrefix(c, "d-") && c != "d-none" {
			return false
		}
	}
	return true
}

// hiddenStyle reports an inline style that hides the element and all it
// holds, whatever its descendants' styles say: display:none, a near-zero
// opacity, scale(0), clipping or sizing to nothing, and positions or
// indents far off-screen.
func hiddenStyle(st style) bool {
	if st.get("display").keyword() == "none" {
		return true
	}
	if t, ok := st.get("opacity").single(); ok {
		if n, unit, isNum := number(t); isNum && (unit == "" && n < 0.05 || unit == "%" && n < 5) {
			return true
		}
	}
	switch st.get("overflow").keyword() {
	case "hidden", "clip":
		for _, p := range []string{"width", "height", "max-height", "max-width"} {
			if st.get(p).zeroLength() {
				return true
			}
		}
	}
	if clip := st.get("clip"); len(clip) > 0 && clip[0].tt == css.FunctionToken && clip[0].s == "rect(" {
		zeros := 0
		for _, t := range clip[1:] {
			if n, _, ok := number(t); ok && n == 0 {
				zeros++
			} else if t.tt != css.CommaToken && t.tt != css.RightParenthesisToken {
				zeros = -1
				break
			}
		}
		if zeros == 4 {
			return true
		}
	}
	if cp := st.get("clip-path"); len(cp) >= 2 && cp[0].tt == css.FunctionToken {
		n, unit, ok := number(cp[1])
		switch cp[0].s {
		case "inset(":
			if ok && unit == "%" && n >= 50 {
				return true
			}
		case "circle(":
			if ok && n == 0 {
				return true
			}
		}
	}
	tf := st.get("transform")
	for i, t := range tf {
		if t.tt != css.FunctionToken {
			continue
		}
		// scale(0), scale(1, 0), scaleX(0), scale3d(0, 1, 1): the x or y
		// factor is zero (a z factor of zero flattens, but shows).
		axes := 0
		switch t.s {
		case "scalex(", "scaley(":
			axes = 1
		case "scale(", "scale3d(":
			axes = 2
		}
		for _, a := range tf[i+1:] {
			if axes == 0 || a.tt == css.RightParenthesisToken {
				break
			}
			if a.tt == css.CommaToken {
				continue
			}
			if n, _, ok := number(a); ok && n == 0 {
				return true
			}
			axes--
		}
	}
	if st.get("text-indent").offscreen() {
		return true
	}
	switch st.get("position").keyword() {
	case "absolute", "fixed":
		for _, side := range []string{"left", "top", "right", "bottom", "margin-left", "margin-top"} {
			if st.get(side).offscreen() {
				return true
			}
		}
	}
	return false
}

// OpenPanels shows the hidden panels a page discloses (Panels), as the
// reader who opens them sees them, and leaves every other hidden element
// as it is. Extraction runs it when it does not Strip: a closed accordion
// section or an inactive tab is content, and the extractors that drop
// hidden elements (readability, trafilatura, the cleaned page) would lose
// it. It returns the number of panels opened.
func OpenPanels(doc *html.Node) int {
	panels := FindPanels(doc)
	opened := 0
	eachElement(doc, func(e *html.Node) bool {
		// Few elements are panels, and a panel is told by its names
		// alone; only those have their style read.
		if panels.Disclosed(e) && hiddenElement(e, styleOf(e)) {
			openPanel(e)
			opened++
		}
		return true
	})
	return opened
}
