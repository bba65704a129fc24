package extract

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/markusmobius/go-trafilatura"
)

// TestTrafilaturaLineBreaks checks the fork's changes to go-trafilatura's
// text handling (third_party/go-trafilatura/FORK.md): a line break
// that text follows stays, so the words either side of it are not
// glued, and one that ends the paragraph still goes; the spaces around
// a list item's links stay.
func TestTrafilaturaLineBreaks(t *testing.T) {
	filler := strings.Repeat("The paragraph goes on with more words about the same topic. ", 6)
	tests := []struct {
		name, body string
		want, gone []string
	}{
		{"break closing bold", `<p><strong>Sustainable concepts<br></strong>Everyone has a right to food. ` + filler + `</p>`,
			[]string{"Sustainable concepts\nEveryone has"}, []string{"conceptsEveryone"}},
		{"break before bold", `<p><strong>Best for</strong> | Denim<br><strong>Size range</strong> | Up to 24<br><strong>Price</strong> | $$</p><p>` + filler + `</p>`,
			[]string{"Denim\nSize range", "24\nPrice"}, []string{"DenimSize", "24Price"}},
		{"break before link", `<p>` + filler + `See the guide<br><a href="/guide">Guide to food</a> for more.</p>`,
			[]string{"See the guide\nGuide to food"}, []string{"guideGuide"}},
		{"trailing break", `<p>` + filler + `The end.<br></p><p>` + filler + `</p>`,
			[]string{"The end.\n\n"}, nil},
		// The spaces between a list item's links and its words are the
		// tails of the links; v1.12.2 trimmed them ("through<a>lexing
		// </a>,<a>parsing</a>and").
		{"links in a list item", `<p>` + filler + `</p><ul><li><a href="/d">A tiny compiler</a> – a walk through <a href="/e">lexing</a>, ` +
			`<a href="/f">parsing</a> and <a href="/g">code generation</a>.</li><li><a href="/h">Caching</a> <a href="/i">TTLs</a></li></ul>`,
			[]string{"A tiny compiler – a walk through lexing, parsing and code generation.", "Caching TTLs"},
			[]string{"throughlexing", "parsingand", "CachingTTLs"}},
		// A list item's nested blocks are flattened into its text; the
		// space that ended a block's own text went with the trimming
		// ("Style:Skate"), as did one that opened an emphasis.
		{"blocks in a list item", `<p>` + filler + `</p><ul><li><div>Helmet Style: <div> Skate / BMX </div></div><div>Weight: <div>0.97 lbs</div></div></li>` +
			`<li>The<b> new</b> model</li></ul>`,
			[]string{"Helmet Style: Skate / BMX", "The new model"}, []string{"Style:Skate", "Thenew"}},
		// A link around an emphasis in a list item: the item's elements
		// are rewired as siblings, and the link's tail came before the
		// emphasis's words ("ahead of on the chart.Adarius Taylor").
		{"a linked emphasis in a list item", `<p>` + filler + `</p><ul><li><a href="/p/st">Sione Takitaki</a> played six snaps, ahead of ` +
			`<a href="/p/at"><strong><em>Adarius</em> Taylor</strong></a> on the depth chart.</li></ul>`,
			[]string{"Sione Takitaki played six snaps, ahead of Adarius Taylor on the depth chart."}, []string{"chart.Adarius", "of on"}},
		// The same walk rewires a quotation's elements (an embedded
		// post: the attribution after its paragraph came first, and a
		// link's trimmed tail glued it to the next word).
		{"an embedded post", `<p>` + filler + `</p><blockquote><p>The <a href="/t/browns">#Browns</a> highest-graded player was Joe Schobert.</p>` +
			`— PFF Browns (@PFF_Browns) <a href="/s/1">November 15, 2019</a></blockquote>`,
			[]string{"#Browns highest-graded player was Joe Schobert.— PFF Browns"}, []string{"(@PFF_Browns)#Browns", "(@PFF_Browns)The"}},
	}
	u, _ := url.Parse("https://example.com/story/food")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseFragment(t, `<article>`+tt.body+`</article>`)
			got := renderText(candTrafilatura(doc, u, trafRun{focus: trafilatura.FavorRecall}))
			checkGoneKept(t, got, tt.gone, tt.want)
		})
	}
}

// TestTrafilaturaCodeBlocks checks that the code blocks of trafilatura's
// reading come back as <pre> with their line breaks, one line long or
// many, while inline code stays inline.
func TestTrafilaturaCodeBlocks(t *testing.T) {
	filler := strings.Repeat("The planner reads the statistics of each table before it picks a plan for the query. ", 4)
	body := `<p>` + filler + `</p><pre class="overflow-x-auto"><code class="language-sql">EXPLAIN SELECT * FROM accounts WHERE id &lt; 100;
         QUERY PLAN
--------------------------
 Seq Scan on accounts</code></pre><p>` + filler + ` Run <code>ANALYZE</code> first.</p>` +
		`<pre data-language="tsx"><code>useDrift(key, fetcher)</code></pre><p>` + filler + `</p>`
	u, _ := url.Parse("https://example.com/docs/planner")
	doc := parseFragment(t, `<article>`+body+`</article>`)
	traf := candTrafilatura(doc, u, trafRun{focus: trafilatura.FavorRecall})
	md := renderMarkdown(traf, u)
	for _, want := range []string{"```\nEXPLAIN SELECT * FROM accounts WHERE id < 100;\n         QUERY PLAN\n---", "```\nuseDrift(key, fetcher)\n```", "Run `ANALYZE` first."} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
}

// TestReadingFurniture checks that a form, a breadcrumb and a tooltip
// inside readability's block leave the reading of a page that declares nothing,
// as they leave an article's: a newsletter box's field label and small
// print are no part of the text, and trafilatura drops every form. A page
// that is mostly its form keeps it.
func TestReadingFurniture(t *testing.T) {
	para := func(s string) string {
		return `<p>` + s + ` ` + strings.Repeat("The workshop notes go on about flour, water, time and the oven. ", 5) + `</p>`
	}
	newsletter := `<div class="sqs-block newsletter-block"><div class="sqs-block-content"><div class="newsletter-form-wrapper">` +
		`<form class="newsletter-form" method="post"><header class="newsletter-form-header"><h2>Recevez mes recettes</h2>` +
		`<div class="newsletter-form-header-description"><p>Une lettre par mois, pas plus. Inscrivez-vous pour ne rien manquer.</p></div></header>` +
		`<div class="newsletter-form-body"><div class="newsletter-form-field-wrapper form-item field email required">` +
		`<label class="newsletter-form-field-label title" for="e">Adresse e-mail</label><input id="e" name="email" type="email" placeholder="Adresse e-mail"></div>` +
		`<div class="newsletter-form-button-wrapper submit-wrapper"><button type="submit"><span>S’inscrire</span></button></div></div>` +
		`<div class="newsletter-form-footnote"><p>Nous respectons votre vie privée.</p></div></form></div></div></div>`
	tests := []struct {
		name, body string
		want, gone []string
	}{
		{"newsletter form inside the text", para("On me demande souvent comment je fais mon pain.") + para("Voici ma méthode, étape par étape.") +
			newsletter + para("Le lendemain, enfournez dans une cocotte chaude.") + para("Laissez refroidir une heure."),
			[]string{"On me demande souvent", "Le lendemain, enfournez", "Laissez refroidir"}, []string{"Adresse e-mail", "vie privée"}},
		{"a breadcrumb above the text", `<ol class="breadcrumb"><li><a href="/">Accueil</a></li><li><a href="/journal">Journal</a></li><li>Levain</li></ol>` +
			para("On me demande souvent comment je fais mon pain.") + para("Voici ma méthode, étape par étape.") + para("Le lendemain, enfournez."),
			[]string{"On me demande souvent", "Le lendemain"}, []string{"Accueil", "Levain\n"}},
		{"a tooltip in a sentence", `<p>Know your <span class="term">competition<span role="tooltip" class="bubble"><strong>Competition</strong><br>Businesses that sell what you sell.</span></span> before you set a price. ` +
			strings.Repeat("The workshop notes go on about flour, water, time and the oven. ", 5) + `</p>` + para("Voici ma méthode, étape par étape.") + para("Le lendemain, enfournez."),
			[]string{"Know your competition before you set a price.", "Le lendemain"}, []string{"Businesses that sell"}},
		{"a page that is its form", `<h2>Contact us</h2><form method="post" action="/contact">` +
			`<p>Tell us about your project and the dates you have in mind, and we will get back to you within two working days with a quote and a plan.</p>` +
			`<label for="n">Your name</label><input id="n" name="name"><label for="m">Your message to the team</label><textarea id="m" name="m"></textarea>` +
			`<p>We answer every message ourselves and never share your address with anyone else, for any reason at all.</p><button>Send</button></form>`,
			[]string{"Tell us about your project", "We answer every message ourselves"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<html><head><title>Atelier</title></head><body><header><nav><a href="/">Accueil</a> <a href="/journal">Journal</a> <a href="/contact">Contact</a></nav></header>` +
				`<main><div class="content"><div class="col">` + tt.body + `</div></div></main><footer><p>© 2024 Atelier Farine</p></footer></body></html>`
			doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://atelier.example/journal/levain", Format: Text})
			if err != nil {
				t.Fatal(err)
			}
			checkGoneKept(t, doc.Content, tt.gone, tt.want)
		})
	}
}
