package extract

import (
	"context"
	"strings"
	"testing"
)

// TestProductFineprint: a declared product page loses its disclaimers,
// footnotes and a block whose name ends in "legal"; a block that only
// carries small print ("hasDisclaimer"), a name where "legal" is not the
// last word, and the small print of a page that is not a product stay.
func TestProductFineprint(t *testing.T) {
	desc := strings.Repeat("The tablet has a bright screen, a long battery life and a pen in the box. ", 8)
	body := `<main><h1>Galaxy Tab</h1><div class="hasDisclaimer"><p>` + desc + `</p></div>
<div class="product-disclaimer"><p>Image simulated. Colour availability may vary by country.</p></div>
<ol class="common-bottom-footnotes"><li>Battery life measured in lab conditions.</li></ol>
<div id="game_area_legal"><p>All trademarks are property of their respective owners.</p></div>
<div class="ux-legalShipping"><p>International shipment may be subject to customs processing.</p></div></main>`
	for _, tc := range []struct {
		name, head string
		keep, drop []string
	}{
		{"product", `<script type="application/ld+json">{"@type":"Product","name":"Galaxy Tab"}</script>`,
			[]string{"bright screen", "customs processing"}, []string{"Image simulated", "lab conditions", "trademarks"}},
		{"other page", ``,
			[]string{"bright screen", "Image simulated", "lab conditions", "trademarks"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><head>` + tc.head + `</head><body>` + body + `</body></html>`
			doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://shop.example.com/tab", Format: Text})
			if err != nil {
				t.Fatal(err)
			}
			checkKeepDrop(t, doc.Content, tc.keep, tc.drop)
		})
	}
}
