package extract

import (
	"strings"
	"testing"
)

// TestCountWords checks the ASCII fast path of countWords against
// strings.Fields, which splits on exactly unicode.IsSpace.
func TestCountWords(t *testing.T) {
	for _, s := range []string{
		"",
		" ",
		"one",
		"  two words  ",
		"tab\tnew\nline\rcr\vvt\fff",
		"no\u00a0break\u0085next\u2003em\u3000ideographic",
		"caf\u00e9 na\u00efve \u65e5\u672c\u8a9e \U0001F600",
		"bad \xff\xfe utf8\xc3",
		"\x1c\x1d\x1e\x1f are not spaces",
	} {
		if got, want := countWords(s), len(strings.Fields(s)); got != want {
			t.Errorf("countWords(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzCountWords(f *testing.F) {
	f.Add("a b\u00a0c \xff d")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := countWords(s), len(strings.Fields(s)); got != want {
			t.Errorf("countWords(%q) = %d, want %d", s, got, want)
		}
	})
}
