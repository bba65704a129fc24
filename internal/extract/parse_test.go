package extract

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestCloseNoscriptFrames checks that only a self-closed <iframe> inside
// a <noscript> block gains an end tag, and that the story after a tag
// manager's snippet is parsed as markup.
func TestCloseNoscriptFrames(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<noscript><iframe src="x" /></noscript><p>a</p>`, `<noscript><iframe src="x" /></iframe></noscript><p>a</p>`},
		{`<NOSCRIPT><IFRAME src="x"/></NOSCRIPT>`, `<NOSCRIPT><IFRAME src="x"/></iframe></NOSCRIPT>`},
		{`<noscript><iframe src="x"></iframe></noscript>`, `<noscript><iframe src="x"></iframe></noscript>`},
		{`<iframe src="x" /><p>a</p>`, `<iframe src="x" /><p>a</p>`}, // a browser swallows it too
		{`<noscript><img src="x"/></noscript><noscript><iframe/></noscript>`, `<noscript><img src="x"/></noscript><noscript><iframe/></iframe></noscript>`},
		{`<noscript><iframe src="x" /><p>a</p>`, `<noscript><iframe src="x" /></iframe><p>a</p>`},
		{`<noscript><iframe src="x"`, `<noscript><iframe src="x"`},
		{`<noscript`, `<noscript`},
	}
	for _, tt := range tests {
		if got := string(closeNoscriptFrames([]byte(tt.in))); got != tt.want {
			t.Errorf("closeNoscriptFrames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	page := `<html><body><noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display:none" /></noscript><p>The story.</p></body></html>`
	doc, err := parseHTML([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.P) }) == nil {
		t.Errorf("the paragraph after the snippet was not parsed as markup")
	}
}

// FuzzCloseNoscriptFrames checks that closing frames never panics, only
// ever adds end tags, and is idempotent.
func FuzzCloseNoscriptFrames(f *testing.F) {
	f.Add([]byte(`<noscript><iframe src="x" /></noscript><p>a</p>`))
	f.Add([]byte(`<noscript><iframe/>`))
	f.Add([]byte(`<noscript></noscript><iframe/>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := closeNoscriptFrames(b)
		if got := bytes.ReplaceAll(out, []byte("</iframe>"), nil); !bytes.Equal(got, bytes.ReplaceAll(b, []byte("</iframe>"), nil)) {
			t.Fatalf("closeNoscriptFrames changed more than end tags: %q -> %q", b, out)
		}
		if again := closeNoscriptFrames(out); !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q -> %q", b, out, again)
		}
	})
}

// TestIndexFold checks the case-blind search against the plain one on
// lower-cased input, for needles found by their first byte ("<noscript")
// and by letters ("aut"), in strings and byte slices.
func TestIndexFold(t *testing.T) {
	tests := []struct {
		in, needle string
		want       int
	}{
		{`<p>a</p><NoScript>`, "<noscript", 8},
		{`<noscrip`, "<noscript", -1},
		{`<<noscript`, "<noscript", 1},
		{`<no<noscript`, "<noscript", 3},
		{`x<`, "<iframe", -1},
		{`</IFRAME>`, "</iframe", 0},
		{`AUTHOR-box`, "aut", 0},
		{`sabox-Aut`, "aut", 6},
		{``, "aut", -1},
	}
	for _, tt := range tests {
		if got := indexFold(tt.in, tt.needle); got != tt.want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", tt.in, tt.needle, got, tt.want)
		}
		if got := indexFold([]byte(tt.in), tt.needle); got != tt.want {
			t.Errorf("indexFold([]byte(%q), %q) = %d, want %d", tt.in, tt.needle, got, tt.want)
		}
	}
}

// FuzzIndexFold checks indexFold against strings.Index on the input with
// its ASCII letters lower-cased.
func FuzzIndexFold(f *testing.F) {
	f.Add("<p>a</p><NoScript>", "<noscript")
	f.Add("AUTHOR-box", "aut")
	f.Fuzz(func(t *testing.T, s, needle string) {
		needle = strings.ToLower(needle)
		if needle == "" || strings.ToLower(needle) != asciiLower(needle) {
			return
		}
		want := strings.Index(asciiLower(s), needle)
		if got := indexFold(s, needle); got != want {
			t.Fatalf("indexFold(%q, %q) = %d, want %d", s, needle, got, want)
		}
	})
}

// asciiLower lower-cases the ASCII letters of s only, as indexFold does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
