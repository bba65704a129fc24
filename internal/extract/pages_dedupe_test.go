package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestDedupeRuns: a run of three or more leaves (30 words or more) that
// repeats an earlier run in order is removed; a card's repeated terms
// beside a title of its own, a short repeated run and a single repeated
// paragraph stay.
func TestDedupeRuns(t *testing.T) {
	story := []string{
		"The river rose overnight and the town woke to water in the streets.",
		"By noon the council had opened the school gym as a shelter for families.",
		"Volunteers carried sandbags to the bakery, the library and the old mill.",
	}
	ps := func(ss ...string) string {
		var b strings.Builder
		for _, s := range ss {
			b.WriteString("<p>" + s + "</p>")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, body string
		want       int // paragraphs left
	}{
		{"body twice", ps(story...) + ps(story...), 3},
		{"body twice with a heading between", ps(story...) + "<h2>Read more</h2>" + ps(story...), 3},
		{"cards with their own titles", ps("Ten dollars off any repair", "Must be presented before the start of work today.", "Not valid with other offers or coupons, some restrictions apply.") +
			ps("Free inspection with any panel upgrade", "Must be presented before the start of work today.", "Not valid with other offers or coupons, some restrictions apply."), 6},
		{"short run", ps("Free shipping on all orders", "Returns within thirty days", "Two year warranty") + ps("Free shipping on all orders", "Returns within thirty days", "Two year warranty"), 6},
		{"one paragraph", ps(story[0], story[1], story[0]), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><body><div>"+tc.body+"</div></body></html>")
			dedupeRuns(root)
			got := len(collectElements(root, func(c *html.Node) visit {
				if isElem(c, atom.P) {
					return take
				}
				return descend
			}))
			if got != tc.want {
				t.Errorf("%d paragraphs left, want %d:\n%s", got, tc.want, renderText(root))
			}
		})
	}
}

// TestForumQuotes: on a forum page a reply's quote of an earlier post is
// dropped, the reply itself stays.
func TestForumQuotes(t *testing.T) {
	first := "Hello, I teach at a language school and need a title for a course about renting cars to tourists."
	page := `<html><body><main><h1>Car rental or car rent</h1>
<article><p>` + first + `</p></article>
<article><blockquote><p>` + first + `</p></blockquote><p>I would call it English for Car Rental, without a hyphen.</p></article>
<article><blockquote><p>` + first + `</p></blockquote><p>Perhaps English for car rental businesses would be clearer.</p></article>
</main></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://forum.example.org/threads/car-rental.115684/", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(doc.Content, "language school"); n != 1 {
		t.Errorf("first post appears %d times, want 1:\n%s", n, doc.Content)
	}
	for _, w := range []string{"without a hyphen", "rental businesses"} {
		if !strings.Contains(doc.Content, w) {
			t.Errorf("lost %q:\n%s", w, doc.Content)
		}
	}
}

// TestRepeatedSection: a services page that ships its section twice (one
// copy per screen size) comes out with the section once.
func TestRepeatedSection(t *testing.T) {
	section := `<h2>What we do</h2><p>We design packaging for cosmetics brands, from the first sketch to the printed box on the shelf.</p>
<p>Our team researches the market, the competitors and the customers before a single line is drawn.</p>
<p>Every design comes with print-ready files, a brand guide and two rounds of revisions at no extra cost.</p>`
	page := `<html><body><div class="page"><h1>Cosmetic packaging design</h1><p>Packaging that sells your product on a crowded shelf and online.</p>
<div class="desktop-layout">` + section + `</div><div class="mobile-layout">` + section + `</div></div></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://studio.example.com/services/packaging", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(doc.Content, "print-ready files"); n != 1 {
		t.Errorf("section appears %d times, want 1:\n%s", n, doc.Content)
	}
}

// TestDedupeEchoes: go-trafilatura gives an undeclared Blogger post (text
// and <br> lines) three times; webgate gives it once. A paragraph the
// page itself prints several times keeps every copy.
func TestDedupeEchoes(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "articles", "blogger.html"))
	if err != nil {
		t.Fatal(err)
	}
	// Without its hAtom classes the post is no declared article, and
	// trafilatura's reading of the page is the candidate that wins.
	page := strings.ReplaceAll(string(body), "hentry", "")
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://gartenwelt.example.org/2016/06/hochbeet.html", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Als wir das Hochbeet vor drei Jahren", "Nächste Woche berichte ich"} {
		if n := strings.Count(doc.Content, s); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", s, n, doc.Content)
		}
	}
	// The two comments under the post are shorter than it: not the
	// content (dropMinorComments).
	if strings.Contains(doc.Content, "Toller Bericht!") {
		t.Errorf("kept the comments:\n%s", doc.Content)
	}

	filler := "<p>" + strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipisicing elit. ", 8) + "</p>"
	src := "<html><body><div>" + strings.Repeat(filler, 4) + "</div></body></html>"
	pageDoc := parsePage(t, src)
	out := parsePage(t, src)
	dedupeEchoes(out, pageDoc)
	if n := len(collectElements(out, func(c *html.Node) visit {
		if isElem(c, atom.P) {
			return take
		}
		return descend
	})); n != 4 {
		t.Errorf("the page's own repeated paragraph kept %d times, want 4", n)
	}
}

// TestDropRepeatedHeadings checks that a heading repeating the one right
// before it goes, and that headings with text or an image between them,
// or differing words, stay.
func TestDropRepeatedHeadings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<h3>Enterprise Graph</h3><div><h3>Enterprise Graph</h3></div><p>The data layer.</p>`, "Enterprise Graph The data layer."},
		{`<h2>Latest</h2><div class="lazy"></div><h2>Latest</h2><div></div><h2>Latest</h2><p>New posts.</p>`, "Latest New posts."},
		{`<h2>Pricing</h2><p>Free.</p><h2>Pricing</h2><p>Paid.</p>`, "Pricing Free. Pricing Paid."},
		{`<h3>Step</h3><img src="a.png" alt=""><h3>Step</h3>`, "Step Step"},
		{`<h2>Setup</h2><h3>Setup on Linux</h3>`, "Setup Setup on Linux"},
	}
	for _, tt := range tests {
		root := parseFragment(t, tt.in)
		dropRepeatedHeadings(root)
		var words []string
		collectElements(root, func(c *html.Node) visit {
			if headingAtoms[c.DataAtom] || c.DataAtom == atom.P {
				words = append(words, collapseSpace(textOf(c)))
				return skip
			}
			return descend
		})
		if got := strings.Join(words, " "); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.in, got, tt.want)
		}
	}
}
