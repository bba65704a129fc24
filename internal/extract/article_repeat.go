package extract

import "golang.org/x/net/html"

// Passages are runs of at least repeatRun paragraphs of at least
// repeatWords words each.
const (
	repeatRun   = 3
	repeatWords = 15
)

// dropRepeatedPassages removes a passage of an article that repeats,
// paragraph for paragraph, a passage printed earlier: themes that render
// the story once per layout (desktop, tablet, mobile) and hide all but
// one with CSS, or repeat it in a print view, put every copy inside the
// container readability chooses. A single paragraph that recurs is kept,
// and so are two in a row: a meal plan lists the same meal on several
// days, an interview repeats its questions, a pull quote repeats a
// sentence, and references keep them all. Only leaf blocks of at least
// repeatWords words take part, so the headings and short labels between
// the copies neither break a run nor are removed.
func dropRepeatedPassages(root *html.Node) {
	var blocks []*html.Node
	var texts []string
	// walk collects the long leaf blocks under n in document order and
	// reports whether n holds a block, in one pass (collectElements with
	// hasBlockChild would rescan each subtree at every level).
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		hasBlock := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			inner := walk(c)
			if blockAtoms[c.DataAtom] {
				if !inner && wordCount(c) >= repeatWords {
					if t := collapseSpace(textOf(c)); countWords(t) >= repeatWords {
						blocks = append(blocks, c)
						texts = append(texts, t)
					}
				}
				hasBlock = true
			}
			hasBlock = hasBlock || inner
		}
		return hasBlock
	}
	walk(root)
	// earlier[i] is the index of the first block with the text of block
	// i, or -1 when block i is the first.
	earlier := make([]int, len(texts))
	first := make(map[string]int, len(texts))
	for i, t := range texts {
		j, seen := first[t]
		if !seen {
			first[t], j = i, -1
		}
		earlier[i] = j
	}
	drop := make([]bool, len(blocks))
	for i := 0; i+repeatRun <= len(blocks); i++ {
		run := true
		for k := 0; k < repeatRun && run; k++ {
			run = earlier[i+k] >= 0 && earlier[i+k] == earlier[i]+k
		}
		if run {
			for k := 0; k < repeatRun; k++ {
				drop[i+k] = true
			}
		}
	}
	for i, b := range blocks {
		if drop[i] {
			removeNode(b)
		}
	}
}
