package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// addClosing puts back, at the end of readability's block (read), the
// story's paragraphs that go on after it in components of the same
// make: blocks set as the block's last paragraph is (sameSetting), after
// it in the page, with only figures, captions and short labels (an ad
// slot's) between them.
//
// News templates build a story from components, a text block, an image,
// another text block, each in wrappers of its own. Readability scores
// the wrappers, and where their class names carry no weight (hashed
// names, as CSS modules ship them) it keeps the first text component
// only: the story's tail was cut. The tail's paragraphs are the same
// component's output, in the same wrappers under the same names; a
// related-stories box, a comment thread or the next story's headline
// is not, and ends the run.
func addClosing(doc, read *html.Node) {
	var anchor string
	leaves := leafBlocks(read)
	for i := len(leaves) - 1; i >= 0 && anchor == ""; i-- {
		if wordCount(leaves[i]) >= minAnchorWords {
			anchor = collapseSpace(textOf(leaves[i]))
		}
	}
	if anchor == "" {
		return
	}
	// Only a block of about the anchor's words is compared: its text
	// need not be copied out otherwise (wordCount counts a word an
	// inline element splits twice).
	aw := countWords(anchor)
	var last *html.Node
	var after []*html.Node
	collectElements(findBody(doc), func(c *html.Node) visit {
		if len(after) == maxClosingBlocks {
			return skip
		}
		if !blockAtoms[c.DataAtom] || hasBlockChild(c) {
			return descend
		}
		if last != nil {
			after = append(after, c)
		} else if w := wordCount(c); w >= aw && w <= 2*aw && collapseSpace(textOf(c)) == anchor {
			last = c
		}
		return skip
	})
	if last == nil {
		return
	}
	var run []*html.Node
scan:
	for _, b := range after {
		w := wordCount(b)
		switch {
		case w == 0 || hasAncestor(b, atom.Figure):
			// An image, an empty box, a caption.
		case inDialog(b):
			break scan // a consent dialog after the story's end
		case sameSetting(b, last) && linkWords(b)*2 <= w:
			// A short line set as the story's paragraphs are (a
			// contact line, a sign-off) is passed over, not taken.
			if w >= minSplitProse {
				run = append(run, b)
			}
		case w <= maxClosingLabelWords && !headingAtoms[b.DataAtom]:
			// "Advertisement", a credit line.
		default:
			break scan
		}
	}
	if len(run) == 0 {
		return
	}
	readText := collapseSpace(textOf(read))
	for _, b := range run {
		if !strings.Contains(readText, collapseSpace(textOf(b))) {
			read.AppendChild(cloneTree(b))
		}
	}
}

// maxClosingBlocks bounds the blocks addClosing reads past the block's
// last paragraph; maxClosingLabelWords is the longest line it passes
// over between two of the story's paragraphs.
const (
	maxClosingBlocks     = 400
	maxClosingLabelWords = 4
)

// inDialog reports a block inside a dialog (isDialog, isModal).
func inDialog(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if isDialog(p) || isModal(p) {
			return true
		}
	}
	return false
}

// sameSetting reports whether a and b are set alike: the same element,
// in wrappers of the same elements up to their common ancestor, at the
// same depth below it, and each pair (a and b too) without a class or
// sharing one (likeNamed). A template marks its first text component
// with a class of its own beside the shared ones. Blocks whose nearest
// common ancestor is the <body> are not set alike: a consent dialog
// appended to the body sets its text in <div>s as plain as a story's.
func sameSetting(a, b *html.Node) bool {
	if a.Data != b.Data || !likeNamed(a, b) {
		return false
	}
	top := commonAncestor(a, b)
	if top == nil || top.DataAtom == atom.Body || top.DataAtom == atom.Html {
		return false // the page's frame: a dialog appended to the body
	}
	pa, pb := a.Parent, b.Parent
	for pa != top && pb != top {
		if pa == nil || pb == nil || pa.Data != pb.Data || !likeNamed(pa, pb) {
			return false
		}
		pa, pb = pa.Parent, pb.Parent
	}
	return pa == top && pb == top
}

// likeNamed reports two elements without a class, or sharing one.
func likeNamed(a, b *html.Node) bool {
	ca, cb := strings.Fields(attr(a, "class")), strings.Fields(attr(b, "class"))
	if len(ca) == 0 || len(cb) == 0 {
		return len(ca) == len(cb)
	}
	return slices.ContainsFunc(ca, func(c string) bool { return slices.Contains(cb, c) })
}
