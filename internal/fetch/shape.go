package fetch

import (
	"strings"
	"unicode/utf8"
)

// CharsPerToken is the approximation behind Request.MaxTokens: English prose
// and Markdown average about four characters per token across current
// tokenizers. It is a budget, not a guarantee; code and non-Latin scripts
// use more tokens per character.
const CharsPerToken = 4

// shape cuts content for one response: skip start runes, keep at most
// maxLen runes (a hard cut, so paging is exact), then, if maxTokens is set,
// shorten further to a block boundary within maxTokens*CharsPerToken runes.
// It returns the part, whether content remains after it, the start index of
// the next part (0 when none) and the total length in runes. It never
// splits a UTF-8 sequence.
func shape(content string, start, maxLen, maxTokens int) (out string, truncated bool, next, total int) {
	total = utf8.RuneCountInString(content)
	if start >= total {
		return "", false, 0, total
	}
	from := byteOffset(content, start)
	rest := content[from:]
	restRunes := total - start
	limit := restRunes
	if maxLen > 0 && maxLen < limit {
		limit = maxLen
	}
	if maxTokens > 0 {
		budget := maxTokens * CharsPerToken
		if budget/CharsPerToken != maxTokens { // overflow
			budget = restRunes
		}
		if budget < limit {
			end := byteOffset(rest, budget)
			rest = rest[:blockCut(rest[:end])]
			limit = utf8.RuneCountInString(rest)
		}
	}
	if limit < restRunes {
		out = rest[:byteOffset(rest, limit)]
		n := start + utf8.RuneCountInString(out)
		return out, true, n, total
	}
	return rest, false, 0, total
}

// byteOffset is the byte index of rune n in s (len(s) if s is shorter).
func byteOffset(s string, n int) int {
	if n <= 0 {
		return 0
	}
	i := 0
	for j := range s {
		if i == n {
			return j
		}
		i++
	}
	return len(s)
}

// blockCut returns where to end s so that the kept part ends at a block
// boundary: before a heading or after a blank line, outside any code
// fence. Failing that (one huge block), at a line end outside a fence; a
// boundary is preferred if it keeps at least half of s, so a budget is not
// wasted on an early paragraph break, but any boundary outside a fence beats
// one inside. Then any line end, and only as a last resort mid-line.
func blockCut(s string) int {
	half := len(s) / 2
	block, lineOutside, line := -1, -1, -1
	inFence := false
	fenceMarker := ""
	prevBlank := false
	pos := 0
	for pos < len(s) {
		nl := strings.IndexByte(s[pos:], '\n')
		if nl < 0 {
			break // the last, partial line is what we are cutting
		}
		lineEnd := pos + nl + 1
		text := strings.TrimSpace(s[pos : lineEnd-1])
		// Boundary before this line.
		if pos > 0 && !inFence && (prevBlank || strings.HasPrefix(text, "#")) {
			block = pos
		}
		if m := fenceOpen(text); m != "" {
			if !inFence {
				inFence, fenceMarker = true, m
			} else if strings.HasPrefix(text, fenceMarker) && strings.Trim(text, fenceMarker[:1]) == "" {
				inFence = false
			}
		}
		if !inFence {
			lineOutside = lineEnd
		}
		line = lineEnd
		prevBlank = text == ""
		pos = lineEnd
	}
	// The partial last line starts at pos: a boundary there too.
	if pos > 0 && pos < len(s) && !inFence && prevBlank {
		block = pos
	}
	for _, c := range []struct{ at, least int }{
		{block, half}, {lineOutside, half},
		// Outside a fence beats a fuller cut inside one: a half-open code
		// block misleads a model more than a short page does.
		{block, 1}, {lineOutside, 1},
		{line, half},
	} {
		if c.at >= c.least && c.at > 0 {
			return c.at
		}
	}
	return len(s)
}

// fenceOpen returns the fence marker if line starts a Markdown code fence.
func fenceOpen(line string) string {
	for _, m := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, m) {
			n := len(line) - len(strings.TrimLeft(line, m[:1]))
			return strings.Repeat(m[:1], n)
		}
	}
	return ""
}

// TrimTitleHeading removes the "# title" line that opens a page's Markdown
// when it repeats the title a surface prints above the page (the
// extractor heads a story with its title), so a reader, often a model,
// reads it once. Only the first part of a page opens with it; a heading
// that differs stays.
func TrimTitleHeading(content, title string) string {
	first, rest, _ := strings.Cut(content, "\n")
	if strings.TrimSpace(first) != "# "+title {
		return content
	}
	return strings.TrimLeft(rest, "\n")
}
