package fetch

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestShape(t *testing.T) {
	doc := "# Title\n\nFirst paragraph here.\n\n## Section\n\nSecond paragraph.\n"
	fenced := "Intro text.\n\n```go\nfunc main() {\n\n\tprintln(1)\n}\n```\n\nAfter the code.\n"
	type out struct {
		Content   string
		Truncated bool
		Next      int
		Total     int
	}
	tests := []struct {
		name                     string
		content                  string
		start, maxLen, maxTokens int
		want                     out
	}{
		{"no limits", "héllo", 0, 0, 0, out{"héllo", false, 0, 5}},
		{"max length in runes", "héllo wörld", 0, 5, 0, out{"héllo", true, 5, 11}},
		{"second page", "héllo wörld", 5, 5, 0, out{" wörl", true, 10, 11}},
		{"last page", "héllo wörld", 10, 5, 0, out{"d", false, 0, 11}},
		{"start past end", "héllo", 9, 5, 0, out{"", false, 0, 5}},
		{"start at end", "héllo", 5, 0, 0, out{"", false, 0, 5}},
		{"exact fit", "héllo", 0, 5, 0, out{"héllo", false, 0, 5}},
		{"emoji not split", "a😀b😀c", 0, 2, 0, out{"a😀", true, 2, 5}},
		{"tokens fit", doc, 0, 0, 100, out{doc, false, 0, utf8.RuneCountInString(doc)}},
		{"tokens cut before heading", doc, 0, 0, 12, out{"# Title\n\nFirst paragraph here.\n\n## Section\n\n", true, 44, utf8.RuneCountInString(doc)}},
		{"tokens never cut inside fence", fenced, 0, 0, 10, out{"Intro text.\n\n", true, 13, utf8.RuneCountInString(fenced)}},
		{"tokens one long line falls back to hard cut", strings.Repeat("x", 100), 0, 0, 5, out{strings.Repeat("x", 20), true, 20, 100}},
		{"max length smaller than token budget", doc, 0, 10, 100, out{"# Title\n\nF", true, 10, utf8.RuneCountInString(doc)}},
		{"tokens from a start index", doc, 9, 0, 6, out{"First paragraph here.\n\n", true, 32, utf8.RuneCountInString(doc)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, tr, n, tot := shape(tt.content, tt.start, tt.maxLen, tt.maxTokens)
			if diff := cmp.Diff(tt.want, out{c, tr, n, tot}); diff != "" {
				t.Errorf("shape() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShapePagesCoverAll checks that following NextStartIndex reproduces
// the whole content exactly.
func TestShapePagesCoverAll(t *testing.T) {
	content := strings.Repeat("Ünïcødé ✓ paragraph.\n\n## Heading\n\n```\ncode\n```\n", 50)
	for _, tc := range []struct{ maxLen, maxTokens int }{{7, 0}, {100, 0}, {0, 30}, {500, 40}} {
		var b strings.Builder
		start, pages := 0, 0
		for {
			c, tr, next, _ := shape(content, start, tc.maxLen, tc.maxTokens)
			b.WriteString(c)
			pages++
			if !tr {
				break
			}
			if next <= start {
				t.Fatalf("no progress at %d", start)
			}
			start = next
		}
		if b.String() != content {
			t.Fatalf("maxLen=%d maxTokens=%d: pages do not reassemble the content", tc.maxLen, tc.maxTokens)
		}
	}
}

func FuzzShape(f *testing.F) {
	f.Add("# T\n\npara\n\n```\ncode\n\n```\n", 0, 10, 3)
	f.Add("héllo wörld 😀", 3, 4, 0)
	f.Add("\xff\xfeinvalid", 1, 2, 1)
	f.Fuzz(func(t *testing.T, content string, start, maxLen, maxTokens int) {
		if start < 0 || maxLen < 0 || maxTokens < 0 {
			return // Fetch rejects negatives before shaping
		}
		out, truncated, next, total := shape(content, start, maxLen, maxTokens)
		if total != utf8.RuneCountInString(content) {
			t.Fatalf("total = %d", total)
		}
		if maxLen > 0 && utf8.RuneCountInString(out) > maxLen {
			t.Fatalf("%d runes over maxLen %d", utf8.RuneCountInString(out), maxLen)
		}
		if utf8.ValidString(content) && !utf8.ValidString(out) {
			t.Fatalf("split a UTF-8 sequence: %q", out)
		}
		if start < total {
			from := byteOffset(content, start)
			if !strings.HasPrefix(content[from:], out) {
				t.Fatalf("output is not the content from start")
			}
		} else if out != "" || truncated {
			t.Fatalf("past the end: %q %v", out, truncated)
		}
		if truncated {
			if next != start+utf8.RuneCountInString(out) || next >= total || out == "" {
				t.Fatalf("next = %d, start %d, out %d runes, total %d", next, start, utf8.RuneCountInString(out), total)
			}
		} else if next != 0 {
			t.Fatalf("next = %d without truncation", next)
		}
	})
}

func TestTrimTitleHeading(t *testing.T) {
	tests := []struct{ name, content, title, want string }{
		{"repeated", "# Rates rise\n\nThe bank raised rates.", "Rates rise", "The bank raised rates."},
		{"heading alone", "# Rates rise", "Rates rise", ""},
		{"another heading", "# Rates rise\n\nText.", "Rates rise | News", "# Rates rise\n\nText."},
		{"a second-level heading", "## Rates rise\n\nText.", "Rates rise", "## Rates rise\n\nText."},
		{"no heading", "Rates rise today.", "Rates rise", "Rates rise today."},
	}
	for _, tc := range tests {
		if got := TrimTitleHeading(tc.content, tc.title); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
