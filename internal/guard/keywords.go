package guard

import "strings"

// keywordSet finds ASCII keywords in a text in one pass, the way the
// guards' case-insensitive regexps would see them: ASCII case is ignored,
// and a space in a keyword matches any run of white space (\s+ in the
// rules). It is what lets the guards run a regexp only where one can
// match: a pass over the text costs a few nanoseconds a byte, a Go regexp
// with case-insensitive alternations up to a microsecond.
//
// Go's (?i) also folds two non-ASCII letters onto ASCII ones: U+017F
// LATIN SMALL LETTER LONG S onto s, U+212A KELVIN SIGN onto k. A keyword's
// s or k matches them too, so a page cannot hide "ſend" or "asKing"
// from the flagger, nor make it fall back to the full regexps.
type keywordSet struct {
	// byFirst lists the keywords by the lower-case byte they start with,
	// under both cases of it.
	byFirst [256][]keyword
	// second has, per first byte, a bit for each byte that can follow it
	// in a keyword: most positions of a text are ruled out by these two
	// lookups, without a comparison.
	second [256][4]uint64
}

type keyword struct {
	word string // lower case
	id   int
}

// add adds word, of two bytes or more, under id.
func (k *keywordSet) add(word string, id int) {
	word = strings.ToLower(word)
	if len(word) < 2 || word[0] == ' ' {
		panic("guard: keyword " + word + " is too short or starts with a space")
	}
	kw := keyword{word, id}
	next := append([]byte{word[1], upperASCII(word[1])}, foldLead(word[1])...)
	if word[1] == ' ' {
		next = []byte{' ', '\t', '\n', '\f', '\r'}
	}
	for _, c := range []byte{word[0], upperASCII(word[0])} {
		if len(k.byFirst[c]) > 0 && k.byFirst[c][len(k.byFirst[c])-1] == kw {
			continue // a byte without case
		}
		k.byFirst[c] = append(k.byFirst[c], kw)
		for _, n := range next {
			k.second[c][n>>6] |= 1 << (n & 63)
		}
	}
	// A keyword starting with s or k also starts at ſ or K; their second
	// byte is the letter's own.
	if f := foldOf(word[0]); f != "" {
		c, n := f[0], f[1]
		k.byFirst[c] = append(k.byFirst[c], kw)
		k.second[c][n>>6] |= 1 << (n & 63)
	}
}

// foldOf returns the non-ASCII letter Go's (?i) matches as the ASCII
// letter b, if any.
func foldOf(b byte) string {
	switch b {
	case 's':
		return "\u017f"
	case 'k':
		return "\u212a"
	}
	return ""
}

// foldLead returns the first byte of foldOf(b), if any.
func foldLead(b byte) []byte {
	if f := foldOf(b); f != "" {
		return []byte{f[0]}
	}
	return nil
}

// each calls fn with the id and start of every occurrence of every
// keyword in text, in order of start (several keywords may start at the
// same byte). It does not allocate.
func (k *keywordSet) each(text string, fn func(id, start int)) {
	for i := 0; i+1 < len(text); i++ {
		if n := text[i+1]; k.second[text[i]][n>>6]&(1<<(n&63)) == 0 {
			continue
		}
		for _, kw := range k.byFirst[text[i]] {
			if matchFold(text, i, kw.word) {
				fn(kw.id, i)
			}
		}
	}
}

// matchFold reports whether word (lower case) occurs in text at i,
// ignoring case as Go's (?i) does, a space in word matching one or more
// white-space bytes.
func matchFold(text string, i int, word string) bool {
	for w := 0; w < len(word); w++ {
		c := word[w]
		if c == ' ' {
			if i >= len(text) || !isRegexpSpace(text[i]) {
				return false
			}
			for i < len(text) && isRegexpSpace(text[i]) {
				i++
			}
			continue
		}
		switch {
		case i < len(text) && lowerASCII(text[i]) == c:
			i++
		case foldOf(c) != "" && strings.HasPrefix(text[i:], foldOf(c)):
			i += len(foldOf(c))
		default:
			return false
		}
	}
	return true
}

// isRegexpSpace is \s of Go's regexps.
func isRegexpSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

func upperASCII(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

// foldsToASCII reports whether text holds a character that Go's
// case-insensitive regexps match as an ASCII letter.
func foldsToASCII(text string) bool {
	return strings.Contains(text, "\u017f") || strings.Contains(text, "\u212a")
}
