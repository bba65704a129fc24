package wire

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxCitedText is the longest cited_text, in characters, of a
// web_search_result_location: Anthropic documents "up to 150 characters
// of the cited content" (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations),
// and clients may rely on it.
const MaxCitedText = 150

// CitedText cuts s to at most MaxCitedText characters for a
// web_search_result_location's cited_text: at the last space when one is
// in the final quarter, with trailing space trimmed and no marker, since
// cited_text is text the source contains. Valid UTF-8 comes back as a
// prefix of s; invalid bytes are replaced by U+FFFD first.
func CitedText(s string) string {
	const n = MaxCitedText
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		if utf8.RuneCountInString(s) <= n {
			return s
		}
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	cut := s[:i]
	if j := strings.LastIndexByte(cut, ' '); j > len(cut)*3/4 {
		cut = cut[:j]
	}
	return strings.TrimRightFunc(cut, unicode.IsSpace)
}
