package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestResolveStreamed checks that React's streaming instructions move
// each hidden segment where the browser would show it, in order, and
// that a page whose instructions are incomplete keeps what it has.
func TestResolveStreamed(t *testing.T) {
	tests := []struct {
		name, page string
		want       string // the body's paragraphs after resolving, space-joined
	}{
		{
			name: "boundary",
			page: `<p>head</p><!--$?--><template id="B:0"></template><p>Loading</p><!--/$--><p>foot</p>` +
				`<div hidden id="S:0"><p>story</p></div><script>$RC("B:0","S:0")</script>`,
			want: "head story foot",
		},
		{
			name: "boundary with styles",
			page: `<!--$?--><template id="B:1"></template><!--/$--><p>foot</p>` +
				`<div hidden id="S:a"><p>story</p></div><script>$RR("B:1","S:a",[["/app.css","high"]])</script>`,
			want: "story foot",
		},
		{
			name: "segment into a streamed segment",
			page: `<!--$?--><template id="B:0"></template><!--/$-->` +
				`<div hidden id="S:0"><p>first</p><template id="P:1"></template><p>third</p></div><script>$RC("B:0","S:0")</script>` +
				`<div hidden id="S:1"><p>second</p></div><script>$RS("S:1","P:1")</script>`,
			want: "first second third",
		},
		{
			name: "nested boundary in the fallback",
			page: `<!--$?--><template id="B:0"></template><!--$--><p>inner</p><!--/$--><p>Loading</p><!--/$--><p>foot</p>` +
				`<div hidden id="S:0"><p>story</p></div><script>$RC("B:0","S:0")</script>`,
			want: "story foot",
		},
		{
			name: "external runtime's templates",
			page: `<!--$?--><template id="B:0"></template><!--/$--><p>foot</p>` +
				`<div hidden id="S:0"><p>story</p></div><template data-rci="" data-bid="B:0" data-sid="S:0"></template>`,
			want: "story foot",
		},
		{
			name: "identifier prefix",
			page: `<!--$?--><template id="appB:0"></template><!--/$-->` +
				`<div hidden id="appS:0"><p>story</p></div><script>$RC("appB:0","appS:0")</script>`,
			want: "story",
		},
		{
			name: "no instruction: the segment stays hidden where it is",
			page: `<p>head</p><!--$?--><template id="B:0"></template><!--/$--><div hidden id="S:0"><p>story</p></div>`,
			want: "head story",
		},
		{
			name: "instruction without its segment",
			page: `<p>head</p><!--$?--><template id="B:0"></template><p>Loading</p><!--/$--><script>$RC("B:0","S:9")</script>`,
			want: "head Loading",
		},
		{
			name: "boundary already complete",
			page: `<!--$--><template id="B:0"></template><p>shown</p><!--/$-->` +
				`<div hidden id="S:0"><p>late</p></div><script>$RC("B:0","S:0")</script>`,
			want: "shown late",
		},
		{
			name: "a segment cannot move into itself",
			page: `<div hidden id="S:0"><p>story</p><template id="P:0"></template></div><script>$RS("S:0","P:0")</script>`,
			want: "story",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseHTML([]byte("<html><body>" + tt.page + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			resolveStreamed(doc)
			// The paragraphs in document order (templates hold none of
			// them once resolved; an unresolved one's fallback is kept).
			var ps []string
			for _, p := range collectElements(findBody(doc), func(c *html.Node) visit {
				if isElem(c, atom.P) {
					return take
				}
				return descend
			}) {
				ps = append(ps, textOf(p))
			}
			if got := strings.Join(ps, " "); got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzResolveStreamed checks that no page makes resolving streamed
// segments panic or loop.
func FuzzResolveStreamed(f *testing.F) {
	f.Add(`<!--$?--><template id="B:0"></template><!--/$--><div hidden id="S:0"><p>x</p></div><script>$RC("B:0","S:0")</script>`)
	f.Add(`<div hidden id="S:0"><template id="P:0"></template></div><script>$RS("S:0","P:0");$RS("S:0","P:0")</script>`)
	f.Fuzz(func(t *testing.T, page string) {
		if len(page) > 16<<10 {
			page = page[:16<<10]
		}
		doc, err := parseHTML([]byte(page))
		if err != nil {
			return
		}
		resolveStreamed(doc)
	})
}
