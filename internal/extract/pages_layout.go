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
	// Every element is looked at as a row, root (readability's <tr>
	// turned <div>) and nested layout tables too.
	var drop []*html.Node
	row := func(row *html.Node) visit {
		cells := layoutCells(row)
		if len(cells) < 2 || len(cells) > maxLayoutCells {
			return descend
		}
		text, tw := cells[0], 0
		for _, c := range cells {
			if w := wordCount(c); w > tw {
				text, tw = c, w
			}
		}
		if tw < minLayoutProse || linkWords(text)*4 >= tw {
			return descend
		}
		for _, c := range cells {
			if w := wordCount(c); c != text && w > 0 && w*3 <= tw && linkWords(c)*10 >= w*6 {
				drop = append(drop, c)
			}
		}
		return descend
	}
	row(root)
	collectElements(root, row)
	for _, c := range drop {
		removeNode(c)
	}
}

// layoutCells returns the table cells among row's children, up to one
// more than maxLayoutCells (a data table's row, which no rule needs in
// full).
func layoutCells(row *html.Node) []*html.Node {
	var cells []*html.Node
	for c := row.FirstChild; c != nil && len(cells) <= maxLayoutCells; c = c.NextSibling {
		if isElem(c, atom.Td) || isElem(c, atom.Th) {
			cells = append(cells, c)
		}
	}
	return cells
}
