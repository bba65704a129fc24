package extract

import (
	nurl "net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webgate/webgate/internal/urlnorm"
)

// addOpening puts back, at the top of readability's block (read), the
// story's opening paragraphs that stand outside it: the paragraphs
// between the page's headline and the block's first paragraph that are
// set as the block's paragraphs are and stand with the body rather than
// with the headline.
//
// Page builders and review sites set an article's introduction as a
// section of its own (an Elementor container, an introduction above the
// table of contents), and readability keeps only the section that scores
// best, the body after it. On WCXB-dev four pages gained (up to 0.12, a
// restaurant guide that had lost its first 440 words) and one lost 0.01
// (an affiliate disclosure set as a paragraph of the body). The introduction's paragraphs are the same
// editor's output as the body's, so they carry the same tag and class
// names (usually none), while the furniture around a headline (a
// standfirst, a byline, a caption, a disclosure) carries the template's.
// And the introduction lies nearer to the body in the tree than the
// headline does: their common ancestor with the body's first paragraph
// lies below the headline's.
//
// Only a run that ends at the block counts: walking back from its first
// paragraph, each block must be such a paragraph or a section heading in
// the same place, and the first other block with words ends the run. A
// table of contents is passed over: an introduction often stands above
// one, and readability's block starts below it.
func addOpening(doc, read *html.Node, base *nurl.URL) {
	anchor, before := openingAnchor(read)
	if anchor == "" {
		return
	}
	var headline, first *html.Node
	var blocks []*html.Node // the body's blocks after the headline
	collectElements(findBody(doc), func(c *html.Node) visit {
		if first != nil {
			return skip
		}
		isBlock := blockAtoms[c.DataAtom] && !hasBlockChild(c)
		if !isBlock && c.DataAtom != atom.H1 {
			return descend
		}
		switch {
		case c.DataAtom == atom.H1:
			// The last headline before the block: a site's logo is
			// an <h1> on some themes too.
			headline, blocks = c, blocks[:0]
		case headline != nil && isBlock && collapseSpace(textOf(c)) == anchor:
			first = c
		case headline != nil:
			blocks = append(blocks, c)
		}
		return skip
	})
	if first == nil {
		return
	}
	top := levelsBelow(commonAncestor(headline, first), nil)
	pageKey := ""
	if base != nil && base.Host != "" {
		pageKey = urlnorm.KeyURL(base)
	}
	readWords := "" // read's words, once a paragraph needs them
	var run []*html.Node
	// pending holds the lists the walk has passed (and the headings
	// after them), which join the run only when a paragraph above them
	// does: a list set between the story's paragraphs is the story's.
	var pending []*html.Node
walk:
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		w := wordCount(b)
		if w == 0 {
			continue // an image, an empty box
		}
		t := collapseSpace(textOf(b))
		if before[t] {
			continue // in read already
		}
		if levelsBelow(commonAncestor(b, first), nil) <= top {
			break // with the headline
		}
		furniture := inFurniture(b)
		if l := storyList(b); l != nil {
			if len(pending) == 0 || pending[len(pending)-1] != l {
				pending = append(pending, l)
			}
			continue
		}
		switch {
		case !furniture && headingAtoms[b.DataAtom] && !inContents(b, first, pageKey):
			if len(pending) > 0 {
				pending = append(pending, b)
				continue
			}
			run = append(run, b)
		case !furniture && b.Data == first.Data && attr(b, "class") == attr(first, "class") && linkWords(b)*2 <= w:
			// A summary that repeats the opening (an excerpt over
			// the story) belongs with the headline.
			if readWords == "" {
				readWords = " " + strings.Join(wordTokens(textOf(read)), " ") + " "
			}
			if toks := wordTokens(t); strings.Contains(readWords, " "+strings.Join(toks[:min(len(toks), minAnchorWords)], " ")+" ") {
				break walk
			}
			run = append(append(run, pending...), b)
			pending = nil
		case inContents(b, first, pageKey):
			// Passed over, its title and entries alike.
		default:
			break walk
		}
	}
	// The run opens with a paragraph: a heading or a short line (a
	// byline set as a paragraph, a label) where it starts is the
	// headline's furniture, or a section heading of read's own.
	for len(run) > 0 {
		last := run[len(run)-1] // run is in reverse order
		if !headingAtoms[last.DataAtom] && wordCount(last) >= minAnchorWords {
			break
		}
		run = run[:len(run)-1]
	}
	if len(run) == 0 {
		return
	}
	at := read.FirstChild
	for i := len(run) - 1; i >= 0; i-- {
		read.InsertBefore(cloneTree(run[i]), at)
	}
}

// openingAnchor returns the text of read's first paragraph (a block of
// minAnchorWords words or more) and the texts of the blocks before it.
func openingAnchor(read *html.Node) (string, map[string]bool) {
	before := map[string]bool{}
	for _, b := range leafBlocks(read) {
		t := collapseSpace(textOf(b))
		if countWords(t) >= minAnchorWords {
			return t, before
		}
		if t != "" {
			before[t] = true
		}
	}
	return "", before
}

// inContents reports a block inside a table of contents that stands
// outside first's containers: a box of minContentsLinks or more links to
// places on the page, at least half of its words theirs.
func inContents(b, first *html.Node, pageKey string) bool {
	for a := b.Parent; a != nil && !hasAncestorNode(first, a); a = a.Parent {
		if linkWords(a)*2 < wordCount(a) {
			continue
		}
		links := 0
		for _, l := range collectElements(a, func(c *html.Node) visit {
			if c.DataAtom == atom.A {
				return take
			}
			return descend
		}) {
			if samePage(attr(l, "href"), pageKey) {
				links++
			}
		}
		if links >= minContentsLinks {
			return true
		}
	}
	return false
}

const minContentsLinks = 3

// storyList returns the list that holds b when b is a list's item and
// nothing else of the headline's furniture (inFurniture) holds it, and
// the list is text rather than links. Component-built stories (each
// paragraph, list and heading in a wrapper of its own) lose their
// opening at such a list when every class name is hashed; addOpening
// passes over it only on its way to a paragraph of the story above it.
func storyList(b *html.Node) *html.Node { return textList(listOf(b)) }

// textList returns list when it is text rather than links (at most half
// its words a link's), else nil.
func textList(list *html.Node) *html.Node {
	if list == nil || linkWords(list)*2 > wordCount(list) {
		return nil
	}
	return list
}

// listOf returns the outermost list that holds b when nothing else of
// the headline's furniture (inFurniture) holds it.
func listOf(b *html.Node) *html.Node {
	var list *html.Node
	for p := b.Parent; p != nil; p = p.Parent {
		switch p.DataAtom {
		case atom.Figure, atom.Header, atom.Aside, atom.Nav:
			return nil
		case atom.Ul, atom.Ol:
			list = p
		}
	}
	return list
}

// inFurniture reports a block inside a figure, a list, a header or an
// aside: captions, teaser lists and the headline's own furniture.
func inFurniture(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.DataAtom {
		case atom.Figure, atom.Li, atom.Header, atom.Aside, atom.Nav:
			return true
		}
	}
	return false
}
