package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// parsePage parses a small HTML page for the rule tests below.
func parsePage(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := parseHTML([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	prepareDoc(doc)
	return doc
}

// TestFurnitureNames checks which class names make the cleaned page drop
// an element: furniture words do, unless the class token names the
// layout, a CSS utility or a list of search results.
func TestFurnitureNames(t *testing.T) {
	for _, tc := range []struct {
		class string
		drop  bool
	}{
		{"sidebar", true},
		{"site-sidebar", true},
		{"hidden", true},
		{"is-hidden", true},
		{"search", true},
		{"search-form", true},
		{"layout-sidebar-left", false},
		{"c-layout-sidebar-left", true}, // the first word is the prefix, not layout
		{"overflow-hidden", false},
		{"relative overflow-x-hidden", false},
		{"hidden-xs", false},
		{"search-results", false},
		{"content sidebar-left", false},
	} {
		t.Run(tc.class, func(t *testing.T) {
			n := &html.Node{Type: html.ElementNode, Data: "div", Attr: []html.Attribute{{Key: "class", Val: tc.class}}}
			if got := looksBoiler(n); got != tc.drop {
				t.Errorf("looksBoiler(class=%q) = %v, want %v", tc.class, got, tc.drop)
			}
		})
	}
}

// TestCleanedPageKeepsResults: a listing inside a "search-results"
// container and a card clipped with "overflow-hidden" are content.
func TestCleanedPageKeepsResults(t *testing.T) {
	filler := strings.Repeat("Plenty of introductory words about this catalogue of running shoes. ", 20)
	page := `<html><body><nav><a href="/">Home</a></nav><main><h1>Running shoes</h1><p>` + filler + `</p>
<div id="search-results"><ul>
<li><a href="/a">Trail Runner Alpha</a> <span>$120</span> Cushioned shoe for long mountain runs</li>
<li><a href="/b">Road Racer Beta</a> <span>$95</span> Light shoe for fast road races</li>
</ul></div>
<div class="overflow-hidden"><p>Card clipped by a rounded border with a description.</p></div>
<div class="sidebar"><p>Sidebar promotion nobody reads here.</p></div>
</main></body></html>`
	clean := renderText(cleanedPage(parsePage(t, page)))
	for _, want := range []string{"Trail Runner Alpha", "fast road races", "Card clipped"} {
		if !strings.Contains(clean, want) {
			t.Errorf("cleaned page lost %q:\n%s", want, clean)
		}
	}
	if strings.Contains(clean, "Sidebar promotion") {
		t.Errorf("cleaned page kept the sidebar:\n%s", clean)
	}
}
