package extract

import (
	"bytes"
	nurl "net/url"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webgate/webgate/internal/urlnorm"
)

// The converter is safe for concurrent use once built, and building it
// registers every plugin, so one shared instance saves work per page.
var mdConverter = sync.OnceValue(func() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		// Between two lists in a row the plugin writes the HTML comment
		// "<!--THE END-->", so that a CommonMark renderer keeps them apart
		// (5.3: a blank line alone does not end a list). webgate's reader
		// is a model reading the Markdown itself, for which the comment
		// is noise: 948 of them on 170 of the dev sets' pages, some
		// between two headings where an empty list had stood.
		commonmark.NewCommonmarkPlugin(commonmark.WithListEndComment(false)),
		table.NewTablePlugin(
			// Cells holding <br> or lists would otherwise make the
			// plugin fall back to raw HTML; a model reads a
			// table with "<br>" inside cells better than a pasted <table>.
			table.WithNewlineBehavior(table.NewlineBehaviorPreserve),
			table.WithSpanCellBehavior(table.SpanBehaviorMirror),
		),
		strikethrough.NewStrikethroughPlugin(),
	))
})

func renderMarkdown(content *html.Node, base *nurl.URL) string {
	domain := ""
	if base != nil {
		domain = base.String()
	}
	plainHeadings(content) // after tidyLinks: a heading's permalink may wrap its bold
	unwrapOneCellTables(content)
	separateCells(content)
	out, err := mdConverter().ConvertNode(content, converter.WithDomain(domain))
	if err != nil {
		// The converter only errors on misconfiguration or a cancelled
		// context; plain text is a faithful, if plainer, fallback.
		return renderText(content)
	}
	return tidyMarkdown(strings.TrimSpace(string(out))) + "\n"
}

// plainHeadings unwraps bold or italic markup that spans a heading's
// whole text, as WordPress's editors often set it ("<h2><strong>What is
// it?</strong></h2>"): a heading stands out already, and "## **What is
// it?**" only adds marks for the model to read past (on the three dev
// sets, 2,181 headings on 215 pages). A heading that emphasises a part
// ("<strong>Step 1:</strong> Mix") keeps it. An image in a heading that
// declares itself decorative (alt="", HTML's "not a key part of the
// content", 4.8.4.4.4) goes: pkg.go.dev and docs themes put an icon
// there, and "## ![](…/code_24dp.svg)README" only delays the heading.
func plainHeadings(root *html.Node) {
	for _, h := range headingsUnder(root) {
		removeElements(h, func(c *html.Node) bool {
			return c.DataAtom == atom.Img && hasAttr(c, "alt") && strings.TrimSpace(attr(c, "alt")) == ""
		})
		// Each turn removes an element or steps down into one.
		for n := h; n != nil; {
			switch w := soleElement(n); {
			case w == nil:
				n = nil
			case emphasisAtoms[w.DataAtom]:
				moveChildrenBefore(w, w)
				n.RemoveChild(w)
			case w.DataAtom == atom.Span:
				n = w // a styling wrapper: look inside
			default:
				n = nil
			}
		}
	}
}

// unwrapOneCellTables replaces each table of a single cell with what the
// cell holds. Such a table lays a block out (GitHub's comment bodies,
// old sites' boxes); it holds no data, and as Markdown it became a
// one-column table with an empty header around a paragraph.
//
// A callout laid out as a table of one row, a label or an icon beside
// its text (Asciidoctor's admonition blocks: <td class="icon"><i
// class="fa icon-note" title="Note"></i></td><td class="content">…), is
// no table either: as Markdown it was a two-column table with an empty
// first cell. It renders as the text, opened by the label in bold
// ("**Note:** Logback has no FATAL level."); an icon's title stands for
// a label it does not print. So does a code block beside the gutter of
// line numbers a highlighter sets in a cell of its own, without them.
func unwrapOneCellTables(root *html.Node) {
	// Innermost first: a table nested in a cell comes after its own.
	for _, t := range slices.Backward(elementsUnder(root)) {
		if t.DataAtom != atom.Table {
			continue
		}
		cells := collectElements(t, func(c *html.Node) visit {
			switch c.DataAtom {
			case atom.Td, atom.Th:
				return take
			case atom.Table:
				return skip
			}
			return descend
		})
		switch {
		case hasChild(t, atom.Caption):
		case len(cells) == 1:
			moveChildrenBefore(cells[0], t)
			removeNode(t)
		case len(cells) == 2 && cells[0].Parent == cells[1].Parent && labelCell(cells[0]) && showsSomething(cells[1]):
			label := cellLabel(cells[0])
			if label != "" {
				prependLabel(cells[1], label)
			}
			moveChildrenBefore(cells[1], t)
			removeNode(t)
		}
	}
}

// separateCells puts " | " between the cells of each row of a table that
// cannot be a Markdown table. The table plugin gives up on a table that
// holds a list, a heading, a rule, a quote or a table, or that stands
// inside a link or emphasis (Markdown's table cells hold one line of
// inline text), and then writes each row as a paragraph; but it writes a
// row's cells with nothing between them, so a comparison table whose
// cells held a list of rating stars read "…spend the moneyA best-in-class
// model…". With the bar, a row reads as one: "Onions | 1 and a half | 3".
//
// So do cells outside any table: readability renames the row it picks
// as the story to a <div> (restoreTables mends only a whole table's).
func separateCells(root *html.Node) {
	rows := map[*html.Node]bool{}
	fallback := map[*html.Node]bool{} // each table judged once, not once a row
	for _, c := range elementsUnder(root) {
		if c.DataAtom != atom.Td && c.DataAtom != atom.Th || c.Parent == nil || rows[c.Parent] {
			continue
		}
		rows[c.Parent] = true
		t := c.Parent
		for t != nil && t.DataAtom != atom.Table {
			t = t.Parent
		}
		if t != nil {
			no, judged := fallback[t]
			if !judged {
				no = noMarkdownTable(t)
				fallback[t] = no
			}
			if !no {
				continue
			}
		}
		// Between inline cells only: a block in a cell starts a line
		// of its own, and a bar there stood alone.
		prevInline := false
		for cell := c.Parent.FirstChild; cell != nil; cell = cell.NextSibling {
			if cell.DataAtom != atom.Td && cell.DataAtom != atom.Th || !showsSomething(cell) {
				continue
			}
			inline := !hasBlockChild(cell)
			if prevInline && inline {
				cell.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " | "}, cell)
			}
			prevInline = inline
		}
	}
}

// noMarkdownTable reports a table the converter's table plugin declines
// (html-to-markdown v2, plugin/table: hasProblematicChildNode and
// hasProblematicParentNode, and a table with role="presentation").
func noMarkdownTable(t *html.Node) bool {
	if attr(t, "role") == "presentation" {
		return true
	}
	for p := t.Parent; p != nil; p = p.Parent {
		switch p.DataAtom {
		case atom.A, atom.Strong, atom.B, atom.Em, atom.I, atom.Del, atom.S, atom.Strike:
			return true
		}
	}
	return findFirst(t, func(n *html.Node) bool {
		switch {
		case n == t:
			return false
		case headingAtoms[n.DataAtom]:
			return true
		}
		switch n.DataAtom {
		case atom.Table, atom.Hr, atom.Ul, atom.Ol, atom.Blockquote:
			return true
		}
		return false
	}) != nil
}

// labelCell reports a cell that holds at most a word, or only numbers:
// the gutter of line numbers a highlighter sets in a cell beside the
// code's (Hexo's and Pygments' table layout).
func labelCell(c *html.Node) bool {
	return !wordCountOver(c, 1) || strings.TrimFunc(textOf(c), func(r rune) bool { return unicode.IsDigit(r) || unicode.IsSpace(r) }) == ""
}

// cellLabel returns a label cell's text, or the title or accessible name
// of the icon it holds instead; none when that holds no letter (a code
// block's gutter of line numbers: "1 2"). An image's alternative text
// is no label ("[icon]").
func cellLabel(c *html.Node) string {
	if s := collapseSpace(textOf(c)); s != "" {
		return lettered(s)
	}
	for _, e := range elementsUnder(c) {
		if e.DataAtom == atom.Img {
			continue
		}
		for _, k := range []string{"title", "aria-label"} {
			if v := collapseSpace(attr(e, k)); v != "" && countWords(v) <= 1 {
				return lettered(v)
			}
		}
	}
	return ""
}

// lettered returns s when it holds a letter, "" otherwise.
func lettered(s string) string {
	if strings.IndexFunc(s, unicode.IsLetter) < 0 {
		return ""
	}
	return s
}

// prependLabel opens cell's text with label in bold and a colon: in its
// first paragraph, or in the cell itself when its text starts there.
func prependLabel(cell *html.Node, label string) {
	if !strings.HasSuffix(label, ":") {
		label += ":"
	}
	at := cell
	if p := findFirst(cell, func(n *html.Node) bool { return isElem(n, atom.P) }); p != nil {
		at = p
	}
	strong := &html.Node{Type: html.ElementNode, Data: "strong", DataAtom: atom.Strong}
	strong.AppendChild(&html.Node{Type: html.TextNode, Data: label})
	space := &html.Node{Type: html.TextNode, Data: " "}
	at.InsertBefore(space, at.FirstChild)
	at.InsertBefore(strong, space)
}

// tidyLinks readies links for the reader. A link with nothing to show goes
// (a share button's icon, an image link whose placeholder image went):
// "[](https://…)" is an address the model cannot tell the purpose of
// (2,504 on 244 of the dev sets' pages). A link to a place on the same
// page (a heading's permalink, a table of contents' entry, a footnote
// mark) keeps its text without the address, which only repeats the
// page's (headings so linked: 382 on 36 pages); so does a link that runs
// a script (105 javascript: links on the dev pages), and an <a> with no
// address (a named anchor, a script's "less" toggle, href=""), which the
// Markdown converter wrote as a link to the page itself. A same-page link
// whose text is only a place mark goes whole: the permalink signs Sphinx,
// MkDocs and rustdoc put in every heading ("Basic usage¶", "§Examples")
// and a footnote's way back ("↩", "^") mean nothing off the page (374
// headings on 18 documentation pages of WCXB-dev ended in "¶"). So does
// a footnote's mark (a short link in a <sup>: "1", "[2]") whose note is
// not in the content: the reading left the notes out, and the number
// glued to the word it followed ("fell by a third on average1").
func tidyLinks(root *html.Node, base *nurl.URL) {
	pageKey := ""
	if base != nil && base.Host != "" {
		pageKey = urlnorm.KeyURL(base)
	}
	var ids map[string]bool // the content's ids, taken when a mark needs them
	noteGone := func(a *html.Node) bool {
		id := noteID(a)
		if id == "" || a.Parent == nil || a.Parent.DataAtom != atom.Sup || !shortMark(a) {
			return false
		}
		if ids == nil {
			ids = map[string]bool{}
			addIDs(ids, root)
		}
		return !ids[id]
	}
	for _, a := range collectElements(root, func(c *html.Node) visit {
		if c.DataAtom == atom.A {
			return take
		}
		return descend
	}) {
		switch {
		case !showsSomething(a):
			dropKeepingSpace(a)
		case samePage(attr(a, "href"), pageKey) || scriptLink(attr(a, "href")) || strings.TrimSpace(attr(a, "href")) == "":
			if placeMark(textOf(a)) && !showsMedia(a) || noteGone(a) {
				dropNoteMark(a)
				continue
			}
			moveChildrenBefore(a, a)
			removeNode(a)
		}
	}
}

// placeMark reports a link text made only of the signs themes use for a
// permalink or a way back ("¶", "§", "#", "🔗", "↩︎", "↑", "^"; Doxygen's
// "◆" before each member's heading), which mean nothing off the page.
// Other signs stay: a link over "(" or "*" is part of its sentence.
func placeMark(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && strings.Trim(s, placeMarks+" ") == ""
}

// permalinkSigns are the signs documentation generators set in a heading
// as its permalink (Sphinx's "¶", rustdoc's "§", Doxygen's "◆"), and the
// zero-width space set beside them. "#" and "^" mark places too, but they
// also end names ("C#"), so a heading's text keeps them.
const permalinkSigns = "¶§🔗⚓◆\u200b"

// placeMarks are the signs of placeMark: the permalinks', a footnote's
// ways back, and the variation selectors themes set beside them.
const placeMarks = permalinkSigns + "#↩↑⇧^\ufe0e\ufe0f"

// dropKeepingSpace removes a link, leaving a space when it held one:
// "located<a href="#m"> </a>near" must not become "locatednear".
func dropKeepingSpace(a *html.Node) {
	if strings.ContainsFunc(textOf(a), unicode.IsSpace) {
		a.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, a)
	}
	removeNode(a)
}

// scriptLink reports a javascript: address, which runs the page's code
// and leads nowhere ("javascript:void(0)", a consent dialog's opener).
func scriptLink(href string) bool {
	href = strings.TrimSpace(href)
	return len(href) >= 11 && strings.EqualFold(href[:11], "javascript:")
}

// showsSomething reports an element holding text or an image.
func showsSomething(n *html.Node) bool {
	return showsMedia(n) || findFirst(n, func(c *html.Node) bool {
		return c.Type == html.TextNode && strings.TrimSpace(c.Data) != ""
	}) != nil
}

// showsMedia reports an element holding an image, a video or a sound.
func showsMedia(n *html.Node) bool {
	return findFirst(n, func(c *html.Node) bool {
		return c.Type == html.ElementNode && (c.DataAtom == atom.Img || c.DataAtom == atom.Video || c.DataAtom == atom.Audio)
	}) != nil
}

// samePage reports an address of a place on the page whose urlnorm key
// is pageKey: "#part", or the page's own address, as urlnorm compares
// pages (scheme, "www.", a trailing slash and tracking parameters
// aside), with a fragment.
func samePage(href, pageKey string) bool {
	href = strings.TrimSpace(href)
	if strings.HasPrefix(href, "#") {
		return true
	}
	if pageKey == "" || !strings.Contains(href, "#") {
		return false
	}
	u, err := nurl.Parse(href)
	return err == nil && u.Fragment != "" && u.Host != "" && urlnorm.KeyURL(u) == pageKey
}

// emphasisAtoms are the elements Markdown renders as ** or *.
var emphasisAtoms = map[atom.Atom]bool{atom.Strong: true, atom.B: true, atom.Em: true, atom.I: true}

// soleElement returns n's one element child when n holds nothing else
// but whitespace, line breaks and empty spans and anchors (a table of
// contents' <span id="..."></span>); nil otherwise. Headings
// (plainHeadings) and kicker lines (namedKicker) are judged by it.
func soleElement(n *html.Node) *html.Node {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.DataAtom == atom.Br, (c.DataAtom == atom.Span || c.DataAtom == atom.A) && emptyInline(c):
		case c.Type == html.ElementNode && only == nil:
			only = c
		case c.Type == html.ElementNode, c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return nil
		}
	}
	return only
}

// emptyInline reports an element that holds at most whitespace text.
func emptyInline(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode || strings.TrimSpace(c.Data) != "" {
			return false
		}
	}
	return true
}

// tidyMarkdown empties whitespace-only lines outside fenced code (the
// converter leaves indentation on blank lines inside list items) and caps
// blank runs at one. Lines inside fences are left exactly as they are.
//
// It also drops a line holding only a backslash after a hard line break.
// A link around blocks (a card: its image, title and summary in one <a>)
// cannot hold a blank line, so the converter writes each blank line in
// one as such a line, itself a hard break (CommonMark 6.7), after the
// hard break ("  ") that ends the line before it. That break already
// starts a new line, so the link reads the same without it and the model
// reads fewer signs (3,280 such lines on 65 of the dev sets' pages).
func tidyMarkdown(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	fence := ""
	quote := "" // the "> " marks of a fenced block inside a blockquote
	blank := 0
	for _, l := range lines {
		if quote != "" {
			// The converter quotes a fenced block's first line only;
			// the rest fell out of the blockquote, and a CommonMark
			// reader ends the block there (5.1).
			if !strings.HasPrefix(l, quote) {
				l = quote + l
			} else if strings.HasPrefix(strings.TrimPrefix(l, quote), "```") {
				quote = ""
			}
			out = append(out, l)
			continue
		}
		if fence == "" {
			quote = quotedFence(l)
		}
		t := strings.TrimLeft(l, " ")
		if o := trimListMarker(t); fence == "" && (strings.HasPrefix(o, "```") || strings.HasPrefix(o, "~~~")) {
			fence = o[:3]
		} else if fence != "" && strings.HasPrefix(t, fence) && strings.TrimSpace(strings.Trim(t, fence[:1])) == "" {
			fence = ""
		} else if fence == "" && strings.TrimSpace(l) == "" {
			if blank++; blank > 1 {
				continue
			}
			out = append(out, "")
			continue
		}
		if fence == "" && l == `\` && len(out) > 0 && strings.HasSuffix(out[len(out)-1], "  ") {
			continue
		}
		blank = 0
		if fence == "" {
			l = unescapeIntraword(l)
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// trimListMarker returns t without the list item's marker it opens with
// ("- ", "* ", "+ ", "1. ", "1) "): a code block that opens a list item
// starts its fence on the marker's line ("- ```"), and the lines after
// it are the code's.
func trimListMarker(t string) string {
	if len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ' {
		return t[2:]
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return t[i+2:]
	}
	return t
}

// quotedFence returns the blockquote marks ("> ", "> > ") before a
// fence that opens a code block on line l, or "".
func quotedFence(l string) string {
	i := 0
	for strings.HasPrefix(l[i:], "> ") {
		i += 2
	}
	if i == 0 || !strings.HasPrefix(l[i:], "```") {
		return ""
	}
	return l[:i]
}

// unescapeIntraword removes the converter's backslash before an
// underscore between two letters or digits ("louise\_matsakis@wired.com",
// "@PFF\_Browns", "10.1007/978-3-319-09575-2\_199-1"): CommonMark never
// reads such an underscore as emphasis (6.2: an underscore inside a word
// neither opens nor closes it), and the backslash made the address or
// the name wrong for a model that copies it (1,715 on 117 of the dev
// sets' pages). Code spans are left as they are.
func unescapeIntraword(l string) string {
	if !strings.Contains(l, `\_`) {
		return l
	}
	var b strings.Builder
	code := 0 // the length of the backtick run that opened a code span
	for i := 0; i < len(l); {
		if l[i] == '`' {
			j := i
			for j < len(l) && l[j] == '`' {
				j++
			}
			switch {
			case code == 0:
				code = j - i
			case code == j-i:
				code = 0
			}
			b.WriteString(l[i:j])
			i = j
			continue
		}
		if code == 0 && l[i] == '\\' && i+2 < len(l) && l[i+1] == '_' {
			before, _ := utf8.DecodeLastRuneInString(l[:i])
			after, _ := utf8.DecodeRuneInString(l[i+2:])
			if wordChar(before) && wordChar(after) {
				i++ // drop the backslash, keep the underscore
				continue
			}
		}
		b.WriteByte(l[i])
		i++
	}
	return b.String()
}

// wordChar reports a letter or a digit.
func wordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func renderHTML(content *html.Node) string {
	var b bytes.Buffer
	for c := content.FirstChild; c != nil; c = c.NextSibling {
		_ = html.Render(&b, c) // writes to a bytes.Buffer cannot fail
	}
	return b.String()
}

// blockAtoms are elements that start a new line in plain text.
var blockAtoms = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Ul: true, atom.Ol: true, atom.Li: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Table: true, atom.Tr: true,
	atom.Thead: true, atom.Tbody: true, atom.Tfoot: true, atom.Caption: true, atom.Blockquote: true, atom.Pre: true,
	atom.Section: true, atom.Article: true, atom.Main: true, atom.Header: true, atom.Footer: true, atom.Aside: true,
	atom.Nav: true, atom.Figure: true, atom.Figcaption: true, atom.Hr: true, atom.Form: true, atom.Fieldset: true,
	atom.Details: true, atom.Summary: true, atom.Address: true, atom.Body: true, atom.Html: true,
}

// paragraphAtoms get a blank line around them; other blocks a single newline.
var paragraphAtoms = map[atom.Atom]bool{
	atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Table: true, atom.Blockquote: true, atom.Pre: true, atom.Ul: true, atom.Ol: true, atom.Dl: true, atom.Figure: true,
	atom.Section: true, atom.Article: true,
}

// textWriter renders a tree as plain text: inline whitespace collapsed,
// <pre> kept byte for byte, blocks on their own lines, table cells split by
// tabs. No Markdown syntax, so word-level scorers and humans see only text.
type textWriter struct {
	b       strings.Builder
	pending int  // newlines owed before the next text
	space   bool // a collapsed space is owed before the next word
}

func renderText(content *html.Node) string {
	var w textWriter
	w.node(content)
	return strings.TrimSpace(w.b.String()) + "\n"
}

func (w *textWriter) breakLines(n int) {
	if w.b.Len() == 0 {
		return
	}
	if n > w.pending {
		w.pending = n
	}
	w.space = false
}

func (w *textWriter) flush() {
	if w.pending > 0 {
		w.b.WriteString("\n\n"[:w.pending])
		w.pending = 0
		w.space = false
	}
}

func (w *textWriter) text(s string) {
	for i, f := range strings.Fields(s) {
		if i > 0 || (w.space || startsSpace(s)) && w.pending == 0 && w.b.Len() > 0 && !endsNewline(&w.b) {
			w.b.WriteByte(' ')
		}
		w.flush()
		w.b.WriteString(f)
		w.space = false
	}
	if strings.TrimSpace(s) == "" {
		if s != "" {
			w.space = true
		}
		return
	}
	w.space = endsSpace(s)
}

// startsSpace and endsSpace judge the first and last rune by
// unicode.IsSpace, as strings.Fields splits: a no-break space at the edge of
// a text node ("<strong>Price:</strong>&nbsp;$499", French "«&nbsp;<em>")
// separates words like any other, and gluing the neighbours ("Price:$499")
// breaks every phrase a reader or a scorer looks for.
func startsSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && unicode.IsSpace(r)
}

func endsSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && unicode.IsSpace(r)
}
func endsNewline(b *strings.Builder) bool {
	s := b.String()
	return s != "" && s[len(s)-1] == '\n'
}

func (w *textWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
	default:
		return
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Svg, atom.Button, atom.Select, atom.Input, atom.Textarea:
		return
	case atom.Br:
		w.pending = max(w.pending, 1)
		if w.b.Len() == 0 {
			w.pending = 0
		}
		return
	case atom.Pre:
		w.breakLines(2)
		w.flush()
		w.b.WriteString(strings.Trim(preText(n), "\n"))
		w.breakLines(2)
		return
	case atom.Td, atom.Th:
		if n.PrevSibling != nil && hasPrevCell(n) {
			w.flush()
			w.b.WriteByte('\t')
			w.space = false
		}
	}
	block := blockAtoms[n.DataAtom]
	if block {
		if paragraphAtoms[n.DataAtom] {
			w.breakLines(2)
		} else {
			w.breakLines(1)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
	if block {
		if paragraphAtoms[n.DataAtom] {
			w.breakLines(2)
		} else {
			w.breakLines(1)
		}
	}
}

func hasPrevCell(n *html.Node) bool {
	for p := n.PrevSibling; p != nil; p = p.PrevSibling {
		if isElem(p, atom.Td) || isElem(p, atom.Th) {
			return true
		}
	}
	return false
}

// preText is the exact text of a <pre>, with <br> as newlines and
// highlighting markup dropped; nothing is trimmed or re-indented inside.
func preText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Br:
				b.WriteByte('\n')
				return
			case atom.Script, atom.Style, atom.Button, atom.Template:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
