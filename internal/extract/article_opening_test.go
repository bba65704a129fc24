package extract

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestAddOpening: the paragraphs between a page's headline and
// readability's block join the block when they are set as its paragraphs
// are and stand with the body, not with the headline.
func TestAddOpening(t *testing.T) {
	p := func(s string) string {
		return "<p>" + s + " opens the story about the harbour and its new ferry timetable for the summer.</p>"
	}
	body := p("Body one") + p("Body two") + p("Body three")
	page := func(header, main string) string {
		return `<div class="post-header"><h1>Harbour ferries</h1>` + header + `</div><main><div class="post-content">` +
			main + `<div class="post-body">` + body + `</div></div></main>`
	}
	toc := `<div class="toc"><div class="toc-title">Contents</div><a href="#one">One</a> <a href="#two">Two</a> <a href="#three">Three</a></div>`
	tests := []struct {
		name string
		doc  string
		want []string // the first two words of read's blocks after, before "Body two"
	}{
		{"an introduction in a section of its own", page("", `<div class="intro">`+p("Intro one")+p("Intro two")+`</div>`),
			[]string{"Intro one", "Intro two", "Body one"}},
		{"a section heading inside the introduction", page("", `<div class="intro">`+p("Intro one")+`<h2>Why now</h2>`+p("Intro two")+`</div>`),
			[]string{"Intro one", "Why now", "Intro two", "Body one"}},
		{"a standfirst stands with the headline", page(p("Standfirst"), ""), []string{"Body one"}},
		{"a standfirst under a site logo set as a headline too", `<div class="site"><div class="logo"><h1>Coastal Times</h1></div><div class="content">` + page(p("Standfirst"), "") + `</div></div>`, []string{"Body one"}},
		{"a summary set in the template's own class", page("", `<p class="excerpt">A summary of the story about the harbour and its new ferry timetable for the summer.</p>`),
			[]string{"Body one"}},
		{"a byline where the run starts", page("", `<div class="intro"><p>By Anna Berg</p>`+p("Intro one")+`</div>`),
			[]string{"Intro one", "Body one"}},
		{"an excerpt that repeats the opening", page("", `<div class="intro"><p>`+strings.ReplaceAll(strings.ReplaceAll(p("Body one")+p("Body two"), "<p>", " "), "</p>", "")+`</p></div>`),
			[]string{"Body one"}},
		{"a figure ends the run", page("", `<div class="intro">`+p("Intro one")+`<figure><img src="a.jpg">`+p("A caption")+`</figure>`+p("Intro two")+`</div>`),
			[]string{"Intro two", "Body one"}},
		{"a table of contents is passed over", page("", `<div class="intro">`+p("Intro one")+toc+p("Intro two")+`</div>`),
			[]string{"Intro one", "Intro two", "Body one"}},
		{"a table of contents in a list under a heading", page("", `<div class="intro">`+p("Intro one")+
			`<nav class="toc"><h2>In this article</h2><ul><li><a href="#one">One</a></li><li><a href="#two">Two</a></li><li><a href="#three">Three</a></li></ul></nav>`+p("Intro two")+`</div>`),
			[]string{"Intro one", "Intro two", "Body one"}},
		{"a table of contents with a heading of its own", page("", `<div class="intro">`+p("Intro one")+
			`<div class="toc"><h2>In this article</h2><p><a href="#one">One</a></p><p><a href="#two">Two</a></p><p><a href="#three">Three</a></p></div>`+p("Intro two")+`</div>`),
			[]string{"Intro one", "Intro two", "Body one"}},
		{"a list between the introduction's paragraphs", page("", `<div class="intro">`+p("Intro one")+`<h2>Step one</h2><ul><li>First item of three</li><li>Second item of three</li></ul>`+p("Intro two")+`</div>`),
			[]string{"Intro one", "Step one", "First item", "Second item", "Intro two", "Body one"}},
		{"a list where the run starts stays out", page("", `<div class="intro"><ul><li>First item of three</li><li>Second item of three</li></ul>`+p("Intro one")+`</div>`),
			[]string{"Intro one", "Body one"}},
		{"a list of links ends the run", page("", `<div class="intro">`+p("Intro one")+`<ul><li><a href="/a">Other ferry story</a></li><li><a href="/b">Another ferry story</a></li></ul>`+p("Intro two")+`</div>`),
			[]string{"Intro two", "Body one"}},
		{"no headline", strings.Replace(page("", `<div class="intro">`+p("Intro one")+`</div>`), "h1>", "div>", 2), []string{"Body one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseFragment(t, tt.doc)
			read := parseFragment(t, `<div class="page">`+body+`</div>`)
			addOpening(doc, read, &url.URL{Scheme: "https", Host: "news.example", Path: "/2025/05/ferries"})
			var got []string
			for _, b := range leafBlocks(read) {
				f := strings.Fields(textOf(b))
				got = append(got, strings.Join(f[:min(len(f), 2)], " "))
			}
			want := append(slices.Clone(tt.want), "Body two", "Body three")
			if !slices.Equal(got, want) {
				t.Errorf("read's paragraphs start %q, want %q", got, want)
			}
		})
	}
}
