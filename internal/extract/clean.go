package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropAlways are elements that never carry readable main content.
var dropAlways = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Svg: true,
	atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Canvas: true, atom.Input: true,
	atom.Select: true, atom.Textarea: true, atom.Button: true, atom.Dialog: true, atom.Link: true,
	atom.Meta: true, atom.Head: true, atom.Map: true, atom.Audio: true, atom.Video: true, atom.Source: true,
	atom.Picture: true, atom.Track: true, atom.Math: true, atom.Label: true, atom.Option: true,
}

// boilerWords are class/id words of page furniture. They are matched
// against the words of each class token and of the id, split on - and _,
// so "post-sidebar" matches but "sidebarless-layout" does not
// accidentally hide a page. Templates name furniture in their site's
// language too (here German, French, Spanish, Italian and Dutch): only
// words that name nothing else are listed, not "kopf", "entete" or
// "cabecera" (a story's header holds its headline) nor "pub" or
// "anzeige" (also "publication" and "display").
var boilerWords = wordSet(`nav navbar navigation menu menubar breadcrumb breadcrumbs sidebar side aside footer foot
	masthead banner cookie cookies consent gdpr newsletter subscribe subscription signup share sharing social socials
	sharebar related recommended recommendations promo promos promotion advert advertisement ads ad adslot sponsor
	sponsored popup modal overlay toolbar skip skiplink widget widgets outbrain taboola disqus paywall login signin
	search searchbar toc drawer offcanvas mega dropdown tooltip hidden sr visually print noprint
	fusszeile seitenleiste brotkrumen werbung teilen
	pied piedpage ariane publicite partage partager laterale
	piedepagina migas publicidad compartir lateral
	piedipagina briciole pubblicita condividi
	voettekst zijbalk kruimelpad advertentie`)

// skipWords name skip links, which hold at most maxSkipLinkWords words
// (a list of a few: "Skip to content", "Skip to navigation", "Skip to
// footer").
var skipWords = wordSet(`skip skiplink`)

const maxSkipLinkWords = 20

// keepWords mark containers that are the content itself (alone or with a
// plural s), protecting them from boilerWords elsewhere in their class
// list ("content sidebar-left").
var keepWords = wordSet(`content article main post entry body story text thread topic message comment product
	description answer question`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isHidden reports elements the browser would not show.
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if a.Val == "true" {
				return true
			}
		case "style":
			s := strings.ToLower(strings.ReplaceAll(a.Val, " ", ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
				return true
			}
		}
	}
	return false
}

func isBoilerRole(n *html.Node) bool {
	switch strings.ToLower(attr(n, "role")) {
	case "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar", "toolbar", "tooltip":
		return true
	}
	return false
}

// looksBoiler reports whether n's class or id names it as page furniture.
func looksBoiler(n *html.Node) bool {
	cls, id := attr(n, "class"), attr(n, "id")
	if cls == "" && id == "" {
		return false
	}
	names := strings.Fields(cls)
	if id != "" {
		names = append(names, id)
	}
	boiler, builder := false, pageBuilt(names)
	for _, name := range names {
		ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
		if layoutName(ws) {
			continue // see heuristic.go
		}
		for _, w := range ws {
			if keepWords[w] || keepWords[strings.TrimSuffix(w, "s")] {
				return false
			}
			if builder && strings.HasSuffix(strings.TrimSuffix(w, "s"), "widget") {
				continue
			}
			if skipWords[w] && wordCountOver(n, maxSkipLinkWords) {
				// A skip link is a line ("Skip to content"); a block
				// of prose named so is a section a table of contents
				// jumps to ("skip-item").
				continue
			}
			boiler = boiler || boilerWords[w] || boilerCompound(w)
		}
	}
	return boiler
}

// pageBuilt reports the class names of a block of a page builder that
// calls every element of a page a widget, the builders of a large share
// of WordPress sites: Elementor ("elementor-widget-text-editor" and its
// inner "elementor-widget-container" hold the text itself) and SiteOrigin
// ("so-panel widget widget_sow-editor", "panel-widget-style",
// "siteorigin-widget-tinymce textwidget"). Their widgets' kinds still
// count ("elementor-widget-nav-menu", "widget_nav_menu").
func pageBuilt(names []string) bool {
	for _, name := range names {
		name = strings.ToLower(name)
		for _, prefix := range builderPrefixes {
			if strings.HasPrefix(name, prefix) {
				return true
			}
		}
	}
	return false
}

var builderPrefixes = []string{"elementor", "so-panel", "so-widget", "siteorigin-widget", "panel-widget-style"}

// removeNode detaches n from its parent.
func removeNode(n *html.Node) {
	if n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
}

// dropInvisible removes the format characters that render as nothing
// and mean nothing to a reader: zero-width spaces, word joiners, stray
// byte-order marks and soft hyphens. Left in, they split a word for every
// rule that counts words and for the model (or the grep) that reads the
// text. German and Dutch sites write "Bundes&shy;regierung" so that a
// long word may break at a line's end; the soft hyphen shows only there
// (CSS Text §5.4, "hyphens: manual"), but every rule here that counts
// words read two, and so did a model reading `webgate extract`
// (web_fetch's guard drops format characters from what it returns,
// guard.CleanText). Python trafilatura drops every format character as
// well. Zero-width (non-)joiners stay: Persian and Indic scripts and
// emoji need them. A text that is only joiners and whitespace joins
// nothing: page builders (Webflow) set "<p>&zwj;</p>" as a spacer, which
// rendered as a line of its own holding an invisible character (378 such
// lines on 31 dev pages). Its joiners go.
func dropInvisible(s string) string {
	if !strings.ContainsAny(s, invisibleChars+joiners) {
		return s
	}
	drop := invisibleChars
	if strings.Trim(s, invisibleChars+joiners+" \t\n\r\f") == "" {
		drop += joiners
	}
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(drop, r) {
			return -1
		}
		return r
	}, s)
}

// plainBreaks turns the carriage returns of a text into line feeds, as
// the parser does for those in the markup (HTML §13.2.3.5): one written
// as a character reference ("&#13;", which lxml and some CMSs write for
// every CRLF line break) reaches the text as it is. A reader sees a space
// either way (CSS Text §4.1.1), but go-trafilatura's reading of such a
// page differed: a service page's 652 words came back as 274.
func plainBreaks(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return crBreaks.Replace(s)
}

var crBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// joiners are the zero-width non-joiner and joiner.
const joiners = "\u200c\u200d"

const invisibleChars = "\u00ad\u200b\u2060\ufeff"

// inert elements never hold readable text.
var inert = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Svg: true, atom.Template: true, atom.Link: true}

// ampAds are AMP's ad components (amp.dev, "amp-ad"): amp-embed is its
// alias for content-recommendation widgets, amp-sticky-ad and
// amp-auto-ads place them. What they hold is no text of the page's but
// the slot's own: a child marked placeholder shows until the ad loads
// ("Loading ad…"), one marked fallback when none comes ("Ad
// unavailable"), and readability and trafilatura kept both in the story,
// as they know no custom element.
var ampAds = map[string]bool{"amp-ad": true, "amp-embed": true, "amp-sticky-ad": true, "amp-auto-ads": true}

// ampImage turns AMP's image component into the <img> it stands for
// (amp.dev, "amp-img": src, srcset, alt, width and height as an <img>'s),
// so an AMP story's pictures reach the Markdown as any page's do. Its
// children go: a fallback image for browsers that cannot show the first,
// or a <noscript> copy of it.
func ampImage(n *html.Node) {
	n.Data, n.DataAtom = "img", atom.Img
	for n.FirstChild != nil {
		n.RemoveChild(n.FirstChild)
	}
}

// prepareDoc unwraps <noscript> blocks that hold real content (the server-
// rendered page of a JavaScript app) and drops the rest (tracking pixels,
// "please enable JavaScript"), so every candidate extractor sees the page
// a reader without JavaScript would see.
func prepareDoc(doc *html.Node) {
	var ns []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			switch {
			case isElem(c, atom.Noscript):
				ns = append(ns, c)
			case c.Type == html.CommentNode || c.Type == html.ElementNode && (inert[c.DataAtom] || ampAds[c.Data]):
				// Metadata is already read; every extractor ignores
				// these, and dropping them once saves each extractor
				// cloning and walking thousands of nodes (inline SVG).
				// AMP's ad slots go here too, for the opposite reason:
				// the extractors keep their placeholder text (ampAds).
				n.RemoveChild(c)
			case c.Type == html.ElementNode && (carouselClone(c) || responsiveTwin(c) || skipLink(c)):
				n.RemoveChild(c)
			case c.Type == html.TextNode:
				c.Data = dropInvisible(plainBreaks(c.Data))
			case c.Type == html.ElementNode && c.Data == "amp-img":
				ampImage(c)
			default:
				walk(c)
				if codeSignature(c) {
					c = signatureBlock(c)
				} else if sphinxSignature(c) {
					// The <dt> stays, for the <dd> it heads.
					pre := signaturePre(c)
					setAttr(pre, "class", attr(c, "class")) // "py" names the language
					for c.FirstChild != nil {
						c.RemoveChild(c.FirstChild)
					}
					c.AppendChild(pre)
				}
				if isElem(c, atom.Pre) {
					plainCode(c)
				}
				if admonitionAside(c) {
					// A callout in the text, not a column beside it:
					// every extractor drops <aside> and names with
					// "aside" in them.
					c.Data, c.DataAtom = "div", atom.Div
					setAttr(c, "class", admonitionClass(attr(c, "class")))
				}
				if headingAtoms[c.DataAtom] {
					plainHeading(c)
				}
				if admonitionAlert(c) {
					dropAttrs(c, "role")
				}
				openPanel(c)
				dropScrollbarNames(c)
				ariaTable(c)
				spaceLinks(c)
				spaceAriaHidden(c)
				if buttonInSentence(c) {
					unwrapButton(c)
				} else if c.DataAtom == atom.Button || toggleDiv(c) {
					liftAccordionTitle(c)
				} else if headingWrapper(c) {
					moveChildrenBefore(c, c)
					n.RemoveChild(c)
				}
			}
			c = next
		}
	}
	walk(doc)
	for _, n := range ns {
		if n.Parent == nil {
			continue
		}
		if childWords(n) < 30 || hasAncestor(n, atom.Head) {
			replaceLazyImage(n)
			removeNode(n)
			continue
		}
		moveChildrenBefore(n, n)
		removeNode(n)
	}
	unhideBackdrop(doc)
}

// skipLink reports a skip link (WCAG 2.4.1, "bypass blocks"): a link to
// a place on the same page, of up to maxSkipLinkWords words, that says
// so ("Skip to main content", "Skip to product list", "Skip images",
// Moodle's "Skip Navigation block", "Jump to navigation", "Zum Inhalt
// springen", "Aller au contenu").
// Themes hide it until it has the keyboard's focus, under as many class
// names as there are themes, so the extractors keep its words at the
// top of the text, or inside it where a carousel or a list of products
// offers one.
func skipLink(n *html.Node) bool {
	if n.DataAtom != atom.A || !strings.HasPrefix(strings.TrimSpace(attr(n, "href")), "#") || wordCountOver(n, maxSkipLinkWords) {
		return false
	}
	if wordsBeside(n.PrevSibling) || wordsBeside(n.NextSibling) {
		return false // "You can jump to the end of the list to see ..."
	}
	if classWords(n, skipWords) {
		// Themes name it so in every language their sites are
		// written in: Moodle's "skip-block", WordPress's "skip-link".
		return true
	}
	t := strings.ToLower(collapseSpace(textOf(n)))
	if strings.HasPrefix(t, "jump to ") {
		// "Jump to Recipe", "Jump to navigation"; an editor's "Jump
		// to the full list of the best builders" is the story's.
		return countWords(t) <= 4
	}
	return skipPhrase.MatchString(t)
}

// wordsBeside reports a text node with a letter or a digit.
func wordsBeside(n *html.Node) bool {
	return n != nil && n.Type == html.TextNode && strings.ContainsFunc(n.Data, wordChar)
}

// skipPhrase matches the words of a skip link, in English and in the
// languages whose themes translate "Skip to content".
var skipPhrase = regexp.MustCompile(`^skip\b|^(zum|zur) (inhalt|hauptinhalt|navigation)|^direkt zu(m|r)? |^(aller|passer) (au|à la) (contenu|navigation)|^(saltar|ir) al? (contenido|navegación)|^(passa|vai) al(la)? (contenuto|navigazione)|^(ga|spring) naar (de )?(inhoud|navigatie)|^(pular|ir) para o conteúdo|^przejdź do (treści|nawigacji)|^hoppa till (innehåll|huvudinnehåll)|^перейти к (содержимому|содержанию|основному)`)

// unnameRoot removes the class and id of the <html> element. Themes put
// the page's state there ("hasSidebar", "sidebar-visible",
// "avada-html-header-position-top", XenForo's "sidebarNav--active"),
// and readability judges the root by its names as it judges a block: a
// name holding one of its unlikely-candidate words ("sidebar",
// "header", "footer", "menu") removed the whole document from its walk,
// and it fell back to the entire body, navigation, skip links and
// hidden elements included (Readability.js spares <body> that way, not
// <html>). The root names no block, and a stylesheet's selectors on its
// class have been applied already where hidden content is stripped
// (hidden.Strip runs first).
func unnameRoot(doc *html.Node) {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Html {
			dropAttrs(c, "class", "id")
		}
	}
}

// signatureWords are the first words of the class names API
// documentation generators give a declaration's signature: Javadoc's
// "member-signature" and "type-signature", TypeDoc's "tsd-signature".
// A forum's "post-signature" or "message-signature" is a member's card
// or sign-off, and stays as it is.
var signatureWords = wordSet(`member type tsd`)

// codeSignature reports an element named as a declaration's signature
// ("createClient(options: ClientOptions): Client") that holds no block.
// Generators set one in <span>s with a link for each type, and
// readability removed it as a block of links, so an API page lost the
// one line that says how to call what it documents.
func codeSignature(n *html.Node) bool {
	if n.Type != html.ElementNode || n.DataAtom == atom.Pre || !containsFold(attr(n, "class"), "signature") || hasBlockChild(n) {
		return false
	}
	for _, name := range strings.Fields(attr(n, "class")) {
		ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
		if len(ws) == 2 && ws[1] == "signature" && signatureWords[ws[0]] {
			return true
		}
	}
	return false
}

// sphinxSignature reports the <dt class="sig sig-object"> Sphinx sets a
// Python object's signature in, its parameters in <em>: as Markdown it
// read "tern.cache.expire(*key*)", which a model takes for Python's
// "*key" (a catch-all of positional arguments).
func sphinxSignature(n *html.Node) bool {
	return n.DataAtom == atom.Dt && hasToken(attr(n, "class"), "sig-object") && !hasBlockChild(n)
}

// signatureBlock replaces a signature with a code block of its text,
// which is what it is: the Markdown fences it, and no extractor weighs
// its links. It returns the block, in the signature's place.
func signatureBlock(n *html.Node) *html.Node {
	pre := signaturePre(n)
	setAttr(pre, "class", attr(n, "class"))
	n.Parent.InsertBefore(pre, n)
	n.Parent.RemoveChild(n)
	return pre
}

// signaturePre returns a <pre><code> of n's text as code, without a
// permalink's sign ("¶") and with no-break spaces as spaces.
func signaturePre(n *html.Node) *html.Node {
	removeElements(n, func(c *html.Node) bool { return c.DataAtom == atom.A && placeMark(textOf(c)) })
	text := strings.TrimSpace(strings.ReplaceAll(textOf(n), "\u00a0", " "))
	pre := &html.Node{Type: html.ElementNode, Data: "pre", DataAtom: atom.Pre}
	code := &html.Node{Type: html.ElementNode, Data: "code", DataAtom: atom.Code}
	code.AppendChild(&html.Node{Type: html.TextNode, Data: text})
	pre.AppendChild(code)
	return pre
}

// dropScrollbarNames drops from an element's classes the names that
// style its scrollbar away ("hide-scroll", "hide-scrollbar"), as
// GitBook's every code block has. Trafilatura reads a class that starts
// with "hide-" as a hidden element and dropped the block; the box is
// shown, only its scrollbar is not.
func dropScrollbarNames(n *html.Node) {
	if !containsFold(attr(n, "class"), "hide-scroll") {
		return
	}
	dropNames(n, "class", func(name string) bool {
		return strings.HasPrefix(strings.ToLower(name), "hide-scroll")
	})
}

// ariaTable rebuilds as a <table> a table made of <div>s with ARIA's
// roles (WAI-ARIA 1.2, "table", "row", "cell"): GitBook and React table
// components lay data out so, and every extractor read each cell as a
// paragraph of its own, so the Markdown lost the columns. Only the strict
// shape is rebuilt, a table or grid whose children are rows or row groups
// of rows, and whose rows hold cells and headers only; anything else stays
// as it is.
func ariaTable(t *html.Node) {
	if t.DataAtom != atom.Div || !(attr(t, "role") == "table" || attr(t, "role") == "grid") {
		return
	}
	var rows []*html.Node
	var groups []*html.Node
	row := func(r *html.Node) bool {
		if r.Type != html.ElementNode || attr(r, "role") != "row" {
			return false
		}
		cells := 0
		for c := r.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
			case c.Type == html.ElementNode && ariaCells[attr(c, "role")] != 0:
				cells++
			default:
				return false
			}
		}
		if cells == 0 {
			return false
		}
		rows = append(rows, r)
		return true
	}
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && attr(c, "role") == "rowgroup":
			for r := c.FirstChild; r != nil; r = r.NextSibling {
				if !(r.Type == html.TextNode && strings.TrimSpace(r.Data) == "") && !row(r) {
					return
				}
			}
			groups = append(groups, c)
		case row(c):
		default:
			return
		}
	}
	if len(rows) < 2 {
		return
	}
	t.Data, t.DataAtom = "table", atom.Table
	for _, g := range groups {
		g.Data, g.DataAtom = "tbody", atom.Tbody
	}
	for _, r := range rows {
		r.Data, r.DataAtom = "tr", atom.Tr
		for c := r.FirstChild; c != nil; c = c.NextSibling {
			if a := ariaCells[attr(c, "role")]; c.Type == html.ElementNode && a != 0 {
				c.DataAtom, c.Data = a, a.String()
			}
		}
	}
}

// ariaCells maps ARIA's cell roles to the HTML elements they stand for.
// A row's header stays a <td>: Markdown has column headers only, and the
// converter moved a row holding a <th> to the top as the table's header.
var ariaCells = map[string]atom.Atom{"cell": atom.Td, "gridcell": atom.Td, "columnheader": atom.Th, "rowheader": atom.Td}

// spaceAriaHidden puts spaces around an inline element that is hidden
// from screen readers only (aria-hidden="true") and holds text: the
// separator of a byline ("Nov 7, 2025 <span aria-hidden="true">·</span>
// 11 min read", Medium's), an icon font's ligature. A browser shows it,
// with the margins its stylesheet gives it; readability and the cleaned
// page take it for hidden and remove it, and the words on either side
// ran together ("Nov 7, 202511 min read"). Code keeps its characters.
func spaceAriaHidden(n *html.Node) {
	if blockAtoms[n.DataAtom] || !strings.EqualFold(attr(n, "aria-hidden"), "true") || strings.TrimSpace(textOf(n)) == "" || hasAncestor(n, atom.Pre) {
		return
	}
	if n.PrevSibling != nil {
		n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, n)
	}
	if n.NextSibling != nil {
		n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, n.NextSibling)
	}
}

// spaceLinks puts a space between a link and a link right after it when
// the second starts a word of its own (a capital or a digit). Nothing
// but a stylesheet separates links laid out as a row or a grid (a
// docs page's "previous" and "next", a list of brands, a set of tabs),
// and every extractor read them as one word: "QuickstartWebhooks",
// "AAAEsurance" (161 such pairs on 44 of the dev sets' pages). A word
// split over two links by an editor's markup ("Co<a>ntact</a>") goes on
// in small letters and stays whole; code keeps its characters.
func spaceLinks(a *html.Node) {
	b := a.NextSibling
	if a.DataAtom != atom.A || b == nil || b.DataAtom != atom.A || b.Type != html.ElementNode {
		return
	}
	x, y := textOf(a), textOf(b)
	last, _ := utf8.DecodeLastRuneInString(x)
	first, _ := utf8.DecodeRuneInString(y)
	if x == "" || y == "" || unicode.IsSpace(last) || !(unicode.IsUpper(first) || unicode.IsDigit(first)) || hasAncestor(a, atom.Pre) {
		return
	}
	a.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, b)
}

// plainCode readies a code block for the extractors, which judge what is
// inside it as if it were prose: pkg.go.dev links every type in a
// signature ("func Open(path <a>string</a>) (*<a>DB</a>, <a>error</a>)"),
// and readability removed such a block as "a little linky"; a
// highlighter's <span class="comment"> around a code comment met
// readability's unlikely-candidate names and went. The block keeps its
// text (normalizeCode flattens it to text in the end anyway): links are
// unwrapped, and elements inside lose their class and id, once the
// line-number gutters those name are gone. The <pre> and its <code> keep
// theirs, which name the language.
func plainCode(pre *html.Node) {
	dropGutters(pre)
	codeLines(pre)
	for _, e := range elementsUnder(pre) {
		switch e.DataAtom {
		case atom.A:
			moveChildrenBefore(e, e)
			removeNode(e)
		case atom.Code:
		default:
			dropAttrs(e, "class", "id")
		}
	}
}

// cloneClasses are the class names carousel libraries give the copies of
// slides they add at each end so that the loop seems endless: Slick's,
// Swiper's (up to version 8), Splide's and Glide's.
var cloneClasses = []string{"slick-cloned", "swiper-slide-duplicate", "splide__slide--clone", "glide__slide--clone"}

// carouselClone reports a slide a carousel library added as a copy of
// another. A browser shows it only while the loop turns, but every
// extractor read it as content, so a carousel of three testimonials came
// out five or seven times over (Slick clones as many slides as it shows
// at each end), its headings in a row with nothing between them once the
// repeated text was dropped. Owl Carousel marks its copies "cloned" on an
// "owl-item".
func carouselClone(n *html.Node) bool {
	cls := attr(n, "class")
	if cls == "" || !strings.Contains(cls, "clone") && !strings.Contains(cls, "duplicate") {
		return false
	}
	names := strings.Fields(cls)
	return slices.ContainsFunc(names, func(c string) bool { return slices.Contains(cloneClasses, c) }) ||
		slices.Contains(names, "cloned") && slices.Contains(names, "owl-item")
}

// responsiveTwin reports the wide-screen copy of an element that a page
// sets twice, once for each screen width, Tailwind's way: this copy is
// hidden below a breakpoint and shown from it ("hidden md:block"), and
// its twin beside it is hidden from that breakpoint up ("md:hidden"),
// with the same text. A browser shows one of them; every extractor read
// both, and inline twins came out glued: a product card's badge read
// "NEWNEW", "WATERPROOFWATERPROOF" (60 of them on one WCXB-dev shop
// page). The narrow-screen copy stays: the other's "hidden" is a name
// readability holds against a block.
func responsiveTwin(n *html.Node) bool {
	cls := attr(n, "class")
	if !strings.Contains(cls, "hidden") || !strings.Contains(cls, ":") {
		return false
	}
	text := ""
	for _, s := range []*html.Node{elementSibling(n, -1), elementSibling(n, 1)} {
		if s == nil {
			continue
		}
		bp := hiddenFrom(s)
		if bp == "" || !shownFrom(n, bp) {
			continue
		}
		if text == "" {
			if text = collapseSpace(textOf(n)); text == "" {
				return false
			}
		}
		if collapseSpace(textOf(s)) == text {
			return true
		}
	}
	return false
}

// hiddenFrom returns the breakpoint from which n is hidden ("md" for
// "md:hidden"), or "".
func hiddenFrom(n *html.Node) string {
	cls := attr(n, "class")
	if !strings.Contains(cls, ":hidden") {
		return ""
	}
	for _, c := range strings.Fields(cls) {
		if p, ok := strings.CutSuffix(c, ":hidden"); ok && screenPrefixes[p] {
			return p
		}
	}
	return ""
}

// screenPrefixes are Tailwind's screen-width prefixes.
var screenPrefixes = map[string]bool{"sm": true, "md": true, "lg": true, "xl": true, "2xl": true}

// shownFrom reports an element hidden below the breakpoint bp and shown
// from it on ("hidden md:block", "hidden lg:inline-flex").
func shownFrom(n *html.Node, bp string) bool {
	hidden, shown := false, false
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == "hidden" {
			hidden = true
		} else if d, ok := strings.CutPrefix(c, bp+":"); ok && displayValues[d] {
			shown = true
		}
	}
	return hidden && shown
}

// displayValues are the Tailwind display classes that show an element.
var displayValues = map[string]bool{"block": true, "inline": true, "inline-block": true, "flex": true, "inline-flex": true,
	"grid": true, "inline-grid": true, "table": true, "table-cell": true, "table-row": true, "contents": true, "flow-root": true, "list-item": true}

// elementSibling returns n's nearest element sibling before it (dir -1)
// or after it (dir 1), past white space only; nil when other text or
// nothing stands there.
func elementSibling(n *html.Node, dir int) *html.Node {
	next := func(x *html.Node) *html.Node {
		if dir < 0 {
			return x.PrevSibling
		}
		return x.NextSibling
	}
	for s := next(n); s != nil; s = next(s) {
		switch {
		case s.Type == html.ElementNode:
			return s
		case s.Type == html.TextNode && strings.TrimSpace(s.Data) == "", s.Type == html.CommentNode:
		default:
			return nil
		}
	}
	return nil
}

// plainHeading drops from a heading's class and id the names that hold
// "header", as Substack's every heading has ("header-anchor-post").
// Readability removes an element whose names hold one of its
// unlikely-candidate words anywhere (a pattern without word bounds), and
// "header" is one; on a heading, the name says what the element is,
// not that it is the page's header. Trafilatura keeps such headings.
//
// It also turns the <div>s inside a heading into <span>s. A heading holds
// phrasing content only (HTML 4.3.6), but GitBook and other React themes
// set a heading's text in a <div> beside another for its permalink
// (<h2><div><a href="#x"></a></div><div>Requirements</div></h2>).
// Readability judged each as a block of its own and removed the short
// one, so every section heading of such a page was left empty.
//
// And an <a> without an address inside a heading becomes a <span>: it is
// a named anchor, the target of a table of contents' links
// (<h2><a name="pricing">Pricing</a></h2>), not a hyperlink (HTML 4.6.1:
// without href, <a> is a placeholder). Readability counts every <a>'s
// text as link text, so such a heading made the section under it look
// like a block of links, and its heading and first paragraph were
// removed together. An <a> that script makes a control (a role, a
// tabindex, a handler or an address under another name) stays.
func plainHeading(h *html.Node) {
	holdsHeader := func(name string) bool { return containsFold(name, "header") }
	dropNames(h, "class", holdsHeader)
	dropNames(h, "id", holdsHeader)
	for _, d := range elementsUnder(h) {
		if namedAnchor(d) {
			d.Data, d.DataAtom = "span", atom.Span
			continue
		}
		if d.DataAtom != atom.Div {
			continue
		}
		// Two blocks read as two words: "<div>Part 1</div><div>The
		// start</div>" must not become "Part 1The start".
		d.Data, d.DataAtom = "span", atom.Span
		if d.PrevSibling != nil {
			d.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, d)
		}
		if d.NextSibling != nil {
			d.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, d.NextSibling)
		}
	}
}

// namedAnchor reports an <a> that is no link and no control: it has no
// address (href, or one a script reads, such as data-href or Vue's
// :href), no role, no tabindex and no event handler.
func namedAnchor(a *html.Node) bool {
	if a.DataAtom != atom.A {
		return false
	}
	for _, at := range a.Attr {
		k := strings.ToLower(at.Key)
		if strings.Contains(k, "href") || k == "role" || k == "tabindex" || strings.HasPrefix(k, "on") {
			return false
		}
	}
	return true
}

// dropNames removes from n's space-separated attribute key (class, id)
// the names drop reports, and the attribute when none is left.
func dropNames(n *html.Node, key string, drop func(name string) bool) {
	for i, a := range n.Attr {
		if a.Key != key {
			continue
		}
		names := strings.Fields(a.Val)
		kept := slices.DeleteFunc(slices.Clone(names), drop)
		switch {
		case len(kept) == len(names):
		case len(kept) == 0:
			n.Attr = slices.Delete(n.Attr, i, i+1)
		default:
			n.Attr[i].Val = strings.Join(kept, " ")
		}
		return
	}
}

// liftAccordionTitle takes an accordion's title out of its toggle, a
// <button> inside the title or around it (Bootstrap's <h2
// class="accordion-header"><button>; <button><h3> elsewhere). The title
// is a FAQ's question or a section's name, and readability and
// trafilatura drop every button, so the answers stood without their
// questions. A button that holds all of its heading's text is unwrapped;
// a button beside a heading's title is a tool (rustdoc's "Copy item
// path", a permalink's "Link") and stays for the extractors to drop. A
// button around a heading gives way to the heading: the rest of it is
// its icon ("+", a chevron), and a <div> holding a lone heading is what
// readability removes as a block without text.
func liftAccordionTitle(b *html.Node) {
	for a := b.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && headingAtoms[a.DataAtom] {
			if wordCount(a) == wordCount(b) {
				moveChildrenBefore(b, b)
				removeNode(b)
			}
			return
		}
	}
	titles := headingsUnder(b)
	if len(titles) == 0 {
		return
	}
	for _, h := range titles {
		h.Parent.RemoveChild(h)
		b.Parent.InsertBefore(h, b)
	}
	removeNode(b)
}

// buttonInSentence reports a <button> that is words of a sentence: a
// name or a term between words of running text, which opens a sidenote
// or a glossary's tooltip ("said professor <button>Thomas W.
// Malone,</button> the founding director"). Every extractor drops
// buttons, and the sentence read "said professor the founding director".
// A button of controls stands apart from the text, or after a label.
func buttonInSentence(b *html.Node) bool {
	if b.DataAtom != atom.Button || hasBlockChild(b) {
		return false
	}
	w := childWords(b)
	return w > 0 && w <= maxSentenceButtonWords && wordText(b.PrevSibling) && wordText(b.NextSibling)
}

// unwrapButton puts a button's words in its place, with the space a
// browser shows between it and a word beside it.
func unwrapButton(b *html.Node) {
	if p := b.PrevSibling; p != nil && p.Type == html.TextNode {
		if r, _ := utf8.DecodeLastRuneInString(p.Data); wordRune(r) {
			p.Data += " "
		}
	}
	if n := b.NextSibling; n != nil && n.Type == html.TextNode {
		if r, _ := utf8.DecodeRuneInString(n.Data); wordRune(r) {
			n.Data = " " + n.Data
		}
	}
	moveChildrenBefore(b, b)
	b.Parent.RemoveChild(b)
}

// maxSentenceButtonWords bounds a button that buttonInSentence reads as
// words of its sentence: a name or a term.
const maxSentenceButtonWords = 6

// wordText reports a text node with a character of a word (wordRune).
func wordText(n *html.Node) bool {
	return n != nil && n.Type == html.TextNode && strings.IndexFunc(n.Data, wordRune) >= 0
}

// panelWords name an accordion's or a tab set's panel; panelStates name
// its folded state. Both must stand in one class name for openPanel to
// drop it, so this list may be broader ("panel", "tab", "toggle") than
// hidden.Panels' (whether a hidden element is a panel a reader opens),
// which reads a name alone.
var (
	panelWords  = wordSet(`accordion collapse collapsible panel pane tab tabs toggle faq expand expandable`)
	panelStates = []string{"hidden", "hide", "closed", "collapsed", "folded"}
)

// openPanel drops from an element's classes the names of a folded panel
// ("kt-accordion-panel-hidden"): a script unfolds it on a click, and
// readability and trafilatura, which read "hidden" in a class name as
// chrome, dropped a FAQ's answers and a product's details with it.
// Panels hidden by the hidden attribute, a style or a utility class
// (hidden.Strip's business) keep those. It runs on every element, so a
// class without a state's letters is passed over unsplit.
func openPanel(n *html.Node) {
	cls := attr(n, "class")
	if !slices.ContainsFunc(panelStates, func(st string) bool { return containsFold(cls, st) }) {
		return
	}
	dropNames(n, "class", func(name string) bool {
		panel, state := false, false
		eachNameWord(name, func(w []byte) bool {
			panel = panel || panelWords[string(w)]
			state = state || slices.Contains(panelStates, string(w))
			return panel && state
		})
		return panel && state
	})
}

// toggleDiv reports a <div> a script makes an accordion's toggle (it is
// focusable, a button by its role, or says whether it is expanded) whose
// text is all in its headings: <div class="accordion_item-toggle"
// tabindex="0"><h3>Question?</h3><i class="fa fa-angle-down"></i></div>.
func toggleDiv(n *html.Node) bool {
	if n.DataAtom != atom.Div || !(attr(n, "role") == "button" || hasAttr(n, "tabindex") || hasAttr(n, "aria-expanded")) {
		return false
	}
	inHeadings := 0
	for _, h := range headingsUnder(n) {
		inHeadings += wordCount(h)
	}
	return inHeadings > 0 && inHeadings == wordCount(n)
}

// admonitionWords name the kinds of callout documentation generators set
// in the text ("Note", "Tip", "Caution"; GitHub's alerts, Docusaurus's
// and MkDocs's admonitions, Starlight's asides).
var admonitionWords = wordSet(`note tip caution warning danger important admonition`)

// admonitionAside reports an <aside> that a documentation generator made
// a callout of (Starlight: <aside aria-label="Caution"
// class="starlight-aside starlight-aside--caution">): its label or a word
// of its class names the kind. Its text is a warning the page gives at
// that point, not a column beside the text, which is what extractors drop
// asides as.
func admonitionAside(n *html.Node) bool {
	if n.DataAtom != atom.Aside || attr(n, "aria-hidden") == "true" || hasAttr(n, "hidden") {
		return false
	}
	return admonitionWords[strings.ToLower(strings.TrimSpace(attr(n, "aria-label")))] ||
		eachNameWord(attr(n, "class"), func(w []byte) bool { return admonitionWords[string(w)] })
}

// admonitionAlert reports a callout in the text that carries the ARIA
// role "alert" (Bootstrap's alerts, which Docsy and other Hugo themes
// make their notes of: <div class="alert alert-info" role="alert"><h4
// class="alert-heading">Note</h4>…): a class name or its first heading
// names the kind. Readability.js counts "alert" among its unlikely roles
// and removed every such note with its role. Bootstrap's own names
// ("alert-warning", "alert-danger") say only the colour, and a site's
// message that can be dismissed ("alert-dismissible": a sign-up prompt,
// a lost connection) is no note; both keep the role.
func admonitionAlert(n *html.Node) bool {
	if !strings.EqualFold(attr(n, "role"), "alert") {
		return false
	}
	names := strings.Fields(strings.ToLower(attr(n, "class")))
	if slices.Contains(names, "alert-dismissible") {
		return false
	}
	for _, name := range names {
		if !strings.HasPrefix(name, "alert-") && eachNameWord(name, func(w []byte) bool { return admonitionWords[string(w)] }) {
			return true
		}
	}
	h := findFirst(n, func(c *html.Node) bool { return headingAtoms[c.DataAtom] })
	return h != nil && admonitionWords[strings.ToLower(strings.Trim(strings.TrimSpace(textOf(h)), ":"))]
}

// admonitionClass is the class list of an admonition aside made a <div>:
// its names but those built on "aside" ("starlight-aside"), which
// extractors take for a sidebar's, and "admonition".
func admonitionClass(cls string) string {
	names := slices.DeleteFunc(strings.Fields(cls), func(name string) bool {
		return eachNameWord(name, func(w []byte) bool { return string(w) == "aside" })
	})
	return strings.Join(append(names, "admonition"), " ")
}

// headingWrapper reports a <div> that holds one heading and its
// permalink, an empty anchor, and nothing else (GitHub's rendered Markdown
// wraps every heading so: <div class="markdown-heading"><h2>Install</h2>
// <a class="anchor" href="#install"><svg/></a></div>, the SVG gone by
// now). Readability removes such a block as one of no paragraph text
// (Readability.js's _cleanConditionally counts the text of <p>, <div>,
// <li> and their kind, not of headings), so every heading of a README
// went; unwrapped, the heading stands among the paragraphs it heads. A
// wrapper without the anchor (a page builder's heading widget) is left:
// unwrapped, such headings moved readability's scores on whole pages.
func headingWrapper(n *html.Node) bool {
	if n.DataAtom != atom.Div {
		return false
	}
	h := soleElement(n)
	if h == nil || !headingAtoms[h.DataAtom] {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if isElem(c, atom.A) && hasAttr(c, "href") {
			return true
		}
	}
	return false
}

// unhideBackdrop removes aria-hidden="true" from an element that holds at
// least half of the body's words. While a modal dialog is open (a consent
// manager, a newsletter prompt), scripts mark everything behind it
// aria-hidden so that screen readers read only the dialog (WAI-ARIA
// Authoring Practices, "Dialog (Modal) Pattern"); aria-hidden hides
// nothing from the eye. A page saved in that state had every extractor
// that honours aria-hidden (readability, webgate's cleaned page) drop the
// whole article and return the consent notice. Only a page with a consent
// manager outside the hidden part qualifies: off-screen render targets,
// closed panels and the page behind a story opened in a lightbox stay
// hidden, and so does a small aria-hidden block (an icon, a duplicated
// label, a closed menu).
func unhideBackdrop(doc *html.Node) {
	body := findBody(doc)
	if body == nil {
		return
	}
	var hidden []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if strings.EqualFold(attr(c, "aria-hidden"), "true") {
				hidden = append(hidden, c) // the outermost one decides
				continue
			}
			walk(c)
		}
	}
	walk(body)
	if len(hidden) == 0 || !hasConsentLayer(body) {
		return
	}
	total := wordCount(body)
	for _, n := range hidden {
		if wordCount(n)*2 < total {
			continue
		}
		attrs := n.Attr[:0]
		for _, a := range n.Attr {
			if a.Key != "aria-hidden" {
				attrs = append(attrs, a)
			}
		}
		n.Attr = attrs
	}
}

// hasConsentLayer reports a consent manager in the page outside its
// aria-hidden parts: an element named as one (overlayWords), or a dialog
// (role dialog or alertdialog, aria-modal, <dialog>) whose text reads as a
// consent notice. A page that opens a story in a modal over an
// aria-hidden list of stories (a portal's lightbox) does not qualify:
// there the dialog is the content.
func hasConsentLayer(body *html.Node) bool {
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || strings.EqualFold(attr(c, "aria-hidden"), "true") {
			continue
		}
		if overlayName(c) {
			return true
		}
		dialog := c.DataAtom == atom.Dialog || strings.EqualFold(attr(c, "aria-modal"), "true")
		switch strings.ToLower(attr(c, "role")) {
		case "dialog", "alertdialog":
			dialog = true
		}
		if dialog && consentShaped(textOf(c)) || hasConsentLayer(c) {
			return true
		}
	}
	return false
}

// boilerStems end the compound names templates give their furniture
// without a separator: "mainnav", "subnav", "topmenu", German
// "hauptnavigation", "untermenue", "fussleiste". A stem counts after at
// least three letters, so "nav" and "menu" alone stay the whole words
// boilerWords holds. "footer" is no stem: a card's "cardfooter" holds
// the card's text.
var boilerStems = []string{"navigation", "navi", "nav", "menu", "menue", "sidebar", "leiste"}

func boilerCompound(w string) bool {
	for _, stem := range boilerStems {
		if len(w) >= len(stem)+3 && strings.HasSuffix(w, stem) {
			return true
		}
	}
	return false
}

// maxSignupBoxWords bounds a signup box: a call to subscribe, a line of
// fine print and a thank-you note, beside the form.
const maxSignupBoxWords = 100

// dropSignupBoxes removes the boxes built around a newsletter or text
// alert signup: the highest ancestor of an e-mail or phone field that
// holds no more than maxSignupBoxWords words. The extractors drop the form
// itself, but its box is text, and the story kept "Be the first to
// know!", "By signing up, you agree to receive recurring automated SMS
// marketing messages…" and "Thanks for signing up!" between its
// paragraphs, on sites whose utility classes name no "newsletter". A box
// holding the page's <h1> is the page, and stays, as do boxes that
// together hold a third of the body (a contact page is its form).
func dropSignupBoxes(doc *html.Node) {
	body := findBody(doc)
	if body == nil {
		return
	}
	var boxes []*html.Node
	seen := make(map[*html.Node]bool)
	for _, in := range collectElements(body, func(c *html.Node) visit {
		if c.DataAtom == atom.Input && contactField(c) {
			return take
		}
		return descend
	}) {
		box := in
		for p := in.Parent; p != nil && p != body && !wordCountOver(p, maxSignupBoxWords); p = p.Parent {
			box = p
		}
		// Fields of one form climb to one box: the highest ancestor
		// within the bound is the same for each.
		if box == in || seen[box] || holdsH1(box) {
			continue
		}
		seen[box] = true
		boxes = append(boxes, box)
	}
	removeUnlessThird(body, boxes)
}

// contactField reports an input for an e-mail address or a phone number:
// typed so, or named so (Mailchimp's type="text" name="EMAIL").
func contactField(n *html.Node) bool {
	switch strings.ToLower(attr(n, "type")) {
	case "email", "tel":
		return true
	case "hidden", "submit", "button", "checkbox", "radio":
		return false
	}
	return containsFold(attr(n, "name"), "email") || containsFold(attr(n, "id"), "email")
}
