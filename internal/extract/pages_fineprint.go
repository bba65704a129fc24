package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// fineprintWords are class/id words of the small print under a product
// page: disclaimers and the numbered footnotes that qualify its claims
// ("Image simulated", "Battery life measured in lab conditions"), and a
// block whose name ends in "legal" (trademark notices). Only declared
// products lose them: on articles footnotes are the author's notes, and
// on service pages (banks, insurers, clinics) the disclaimers are part of
// what the page says. "legal" elsewhere in a name is not enough: a
// "legalShipping" label or "sellerLegalText" holds the terms of sale.
var fineprintWords = wordSet(`disclaimer disclaimers footnote footnotes fineprint`)

// pruneFineprint removes the small print from a declared product page. An
// element holding the <h1> stays, like in pruneProductAsides.
func pruneFineprint(root *html.Node) {
	removeElements(root, func(c *html.Node) bool { return isFineprint(c) && !holdsH1(c) })
}

func isFineprint(n *html.Node) bool {
	for _, name := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		ws := nameWords(name)
		for i, w := range ws {
			// "hasDisclaimer", "with-footnotes": a block that carries
			// small print, not the small print itself.
			if fineprintWords[w] && (i == 0 || ws[i-1] != "has" && ws[i-1] != "with") || w == "legal" && i == len(ws)-1 && i > 0 {
				return true
			}
		}
	}
	return false
}
