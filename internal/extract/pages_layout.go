package extract

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

const (
	// minLayoutProse: the cell that holds the page's text in a layout
	// table has at least this many words, under a quarter in links.
	minLayoutProse = 100
	// maxLayoutCells: a layout row has a menu column, the text, and
	// perhaps a second column; a data table's rows have more cells.
	maxLayoutCells = 3
)

// dropLayoutLinkCells removes the menu column of a page laid out with a
// table (the web of the early 2000s: <td class="menu"> beside the text
// cell). Readability never cleans inside tables, so its pick is the whole
// row, menu included, and trafilatura's reading keeps it too. In a row of
// two or three cells, one holding at least minLayoutProse words of prose,
// a cell that is mostly links (60% or more of its words) and at most a
// third as long is the menu. A data table's rows are short and have more
// cells; readability turns the picked <tr> into a <div>, so the cells
// are looked for under any parent.
func dropLayoutLinkCells(root *html.Node) {
	var rows []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if isCell(c) && (len(rows) == 0 || rows[len(rows)-1] != n) {
				rows = append(rows, n)
			}
			walk(c)
		}
	}
	walk(root)
	var drop []*html.Node
	for _, row := range rows {
		var cells []*html.Node
		for c := row.FirstChild; c != nil; c = c.NextSibling {
			if isCell(c) {
				cells = append(cells, c)
			}
		}
		if len(cells) < 2 || len(cells) > maxLayoutCells {
			continue
		}
		text, tw := cells[0], 0
		for _, c := range cells {
			if w := wordCount(c); w > tw {
				text, tw = c, w
			}
		}
		if tw < minLayoutProse || linkWords(text)*4 >= tw {
			continue
		}
		for _, c := range cells {
			if w := wordCount(c); c != text && w > 0 && w*3 <= tw && linkWords(c)*10 >= w*6 {
				drop = append(drop, c)
			}
		}
	}
	for _, c := range drop {
		removeNode(c)
	}
}

func isCell(n *html.Node) bool { return isElem(n, atom.Td) || isElem(n, atom.Th) }
