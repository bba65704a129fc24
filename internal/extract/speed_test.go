package extract

import (
	nurl "net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/markusmobius/go-trafilatura"
)

// countWordsOracle is countWords written plainly: each of
// strings.Fields' fields is one word if it starts with a character of a
// spaced script, plus, for each run of characters of one unspaced
// script, one word per that script's characters per word (rounded up).
func countWordsOracle(s string) int {
	per := func(r rune) int {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			return 2
		case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
			return 5
		}
		return 0
	}
	c := 0
	for _, f := range strings.Fields(s) {
		if r, _ := utf8.DecodeRuneInString(f); per(r) == 0 {
			c++
		}
		run, p := 0, 0
		for _, r := range f + " " {
			if q := per(r); q > 0 && (q == p || run == 0) {
				run, p = run+1, q
				continue
			}
			if run > 0 {
				c += (run + p - 1) / p
			}
			run, p = 0, 0
			if q := per(r); q > 0 {
				run, p = 1, q
			}
		}
	}
	return c
}

// TestCountWords checks the ASCII fast path of countWords against
// strings.Fields, which splits on exactly unicode.IsSpace, and the
// counting of Chinese and Japanese text, which has no spaces.
func TestCountWords(t *testing.T) {
	for _, s := range []string{
		"",
		" ",
		"one",
		"  two words  ",
		"tab\tnew\nline\rcr\vvt\fff",
		"no\u00a0break\u0085next\u2003em\u3000ideographic",
		"caf\u00e9 na\u00efve \U0001F600",
		"bad \xff\xfe utf8\xc3",
		"\x1c\x1d\x1e\x1f are not spaces",
	} {
		if got, want := countWords(s), len(strings.Fields(s)); got != want {
			t.Errorf("countWords(%q) = %d, want %d", s, got, want)
		}
	}
	for _, tt := range []struct {
		s    string
		want int
	}{
		{"日本語", 2},
		{"记者从市教育局获悉", 5},
		{"ひらがなカタカナ", 4},
		{"2019年8月26日", 4},    // "2019年", "8月", "26日": digits inside a field add none
		{"今年我市新建的三所中小学。", 6}, // the full stop neither counts nor splits
		{"Go 言語 で", 3},
		{"한국어 문장", 2}, // Korean puts spaces between words
		{"กรุงเทพมหานคร", 3},
		{"日本語กรุงเทพ", 4}, // a change of script starts a run
	} {
		if got := countWords(tt.s); got != tt.want {
			t.Errorf("countWords(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func FuzzCountWords(f *testing.F) {
	f.Add("a b\u00a0c \xff d")
	f.Add("记者从市教育局获悉，今年 2019年 Go言語")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := countWords(s), countWordsOracle(s); got != want {
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
		if c := words(cleanedPage(cloneTree(doc))); c > b {
			t.Errorf("cleaned page has %d words, the body only %d", c, b)
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

// TestTrafilaturaSkipMetadata checks the two changes webgate's copy of
// go-trafilatura makes (third_party/go-trafilatura/FORK.md): SkipMetadata
// leaves the content as it was and the metadata empty, and extraction,
// with its fallback and its last-resort baseline, never modifies the
// document it is given (the fork reads it instead of backup copies).
func TestTrafilaturaSkipMetadata(t *testing.T) {
	long := strings.Repeat("<p>The river rose overnight and the town council met at dawn to decide on the evacuation of the lower streets.</p>", 6)
	pages := map[string]string{
		"article": `<html lang="en"><head><title>Flood - Town News</title><meta name="author" content="Ann Smith">
			<meta property="og:site_name" content="Town News"></head><body><nav><a href="/">Home</a><a href="/a">A</a></nav>
			<article><h1>Flood</h1>` + long + `</article><footer>Contact us</footer></body></html>`,
		// Under trafilatura's 250 characters: the fallback and the
		// baseline run.
		"short": `<html><head><title>Note</title></head><body><div><p>Closed on Monday.</p></div></body></html>`,
	}
	base, _ := nurl.Parse("https://example.com/news/flood")
	for name, page := range pages {
		t.Run(name, func(t *testing.T) {
			run := func(skip bool) (*trafilatura.ExtractResult, string) {
				doc, err := parseHTML([]byte(page))
				if err != nil {
					t.Fatal(err)
				}
				before := renderHTML(doc)
				res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{
					OriginalURL:        base,
					EnableFallback:     true,
					FallbackCandidates: &trafilatura.FallbackCandidates{},
					IncludeLinks:       true,
					HtmlDateMode:       trafilatura.Disabled,
					SkipMetadata:       skip,
				})
				if err != nil {
					t.Fatal(err)
				}
				if after := renderHTML(doc); after != before {
					t.Errorf("skip=%v: extraction modified its input document", skip)
				}
				return res, renderHTML(res.ContentNode)
			}
			full, fullHTML := run(false)
			skipped, skippedHTML := run(true)
			if fullHTML != skippedHTML || full.ContentText != skipped.ContentText {
				t.Errorf("content differs with SkipMetadata:\n%s\nvs\n%s", fullHTML, skippedHTML)
			}
			if full.Metadata.Title == "" || full.Metadata.Language == "" && name == "article" {
				t.Errorf("without SkipMetadata: metadata %+v, want a title and a language", full.Metadata)
			}
			if skipped.Metadata.Title != "" || skipped.Metadata.Language != "" || skipped.Metadata.Author != "" {
				t.Errorf("with SkipMetadata: metadata %+v, want none", skipped.Metadata)
			}
		})
	}
}
