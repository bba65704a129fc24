package extract

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestDropTrailingContents checks that a table of contents after the
// sections it lists goes, nested or numbered, and that one ahead of them,
// a list that also links elsewhere, or one naming no heading stays.
func TestDropTrailingContents(t *testing.T) {
	base, _ := url.Parse("https://docs.example.com/guide/config")
	body := `<h1>Configuration</h1><p>Intro words.</p><h2>The config file<a href="#file">¶</a></h2><p>File words.</p>` +
		`<h2>Environment</h2><p>Environment words.</p><h3>Precedence</h3><p>Order words.</p>`
	tests := []struct {
		name, in string
		drop     bool
	}{
		{"trailing", body + `<ul><li><a href="#file">The config file</a></li><li><a href="#env">Environment</a></li></ul>`, true},
		{"nested", body + `<ul><li><a href="#file">The config file</a></li><li><a href="#env">Environment</a><ul><li><a href="#p">Precedence</a></li></ul></li></ul>`, true},
		{"numbered, full address", body + `<ol><li><a href="https://docs.example.com/guide/config#file">1. The config file</a></li><li><a href="#env">2 Environment</a></li></ol>`, true},
		{"leading", `<ul><li><a href="#file">The config file</a></li><li><a href="#env">Environment</a></li></ul>` + body, false},
		{"links elsewhere", body + `<ul><li><a href="#file">The config file</a></li><li><a href="/guide/deploy">Environment</a></li></ul>`, false},
		{"item with more text", body + `<ul><li><a href="#file">The config file</a> explains the file.</li><li><a href="#env">Environment</a></li></ul>`, false},
		{"names no heading", body + `<ul><li><a href="#a">Overview</a></li><li><a href="#b">Examples</a></li></ul>`, false},
		{"one entry", body + `<ul><li><a href="#file">The config file</a></li></ul>`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := parseFragment(t, tt.in)
			dropTrailingContents(root, base)
			got := renderText(root)
			list := findFirst(root, func(n *html.Node) bool { return isElem(n, atom.Ul) || isElem(n, atom.Ol) })
			if (list == nil) != tt.drop {
				t.Errorf("list dropped = %v, want %v:\n%s", list == nil, tt.drop, got)
			}
			if !strings.Contains(got, "Order words.") {
				t.Errorf("lost the text:\n%s", got)
			}
		})
	}
}
