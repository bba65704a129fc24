package extract

import (
	"context"
	"strings"
	"testing"
)

// TestProductRails: a product page whose class names are hashes, declared
// or not, loses the rails of other products that their labels name (the
// label with its "See all" link, and the cards, whose names and prices
// are links), and keeps its description beside a rail that a script
// fills later and a label's words in bold at the start of a sentence. A
// category page keeps its list of products under its own heading, though
// it is all links and a "Recently viewed" rail stands beside it.
func TestProductRails(t *testing.T) {
	desc := strings.Repeat("The bottle keeps drinks cold for a day and hot for twelve hours. ", 8)
	product := `<main><div class="q7Fx"><h1>Steel Bottle 750 ml</h1><p>` + desc + `</p>
<p><b>Pairs well with</b> the insulated sleeve, which keeps the bottle from sweating in a bag.</p>
<div class="a9"><h2>Products related to this item</h2><span>Sponsored</span></div><div class="x0"></div>
</div>
<div class="b1"><h2>Product details</h2><ul><li>Weight: 340 g</li><li>Material: double-walled stainless steel</li><li>Lid: screw cap with a loop</li>
<li>Capacity: 750 ml, enough for a long walk</li><li>Care: rinse by hand, not for the dishwasher</li><li>Colours: black, sand, forest green and sea blue</li></ul>
<p>Ships in a recycled card box within two working days.</p></div>
<section class="sc-1bf jJG"><div class="e1"><h2 class="s9">More like this</h2><div class="m2">
<a class="V9" href="/p/1"><h3>Steel Mug 350 ml</h3><div>3/1/24</div><span>Regular Price: $24.99</span></a>
<a class="V9" href="/p/2"><h3>Bottle Brush Set</h3><span>Regular Price: $9.99</span></a></div></div>
<div class="e1"><div class="h4"><p>You may also like</p><a href="/all">See all</a></div><ul>
<li><a href="/p/3">Straw Lid for Steel Bottles</a> $12.99</li><li><a href="/p/4">Kids Bottle 350 ml</a> $19.99</li></ul></div></section></main>`
	var cards strings.Builder
	for _, name := range []string{"Steel Bottle 500 ml", "Steel Bottle 750 ml", "Steel Bottle 1 litre", "Kids Bottle 350 ml", "Glass Bottle 600 ml", "Sports Bottle 800 ml",
		"Steel Flask 350 ml", "Bamboo Bottle 500 ml", "Folding Bottle 1 litre", "Filter Bottle 650 ml"} {
		cards.WriteString(`<li><a href="/p/x"><h3>` + name + `</h3><span>From $19.99</span></a></li>`)
	}
	category := `<main><h1>Water bottles</h1><p>` + desc[:len(desc)*5/8] + `</p><div class="r5"><h2>Sort and filter</h2><div class="f2"></div>
<h2>Results list</h2><ul>` + cards.String() + `</ul><div class="w8"><h2>Recently viewed</h2></div></div></main>`
	declared := `<script type="application/ld+json">{"@type":"Product","name":"Steel Bottle 750 ml","offers":{"@type":"Offer","price":"29.99"}}</script>`
	railsGone := []string{"Products related", "More like this", "Steel Mug", "$24.99", "Bottle Brush", "You may also like", "Straw Lid", "$19.99"}
	for _, tc := range []struct {
		name, head, body string
		keep, drop       []string
	}{
		{"declared product", declared, product, []string{"hot for twelve hours", "Pairs well with the insulated sleeve", "double-walled"}, railsGone},
		{"undeclared product", ``, product, []string{"hot for twelve hours", "Pairs well with the insulated sleeve", "double-walled"}, railsGone},
		{"category", ``, category, []string{"Results list", "Steel Bottle 1 litre", "Glass Bottle 600 ml", "Sports Bottle 800 ml"}, []string{"Recently viewed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><head>` + tc.head + `</head><body>` + tc.body + `</body></html>`
			doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://shop.example.com/bottle", Format: Text})
			if err != nil {
				t.Fatal(err)
			}
			checkKeepDrop(t, doc.Content, tc.keep, tc.drop)
		})
	}
}
