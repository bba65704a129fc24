package extract

import (
	nurl "net/url"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webgate/webgate/internal/urlnorm"
)

// dropTrailingContents removes a table of contents that follows the
// sections it lists. Documentation themes (Docusaurus's "On this page"
// column) and blog themes (a sticky sidebar) place it beside the text on
// screen but after it in the source, so a container chosen around both
// ends with the page's headings a second time, as a list: noise after
// the last paragraph, which no reader of the page meets there. A list
// counts when every item is one link to a place on the page (with, nested,
// more such items) whose text names a heading that comes before the list.
// A table of contents ahead of the text stays: a reader meets it there
// first, and Readability.js's own test pages keep it.
func dropTrailingContents(root *html.Node, base *nurl.URL) {
	pageKey := ""
	if base != nil && base.Host != "" {
		pageKey = urlnorm.KeyURL(base)
	}
	seen := map[string]bool{}
	var lists []*html.Node
	// Document order: a heading is seen before any list after it.
	collectElements(root, func(c *html.Node) visit {
		switch {
		case headingAtoms[c.DataAtom]:
			if k := headingKey(textOf(c)); k != "" {
				seen[k] = true
			}
			return skip
		case (c.DataAtom == atom.Ul || c.DataAtom == atom.Ol) && len(seen) >= 2:
			if n := indexItems(c, pageKey, seen); n >= 2 {
				lists = append(lists, c)
				return skip
			}
		}
		return descend
	})
	for _, l := range lists {
		removeNode(l)
	}
}

// indexItems counts the entries of list when it is an index of the
// headings in seen: each item one same-page link naming a seen heading,
// optionally followed by a nested list of the same kind. It returns 0
// when any item is anything else.
func indexItems(list *html.Node, pageKey string, seen map[string]bool) int {
	n := 0
	for li := list.FirstChild; li != nil; li = li.NextSibling {
		if blankText(li) {
			continue
		}
		if !isElem(li, atom.Li) {
			return 0
		}
		link := false
		for c := li.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case blankText(c):
			case !link && isElem(c, atom.A):
				if !samePage(attr(c, "href"), pageKey) || !seen[headingKey(textOf(c))] {
					return 0
				}
				link = true
				n++
			case link && (isElem(c, atom.Ul) || isElem(c, atom.Ol)):
				m := indexItems(c, pageKey, seen)
				if m == 0 {
					return 0
				}
				n += m
			default:
				return 0
			}
		}
		if !link {
			return 0
		}
	}
	return n
}

// headingKey is how a heading and its entry in a table of contents are
// matched: case and spacing aside, without the section number an index
// may add ("2.1 Install" for "Install") or the permalink mark a theme
// appends to the heading ("Install¶", "Install#").
func headingKey(s string) string {
	s = strings.ToLower(collapseSpace(s))
	s = strings.TrimRight(s, placeMarks+" ")
	// Leading section numbers: "1", "2.1.", "3)", "#4".
	for {
		f, rest, ok := strings.Cut(s, " ")
		if !ok || strings.TrimFunc(f, func(r rune) bool { return unicode.IsDigit(r) || strings.ContainsRune(".)#:", r) }) != "" {
			break
		}
		s = rest
	}
	return s
}
