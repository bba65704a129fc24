package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// React's streaming server renderer (Fizz, React 18 and later: Next.js's
// App Router, Remix, Gatsby) sends a page's shell first, with a fallback
// (often empty) where a Suspense boundary's content will go, and the
// content later in the same response: a <div hidden id="S:n"> near the
// end of the body, followed by a small inline script that moves it into
// place. The browser runs the script before anyone reads the page; a
// reader of the HTML alone sees the shell and a hidden tail. Extractors
// honour hidden (it usually means a closed panel), so on such pages they
// returned the shell: a banner and a footer where the page has hundreds
// of words.
//
// The instructions are calls of React's inline runtime (react-dom's
// fizz-instruction-set):
//
//	$RC("B:0","S:0")    completeBoundary: boundary B:0 gets segment S:0
//	$RR("B:0","S:0",…)  the same, once the boundary's stylesheets load
//	$RS("S:1","P:1")    completeSegment: segment S:1 replaces placeholder P:1
//
// and, when the runtime is external, the same pairs as data attributes of
// a <template> (data-rci with data-bid and data-sid, data-rri likewise,
// data-rsi with data-sid and data-pid).
var streamedCall = regexp.MustCompile(`\$R([CRS])\("([^"\\]{1,64})","([^"\\]{1,64})"`)

// maxStreamedMoves bounds the instructions applied to one page: a page
// has one per Suspense boundary, a few hundred at most.
const maxStreamedMoves = 2000

// streamedMove is one instruction: the segment's content goes where the
// target (a boundary's or a placeholder's <template>) stands.
type streamedMove struct {
	boundary bool // target is a boundary (fallback replaced), else a placeholder
	target   string
	segment  string
}

// resolveStreamed applies React's streaming instructions to doc, as the
// browser would have: each hidden segment's children move to their
// boundary or placeholder, and the fallback they replace goes. It runs
// right after parsing, before hidden content, comments and scripts are
// dropped: the segments are hidden, the boundaries comments
// ("<!--$?-->" … "<!--/$-->") and the instructions scripts. A
// page without streamed segments is left as it is; an instruction whose
// elements are missing is skipped.
func resolveStreamed(doc *html.Node) {
	ids := map[string]*html.Node{}
	var moves []streamedMove
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Script:
				moves = appendStreamedCalls(moves, c)
				continue
			case atom.Template:
				if id := attr(c, "id"); id != "" {
					ids[id] = c
				}
				moves = appendStreamedTemplate(moves, c)
			case atom.Div:
				if id := attr(c, "id"); hasAttr(c, "hidden") && streamedSegmentID(id) {
					ids[id] = c
				}
			}
			walk(c)
		}
	}
	walk(doc)
	if len(moves) > maxStreamedMoves {
		moves = moves[:maxStreamedMoves]
	}
	for _, m := range moves {
		seg, target := ids[m.segment], ids[m.target]
		if seg == nil || target == nil || seg.Parent == nil || target.Parent == nil || hasAncestorNode(target, seg) {
			continue
		}
		var end *html.Node
		if m.boundary {
			end = boundaryEnd(target)
			if end == nil {
				continue
			}
			// The fallback (the template and whatever a loading state
			// showed) goes; the boundary's comments stay as they were.
			for c := target; c != nil && c != end; {
				next := c.NextSibling
				removeNode(c)
				c = next
			}
		} else {
			end = target
		}
		moveChildrenBefore(seg, end)
		removeNode(seg)
		if !m.boundary {
			removeNode(target)
		}
		delete(ids, m.segment)
	}
}

// streamedSegmentID reports an id of React's segment form: an optional
// identifier prefix, "S:" and a number (React writes it in base 16; base
// 32's digits are accepted too, as other streaming renderers use them).
func streamedSegmentID(id string) bool {
	i := strings.LastIndex(id, "S:")
	if i < 0 || i+2 == len(id) {
		return false
	}
	for _, r := range id[i+2:] {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'v') {
			return false
		}
	}
	return true
}

// appendStreamedCalls adds the instructions of an inline script.
func appendStreamedCalls(moves []streamedMove, script *html.Node) []streamedMove {
	for c := script.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode || !strings.Contains(c.Data, "$R") {
			continue
		}
		for _, m := range streamedCall.FindAllStringSubmatch(c.Data, maxStreamedMoves) {
			if m[1] == "S" {
				moves = append(moves, streamedMove{target: m[3], segment: m[2]})
			} else {
				moves = append(moves, streamedMove{boundary: true, target: m[2], segment: m[3]})
			}
		}
	}
	return moves
}

// appendStreamedTemplate adds the instruction a <template> carries in
// the external runtime's data-attribute form.
func appendStreamedTemplate(moves []streamedMove, t *html.Node) []streamedMove {
	switch {
	case hasAttr(t, "data-rci") || hasAttr(t, "data-rri"):
		return append(moves, streamedMove{boundary: true, target: attr(t, "data-bid"), segment: attr(t, "data-sid")})
	case hasAttr(t, "data-rsi"):
		return append(moves, streamedMove{target: attr(t, "data-pid"), segment: attr(t, "data-sid")})
	}
	return moves
}

// boundaryEnd returns the comment that closes the Suspense boundary whose
// fallback starts at t ("<!--/$-->", skipping nested boundaries), or nil
// when t does not follow a pending boundary's opening comment ("<!--$?-->").
func boundaryEnd(t *html.Node) *html.Node {
	if p := t.PrevSibling; p == nil || p.Type != html.CommentNode || p.Data != "$?" {
		return nil
	}
	depth := 0
	for c := t.NextSibling; c != nil; c = c.NextSibling {
		if c.Type != html.CommentNode {
			continue
		}
		switch {
		case c.Data == "/$":
			if depth == 0 {
				return c
			}
			depth--
		case strings.HasPrefix(c.Data, "$"):
			depth++
		}
	}
	return nil
}

// hasAncestorNode reports whether a is an ancestor of n.
func hasAncestorNode(n, a *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}
