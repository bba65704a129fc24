package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestLayoutLinkCells: the menu column of a table layout goes; a data
// table's link column, a short text cell and a row of many cells stay.
func TestLayoutLinkCells(t *testing.T) {
	prose := strings.Repeat("The old mill on the main street will be restored from next month onwards. ", 8)
	menu := `<a href="/">Home</a><br><a href="/club">The club</a><br><a href="/news">News</a><br><a href="/dates">Dates</a><br>Visitors: 48213`
	link := func(s string) string { return `<a href="/` + s + `">` + s + `</a>` }
	// Readability renames the <tr> it picks to a <div>, which an HTML
	// parser would never build around cells.
	rule := func(root *html.Node) {
		if tr := findFirst(root, func(n *html.Node) bool { return attr(n, "class") == "div" }); tr != nil {
			tr.Data, tr.DataAtom = "div", atom.Div
		}
		dropLayoutLinkCells(root)
	}
	checkRule(t, rule, []ruleCase{
		{"menu beside the text", `<table><tr><td class="nav">` + menu + `</td><td>` + prose + `</td></tr></table>`,
			[]string{"The club", "Visitors"}, []string{"The old mill"}},
		{"readability's row turned into a div", `<table><tr class="div"><td>` + menu + `</td><td>` + prose + `</td></tr></table>`,
			[]string{"The club"}, []string{"The old mill"}},
		{"a data table's link column", `<table><tr><td>` + link("alpha") + `</td><td>A tool for notes</td></tr><tr><td>` + link("beta") + `</td><td>A tool for lists</td></tr></table>`,
			nil, []string{"alpha", "beta", "A tool for lists"}},
		{"a row of many cells", `<table><tr><td>` + menu + `</td><td>` + prose + `</td><td>x</td><td>y</td></tr></table>`,
			nil, []string{"The club", "The old mill"}},
		{"a text cell of links", `<table><tr><td>` + menu + `</td><td>` + strings.Repeat(link("more")+" words ", 60) + `</td></tr></table>`,
			nil, []string{"The club"}},
	})
}
