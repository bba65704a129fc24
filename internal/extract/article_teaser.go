package extract

import (
	nurl "net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// teaserContainers are the elements a teaser card is built of.
var teaserContainers = map[atom.Atom]bool{atom.Div: true, atom.Aside: true, atom.Section: true, atom.Article: true, atom.Figure: true, atom.Li: true}

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
func dropTeaserCards(root *html.Node) { dropCards(root, true) }

// dropFlankedCards removes only the single cards standing among the
// story's paragraphs: on a page that declares no article, lists of cards
// are the content of a listing as often as a column of teasers.
func dropFlankedCards(root *html.Node) { dropCards(root, false) }

func dropCards(root *html.Node, lists bool) {
	cards := teaserCards(root, true)
	if len(cards) == 0 {
		return
	}
	var parents []*html.Node
	per := map[*html.Node][]*html.Node{}
	for _, c := range cards {
		if per[c.Parent] == nil {
			parents = append(parents, c.Parent)
		}
		per[c.Parent] = append(per[c.Parent], c)
	}
	var (
		prose map[*html.Node]bool
		story *html.Node
	)
	if lists {
		prose = proseOutside(root, cards)
		for b := range prose {
			story = commonAncestor(story, b)
		}
	}
	for _, p := range parents {
		cs := per[p]
		if lists && len(cs) >= 2 && p != root && (outside(p, story) || relatedHeaded(p) || trailing(p, root, cs, prose)) && cardsFill(p, cs) {
			removeNode(p)
			continue
		}
		if len(cs) > maxTeasersPerParent {
			continue
		}
		for _, c := range cs {
			if flankedByProse(c) {
				removeNode(c)
			}
		}
	}
}

// teaserCards returns the outermost teaser cards (isTeaserCard) under
// root. With wrapping, a card's headline link may also wrap its heading
// (<a><h3>...</h3></a>, as HTML5 allows): so it does in the cards beside
// a story, and in a shop's product grid alike, so only the rules that
// judge an extracted story's own blocks take such cards.
func teaserCards(root *html.Node, wrapping bool) []*html.Node {
	return collectElements(root, func(c *html.Node) visit {
		if teaserContainers[c.DataAtom] && isTeaserCard(c, wrapping) {
			return take
		}
		return descend
	})
}

// proseOutside returns the paragraphs of prose (isProse, minFlankProse
// words) under root that lie outside the cards. The smallest element
// holding them all is the story's box.
func proseOutside(root *html.Node, cards []*html.Node) map[*html.Node]bool {
	in := map[*html.Node]bool{}
	for _, c := range cards {
		in[c] = true
	}
	prose := map[*html.Node]bool{}
	for _, b := range collectElements(root, func(c *html.Node) visit {
		switch {
		case in[c]:
			return skip
		case blockAtoms[c.DataAtom] && !hasBlockChild(c):
			return take
		}
		return descend
	}) {
		if isProse(b, minFlankProse) {
			prose[b] = true
		}
	}
	return prose
}

// commonAncestor returns the nearest element holding both a and b (a nil
// a is none yet): the deeper of the two climbs to the other's depth, then
// both climb together.
func commonAncestor(a, b *html.Node) *html.Node {
	if a == nil {
		return b
	}
	da, db := levelsBelow(a, nil), levelsBelow(b, nil)
	for ; da > db; da-- {
		a = a.Parent
	}
	for ; db > da; db-- {
		b = b.Parent
	}
	for a != b {
		a, b = a.Parent, b.Parent
	}
	return a
}

// levelsBelow counts the parents from n up to its ancestor a (nil: to
// the root).
func levelsBelow(n, a *html.Node) int {
	d := 0
	for p := n; p != nil && p != a; p = p.Parent {
		d++
	}
	return d
}

// outside reports that n stands outside the <article> element that holds
// the story's box (and does not hold it): a column of teasers beside the
// story, which readability takes in with a short story. Without such an
// element nothing is outside: a listicle's or a course page's grid of
// cards stands in the same container as its introduction.
func outside(n, story *html.Node) bool {
	if story == nil {
		return false
	}
	a := story
	for a != nil && !isElem(a, atom.Article) {
		a = a.Parent
	}
	return a != nil && n != a && !hasAncestorNode(n, a) && !hasAncestorNode(a, n)
}

// trailing reports a list of cards of other stories that ends the story:
// each card carries a date or links to a story's address (storyLinked),
// no paragraph of the story's prose (proseOutside) follows p, and the
// rest of root holds at least twice the cards' words. That is the
// carousel of the blog's other posts after a post, in a box of its own,
// or a news site's list of its other stories. A listicle's cards are
// most of its words (its introduction does not outweigh them twice
// over), and a manual's closing cards ("Featured samples") carry no
// dates and link to pages named in a word or two. Undeclared, two AEB
// stories gain 0.08 each; no page loses.
func trailing(p, root *html.Node, cards []*html.Node, prose map[*html.Node]bool) bool {
	if wordCount(root) < 3*wordsIn(cards) {
		return false
	}
	for _, c := range cards {
		if !dated(c) && !storyLinked(c) {
			return false
		}
	}
	for n := p; n != nil && n != root; n = n.Parent {
		for sib := n.NextSibling; sib != nil; sib = sib.NextSibling {
			if findFirst(sib, func(b *html.Node) bool { return prose[b] }) != nil {
				return false
			}
		}
	}
	return true
}

// storyLinked reports a card whose first link goes to a story: an
// address whose last segment is a headline (storySlug).
func storyLinked(c *html.Node) bool {
	a := findFirst(c, func(n *html.Node) bool { return isElem(n, atom.A) && attr(n, "href") != "" })
	if a == nil {
		return false
	}
	u, err := nurl.Parse(strings.TrimSpace(attr(a, "href")))
	return err == nil && storySlug(u)
}

// dated reports a card that carries its story's date: a <time> element
// or a block that is a bare date (bareDate).
func dated(c *html.Node) bool {
	return findFirst(c, func(n *html.Node) bool {
		return isElem(n, atom.Time) || n != c && blockAtoms[n.DataAtom] && !hasBlockChild(n) && bareDate(n)
	}) != nil
}

// relatedHeaded reports a list headed by a related-stories label ("Most
// popular", "Weitere Meldungen", "Самые популярные"): dropRelated removes
// the label and the links under it, but a card's summary is no link.
func relatedHeaded(p *html.Node) bool {
	first := findFirst(p, func(n *html.Node) bool {
		return n != p && textLeaf(n)
	})
	return first != nil && wordCount(first) <= maxRelatedLabelWords && linkWords(first) == 0 && startsRelated(first)
}

// cardsFill reports that the cards hold four fifths of p's words: p is a
// list of them under at most a label.
func cardsFill(p *html.Node, cards []*html.Node) bool {
	return wordsIn(cards)*5 >= wordCount(p)*4
}

// isTeaserCard reports a small box headed by a link to another page: a
// heading that is all link, or a first line that is all link followed by
// a summary (templates that set the headline in a <div class="title">).
// A line of links with nothing under it is a menu, not a card.
func isTeaserCard(c *html.Node, wrapping bool) bool {
	if wordCountOver(c, maxTeaserWords) {
		return false
	}
	w := wordCount(c)
	if w == 0 {
		return false
	}
	h := leadingLink(c)
	if h == nil {
		h = findFirst(c, func(n *html.Node) bool {
			return n != c && (headingAtoms[n.DataAtom] || textLeaf(n))
		})
	}
	// A kicker over the headline ("Nahverkehr") is a line of its own
	// once readability has wrapped it in a <p>: the headline is the
	// heading after it.
	if h != nil && !headingAtoms[h.DataAtom] && linkWords(h) == 0 && wordCount(h) <= maxKickerWords {
		if hd := findFirst(c, func(n *html.Node) bool { return headingAtoms[n.DataAtom] }); hd != nil {
			h = hd
		}
	}
	if h == nil {
		return false
	}
	hw := wordCount(h)
	if hw == 0 {
		return false
	}
	var a *html.Node
	if wrapping {
		a = linkAround(h, c)
	}
	if a == nil {
		if linkWords(h) < hw {
			return false
		}
		a = findFirst(h, func(n *html.Node) bool { return isElem(n, atom.A) })
	}
	if !headingAtoms[h.DataAtom] && w-linkWords(c) < minSummaryWords {
		return false
	}
	href := strings.TrimSpace(attr(a, "href"))
	return href != "" && !strings.HasPrefix(href, "#")
}

// leadingLink returns the link that opens a box as its first line, set
// inline before the box's blocks (<li><a>Headline</a><h4>Summary</h4>),
// or nil.
func leadingLink(c *html.Node) *html.Node {
	first := c.FirstChild
	if first != nil && first.Type != html.ElementNode {
		if first.Type == html.TextNode && strings.TrimSpace(first.Data) != "" {
			return nil // the box opens with text of its own
		}
		first = elementSibling(first, 1)
	}
	if isElem(first, atom.A) && wordCount(first) > 0 && !hasBlockChild(first) {
		return first
	}
	return nil
}

// linkAround returns the <a> that holds n, below c, or nil.
func linkAround(n, c *html.Node) *html.Node {
	for p := n.Parent; p != nil && p != c; p = p.Parent {
		if isElem(p, atom.A) {
			return p
		}
	}
	return nil
}

// minSummaryWords: the summary under a headline that is no heading.
const minSummaryWords = 5

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
