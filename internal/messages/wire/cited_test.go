package wire

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCitedText(t *testing.T) {
	long := strings.Repeat("word ", 40) // 200 characters
	tests := []struct {
		name, in, want string
	}{
		{"short", "as it is ", "as it is "},
		{"exactly the limit", strings.Repeat("é", 150), strings.Repeat("é", 150)},
		{"at a word boundary", long, strings.TrimSpace(long[:150])},
		{"no space near the cut", strings.Repeat("x", 200), strings.Repeat("x", 150)},
		{"space too early", "a " + strings.Repeat("x", 200), "a " + strings.Repeat("x", 148)},
		{"multibyte", strings.Repeat("日本 ", 60), strings.TrimSpace(strings.Repeat("日本 ", 50))},
		{"invalid UTF-8", "\xff" + strings.Repeat("y", 200), "\uFFFD" + strings.Repeat("y", 149)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CitedText(tt.in); got != tt.want {
				t.Errorf("CitedText = %q (%d chars), want %q", got, utf8.RuneCountInString(got), tt.want)
			}
		})
	}
}

// FuzzCitedText: at most MaxCitedText characters, a prefix of valid
// input, unchanged when short enough (once invalid bytes are replaced),
// never ending in space when cut.
func FuzzCitedText(f *testing.F) {
	for _, s := range []string{"", "x", strings.Repeat("ab ", 80), strings.Repeat("é", 151), "\xff\xfe" + strings.Repeat(" ", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := CitedText(s)
		n := utf8.RuneCountInString(got)
		if n > MaxCitedText {
			t.Fatalf("CitedText(%q) has %d characters", s, n)
		}
		if utf8.RuneCountInString(s) <= MaxCitedText {
			if got != s {
				t.Fatalf("CitedText(%q) = %q, want it unchanged", s, got)
			}
			return
		}
		if repaired := strings.ToValidUTF8(s, "\uFFFD"); utf8.RuneCountInString(repaired) <= MaxCitedText {
			// Short enough once invalid runs became one U+FFFD each.
			if got != repaired {
				t.Fatalf("CitedText(%q) = %q, want %q", s, got, repaired)
			}
			return
		}
		if utf8.ValidString(s) && !strings.HasPrefix(s, got) {
			t.Fatalf("CitedText(%q) = %q, not a prefix", s, got)
		}
		if r, _ := utf8.DecodeLastRuneInString(got); got != "" && unicode.IsSpace(r) {
			t.Fatalf("CitedText(%q) = %q ends in space", s, got)
		}
	})
}
