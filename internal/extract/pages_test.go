package extract

import (
	"context"
	"fmt"
	nurl "net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parsePage parses a small HTML page for the rule tests below.
func parsePage(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := parseHTML([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	prepareDoc(doc)
	return doc
}

// checkKeepDrop fails t for each keep string missing from got and each
// drop string present in it.
func checkKeepDrop(t *testing.T, got string, keep, drop []string) {
	t.Helper()
	for _, w := range keep {
		if !strings.Contains(got, w) {
			t.Errorf("lost %q:\n%s", w, got)
		}
	}
	for _, w := range drop {
		if strings.Contains(got, w) {
			t.Errorf("kept %q:\n%s", w, got)
		}
	}
}

// TestFurnitureNames checks which class names make the cleaned page drop
// an element: furniture words do, unless the class token names the
// layout, a CSS utility or a list of search results.
func TestFurnitureNames(t *testing.T) {
	for _, tc := range []struct {
		class string
		drop  bool
	}{
		{"sidebar", true},
		{"site-sidebar", true},
		{"hidden", true},
		{"is-hidden", true},
		{"search", true},
		{"search-form", true},
		{"layout-sidebar-left", false},
		{"c-layout-sidebar-left", true}, // the first word is the prefix, not layout
		{"overflow-hidden", false},
		{"relative overflow-x-hidden", false},
		{"hidden-xs", false},
		{"hidden-900", false},
		{"ssr-variant hidden-bnz77l hidden-1rq27kw", false},
		{"vds-box vds-overflow_hidden", false},
		{"relative md:overflow-x-hidden", false},
		{"hidden-notice", true},
		{"blog-item-wrapper blog-side-by-side-item-wrapper", false},
		{"kt-accordion-wrap kt-accodion-icon-side-right", false},
		{"mntl-sc-block-accordion_drawer", false},
		{"accordion-item__dropdown", false},
		{"accordion-menu", true},
		{"side-menu", true},
		// Drupal's fields whose label is not printed: the field shows.
		{"field field--name-field-standfirst field--type-string-long field--label-hidden field__items", false},
		{"field field-name-field-summary field-label-hidden", false},
		{"field field--name-field-subtitle field--label-visually_hidden", false},
		{"field--name-field-share field--label-hidden share-links", true},
		{"search-results", false},
		{"search-page-wrapper", false},
		{"row row-offcanvas row-offcanvas-left", false},
		{"content sidebar-left", false},
		{"elementor-widget-container", false}, // Elementor wraps every element so
		{"elementor-element elementor-widget elementor-widget-text-editor", false},
		{"elementor-widget elementor-widget-nav-menu", true},
		{"widget widget_recent_entries", true},
		// So does SiteOrigin's.
		{"so-panel widget widget_sow-editor panel-first-child", false},
		{"hypercore-imported-contentblock panel-widget-style panel-widget-style-for-610-0-0-0", false},
		{"siteorigin-widget-tinymce textwidget", false},
		{"so-panel widget widget_nav_menu", true},
		// Templates name their furniture in the site's language too.
		{"pied-de-page", true},
		{"fil-ariane", true},
		{"seitenleiste", true},
		{"barra-lateral", true},
		{"piedipagina", true},
		{"kruimelpad", true},
		{"article-partage", false}, // a content word protects the container
		// Compounds end in a furniture word.
		{"mainnav", true},
		{"hauptnavigation", true},
		{"untermenue", true},
		{"fussleiste", true},
		{"nav-tabs", true},
		{"canvas", false},
		{"cardfooter", false}, // a card's footer holds its text
		{"menu-content", false},
	} {
		t.Run(tc.class, func(t *testing.T) {
			n := &html.Node{Type: html.ElementNode, Data: "div", Attr: []html.Attribute{{Key: "class", Val: tc.class}}}
			if got := looksBoiler(n); got != tc.drop {
				t.Errorf("looksBoiler(class=%q) = %v, want %v", tc.class, got, tc.drop)
			}
		})
	}
}

// TestSkipSections: "skip" names a skip link, a line; sections a table of
// contents jumps to are named so too ("skip-item"), and hold the story.
func TestSkipSections(t *testing.T) {
	var sections strings.Builder
	for _, topic := range []string{"What is a mesh network", "How does it work", "How to set it up"} {
		sections.WriteString(`<div class="skip-item" id="` + topic + `"><h2>` + topic + `?</h2><p>` +
			strings.Repeat("A mesh system spreads one wireless network over the whole house with several units. ", 5) + `</p></div>`)
	}
	page := `<html><body><a class="skip-link" href="#main">Skip to content</a><nav><a href="/">Home</a></nav><main id="main"><h1>What is mesh WiFi?</h1>` +
		sections.String() + `</main></body></html>`
	clean := renderText(cleanedPage(parsePage(t, page)))
	for _, want := range []string{"What is a mesh network?", "How to set it up?"} {
		if !strings.Contains(clean, want) {
			t.Errorf("cleaned page lost the section %q:\n%s", want, clean)
		}
	}
	if strings.Contains(clean, "Skip to content") {
		t.Errorf("cleaned page kept the skip link:\n%s", clean)
	}
}

// TestCleanedPageKeepsResults: a listing inside a "search-results"
// container and a card clipped with "overflow-hidden" are content.
func TestCleanedPageKeepsResults(t *testing.T) {
	filler := strings.Repeat("Plenty of introductory words about this catalogue of running shoes. ", 20)
	page := `<html><body><nav><a href="/">Home</a></nav><main><h1>Running shoes</h1><p>` + filler + `</p>
<div id="search-results"><ul>
<li><a href="/a">Trail Runner Alpha</a> <span>$120</span> Cushioned shoe for long mountain runs</li>
<li><a href="/b">Road Racer Beta</a> <span>$95</span> Light shoe for fast road races</li>
</ul></div>
<div class="overflow-hidden"><p>Card clipped by a rounded border with a description.</p></div>
<div class="sidebar"><p>Sidebar promotion nobody reads here.</p></div>
</main></body></html>`
	clean := renderText(cleanedPage(parsePage(t, page)))
	for _, want := range []string{"Trail Runner Alpha", "fast road races", "Card clipped"} {
		if !strings.Contains(clean, want) {
			t.Errorf("cleaned page lost %q:\n%s", want, clean)
		}
	}
	if strings.Contains(clean, "Sidebar promotion") {
		t.Errorf("cleaned page kept the sidebar:\n%s", clean)
	}
}

// TestReactStreamedContent: React's streamed server rendering parks the
// page's content in <div hidden id="S:n">; the cleaned page keeps it,
// while other hidden elements stay dropped.
func TestReactStreamedContent(t *testing.T) {
	page := `<html><body><div id="root"><p>Loading...</p></div>
<div hidden id="S:1f"><h1>Streamed title</h1><p>The article text that a script moves into place.</p></div>
<div hidden id="popup"><p>Sign up for our newsletter today.</p></div>
<div hidden id="S:zz"><p>Not a React boundary id.</p></div></body></html>`
	clean := renderText(cleanedPage(parsePage(t, page)))
	if !strings.Contains(clean, "script moves into place") {
		t.Errorf("cleaned page lost the streamed content:\n%s", clean)
	}
	for _, drop := range []string{"newsletter", "Not a React"} {
		if strings.Contains(clean, drop) {
			t.Errorf("cleaned page kept hidden %q:\n%s", drop, clean)
		}
	}
}

func TestClassifyPage(t *testing.T) {
	for _, tc := range []struct {
		name, head, body string
		want             pageKind
		url              string // the page's address; none when empty
	}{
		{"json-ld product without offer", `<script type="application/ld+json">{"@type":"Product","name":"Tee","offers":{"@type":"Offer"}}</script>`, ``, kindProduct, ""},
		{"json-ld products in an item list", `<script type="application/ld+json">{"@type":"ItemList","itemListElement":[{"@type":"Product"}]}</script><script type="application/ld+json">{"@type":"Product"}</script>`, ``, kindOther, ""},
		{"one microdata product", ``, `<div itemscope itemtype="https://schema.org/Product"><h1>Tee</h1><div itemscope itemtype="https://schema.org/Product">accessory</div></div>`, kindProduct, ""},
		{"microdata product cards", ``, `<div itemscope itemtype="http://schema.org/Product">A</div><div itemscope itemtype="http://schema.org/Product">B</div>`, kindOther, ""},
		{"review article about a product", `<script type="application/ld+json">[{"@type":"Review"},{"@type":"NewsArticle"},{"@type":"Product"}]</script>`, ``, kindArticle, ""},
		// SEO plugins print og:type "article" on every page of a blog
		// or shop theme, product pages included; a JSON-LD Product with
		// offers is the more specific claim, an Article type in the
		// JSON-LD the stronger.
		{"shop page with the theme's og:type article", `<meta property="og:type" content="article"><script type="application/ld+json">{"@type":"Product","name":"Ring","offers":[{"@type":"Offer"}]}</script>`, ``, kindProduct, ""},
		{"blog post with og:type article and a product box", `<meta property="og:type" content="article"><script type="application/ld+json">[{"@type":"BlogPosting"},{"@type":"Product"}]</script>`, ``, kindArticle, ""},
		{"og:type article with one microdata product", `<meta property="og:type" content="article">`, `<div itemscope itemtype="https://schema.org/Product">Kettle</div>`, kindArticle, ""},
		{"service page with a rated product and og:type article", `<meta property="og:type" content="article"><script type="application/ld+json">{"@type":"Product","name":"Pest control","aggregateRating":{"@type":"AggregateRating","ratingValue":"4.9"}}</script>`, ``, kindArticle, ""},
		// Microformats: one post marked hentry or h-entry is a story; a
		// list of them is an archive; a WordPress static page is none.
		{"one hAtom post", ``, `<div class="post hentry"><div class="post-body entry-content">text</div></div>`, kindArticle, ""},
		{"one h-entry with h-entry comments", ``, `<article class="h-entry"><p>text</p><div class="h-entry p-comment">reply</div></article>`, kindArticle, ""},
		{"a blog's home page", ``, `<div class="post hentry">A</div><div class="post hentry">B</div>`, kindOther, ""},
		{"a WordPress static page", ``, `<article class="post-12 page type-page status-publish hentry">Services</article>`, kindOther, ""},
		{"a WordPress static page with the SEO plugin's og:type article", `<meta property="og:type" content="article">`, `<article class="post-12 page type-page status-publish hentry">Services</article>`, kindOther, ""},
		{"a WordPress post with og:type article", `<meta property="og:type" content="article">`, `<article class="post-13 post type-post status-publish hentry">Story</article>`, kindArticle, ""},
		{"a WordPress static page declared an Article in JSON-LD", `<script type="application/ld+json">{"@type":"Article"}</script>`, `<article class="post-12 page type-page hentry">Essay</article>`, kindArticle, ""},
		// A publication date in the head marks a dated publication, even
		// under og:type "website" (older news sites, Chinese portals),
		// except at the top of a site, where CMSs stamp landing pages
		// and section fronts with the date they were created.
		{"a story with a date meta and og:type website", `<meta property="og:type" content="website"><meta name="date" content="2015-04-08T12:46:00">`, ``, kindArticle, "https://news.example/mac/meldung/Password-manager-adds-one-time-codes-2596987.html"},
		{"a story with publishdate, no address", `<meta name="publishdate" content="2017-03-10">`, ``, kindArticle, ""},
		{"a story at a one-segment slug", `<meta property="article:published_time" content="2024-11-21T04:05:21Z">`, ``, kindArticle, "https://blog.example/how-we-moved-our-builds"},
		{"a front page with a date meta", `<meta name="date" content="2015-04-08">`, ``, kindOther, "https://news.example/"},
		{"a landing page with the CMS's published time", `<meta property="og:type" content="website"><meta property="article:published_time" content="2024-11-21T04:05:21Z">`, ``, kindOther, "https://www.example.com/service/"},
		{"a section front with a date meta", `<meta name="date" content="2015-04-08">`, ``, kindOther, "https://news.example/politics"},
		{"a story addressed by a query", `<meta name="date" content="2015-04-08">`, ``, kindArticle, "https://news.example/artikel.php?id=123"},
		{"a date meta that is not a date", `<meta name="date" content="today">`, ``, kindOther, ""},
		// A dated permalink (/2017/08/slug/, WordPress's and many news
		// CMSs' convention) marks a story that declares nothing; the
		// archive of a month and its pages are no story.
		{"a dated permalink", ``, ``, kindArticle, "http://wanderlust.example/2017/08/elbsandstein-tour/"},
		{"a dated permalink with a day", ``, ``, kindArticle, "https://blog.example/2025/12/19/what-do-people-love-about-rust"},
		{"a dated page file", ``, ``, kindArticle, "https://example.org/archives/2025/12/16/vibe_coding.html"},
		// A slug in another script, percent-encoded as sent or not.
		{"a dated permalink in Cyrillic", ``, ``, kindArticle, "https://novosti.example/2024/05/12/%D0%BD%D0%BE%D0%B2%D0%BE%D1%81%D1%82%D0%B8-%D0%B4%D0%BD%D1%8F/"},
		{"a dated permalink in Greek", ``, ``, kindArticle, "https://eidiseis.example/2024/05/νέα-της-ημέρας"},
		{"a date ending a slug in Cyrillic", ``, ``, kindArticle, "https://novosti.example/news/новости-дня-2024-05-12/"},
		{"a month's archive", ``, ``, kindOther, "https://blog.example/2017/08/"},
		{"a month's archive, page 2", ``, ``, kindOther, "https://blog.example/2017/08/page/2/"},
		{"a dated static page of WordPress", ``, `<article class="page type-page hentry">About</article>`, kindOther, "https://blog.example/2017/08/about-us/"},
		// A whole date in one segment: joined to a slug or an id, before
		// a slug, or ending one; a day's archive is the date alone.
		{"a date joined to a slug", ``, ``, kindArticle, "https://lab.example/blog/2025-12-17-minisgl"},
		{"a compact date joined to an id", ``, ``, kindArticle, "http://www.citydaily.example/news/local/201908/t20190826_123.html"},
		{"a date segment before a slug", ``, ``, kindArticle, "https://www.paper.example/business/story/2019-11-19/gannett-merger"},
		{"a date ending a slug", ``, ``, kindArticle, "https://www.tv.example/news/key-moments-from-the-hearing-2019-11-19/"},
		{"a day's archive", ``, ``, kindOther, "https://www.paper.example/news/2019-11-19/"},
		{"a date ending a slug, as a file", ``, ``, kindArticle, "https://daily.example/zpravy/brno/cyklostezka-svratka-kveten-20240314.html"},
		{"a date alone as a file", ``, ``, kindOther, "https://daily.example/archiv/20240314.html"},
		// A year and a month joined to a slug of two words or more; a
		// month's archive, or a month and one word, is no story.
		{"a month joined to a slug", ``, ``, kindArticle, "https://science.example/news/2019-11-hibernating-astronauts-smaller-spacecraft.html"},
		{"a month's archive in one segment", ``, ``, kindOther, "https://blog.example/archive/2019-11"},
		{"a month and one word", ``, ``, kindOther, "https://blog.example/archive/2019-11-events"},
		{"a number that is no date", ``, ``, kindOther, "https://shop.example/products/20231599-blue-mug"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := parseHTML([]byte(`<html><head>` + tc.head + `</head><body>` + tc.body + `</body></html>`))
			if err != nil {
				t.Fatal(err)
			}
			var base *nurl.URL
			if tc.url != "" {
				if base, err = nurl.Parse(tc.url); err != nil {
					t.Fatal(err)
				}
			}
			if got := classifyPage(doc, extractMetadata(doc, base), base); got != tc.want {
				t.Errorf("classifyPage = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestProductAsides: on a product page the cleaned page drops reviews
// and rails of other products, named by their containers, but never the
// block holding the product's <h1>.
func TestProductAsides(t *testing.T) {
	desc := strings.Repeat("A sturdy daypack with a padded back panel and many pockets. ", 8)
	page := `<html><body><main>
<div class="product-main product-rating-summary"><h1>Trail 25 Pack</h1><p>` + desc + `</p></div>
<section class="okeReviews-reviewsWidget"><p>Great bag, I use it every day for commuting and hikes.</p></section>
<div itemprop="review"><p>Straps wore out after a year of heavy use unfortunately.</p></div>
<div class="up-sells upsells products"><h2>You may also like</h2><ul><li><a href="/x">Trail 40 Pack</a> $120 bigger pack</li></ul></div>
<div class="recently-viewed"><p>Hiking boots you looked at earlier today.</p></div>
<section class="related-products"><h2>Related</h2><p>Trekking poles, a light pair for steep trails.</p></section>
<div class="swiper productCarousel"><p>Water bottle, one litre, fits the side pocket.</p></div>
</main></body></html>`
	for _, tc := range []struct {
		kind pageKind
		kept bool
	}{{kindProduct, false}, {kindOther, true}} {
		// mainContent prunes a product page's asides from the parsed page,
		// before any candidate (the cleaned page included) is built.
		doc := parsePage(t, page)
		if tc.kind == kindProduct {
			pruneProductAsides(doc)
		}
		clean := renderText(cleanedPage(doc))
		if !strings.Contains(clean, "padded back panel") {
			t.Errorf("%v: lost the description:\n%s", tc.kind, clean)
		}
		for _, aside := range []string{"every day for commuting", "Straps wore out", "bigger pack", "looked at earlier", "Trekking poles", "Water bottle"} {
			if strings.Contains(clean, aside) != tc.kept {
				t.Errorf("%v: kept %q = %v, want %v:\n%s", tc.kind, aside, !tc.kept, tc.kept, clean)
			}
		}
	}
}

func TestNameWords(t *testing.T) {
	for in, want := range map[string]string{
		"okeReviews-reviewsWidget":      "oke reviews reviews widget",
		"product_reviews":               "product reviews",
		"jdgm-rev-widg":                 "jdgm rev widg",
		"preview":                       "preview",
		"HTMLSection":                   "htmlsection",
		"InlineImage-imageEmbedCaption": "inline image image embed caption",
		"md:hidden sr-only":             "md hidden sr only",
		"":                              "",
	} {
		if got := strings.Join(nameWords(in), " "); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", in, got, want)
		}
	}
	// classWords reads class names and the id the same way.
	doc := parsePage(t, `<div id="x" class="InlineImage-imageEmbedCredit ArticleBody-caption"><p id="relatedContent">a</p></div>`)
	div := findFirst(doc, func(n *html.Node) bool { return n.Data == "div" })
	if !classWords(div, captionWords) || classWords(div, furnitureWords) {
		t.Error("classWords: want the caption word of a camelCase class, and no furniture word")
	}
	if p := findFirst(doc, func(n *html.Node) bool { return n.Data == "p" }); !classWords(p, furnitureWords) {
		t.Error(`classWords: "relatedContent" names related content`)
	}
}

func FuzzNameWords(f *testing.F) {
	for _, s := range []string{"okeReviews-reviewsWidget", "InlineImage-imageEmbedCaption", "É-Ünïcode_Name", strings.Repeat("a", 100) + "B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, w := range nameWords(name) {
			if w == "" || strings.ContainsAny(w, "-_:. \t\n") || len(w) > 64 {
				t.Fatalf("nameWords(%q) has word %q", name, w)
			}
		}
	})
}

// TestCollapsedSections: accordion panels, tabs and FAQ answers hidden
// until clicked are content, named by their class, their role or a
// control's aria-controls (hidden.Panels); a hidden popup, a collapsed
// navbar and a search field's suggestions are not.
func TestCollapsedSections(t *testing.T) {
	page := `<html><body><main><h1>Frequently asked questions</h1>
<div class="faq__item"><h3>How long is shipping?</h3><div class="faq__answer" style="display: none">Orders ship within two working days from our warehouse.</div></div>
<div class="chakra-collapse" style="overflow:hidden;display:none"><p>Specifications: aluminium frame, two year warranty.</p></div>
<div class="popup" style="display:none"><p>Subscribe to get ten percent off.</p></div>
<div class="navbar-collapse collapse" style="display:none"><p>Shop Brands Sale</p></div>
<div role="tablist"><button role="tab" aria-controls="specs">Specifications</button></div>
<div role="tabpanel" id="specs" hidden><p>Battery life: eleven hours of playback.</p></div>
<button aria-expanded="false" aria-controls="abroad">Do you ship abroad?</button>
<div id="abroad" style="display:none"><p>We ship to every country of the European Union.</p></div>
<input role="combobox" aria-controls="suggest"><div id="suggest" hidden><p>Popular searches: sneakers, boots</p></div>
</main></body></html>`
	clean := renderText(cleanedPage(parsePage(t, page)))
	for _, want := range []string{"two working days", "aluminium frame", "eleven hours", "European Union"} {
		if !strings.Contains(clean, want) {
			t.Errorf("cleaned page lost %q:\n%s", want, clean)
		}
	}
	for _, drop := range []string{"ten percent", "Shop Brands", "Popular searches"} {
		if strings.Contains(clean, drop) {
			t.Errorf("cleaned page kept %q:\n%s", drop, clean)
		}
	}
}

// TestElsewhere: when readability and trafilatura both extracted text
// the cleaned page dropped (a hidden rewards popup), a page that is no
// article gets its cleaned page; when they agree with it, it does not.
func TestElsewhere(t *testing.T) {
	div := func(s string) *html.Node {
		n := newDiv()
		n.AppendChild(&html.Node{Type: html.TextNode, Data: s})
		return n
	}
	page := div(strings.Repeat("Crocs classic clogs in every colour with free returns and iconic comfort. ", 6))
	popup := div(strings.Repeat("Members earn one point per dollar spent and reward cash at one hundred points. ", 4))
	part := div("Crocs classic clogs in every colour with free returns and iconic comfort.")
	zhShop := div(strings.Repeat("手工皮革钱包，四十二元，加入购物车。手工羊毛围巾，六十五元，加入购物车。", 4))
	zhStory := div("钱包的皮革和围巾的羊毛都来自本地，手艺人一针一线做成，五年不坏，买一件就够。")
	zhPopup := div(strings.Repeat("会员每消费一美金积一点，满一百点可兑换现金券。", 3))
	for _, tc := range []struct {
		name       string
		read, traf *html.Node
		clean      *html.Node
		want       bool
	}{
		{"both in a popup", popup, popup, page, true},
		{"readability agrees", part, popup, page, false},
		{"no candidates", nil, nil, page, false},
		{"cleaned page too small", popup, popup, part, false},
		// Chinese is compared character by character, as English word
		// by word: a market's story and its own product grid share the
		// characters their words are made of, as English text shares its
		// words, though hardly a pair of them.
		{"a Chinese story beside its shop", zhStory, zhStory, zhShop, false},
		{"a Chinese popup", zhPopup, zhPopup, zhShop, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := elsewhere(tc.read, tc.traf, tc.clean, words(tc.clean)); got != tc.want {
				t.Errorf("elsewhere = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAgreedReading: when both extractors read the same story of several
// paragraphs, a cleaned page that adds only link lists and labels to it
// does not replace it; one that adds prose (another section, another
// post, item descriptions) still does, unless the page may be a story (it
// declares nothing and is no site's front) and its address is a headline,
// or its story is long and the prose beside it at most twice its length.
func TestAgreedReading(t *testing.T) {
	para := func(topic string) string {
		return "<p>The " + topic + " committee met on Monday evening and agreed after a long debate that the new plan should go ahead before the summer holidays.</p>"
	}
	story := para("transport") + para("finance") + para("planning")
	links := `<ul><li><a href="/1">Fire at a warehouse keeps crews busy all night</a></li><li><a href="/2">New pool opens on Saturday</a></li></ul><p>Today: 24 degrees, sunny</p><p><a href="/i">Imprint</a> | <a href="/p">Privacy</a></p>`
	prose := "<p>Our second office in the harbour district offers the same services on weekdays and on Saturday mornings, with parking for customers.</p><p>Book an appointment online or call us, and a member of our team will get back to you within one working day.</p>"
	long := func(topic string) string {
		return "<p>The " + topic + " committee met on Monday evening and agreed after a long debate that the new plan should go ahead before the summer holidays, " +
			"although several members asked for a second reading in the autumn and the mayor promised to publish the figures before the next meeting.</p>"
	}
	longStory := long("transport") + long("finance") + long("planning") + long("housing")
	shortStory := para("transport") + para("finance") + para("planning") + para("housing") + para("schools") + para("parks") + para("water") + para("culture")
	teaser := "<p>Fire at a warehouse near the harbour kept crews busy all night; the police are still looking into what started it and ask witnesses who saw a grey van on the quay late on Sunday to call them.</p>"
	teaser2 := "<p>The new pool on the east side opens on Saturday with free entry for children, after two years of building work and a long row over its costs.</p>"
	var cards string
	for _, topic := range []string{"harbour", "school", "bridge", "market", "museum", "station"} {
		cards += `<div class="item"><h3><a href="/` + topic + `">Plans for the ` + topic + ` take shape</a></h3><p>Residents of the old quarter met the architects on Tuesday to look at the first drawings for the new ` + topic + `, and most of them liked what they saw there.</p></div>`
	}
	zhStory := func(sep string) string {
		return "<p>市交通委员会周一晚上开会，经过长时间讨论后同意新的公交计划应在暑假前实施，几位委员要求秋天再审议一次" + sep +
			"市长承诺在下次会议之前公布全部数字，并邀请居民在网上提出意见，附近学校的家长也表示支持这个计划" + sep +
			"新的线路将连接老城区和港口，早晚高峰每十分钟一班，周末的班次也会增加，票价暂时保持不变</p>"
	}
	brStory := "<p>" + strings.NewReplacer("<p>", "", "</p>", "<br><br>").Replace(para("transport")+para("finance")+para("planning")) + "</p>"
	standfirst := "<h1>Council agrees new transport plan</h1><p>The vote came after months of debate.</p><p>By Anna Berg, 3 March 2021</p>"
	thread := `<div id="comments">` + strings.Repeat(`<div class="comment"><p>I was at the meeting as well and I have to say that most of the people around me were worried about the cost of the plan, the roadworks and what happens to the buses in the meantime.</p></div>`, 10) + `</div>`
	const (
		page     = "https://news.example/artikel.php?id=123"
		front    = "https://news.example/"
		headline = "https://news.example/region/council-agrees-new-transport-plan-before-summer-1234.html"
	)
	for _, tc := range []struct {
		name              string
		read, traf, clean string
		url               string
		kind              pageKind
		want              bool
	}{
		{"chrome around the story", story, story, links + story + links, page, kindOther, true},
		{"prose beside the story", story, story, story + prose, page, kindOther, false},
		// Its words are the story's, its sentences are not.
		{"a second story on the same topic", story, story, story + "<p>On Monday the finance and planning committee debate agreed that after the summer the holidays plan should go ahead, evening or not.</p><p>The long transport debate met the new committee before Monday, and the plan agreed on a summer evening should go ahead after the holidays.</p>", page, kindOther, false},
		{"extractors disagree", story, para("transport") + prose, story + links, page, kindOther, false},
		{"too short for a story", para("transport"), para("transport"), links + story, page, kindOther, false},
		{"teasers and an author box beside a long story", longStory, longStory, longStory + prose + links, page, kindOther, true},
		{"the same on a site's front page", longStory, longStory, longStory + prose + links, front, kindOther, false},
		{"the same on a forum", longStory, longStory, longStory + prose + links, page, kindForum, false},
		{"more prose beside a long story than twice the story", longStory, longStory, longStory + strings.Repeat(prose, 12), page, kindOther, false},
		{"one teaser's summary beside a story of short paragraphs", shortStory, shortStory, links + shortStory + teaser + links, page, kindOther, true},
		{"a teaser's summary on a site's front page", shortStory, shortStory, links + shortStory + teaser + links, front, kindOther, false},
		{"a teaser's summary on a forum", shortStory, shortStory, links + shortStory + teaser + links, page, kindForum, false},
		{"two summaries beside a story of short paragraphs", shortStory, shortStory, shortStory + teaser + teaser2, page, kindOther, false},
		{"a stream of teaser cards beside a story", shortStory, shortStory, shortStory + cards, page, kindOther, true},
		{"a long comment thread under a story", shortStory, shortStory, shortStory + thread, page, kindOther, true},
		{"a thread's replies under its first post", shortStory, shortStory, shortStory + thread, page, kindForum, false},
		{"teaser cards beside a story on a forum", shortStory, shortStory, shortStory + cards, page, kindForum, false},
		// A shop's category: an introduction and the products' cards.
		{"cards beside an introduction", para("transport") + para("finance"), para("transport") + para("finance"), para("transport") + para("finance") + cards, page, kindOther, false},
		// Trafilatura joins lines readability keeps apart; a Chinese
		// line is one wordTokens "word".
		{"a Chinese story read with its lines joined", zhStory("</p><p>"), zhStory("<br>"), links + zhStory("</p><p>") + links, page, kindOther, true},
		{"a story written as one block of lines", brStory, brStory, links + brStory + links, page, kindOther, true},
		{"a short item at a headline's address", para("transport"), para("transport"), para("transport") + prose + links, headline, kindOther, true},
		// Trafilatura's reading adds the standfirst, the byline and an
		// author box: readability's story is inside it.
		{"readability's story inside trafilatura's at a headline's address", story, standfirst + story + prose, links + standfirst + story + prose + links + prose, headline, kindOther, true},
		{"the same elsewhere", story, standfirst + story + prose, links + standfirst + story + prose + links + prose, page, kindOther, false},
		// Readability's block adds a box of related reading and
		// holds most of the cleaned page.
		{"trafilatura's story inside readability's at a headline's address", story + prose + prose, story, links + story + prose + prose, headline, kindOther, true},
		// A recipe's introduction, in a page of ingredients and steps.
		{"trafilatura's story inside readability's, the page much more", story + prose, story, story + prose + strings.Repeat(prose, 8), headline, kindOther, false},
		// A declared article is a story.
		{"a declared article's story amid teasers", story, story, links + story + strings.Repeat(prose, 10) + links, page, kindArticle, true},
		{"a declared article's readings disagree", story + prose, para("transport") + thread, story + prose + thread, page, kindArticle, false},
		{"a line inside trafilatura's reading at a headline's address", para("transport"), standfirst + para("transport") + prose, links + standfirst + para("transport") + prose + prose, headline, kindOther, false},
		{"the extractors disagree at a headline's address", para("transport"), prose, para("transport") + prose, headline, kindOther, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, _ := nurl.Parse(tc.url)
			got := agreedReading(tc.kind, base, parseFragment(t, tc.read), parseFragment(t, tc.traf), parseFragment(t, tc.clean))
			if got != tc.want {
				t.Errorf("agreedReading = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestCleanedWins: on a declared article the cleaned page wins only when
// both readings are small parts of it and do not agree on a story.
func TestCleanedWins(t *testing.T) {
	para := func(topic string) string {
		return "<p>The " + topic + " committee met on Monday evening and agreed after a long debate that the new plan should go ahead before the summer holidays.</p>"
	}
	intro := para("baking") + para("bread")
	var steps strings.Builder
	for i := range 12 {
		fmt.Fprintf(&steps, "<li>Step %d: fold the dough again, cover the bowl and leave it to rest for another half hour in a warm place.</li>", i+1)
	}
	recipe := intro + "<ol>" + steps.String() + "</ol>"
	page := "https://bakery.example/recipes/bread.html"
	for _, tc := range []struct {
		name              string
		kind              pageKind
		read, traf, clean string
		want              bool
	}{
		{"both read a recipe's introduction, differently", kindArticle, intro, para("baking") + "<p>Print this recipe and save it for later.</p>", recipe, true},
		{"both read the same short story amid teasers", kindArticle, intro, intro, recipe, false},
		{"readability's block is a fifth of the page", kindArticle, intro + para("oven") + para("flour"), para("baking"), intro + para("oven") + para("flour") + para("salt") + para("water") + para("yeast") + para("crust") + para("crumb") + para("starter"), false},
		{"an undeclared page whose readings keep a part", kindOther, intro, para("baking") + "<p>Print this recipe and save it for later.</p>", recipe, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, _ := nurl.Parse(page)
			read, traf, clean := parseFragment(t, tc.read), parseFragment(t, tc.traf), parseFragment(t, tc.clean)
			if got := cleanedWins(tc.kind, base, read, traf, clean, words(read), words(traf), words(clean)); got != tc.want {
				t.Errorf("cleanedWins = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReadingWithin: a reading lies inside another when it holds a story
// and nearly all its words are the other's.
func TestReadingWithin(t *testing.T) {
	story := "<p>" + strings.Repeat("The committee met on Monday evening and agreed that the plan should go ahead. ", 5) + "</p>"
	related := "<p>Related: the new pool opens on Saturday, and the bus fares rise again next year after a long row over the costs.</p>"
	for _, tc := range []struct {
		name string
		a, b string
		want bool
	}{
		{"a story inside a longer reading", story, "<h1>Council agrees</h1>" + story + related, true},
		{"the same reading", story, story, true},
		{"a line is no story", "<p>The committee met on Monday.</p>", story, false},
		{"a story beside another", story + related, story, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readingWithin(parseFragment(t, tc.a), parseFragment(t, tc.b)); got != tc.want {
				t.Errorf("readingWithin = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestStoryAmidLines: trafilatura's reading of a layout table's row holds
// readability's story and the cells around it; when all those add is
// short lines, the story is the reading.
func TestStoryAmidLines(t *testing.T) {
	para := func(topic string) string {
		return "<p>The " + topic + " committee met on Monday evening and agreed after a long debate that the new plan should go ahead before the summer holidays.</p>"
	}
	story := para("transport") + para("finance") + para("planning")
	lines := `<h1>Council backs the new plan</h1><p>15 June 2021, 14:32</p><p>Source: the council's press office</p><p>Views: 2841</p>` +
		`<p>Comments (2)</p><p>Anna: Great news!</p><p>Poll: how often do you take the bus?</p><p>© 2004–2021 City News</p>`
	reply := "<p>Anna wrote: I went to the meeting too, and most of the people I spoke to there were worried about the cost of the plan and the roadworks.</p>"
	var items strings.Builder
	for i := range 20 {
		fmt.Fprintf(&items, `<p><a href="/%d">Item number %d in the shop</a> from 9.99</p>`, i, i)
	}
	for _, tc := range []struct {
		name       string
		read, traf string
		want       bool
	}{
		{"short lines around the story", story, lines + story + lines, true},
		{"a reply in prose", story, story + reply + lines, false},
		{"more short items than story", story, story + items.String(), false},
		{"too short for a story", para("transport"), lines + para("transport"), false},
		{"the story is not in the reading", story, para("transport") + lines + lines, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := storyAmidLines(parseFragment(t, tc.read), parseFragment(t, tc.traf)); got != tc.want {
				t.Errorf("storyAmidLines = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHiddenHalfPage: a block hidden with display:none that holds most of
// the page is content a script reveals; one hidden with visibility:hidden
// is dropped, as Readability does.
func TestHiddenHalfPage(t *testing.T) {
	body := strings.Repeat("The locked article text that a script reveals after the page loads. ", 10)
	for _, tc := range []struct {
		style string
		kept  bool
	}{{"display: none", true}, {"visibility: hidden", false}} {
		page := `<html><body><p>Short visible intro.</p><div class="lockdown-content" style="` + tc.style + `"><p>` + body + `</p></div></body></html>`
		clean := renderText(cleanedPage(parsePage(t, page)))
		if got := strings.Contains(clean, "script reveals"); got != tc.kept {
			t.Errorf("%s: kept = %v, want %v:\n%s", tc.style, got, tc.kept, clean)
		}
	}
}

// TestProductPageWithoutReviews runs the whole extraction on a declared
// product page: whichever candidate wins, the reviews are not in it.
func TestProductPageWithoutReviews(t *testing.T) {
	desc := strings.Repeat("This daypack carries a full day of gear with a padded back panel, a rain cover and side pockets for bottles. ", 6)
	review := strings.Repeat("I took this pack on a week of hikes and the straps stayed comfortable the whole time. ", 5)
	page := `<html><head><script type="application/ld+json">{"@type":"Product","name":"Trail 25 Pack"}</script></head><body>
<nav><a href="/">Home</a> <a href="/packs">Packs</a> <a href="/sale">Sale</a></nav>
<main><article class="product"><h1>Trail 25 Pack</h1><div class="product-description"><p>` + desc + `</p></div>
<section class="product-reviews"><h2>Reviews</h2><div class="review"><p>` + review + `</p></div><div class="review"><p>` + review + `</p></div></section>
</article></main></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://shop.example/p/trail-25", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Content, "padded back panel") {
		t.Errorf("lost the description:\n%s", doc.Content)
	}
	if strings.Contains(doc.Content, "straps stayed comfortable") {
		t.Errorf("kept the reviews:\n%s", doc.Content)
	}
}

// TestFurnitureOnly checks the "only chrome was rendered" rule: a page
// whose words all sit in banner, navigation, footer and dialog landmarks
// has no content; item headers, a landmark holding the article, and a
// small page without furniture keep theirs.
func TestFurnitureOnly(t *testing.T) {
	footer := `<footer><h3>Help</h3><ul><li><a href=/a>Help Center</a></li><li><a href=/b>Disputes and Reports</a></li>` +
		`<li><a href=/c>Return and refund policy</a></li><li><a href=/d>Report infringement</a></li><li><a href=/e>Transparency Center</a></li></ul></footer>`
	header := `<header><a href=/>Shop</a><nav><a href=/m>Men</a> <a href=/w>Women</a> <a href=/s>Sale</a></nav></header>`
	story := `<p>The harbour reopened on Monday after three weeks of repairs to the sea wall, and the first ferries came in before dawn.</p>`
	for _, tc := range []struct {
		name, body string
		want       bool
	}{
		{"js shop: chrome and a search box", header + `<div id=root><input placeholder="I'm shopping for..."> Loading</div>` + footer, true},
		{"contentinfo and dialog roles", `<div role=banner>Brand Menu Account Basket</div><div role=dialog>Sign up for our newsletter and save ten percent today</div><div role=contentinfo>` + footer + `</div><p>Skip to content</p>`, true},
		{"content between the chrome", header + `<div>` + story + story + `</div>` + footer, false},
		{"unclosed aside holding the article", `<aside class=banner>Announcement <article><h1>Title</h1>` + story + story + `</article>` + footer, false},
		{"item headers inside articles", `<section><article><header><h2>First post title here</h2><p>By someone, with a summary long enough to count as content for sure</p></header></article></section>` + footer, false},
		{"small page without furniture", `<p>Moved to the new site.</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parsePage(t, "<html><body>"+tc.body+"</body></html>")
			if got := furnitureOnly(findBody(doc)); got != tc.want {
				t.Errorf("furnitureOnly = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestStorySlug: an address whose last segment is a headline of five
// words or more (four beside a story's number) marks a story; a shop's
// product name, a short page name and numbers do not.
func TestStorySlug(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://www.thesun.co.uk/news/10371941/hunter-diagnosed-bubonic-plague-eating-rabbit/", true},
		{"https://www.jpost.com/Breaking-News/Son-of-former-German-president-stabbed-to-death-in-Berlin-608399", true},
		{"https://phys.org/news/2019-11-hibernating-astronauts-smaller-spacecraft.html", false}, // four words
		// Four words beside the number a news system files the story
		// under; not beside a date's parts.
		{"https://www.rhein-tageblatt.example/region/stadtrat-beschliesst-neues-radwegenetz-16673425.html", true},
		{"https://www.rt.com/news/473849-3-morales-supporters-killed-bolivia/", true},
		{"https://example.org/services/pest-control-queen-creek", false},
		{"https://www.ctvnews.ca/sci-tech/snooze-cruise-study-sees-future-for-hibernating-astronauts-1.4690347", true},
		{"https://example.org/blog/mein_erster_tag_im_neuen_job.php", true},
		{"https://shop.example/products/keychron-k2-wireless-mechanical-keyboard-version-2", false},
		{"https://shop.example/lighting/pdp/bread-stone-x-beaded-cut-16-row.html", false},
		{"https://example.org/services/digital-marketing", false},
		{"https://example.org/2019/11/19/1234-5678-90", false},
		{"https://example.org/", false},
	} {
		u, _ := nurl.Parse(tc.url)
		if got := storySlug(u); got != tc.want {
			t.Errorf("storySlug(%s) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

// TestCompareTokens: runs of scripts written without spaces compare by
// overlapping character pairs; other words as wordTokens splits them.
func TestCompareTokens(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"Hello, World", []string{"hello", "world"}},
		{"新竹尖石鄉", []string{"新竹", "竹尖", "尖石", "石鄉"}},
		{"新", []string{"新"}},
		{"Go言語で", []string{"go", "言語", "語で"}},
		{"2019年8月", []string{"2019", "年", "8", "月"}},
		{"新竹。尖石", []string{"新竹", "尖石"}},
		{"กรุงเทพ", []string{"กร", "รุ", "ุง", "งเ", "เท", "ทพ"}},
		{"नई दिल्ली", []string{"नई", "दिल्ली"}}, // vowel signs are marks
		{"한국어 문장", []string{"한국어", "문장"}},       // Korean puts spaces between words
	} {
		if got := compareTokens(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("compareTokens(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
	// The same lines, joined by one extractor and kept apart by the
	// other, share all but the pair across the join.
	a, b := compareTokens("记者从市教育局获悉\n今年我市新建三所中小学"), compareTokens("记者从市教育局获悉今年我市新建三所中小学")
	if shared := sharedTokens(a, b); shared != len(a) {
		t.Errorf("joined lines share %d of %d tokens", shared, len(a))
	}
}

func FuzzCompareTokens(f *testing.F) {
	f.Add("Hello 新竹尖石鄉 Go言語で 2019年 กรุงเทพ \xff")
	f.Fuzz(func(t *testing.T, s string) {
		lower := strings.ToLower(s)
		got := compareTokens(s)
		for _, tok := range got {
			if tok == "" || !strings.Contains(lower, tok) {
				t.Fatalf("compareTokens(%q): token %q is not in the text", s, tok)
			}
		}
		if !hasUnspaced(lower) && !slices.Equal(got, wordTokens(s)) {
			t.Fatalf("compareTokens(%q) = %q, want wordTokens' %q", s, got, wordTokens(s))
		}
	})
}

// TestSiteHeader checks that an element named as the page's header, as
// pages before HTML5 name it, is furniture as a <header> is: unless it
// holds the page's <h1>.
func TestSiteHeader(t *testing.T) {
	for _, tc := range []struct {
		html      string
		furniture bool
	}{
		{`<div id="header"><a href="/"><img alt="Logo"></a><ul><li><a href="/news">News</a></li></ul></div>`, true},
		{`<div class="site-header clearfix"><a href="/">Home</a> <a href="/about">About</a></div>`, true},
		{`<div class="header"><h1>The story's headline</h1><p>By A. Writer</p></div>`, false},
		{`<div class="card-header">Opening hours</div>`, false},
		{`<div id="article-header">Dated 4 May</div>`, false},
	} {
		n := findFirst(parseFragment(t, tc.html), func(n *html.Node) bool { return isElem(n, atom.Div) })
		if got := isFurniture(n); got != tc.furniture {
			t.Errorf("isFurniture(%s) = %v, want %v", tc.html, got, tc.furniture)
		}
	}
}

// TestMenuHeader: a site header whose mega menu holds more of the page's
// words than the story (each entry a link with a line of description in
// it) is off the cleaned page, whether it is a <header> or named as one
// before HTML5. A header-named block of prose (a theme's story header) and
// a link list under another name stay at that size: only the page's
// header is known to be furniture.
func TestMenuHeader(t *testing.T) {
	var menu strings.Builder
	for i := range 40 {
		fmt.Fprintf(&menu, `<li><a href="/p/%d"><span>Product %d</span><span>Managed service for running workloads at any scale.</span></a></li>`, i, i)
	}
	story := `<h1>How the new bridge was built</h1><p>The crews poured the last span in March, two months ahead of the schedule the city set.</p><p>Traffic opens on the first of June.</p>`
	for _, tc := range []struct {
		name, body string
		keep, drop []string
	}{
		{"named header", `<div class="content">` + story + `</div><div id="header" class="header"><ul>` + menu.String() + `</ul></div>`,
			[]string{"last span", "first of June"}, []string{"Managed service", "Product 7"}},
		{"header element", `<header><ul>` + menu.String() + `</ul></header><div class="content">` + story + `</div>`,
			[]string{"last span", "first of June"}, []string{"Managed service", "Product 7"}},
		{"story in a header", `<div class="header rich-text"><h2>Bridge</h2><p>` + strings.Repeat("The crews poured the last span in March. ", 30) + `</p></div><div><p>Traffic opens on the first of June.</p></div>`,
			[]string{"last span", "first of June"}, nil},
		{"listing in a sidebar", `<div class="content">` + story + `</div><div class="sidebar-list"><ul>` + menu.String() + `</ul></div>`,
			[]string{"last span", "Managed service"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := renderText(cleanedPage(parsePage(t, `<html><body>`+tc.body+`</body></html>`)))
			checkKeepDrop(t, got, tc.keep, tc.drop)
		})
	}
}

// TestMainByName: a page before HTML5 names its content region "main"
// (<div id="main">), and the cleaned page keeps to it as it keeps to
// <main>: a promotion strip beside it, under a name no furniture rule
// reads, is not the page's. A <main> outranks the name; two regions so
// named, or a menu so named, are no region.
func TestMainByName(t *testing.T) {
	story := `<h1>How the new bridge was built</h1><p>The crews poured the last span in March, two months ahead of the schedule the city set for them.</p><p>Traffic opens on the first of June, the mayor said.</p>`
	promo := `<div class="strip"><p>Save twenty percent on every annual plan when you order before Friday at midnight.</p></div>`
	var menu string
	for i := range 8 {
		menu += fmt.Sprintf(`<li><a href="/d/%d">News and reports from district %d of the city</a></li>`, i, i)
	}
	for _, tc := range []struct {
		name, body string
		keep, drop []string
	}{
		{"id main", promo + `<div id="main">` + story + `</div>`, []string{"last span", "first of June"}, []string{"twenty percent"}},
		{"class main in a table layout", `<table><tr><td>` + promo + `</td><td class="main">` + story + `</td></tr></table>`, []string{"last span"}, []string{"twenty percent"}},
		{"main element first", promo + `<div id="main"><p>Teaser of another story that runs elsewhere on the site today.</p></div><main>` + story + `</main>`,
			[]string{"last span"}, []string{"twenty percent", "Teaser of another"}},
		{"two named main", promo + `<div class="main">` + story + `</div><div class="main"><p>A second column of notes.</p></div>`, []string{"last span", "twenty percent"}, nil},
		{"menu named main", promo + `<div>` + story + `</div><ul class="main">` + menu + `</ul>`,
			[]string{"last span", "twenty percent"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := renderText(cleanedPage(parsePage(t, `<html><body>`+tc.body+`</body></html>`)))
			checkKeepDrop(t, got, tc.keep, tc.drop)
		})
	}
}

// TestClosedPanelsExtracted: without StripHidden, a guide whose steps sit
// in closed accordion sections (display:none until a button that names
// them in aria-controls opens them) comes out whole, as it does when
// hidden content is stripped; the site menu's closed submenu stays out.
func TestClosedPanelsExtracted(t *testing.T) {
	var steps strings.Builder
	for i, s := range []string{"Research your options", "Sign the contract", "Installation day", "Switch the system on"} {
		fmt.Fprintf(&steps, `<div class="es-accordion"><div><a role="button" tabindex="0" aria-controls="step_%d">%d. %s</a></div>`, i, i+1, s)
		fmt.Fprintf(&steps, `<div id="step_%d" role="region" style="display:none;"><p>Step %d takes about two weeks. %s</p></div></div>`, i, i+1,
			strings.Repeat("The installer handles the permits, the paperwork and the inspection, and keeps you informed along the way. ", 3))
	}
	page := `<html><head><title>How solar installation works</title><meta property="og:type" content="article"></head><body>
<header><nav><ul><li><button aria-controls="sub1">Products</button><ul id="sub1" hidden><li><a href="/a">Solar panels for homes</a></li><li><a href="/b">Home batteries and storage</a></li></ul></li></ul></nav></header>
<main><article><h1>How solar installation works</h1>
<p>Installing solar panels takes a few months from the first quote to the day the system goes live. Below is a typical timeline.</p>` +
		strings.Repeat(`<p>Before you sign anything, compare quotes from several installers, check the incentives in your state and make sure your roof can carry the panels for the next twenty five years.</p>`, 8) +
		steps.String() + `<p>Once the utility approves the system, you start producing your own clean energy.</p></article></main></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://solar.example/guide", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Step 1 takes about two weeks", "Step 4 takes about two weeks", "you start producing"} {
		if !strings.Contains(doc.Content, want) {
			t.Errorf("lost %q:\n%s", want, doc.Content)
		}
	}
	if strings.Contains(doc.Content, "Home batteries") {
		t.Errorf("kept the closed submenu:\n%s", doc.Content)
	}
}
