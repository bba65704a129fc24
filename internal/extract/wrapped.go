package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// joinWrappedLines replaces with a space each <br> that breaks a
// sentence in the middle: text pasted with hard wraps at a fixed width
// ("tools, and accessories used in a<br>fitness facility to help"), as
// mail clients, PDF copies and old editors leave it. The browser shows
// such a paragraph with ragged breaks; a reader of the text, and a
// search of it, wants the sentence whole. A break counts as a wrap when
// the line before it holds minWrappedWords words and ends without a
// sentence's or a label's mark, and the line after it starts with a
// lower-case letter: a poem's next line, an address's, a list's item
// ("2 cups flour") or a new sentence keep their breaks. Code keeps
// every break.
func joinWrappedLines(root *html.Node) {
	for _, br := range collectElements(root, func(c *html.Node) visit {
		switch c.DataAtom {
		case atom.Br:
			return take
		case atom.Pre, atom.Code, atom.Textarea:
			return skip
		}
		return descend
	}) {
		if br.Parent == nil || !wrapsLine(lineAt(br, false), lineAt(br, true)) {
			continue
		}
		br.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, br)
		removeNode(br)
	}
}

// minWrappedWords: a hard-wrapped line is a line of prose, not a label.
const minWrappedWords = 4

// wrapsLine reports a break between before and after that falls inside
// a sentence.
func wrapsLine(before, after string) bool {
	before, after = strings.TrimSpace(before), strings.TrimSpace(after)
	if countWords(before) < minWrappedWords || after == "" {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(before)
	first, _ := utf8.DecodeRuneInString(after)
	return (unicode.IsLetter(last) || unicode.IsDigit(last) || last == ',') && unicode.IsLower(first)
}

// lineAt is the text of the line before br (forward false) or of the
// line it opens: its siblings' text up to the next break or block that
// way.
func lineAt(br *html.Node, forward bool) string {
	from, to := br.NextSibling, (*html.Node)(nil)
	if !forward {
		from, to = br, br
		for s := br.PrevSibling; s != nil && !breaksLineAt(s); s = s.PrevSibling {
			from = s
		}
	}
	var b strings.Builder
	for s := from; s != nil && s != to && !breaksLineAt(s); s = s.NextSibling {
		b.WriteString(textOf(s))
	}
	return b.String()
}

// breaksLineAt reports a sibling that ends a line: a <br>, a block, or
// an element holding one.
func breaksLineAt(s *html.Node) bool {
	return s.DataAtom == atom.Br || s.Type == html.ElementNode && (blockAtoms[s.DataAtom] || hasBlockChild(s))
}
