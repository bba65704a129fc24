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

// TestAddClosing: the story's paragraphs after readability's block, set
// in components of the same make, join the block; a card teasing
// another page is passed over, a section heading and a list in the
// story's component are taken, a list of links there only when the
// story goes on after it, and a newsletter box, a comment thread's
// heading or the next story's headline end the run.
func TestAddClosing(t *testing.T) {
	p := func(s string) string {
		return "<p>" + s + " tells more of the harbour and its new ferry timetable for the summer.</p>"
	}
	comp := func(inner string) string { return `<div class="c x1"><div class="t">` + inner + `</div></div>` }
	card := `<div class="c x2"><div class="k"><h5>Related article<br>The ferry buying guide</h5></div><div class="k"><a href="/guide">Read more</a></div></div>`
	tests := []struct {
		name       string
		after      string
		gone, kept []string
	}{
		{"the next component", comp(p("Tail one")), nil, []string{"Tail one"}},
		{"a section heading and a list in the next component, past a card",
			card + comp(`<h2>What it costs</h2>`+p("Tail one")+`<ul><li>Adults pay four euros a trip</li><li>Children ride free</li></ul>`),
			[]string{"Related article", "Read more"}, []string{"What it costs", "Tail one", "Adults pay", "Children ride"}},
		{"past a card whose title is no heading", `<div class="c x2"><div class="k"><strong>Related article</strong> The ferry buying guide</div><div class="k"><a href="/guide">Read more</a></div></div>` + comp(p("Tail one")),
			[]string{"Related article"}, []string{"Tail one"}},
		{"a heading over another wrapper's list", comp(`<h2>Fares</h2>`) + comp(`<ul><li>Adults pay four euros a trip</li><li>Children ride free</li></ul>`), []string{"Fares", "Adults pay"}, nil},
		{"a list under a heading", comp(`<h3>Fares</h3><ul><li>Adults pay four euros a trip</li><li>Children ride free</li></ul>`), nil, []string{"Fares", "Adults pay"}},
		{"a newsletter box of the same make", comp(`<h2>Sign up for our newsletter</h2>` + p("Stay in the loop")), []string{"Sign up", "Stay in the loop"}, nil},
		{"a comment thread's heading", comp(`<h2>Comments</h2>` + p("A reader")), []string{"Comments", "A reader"}, nil},
		{"the next story's headline", comp(`<h1>Another story</h1>` + p("Next one")), []string{"Another story", "Next one"}, nil},
		{"a box with prose is no card", `<div class="c x2"><div class="k"><p>A box of its own with enough words to be a paragraph <a href="/x">here</a></p></div></div>` + comp(p("Tail one")),
			[]string{"Tail one"}, nil},
		{"a heading over another wrapper's paragraph", comp(`<h2>What it costs</h2>`) + comp(p("Tail one")), []string{"What it costs", "Tail one"}, nil},
		{"a list of links in the next component, the story going on after it",
			comp(`<p>Suggested reading:</p><ul><li><a href="/a">The ferry buying guide for families</a></li><li><a href="/b">Ten island walks</a></li></ul>` + p("Tail one")),
			nil, []string{"The ferry buying guide", "Ten island walks", "Tail one"}},
		{"a list of links ending the story", comp(`<ul><li><a href="/a">The ferry buying guide for families</a></li><li><a href="/b">Ten island walks</a></li></ul>`),
			[]string{"The ferry buying guide", "Ten island walks"}, nil},
		{"a list of links in another wrapper", `<div class="related"><ul>` + strings.Repeat(`<li><a href="/a">The ferry buying guide for families</a></li>`, 5) + `</ul></div>` + comp(p("Tail one")),
			[]string{"The ferry buying guide", "Tail one"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader(`<html><body><main><article><h1>Harbour ferries</h1>` + comp(p("Body one")+p("Body two")) + tt.after + `</article></main></body></html>`))
			if err != nil {
				t.Fatal(err)
			}
			read := parseFragment(t, `<div>`+p("Body one")+p("Body two")+`</div>`)
			addClosing(doc, read)
			got := collapseSpace(textOf(read))
			checkGoneKept(t, got, tt.gone, append(tt.kept, "Body two"))
		})
	}
}
