package mcpserver

import (
	"strings"
	"unicode/utf8"
)

// runeLen counts characters the way MaxOutputChars and the fetcher's
// start_index do.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

// cutRunes returns the first n characters of s and whether anything was
// cut.
func cutRunes(s string, n int) (string, bool) {
	if n <= 0 {
		return "", s != ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], true
		}
		i++
	}
	return s, false
}

// oneLine collapses whitespace so titles and snippets stay on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// capText enforces the overall output cap as a last resort, telling the
// model that the end is missing rather than cutting silently.
func capText(s string, max int) string {
	if runeLen(s) <= max {
		return s
	}
	const note = "\n\n[Output cut at the size limit. Ask for fewer results or fewer URLs per call.]"
	head, _ := cutRunes(s, max-runeLen(note))
	return head + note
}
