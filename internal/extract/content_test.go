package extract

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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

// TestReadabilityTitleScripts: readability drops the heading that
// repeats the page's title from what it reads, in any script. Its own
// test splits words at ASCII letters, so a Russian or Greek heading was
// never the title's; readabilityTitle hands it the heading as hidden.
func TestReadabilityTitleScripts(t *testing.T) {
	pages := []struct {
		name, title, heading, para string
	}{
		{"English", "Council approves the new bridge plan | City News", "Council approves the new bridge plan",
			"The city council approved the plan for a new bridge over the river on Tuesday, after a long debate, and work starts in spring."},
		{"Russian", "Городской совет утвердил план нового моста | Городские новости", "Городской совет утвердил план нового моста",
			"Городской совет во вторник утвердил план нового моста через реку, после долгих споров, и работы начнутся весной."},
		{"Greek", "Το δημοτικό συμβούλιο ενέκρινε τη νέα γέφυρα | Νέα της πόλης", "Το δημοτικό συμβούλιο ενέκρινε τη νέα γέφυρα",
			"Το δημοτικό συμβούλιο ενέκρινε την Τρίτη το σχέδιο για νέα γέφυρα στο ποτάμι, μετά από μακρά συζήτηση, και οι εργασίες αρχίζουν την άνοιξη."},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			doc, err := parseHTML([]byte(`<html><head><title>` + p.title + `</title></head><body><div class="story"><h1>` + p.heading + `</h1>` +
				strings.Repeat(`<p>`+p.para+`</p>`, 6) + `</div></body></html>`))
			if err != nil {
				t.Fatal(err)
			}
			prepareDoc(doc)
			read := candReadability(doc, nil)
			if read == nil {
				t.Fatal("readability read nothing")
			}
			if got := textOf(read); strings.Contains(got, p.heading) {
				t.Errorf("readability kept the title's heading:\n%s", got)
			}
			h1 := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.H1) })
			if h1 == nil || hasAttr(h1, "hidden") {
				t.Errorf("the page's own heading is gone or still hidden: %v", h1)
			}
		})
	}
	// Readability's title is the one a <meta> gives, where one does.
	meta := parseFragment(t, `<meta property="og:title" content="Городской совет утвердил новый план моста"><title>Городские новости</title>`+
		`<h2>Городские новости</h2><h1>Городской совет утвердил новый план моста</h1>`)
	if h := readabilityTitle(meta); h == nil || textOf(h) != "Городской совет утвердил новый план моста" {
		t.Errorf("with og:title, readabilityTitle = %v, want the story's <h1>", h)
	}
	// A heading that only shares the site's name is no title; neither is
	// a second heading when readability drops the first itself.
	for _, tc := range []struct {
		name, page string
	}{
		{"site name", `<title>Городской совет утвердил новый план моста | Городские новости</title><h2>Городские новости</h2><h1>Погода на завтра</h1>`},
		{"hidden", `<title>Городской совет утвердил новый план моста</title><h1 hidden>Городской совет утвердил новый план моста</h1>`},
		{"ASCII first", `<title>Совет: Council approves the bridge plan</title><h1>Council approves the bridge plan</h1><h2>Совет</h2>`},
	} {
		doc := parseFragment(t, tc.page)
		if h := readabilityTitle(doc); h != nil {
			t.Errorf("%s: readabilityTitle = %q, want none", tc.name, textOf(h))
		}
	}
	for in, want := range map[string]string{
		"The council approves the bridge plan | City News": "The council approves the bridge plan",
		"Site | The council approves the bridge plan":      " The council approves the bridge plan",
		"The bridge plan | City News":                      "The bridge plan | City News",
		"Городской совет утвердил новый план моста | Х":    "Городской совет утвердил новый план моста",
	} {
		if got := storyTitle(in); got != want {
			t.Errorf("storyTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTrafilaturaScriptThreshold checks that trafilatura's "too short"
// threshold, counted in characters, is read for the script: a short
// Chinese story (140 characters, some 70 words) is an extraction, not a
// failure to rescue with every paragraph of the page, and so is a story
// of as many words in English.
func TestTrafilaturaScriptThreshold(t *testing.T) {
	for _, tc := range []struct {
		name, story, end, contact string
	}{
		{"Chinese", `<p>市议会周二批准了在河上修建新桥的计划。经过长时间的辩论，议员们以十票对三票通过了该方案。</p>` +
			`<p>新桥将连接老城区和东岸的住宅区，预计可以缓解早晚高峰时段的交通拥堵。</p>` +
			`<p>市长表示，工程将于明年春季开工，预计在两年内完工，总投资约为八亿元。</p>` +
			`<p>部分居民担心施工期间的噪音问题，市政府承诺将在夜间暂停施工。</p>`, "夜间暂停施工",
			`<p>如有任何问题或请求，请联系客户服务中心：电话 2421 分机 4，传真 03-5613699。</p><p>服务中心周日至周四上午八点至下午六点提供服务。</p>`},
		{"English", `<p>The city council on Tuesday approved the plan for a new bridge over the river. After a long debate, members passed it by ten votes to three.</p>` +
			`<p>The bridge will link the old town with the housing on the east bank, and should ease the traffic jams of the morning and evening rush hours.</p>` +
			`<p>The mayor said that work will start next spring and take two years, at a cost of about eight hundred million.</p>` +
			`<p>Some residents fear the noise of the works; the city has promised to stop them at night.</p>`, "stop them at night",
			`<p>For any question or request, call the customer service centre: 2421, extension 4, fax 03-5613699.</p><p>The centre answers from Sunday to Thursday, eight to six.</p>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := parseHTML([]byte(`<html><head><title>Bridge</title></head><body><div class="article-content">` + tc.story +
				`</div><div class="contact">` + tc.contact + `</div></body></html>`))
			if err != nil {
				t.Fatal(err)
			}
			prepareDoc(doc)
			traf := candTrafilatura(doc, nil, trafRun{focus: trafilatura.Balanced, fallback: true})
			if traf == nil {
				t.Fatal("trafilatura read nothing")
			}
			got := textOf(traf)
			if !strings.Contains(got, tc.end) {
				t.Errorf("the story's end is missing:\n%s", got)
			}
			if strings.Contains(got, "2421") {
				t.Errorf("the contact lines were rescued into the story:\n%s", got)
			}
		})
	}
}

// TestScriptScaled checks the scale: whole in a spaced script, whole in
// an unspaced one, and half and half (by words).
func TestScriptScaled(t *testing.T) {
	for page, want := range map[string]int{
		`<p>The council approved the plan for a new bridge.</p>`: 250,
		`<p>市议会周二批准了在河上修建新桥的计划。</p>`:                             100,
		`<p>市议会批准了计划</p><p>the council approved it</p>`:          175,
	} {
		if got := scriptScaled(250, parseFragment(t, page)); got != want {
			t.Errorf("scriptScaled(250, %s) = %d, want %d", page, got, want)
		}
	}
}

// TestTrafilaturaBaselineOnce checks the fork's last-resort baseline:
// when a short page's paragraphs are too few to use, the page's whole
// text replaces them, and they are not read twice.
func TestTrafilaturaBaselineOnce(t *testing.T) {
	doc, err := parseHTML([]byte(`<html><body><div><p>Opening hours</p><p>Closed on Sunday</p><div>Call 555-0100 or write to the town hall at 1 Main Street, ` +
		`where the clerk answers every letter within a week of its arrival.</div></div></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	got := renderText(candTrafilatura(doc, nil, trafRun{focus: trafilatura.Balanced}))
	if n := strings.Count(got, "Opening hours"); n != 1 || !strings.Contains(got, "Main Street") || strings.Contains(got, "hoursClosed") {
		t.Errorf("baseline read the paragraph %d times, glued its words or lost the rest:\n%s", n, got)
	}
}
