package extract

import (
	"testing"
)

// TestTextOf checks that textOf separates the words that a line break,
// a table cell or a block boundary separates on the page, even in
// minified markup, and adds no space at either end or inside a line.
func TestTextOf(t *testing.T) {
	tests := []struct{ html, want string }{
		{`<p>Best for | Denim<br><strong>Size</strong> | Up to 24</p>`, "Best for | Denim Size | Up to 24"},
		{`<p><strong>The concepts<br></strong>We design</p>`, "The concepts We design"},
		{`<div><p>One.</p><p>Two.</p></div>`, "One. Two."},
		{`<table><tr><td>Cell</td><td>Next</td></tr></table>`, "Cell Next"},
		{`<ul><li>a</li><li>b</li></ul>`, "a b"},
		{`<p>in<em>line</em> <a href="/x">link</a>s</p>`, "inline links"},
		{"<p>line<br>\n next</p>", "line\n next"},
		{`<div><p>only</p></div>`, "only"},
		{`<p>text<script>var x = 1</script>more</p>`, "textmore"},
	}
	for _, tt := range tests {
		if got := textOf(parseFragment(t, tt.html)); got != tt.want {
			t.Errorf("textOf(%s) = %q, want %q", tt.html, got, tt.want)
		}
	}
}
