package extract

import (
	"slices"

	"golang.org/x/net/html"
)

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
// repeatWords words make a passage, so the headings and short labels
// between the copies do not break a run.
//
// Those short blocks go with the copy they stand in: a heading or a list
// item that repeats an earlier block's text, next to a removed paragraph
// (the nearest long block before or after it was removed). Kept, they
// left the copy's outline behind, a dozen headings in a row with nothing
// under them.
func dropRepeatedPassages(root *html.Node) {
	var blocks []*html.Node
	var texts []string
	// walk collects the leaf blocks with text under n in document order
	// and reports whether n holds a block, in one pass (collectElements
	// with hasBlockChild would rescan each subtree at every level).
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		hasBlock := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			inner := walk(c)
			if blockAtoms[c.DataAtom] {
				if !inner {
					if t := collapseSpace(textOf(c)); t != "" {
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
	var long []int // indices of the blocks of repeatWords words or more
	for i, t := range texts {
		j, seen := first[t]
		if !seen {
			first[t], j = i, -1
		}
		earlier[i] = j
		if countWords(t) >= repeatWords {
			long = append(long, i)
		}
	}
	// A run is repeatRun long blocks in a row (short ones between them
	// aside) that repeat, in order, long blocks in a row.
	drop := make([]bool, len(blocks))
	for k := 0; k+repeatRun <= len(long); k++ {
		run := earlier[long[k]] >= 0
		for m := 1; m < repeatRun && run; m++ {
			e := earlier[long[k+m]]
			run = e >= 0 && e == nextLong(long, earlier[long[k+m-1]])
		}
		if run {
			for m := 0; m < repeatRun; m++ {
				drop[long[k+m]] = true
			}
		}
	}
	// The short repeats beside a removed block.
	prev := -1 // the last long block before i
	for k, i := 0, 0; i < len(blocks); i++ {
		if k < len(long) && long[k] == i {
			prev, k = i, k+1
			continue
		}
		if earlier[i] < 0 {
			continue
		}
		if prev >= 0 && drop[prev] || k < len(long) && drop[long[k]] {
			drop[i] = true
		}
	}
	for i, b := range blocks {
		if drop[i] {
			removeNode(b)
		}
	}
}

// nextLong returns the long block after block i (an index into the
// blocks), or -1.
func nextLong(long []int, i int) int {
	k, _ := slices.BinarySearch(long, i+1)
	if k < len(long) {
		return long[k]
	}
	return -1
}
