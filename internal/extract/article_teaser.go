package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// teaserContainers are the elements a teaser card is built of.
var teaserContainers = map[atom.Atom]bool{atom.Div: true, atom.Aside: true, atom.Section: true, atom.Article: true, atom.Figure: true}

const (
	maxTeaserWords      = 80 // a card's headline, kicker and summary
	maxTeasersPerParent = 2  // more are a listicle's items
	minFlankProse       = 15 // a paragraph of the story beside the card
)

// dropTeaserCards removes cards teasing another story from inside an
// article: a box whose heading is wholly a link to another page, with a
// kicker and a summary of a sentence or two, standing among the story's
// paragraphs. Trafilatura's balanced reading drops such boxes by their
// class name ("teaser"), which German sites also give the story's own
// lead, so the consensus reference keeps them; the linked headline is
// what tells them apart. Three or more under one parent are a list's
// items (a listicle of tools, each heading linking to the tool), not
// cards, and a heading that links within the page (a table of contents)
// is no teaser.
func dropTeaserCards(root *html.Node) {
	cards := collectElements(root, func(c *html.Node) visit {
		if teaserContainers[c.DataAtom] && c != root && isTeaserCard(c) {
			return take
		}
		return descend
	})
	per := map[*html.Node]int{}
	for _, c := range cards {
		per[c.Parent]++
	}
	for _, c := range cards {
		if per[c.Parent] <= maxTeasersPerParent && flankedByProse(c) {
			removeNode(c)
		}
	}
}

// isTeaserCard reports a small box with a heading that is all link to
// another page.
func isTeaserCard(c *html.Node) bool {
	w := wordCount(c)
	if w == 0 || w > maxTeaserWords {
		return false
	}
	h := findFirst(c, func(n *html.Node) bool { return n != c && headingAtoms[n.DataAtom] })
	if h == nil {
		return false
	}
	hw := wordCount(h)
	if hw == 0 || linkWords(h) < hw {
		return false
	}
	a := findFirst(h, func(n *html.Node) bool { return isElem(n, atom.A) })
	href := strings.TrimSpace(attr(a, "href"))
	return href != "" && !strings.HasPrefix(href, "#")
}

// flankedByProse reports whether a paragraph of the story stands before
// and after c among its siblings (or its parent's, for a card wrapped
// once more).
func flankedByProse(c *html.Node) bool {
	before, after := false, false
	for s := c.PrevSibling; s != nil && !before; s = s.PrevSibling {
		before = s.Type == html.ElementNode && isElem(s, atom.P) && wordCount(s) >= minFlankProse
	}
	for s := c.NextSibling; s != nil && !after; s = s.NextSibling {
		after = s.Type == html.ElementNode && isElem(s, atom.P) && wordCount(s) >= minFlankProse
	}
	return before && after
}
