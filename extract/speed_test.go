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

// TestCleanedPageOnlyRemoves guards the bound mainContent relies on to
// skip building the cleaned page for most articles: cleanedPage only
// removes from the body, so it never has more words than the body has.
// A change that makes it add text (alt texts, JSON-LD descriptions) must
// also change that shortcut.
func TestCleanedPageOnlyRemoves(t *testing.T) {
	check := func(t *testing.T, body []byte) {
		t.Helper()
		doc, err := parseHTML(body)
		if err != nil {
			t.Fatal(err)
		}
		prepareDoc(doc)
		b := words(findBody(doc))
		for _, kind := range []pageKind{kindArticle, kindForum, kindProduct, kindOther} {
			if c := words(cleanedPage(cloneTree(doc), kind)); c > b {
				t.Errorf("cleaned %s page has %d words, the body only %d", kind, c, b)
			}
		}
	}
	t.Run("fixture", func(t *testing.T) {
		check(t, []byte(`<html><body><nav><a href="/">Home</a> <a href="/x">X</a> <a href="/y">Y</a></nav>
			<main><h1>Title</h1><p>Some text here.</p><p>Some text here.</p><img alt="a picture of a cat"></main>
			<footer>Footer words</footer></body></html>`))
	})
	for _, p := range loadPages(t, 40) {
		t.Run(p.set+"/"+p.id, func(t *testing.T) { check(t, p.body) })
	}
}
