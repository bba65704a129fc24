package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestSameSetting: paragraphs in wrappers of the same elements, each
// pair sharing a class (or both without one), are set alike; a
// different wrapper, a different depth, a classless wrapper beside a
// named one, or a common ancestor that is the page's <body> are not.
func TestSameSetting(t *testing.T) {
	tests := []struct {
		name, page string
		want       bool
	}{
		{"components sharing a class", `<article><div class="a first"><div class="b"><p>A</p></div></div><div class="a"><div class="b"><p>B</p></div></div></article>`, true},
		{"another wrapper", `<article><div class="a"><div class="b"><p>A</p></div></div><div class="related"><div class="b"><p>B</p></div></div></article>`, false},
		{"another depth", `<article><div class="a"><p>A</p></div><div class="a"><div class="a"><p>B</p></div></div></article>`, false},
		{"a classless wrapper beside a named one", `<article><div class="a"><p>A</p></div><div><p>B</p></div></article>`, false},
		{"another element", `<article><div class="a"><p>A</p></div><div class="a"><div>B</div></div></article>`, false},
		{"only the body in common", `<div class="a"><p>A</p></div><div class="a"><p>B</p></div>`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<html><body>" + tt.page + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			find := func(s string) *html.Node {
				return findFirst(doc, func(n *html.Node) bool {
					return n.Type == html.ElementNode && blockAtoms[n.DataAtom] && !hasBlockChild(n) && textOf(n) == s
				})
			}
			if got := sameSetting(find("B"), find("A")); got != tt.want {
				t.Errorf("sameSetting = %v, want %v", got, tt.want)
			}
		})
	}
}
