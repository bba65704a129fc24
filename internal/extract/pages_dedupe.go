package extract

import (
	"golang.org/x/net/html"
)

// dedupeRuns removes a run of leaf blocks that repeats, in the same
// order, a run seen earlier in root: at least minRunLeaves consecutive
// leaves and minRunWords words. Extractors that stitch a page together
// from several candidates (trafilatura's fallback) can return the same
// body twice, and responsive layouts ship a second copy of a section for
// small screens. A single repeated leaf is not enough: cards of a listing
// or tiers of a pricing table repeat their terms ("Not valid with other
// offers") beside a title of their own, and the reference keeps each.
func dedupeRuns(root *html.Node) {
	var leaves []*html.Node
	var texts []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if blockAtoms[c.DataAtom] && !hasBlockChild(c) {
				if t := collapseSpace(textOf(c)); t != "" {
					leaves = append(leaves, c)
					texts = append(texts, t)
				}
				continue
			}
			walk(c)
		}
	}
	walk(root)
	first := make(map[string]int, len(texts))
	var drop []*html.Node
	for i := 0; i < len(texts); {
		j, ok := first[texts[i]]
		if !ok {
			first[texts[i]] = i
			i++
			continue
		}
		n, w := 0, 0
		for i+n < len(texts) && j+n < i && texts[i+n] == texts[j+n] {
			w += countWords(texts[i+n])
			n++
		}
		if n >= minRunLeaves && w >= minRunWords {
			drop = append(drop, leaves[i:i+n]...)
			i += n
			continue
		}
		i++
	}
	for _, n := range drop {
		removeNode(n)
	}
}

const (
	minRunLeaves = 3
	minRunWords  = 30
)
