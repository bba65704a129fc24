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
//
// The tail's section headings and lists come with it: a heading (not a
// headline, <h1>) when the paragraph or the list after it stands in the
// same wrapper and is the story's, a list when it stands in a wrapper
// set as the last paragraph's. A heading whose words name furniture (a
// newsletter box, a comment thread: furnitureHeading) ends the run, as
// a theme can build those of the story's own components. A card
// teasing another page between two text components ("Related article",
// a title and a button: closingCard) is passed over. With every class
// name hashed, WCXB-dev 4241 gained 0.46 (a story in sections, a
// related card after the first) and 0292 0.03; declared and hashed, a
// product page (0595) gained 0.20 and a service page's plans joined
// its text (0152 −0.015, its reference leaves them out).
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
	var card *html.Node    // a teaser card passed over
	var heading *html.Node // a section heading, taken with its paragraph
	// links holds the lists of links the scan has passed in the story's
	// text component ("Suggested reading:" and three of the blog's
	// posts), which join the run only when a paragraph of the story
	// follows them there: at the story's end they are a related box.
	var links []*html.Node
scan:
	for _, b := range after {
		w := wordCount(b)
		inList := listOf(b)
		list := textList(inList) // storyList(b)
		switch {
		case card != nil && hasAncestorNode(b, card):
			// The rest of the card.
		case len(links) > 0 && hasAncestorNode(b, links[len(links)-1]):
			// The rest of the list.
		case w == 0 || hasAncestor(b, atom.Figure):
			// An image, an empty box, a caption.
		case inDialog(b):
			break scan // a consent dialog after the story's end
		case heading != nil:
			// A section heading is the story's when what follows it
			// in the same wrapper is: a paragraph, or a list.
			switch {
			case list != nil && list.Parent == heading.Parent && sameSetting(list.Parent, last.Parent):
				run = append(run, heading, list)
			case b.Parent == heading.Parent && sameSetting(b, last) && w >= minSplitProse && linkWords(b)*2 <= w:
				run = append(run, heading, b)
			default:
				break scan
			}
			heading = nil
		case list != nil && sameSetting(list.Parent, last.Parent):
			// A list set in the story's text component.
			if len(run) == 0 || run[len(run)-1] != list {
				run = append(run, list)
			}
		case sameSetting(b, last) && linkWords(b)*2 <= w:
			// A short line set as the story's paragraphs are (a
			// contact line, a sign-off) is passed over, not taken.
			if w >= minSplitProse {
				run = append(append(run, links...), b)
				links = nil
			}
		case list == nil && inList != nil && sameSetting(inList.Parent, last.Parent):
			links = append(links, inList)
		case headingAtoms[b.DataAtom] && b.DataAtom != atom.H1:
			// A card's title, or a section heading; a newsletter
			// box's or a comment thread's heading ends the story
			// (their components can be the story's own make).
			if card = closingCard(b, last); card == nil {
				if furnitureHeading(b) {
					break scan
				}
				heading = b
			}
		case w <= maxClosingLabelWords && !headingAtoms[b.DataAtom]:
			// "Advertisement", a credit line.
		default:
			if card = closingCard(b, last); card == nil {
				break scan
			}
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

// furnitureHeading reports a heading whose words name a box of the
// page's furniture: a newsletter prompt or another label (isLabel), or
// a comment thread (commentHeading).
func furnitureHeading(h *html.Node) bool {
	if l, ok := readLabelLine(h); ok && l.isLabel() {
		return true
	}
	return namesThread(h)
}

// closingCard returns the component that holds b beside the story's
// last paragraph when it is a card teasing another page: a box of up to
// maxClosingCardWords words with a link, no paragraph of prose and no
// headline (<h1>, <h2>: the next story's), such as a "Related article"
// box between two of the story's text components. addClosing passes
// over it.
func closingCard(b, last *html.Node) *html.Node {
	top := commonAncestor(b, last)
	box := b
	for box.Parent != nil && box.Parent != top {
		box = box.Parent
	}
	if box.Parent == nil || wordCountOver(box, maxClosingCardWords) || linkWords(box) == 0 {
		return nil
	}
	if findFirst(box, func(c *html.Node) bool {
		return c.DataAtom == atom.H1 || c.DataAtom == atom.H2 || blockAtoms[c.DataAtom] && !hasBlockChild(c) && wordCount(c) >= minSplitProse
	}) != nil {
		return nil
	}
	return box
}

// maxClosingBlocks bounds the blocks addClosing reads past the block's
// last paragraph; maxClosingLabelWords is the longest line it passes
// over between two of the story's paragraphs.
const (
	maxClosingBlocks     = 400
	maxClosingLabelWords = 4
	maxClosingCardWords  = 25
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
