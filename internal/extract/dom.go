package extract

import (
	nurl "net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Small DOM helpers over golang.org/x/net/html, kept here so the rest of
// the package reads as extraction logic rather than tree plumbing.

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// dropAttrs removes n's attributes with the given keys.
func dropAttrs(n *html.Node, keys ...string) {
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool { return slices.Contains(keys, a.Key) })
}

// hasToken reports whether the space-separated list s contains tok
// (case-insensitively), as for rel and class attributes.
func hasToken(s, tok string) bool {
	for f := range strings.FieldsSeq(s) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

func hasAncestor(n *html.Node, a atom.Atom) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == a {
			return true
		}
	}
	return false
}

// ancestorFunc returns n's nearest ancestor element that satisfies f, or
// nil.
func ancestorFunc(n *html.Node, f func(*html.Node) bool) *html.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && f(p) {
			return p
		}
	}
	return nil
}

// inAny reports whether n or one of its ancestors is in set.
func inAny(n *html.Node, set map[*html.Node]bool) bool {
	for ; n != nil; n = n.Parent {
		if set[n] {
			return true
		}
	}
	return false
}

// textOf returns the text of n, skipping script and style. A line
// break, a table cell or a block boundary separates words as the page
// shows them: minified markup has no whitespace there, and a comparison
// of two readings read "DenimSize" in one and "Denim", "Size" in the
// other. No space is added at either end.
func textOf(n *html.Node) string {
	var b strings.Builder
	sep := false // a boundary since the last text
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if sep && n.Data != "" && b.Len() > 0 && !startsSpace(n.Data) && !endsSpace(b.String()) {
				b.WriteByte(' ')
			}
			if n.Data != "" {
				sep = false
			}
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				return
			case atom.Br, atom.Td, atom.Th:
				sep = true
			default:
				sep = sep || blockAtoms[n.DataAtom]
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && (blockAtoms[n.DataAtom] || n.DataAtom == atom.Td || n.DataAtom == atom.Th) {
			sep = true
		}
	}
	walk(n)
	return b.String()
}

// blankText reports a text node of whitespace only, or a comment.
func blankText(n *html.Node) bool {
	return n.Type == html.CommentNode || n.Type == html.TextNode && strings.TrimSpace(n.Data) == ""
}

func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// absURL resolves ref against base; without a base, or when ref does not
// parse, ref is returned unchanged so no information is lost.
func absURL(base *nurl.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if base == nil || ref == "" {
		return ref
	}
	u, err := nurl.Parse(ref)
	if err != nil {
		return ref
	}
	return base.ResolveReference(u).String()
}

func findFirst(n *html.Node, pred func(*html.Node) bool) *html.Node {
	if pred(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findFirst(c, pred); f != nil {
			return f
		}
	}
	return nil
}

// visit is what collectElements does with an element.
type visit int

const (
	descend visit = iota // look inside it
	take                 // collect it, and do not look inside
	skip                 // neither
)

// collectElements returns the element descendants of root that judge
// takes, in document order. The pruning rules share it: each collects what
// it would remove, then decides whether to remove it.
func collectElements(root *html.Node, judge func(*html.Node) visit) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch judge(c) {
			case take:
				out = append(out, c)
			case descend:
				walk(c)
			}
		}
	}
	walk(root)
	return out
}

// elementsUnder returns every element below root, in document order. The
// list is taken before the caller changes the tree, so unwrapping one
// (its children stay in the list) is safe.
func elementsUnder(root *html.Node) []*html.Node {
	var out []*html.Node
	collectElements(root, func(c *html.Node) visit {
		out = append(out, c)
		return descend
	})
	return out
}

// headingsUnder returns the outermost headings below root, in document
// order.
func headingsUnder(root *html.Node) []*html.Node {
	return collectElements(root, func(c *html.Node) visit {
		if headingAtoms[c.DataAtom] {
			return take
		}
		return descend
	})
}

// removeElements removes every element under root that match reports,
// with its subtree (nothing inside a removed element is judged).
func removeElements(root *html.Node, match func(*html.Node) bool) {
	removeCollected(root, func(c *html.Node) visit {
		if match(c) {
			return take
		}
		return descend
	})
}

// removeCollected removes every element under root that judge takes (see
// collectElements).
func removeCollected(root *html.Node, judge func(*html.Node) visit) {
	for _, n := range collectElements(root, judge) {
		removeNode(n)
	}
}

// holdsH1 reports whether the page's <h1> is under n: rules that remove
// furniture by its name spare such an element, since a theme may name the
// whole product or post block after one of its parts.
func holdsH1(n *html.Node) bool {
	return findFirst(n, func(x *html.Node) bool { return isElem(x, atom.H1) }) != nil
}

// removeUnlessThird removes nodes unless together they hold over a third of
// root's words, and reports whether it removed them. A rule that would
// remove that much has more likely misjudged the page than found its
// furniture.
func removeUnlessThird(root *html.Node, nodes []*html.Node) bool {
	return removeUnlessShare(root, nodes, 3)
}

// removeUnlessShare removes nodes unless together they hold over one
// part in parts of root's words, and reports whether it removed them.
func removeUnlessShare(root *html.Node, nodes []*html.Node, parts int) bool {
	if wordsIn(nodes)*parts > wordCount(root) {
		return false
	}
	for _, n := range nodes {
		removeNode(n)
	}
	return true
}

// wordsIn is the words of nodes together.
func wordsIn(nodes []*html.Node) int {
	w := 0
	for _, n := range nodes {
		w += wordCount(n)
	}
	return w
}

// moveChildrenBefore moves from's children, in order, to just before ref
// (which may be from itself, to unwrap it).
func moveChildrenBefore(from, ref *html.Node) {
	for c := from.FirstChild; c != nil; {
		next := c.NextSibling
		from.RemoveChild(c)
		ref.Parent.InsertBefore(c, ref)
		c = next
	}
}

// hasChild reports whether n has an element child of type a.
func hasChild(n *html.Node, a atom.Atom) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if isElem(c, a) {
			return true
		}
	}
	return false
}

func isElem(n *html.Node, a atom.Atom) bool {
	return n != nil && n.Type == html.ElementNode && n.DataAtom == a
}

// absolutize resolves href and src attributes under root against base, so
// every output format carries links that work out of context.
func absolutize(root *html.Node, base *nurl.URL) {
	if base == nil {
		return
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for i, a := range n.Attr {
				if (a.Key == "href" || a.Key == "src") && a.Namespace == "" && !strings.HasPrefix(a.Val, "#") {
					n.Attr[i].Val = absURL(base, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
}
