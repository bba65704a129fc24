package extract

import (
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// railLabel matches the start of the label a shop sets over a rail of
// other products on a product page ("You may also like", "Customers also
// bought", "Frequently bought together", "More like this"), in English
// and in the languages of the large shops elsewhere. pruneProductAsides
// finds most rails by their class names; a shop whose class names are
// hashes (CSS modules, styled-components) names them by nothing but this
// label.
var railLabel = regexp.MustCompile(`^(related (items|products)|products related to|similar (items|products)|you (may|might) also (like|love|enjoy|need|be interested)|customers (also|who)|(frequently|often|usually) bought|bought together|recently viewed|more like this|complete the look|shop the look|(people|others) (also|who)|pairs well with|` +
	`ähnliche (produkte|artikel)|passende (produkte|artikel)|das könnte (dir|ihnen) auch gefallen|kunden kauften auch|(häufig|oft|wird oft) zusammen gekauft|zuletzt angesehen|` +
	`produits (similaires|associés|liés|recommandés)|vous (aimerez|pourriez aimer) (aussi|également|peut-être)|les clients ont (aussi|également)|fréquemment achetés ensemble|récemment consultés|` +
	`productos (relacionados|similares|recomendados)|también te (puede|podría) gustar|los clientes también|comprados juntos|vistos recientemente|` +
	`prodotti (correlati|simili|consigliati)|(ti )?potrebbe(ro)? (piacerti|piacere|interessarti)|spesso comprati insieme|visti di recente|` +
	`produtos (relacionados|semelhantes|similares|recomendados)|você (também )?pode gostar|quem comprou|comprados juntos|vistos recentemente|` +
	`gerelateerde producten|vergelijkbare producten|vaak samen gekocht|recent bekeken|podobne produkty|produkty powiązane|ostatnio oglądane|` +
	`похожие товары|с этим товаром покупают|недавно просмотренные|benzer ürünler|ilgili ürünler|liknande produkter|relaterade produkter|` +
	`関連商品|よく一緒に購入されている商品|最近チェックした商品|相关商品|看了又看|最近浏览|관련 ?상품|함께 구매한 상품|최근 본 상품)`)

// pruneProductRails removes, from a product page, the rails of other
// products that their label names: the label and the largest box
// around it that holds nothing else but links (the cards of a rail are
// links to their products, their names and prices often inside the
// link). The climb stops at a box that holds other text, such as the
// product's own description beside a rail that a script fills later, and
// at the box that holds the page's <h1>. The rails together must not
// hold half of the page's words: a page that is more rail than anything
// else is a list of products, misdeclared, whose heading reads as a
// rail's label. (A third, as other rules bound themselves, is too little
// here: a shop's two rails of ten cards each can outweigh the product,
// its menus and its footer together.)
//
// It runs on pages that declare nothing in particular too: a shop that
// builds its pages in the browser often declares no product, and its
// labels say the same there. Stories have dropRelated instead, and
// forums have no rails.
func pruneProductRails(doc *html.Node) {
	body := findBody(doc)
	if body == nil {
		return
	}
	var boxes []*html.Node
	found := map[*html.Node]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if isRailLabel(c.Data) {
					if box := railBox(c.Parent, body); box != nil && !found[box] {
						found[box] = true
						boxes = append(boxes, box)
					}
				}
			case c.Type == html.ElementNode && c.DataAtom != atom.A && !dropAlways[c.DataAtom]:
				// A label inside a link ("Recently viewed" in the
				// account menu) is a link to a page of its own.
				walk(c)
			}
		}
	}
	walk(body)
	// Two rails under one box are one rail: the outermost boxes alone,
	// so that their words are counted once.
	boxes = slices.DeleteFunc(boxes, func(b *html.Node) bool { return inAny(b.Parent, found) })
	removeUnlessShare(body, boxes, 2)
}

// headsOther reports a box with a heading outside links that names no
// rail: a list of products under its own title ("Results list"), which
// is the page's content however much of it is links. A rail's cards may
// head their names, inside the link, and an empty heading (a slot a
// script fills) titles nothing.
func headsOther(box *html.Node) bool {
	return len(collectElements(box, func(c *html.Node) visit {
		switch {
		case c.DataAtom == atom.A:
			return skip
		case headingAtoms[c.DataAtom]:
			if text := collapseSpace(textOf(c)); text != "" && !isRailLabel(text) {
				return take
			}
			return skip
		}
		return descend
	})) > 0
}

// isRailLabel reports a text that starts with a rail's label and is no
// longer than a label is.
func isRailLabel(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 120 {
		return false
	}
	return countWords(s) <= maxRelatedLabelWords && railLabel.MatchString(strings.ToLower(s))
}

// railBox returns the rail whose label is label: first the label's
// whole line (a heading with its "See all" link, "Sponsored" beside it),
// then each box up that holds only links besides the label and no
// heading of something else (headsOther). It returns
// nil when the label's own element is longer than a label or is an
// inline element among other words (the words open a sentence), and when
// the label is itself a link.
func railBox(label, body *html.Node) *html.Node {
	if wordCountOver(label, maxRelatedLabelWords) {
		return nil
	}
	for label.Parent != nil && label.Parent != body && !wordCountOver(label.Parent, maxRelatedLabelWords) {
		label = label.Parent
	}
	labelWords, labelLinks := wordCount(label), linkWords(label)
	if labelWords == 0 || labelLinks*2 >= labelWords {
		return nil
	}
	box := label
	for p := box.Parent; p != nil && p != body && !holdsH1(p); p = p.Parent {
		rest, restLinks := wordCount(p)-labelWords, linkWords(p)-labelLinks
		if rest > 0 && restLinks*2 < rest || headsOther(p) {
			break
		}
		box = p
	}
	if box == label && !blockAtoms[label.DataAtom] {
		// Words set in bold at the start of a sentence ("<b>Pairs
		// well with</b> our merino socks").
		return nil
	}
	return box
}
