package extract

import (
	"context"
	"strings"
	"testing"

	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestHeadingWrapper checks that prepareDoc unwraps a <div> holding only a
// heading and its permalink, as GitHub renders Markdown, and leaves a
// heading's wrapper without a permalink, or with more in it.
func TestHeadingWrapper(t *testing.T) {
	tests := []struct {
		in     string
		unwrap bool
	}{
		{`<div class="markdown-heading"><h2 class="heading-element">Install</h2><a id="user-content-install" class="anchor" href="#install"><svg viewBox="0 0 16 16"><path d="m7"></path></svg></a></div>`, true},
		{`<div class="elementor-widget-container"><h2 class="elementor-heading-title">Install</h2></div>`, false},
		{`<div><h2>Install</h2><a href="/install">Read the guide</a></div>`, false},
		{`<div><h2>Install</h2><p>Run the installer.</p><a href="#install"></a></div>`, false},
	}
	for _, tt := range tests {
		doc := preparedPage(t, "<article>"+tt.in+"</article>")
		h := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.H2) })
		if unwrapped := isElem(h.Parent, atom.Article); unwrapped != tt.unwrap {
			t.Errorf("%s: unwrapped = %v, want %v", tt.in, unwrapped, tt.unwrap)
		}
	}
}

// TestPlainHeading checks that a heading loses the names that hold
// "header" (readability's unlikely-candidate pattern matches inside
// words) and keeps the others; other elements keep theirs.
func TestPlainHeading(t *testing.T) {
	tests := []struct {
		in, class, id string
	}{
		{`<h2 class="header-anchor-post">The economics</h2>`, "", ""},
		{`<h2 class="subheaders jumptargets" id="xref-header">Symptoms</h2>`, "jumptargets", ""},
		{`<h3 class="wp-block-heading sectionHeader">Tips</h3>`, "wp-block-heading", ""},
		{`<h2 class="post-title" id="intro">Introduction</h2>`, "post-title", "intro"},
		{`<div class="site-header">Menu</div>`, "site-header", ""},
	}
	for _, tt := range tests {
		doc := preparedPage(t, "<article>"+tt.in+"</article>")
		e := findFirst(doc, func(n *html.Node) bool {
			return n.Type == html.ElementNode && n.Parent != nil && isElem(n.Parent, atom.Article)
		})
		if got := attr(e, "class"); got != tt.class {
			t.Errorf("%s: class %q, want %q", tt.in, got, tt.class)
		}
		if got := attr(e, "id"); got != tt.id {
			t.Errorf("%s: id %q, want %q", tt.in, got, tt.id)
		}
	}
}

// TestAccordionButton checks that an accordion's title survives its
// toggle: a button inside a heading is unwrapped, a button or a focusable
// <div> around a heading gives way to the heading (its icon goes; a
// focusable card with more text stays), and other buttons,
// a tool beside a heading's title among them, stay for the extractors to
// drop.
func TestAccordionButton(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`<h3 class="accordion-header"><button class="accordion-button">Will the crew take furniture apart?</button></h3>`,
			`<h3>Will the crew take furniture apart?</h3>`},
		{`<button class="faq-toggle"><h3>What if completion is delayed?</h3><span aria-hidden="true">+</span></button>`,
			`<h3>What if completion is delayed?</h3>`},
		{`<div class="faq-toggle" tabindex="0"><h3>Can you store furniture?</h3><i class="icon"></i></div>`,
			`<h3>Can you store furniture?</h3>`},
		{`<div class="card" tabindex="0"><h3>Storage</h3><p>By the week.</p></div>`,
			`<div class="card" tabindex="0"><h3>Storage</h3><p>By the week.</p></div>`},
		{`<button type="submit">Subscribe</button>`, `<button type="submit">Subscribe</button>`},
		{`<h1>Function open<button id="copy-path">Copy item path</button></h1>`, `<h1>Function open<button id="copy-path">Copy item path</button></h1>`},
		// A name in a sentence that opens a sidenote is the
		// sentence's words; buttons after a label are controls.
		{`<p>said MIT Sloan professor<button class="sidenote-button" title="Thomas W. Malone,">Thomas W. Malone,</button> the founding director</p>`,
			`<p>said MIT Sloan professor Thomas W. Malone, the founding director</p>`},
		{`<p>Compare the <button class="glossary">APR</button>, which counts fees.</p>`, `<p>Compare the APR, which counts fees.</p>`},
		{`<p>Share: <button>Facebook</button> <button>X</button></p>`, `<p>Share: <button>Facebook</button> <button>X</button></p>`},
	}
	for _, tt := range tests {
		doc := preparedPage(t, "<article>"+tt.in+"</article>")
		var sb strings.Builder
		for c := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Article) }).FirstChild; c != nil; c = c.NextSibling {
			html.Render(&sb, c)
		}
		if sb.String() != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.in, sb.String(), tt.want)
		}
	}
}

// TestOpenPanel checks that a folded panel loses the class names that
// fold it and keeps the others, and that "hidden" elsewhere stays.
func TestOpenPanel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"kt-accordion-panel kt-accordion-panel-hidden", "kt-accordion-panel"},
		{"cdr-accordion__content cdr-accordion--closed", "cdr-accordion__content"},
		{"faq-answer is-collapsed", "faq-answer is-collapsed"},
		{"sidebar hidden-xs", "sidebar hidden-xs"},
		{"tab-pane tab-pane--hidden active", "tab-pane active"},
	}
	for _, tt := range tests {
		doc := preparedPage(t, `<article><div class="`+tt.in+`"><p>Text.</p></div></article>`)
		d := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Div) })
		if got := attr(d, "class"); got != tt.want {
			t.Errorf("%q: class %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPlainCode checks that prepareDoc leaves a code block's text to the
// extractors without what makes them judge it as prose: links go (their
// text stays), inner elements lose class and id, the <pre> and its
// <code> keep the language, and a gutter named as one still goes.
func TestPlainCode(t *testing.T) {
	doc := preparedPage(t, `<pre class="go"><code class="language-go">`+
		`<span class="lineno">1</span><span class="kd">func</span> Open(path <a href="/builtin#string">string</a>) error `+
		`<span class="comment" id="c1">// contains filtered or unexported fields</span></code></pre>`)
	pre := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Pre) })
	var b strings.Builder
	if err := html.Render(&b, pre); err != nil {
		t.Fatal(err)
	}
	want := `<pre class="go"><code class="language-go"><span>func</span> Open(path string) error <span>// contains filtered or unexported fields</span></code></pre>`
	if got := b.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestAdmonitionAside checks that prepareDoc makes a <div> of an aside
// that a documentation generator made a callout of, named by its label or
// a word of its class, and leaves sidebars, promotions and hidden
// notices asides.
func TestAdmonitionAside(t *testing.T) {
	tests := []struct {
		in   string
		note bool
	}{
		{`<aside aria-label="Caution" class="starlight-aside starlight-aside--caution"><p>Rotate the key if it leaks.</p></aside>`, true},
		{`<aside class="Note">Note: for other tutorials, see Tutorials.</aside>`, true},
		{`<aside class="admonition tip"><p>Use a pool.</p></aside>`, true},
		{`<aside class="sidebar"><p>Popular posts</p></aside>`, false},
		{`<aside class="highlighted-info-block"><p>Sign up to our newsletter</p></aside>`, false},
		{`<aside class="s-notice s-notice__warning d-none" aria-hidden="true"><p>Thanks for contributing an answer!</p></aside>`, false},
	}
	for _, tt := range tests {
		doc := preparedPage(t, "<article><p>Text.</p>"+tt.in+"</article>")
		aside := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Aside) })
		if note := aside == nil; note != tt.note {
			t.Errorf("%s: made a callout = %v, want %v", tt.in, note, tt.note)
		}
		div := findFirst(doc, func(n *html.Node) bool { return n.Type == html.ElementNode && hasToken(attr(n, "class"), "admonition") })
		if tt.note && (div == nil || strings.Contains(attr(div, "class"), "aside")) {
			t.Errorf("%s: no div of class admonition without \"aside\" names", tt.in)
		}
	}
}

// preparedPage parses a page whose body is body and runs prepareDoc on
// it, as Extract does before any extractor sees the page.
func preparedPage(t *testing.T, body string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader("<html><body>" + body + "</body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	prepareDoc(doc)
	return doc
}

// TestSpaceLinks checks that links a stylesheet lays out side by side
// get a space between them when the second starts a word, and that a
// word split over links, links with space between them, and links in
// code keep their text as it is.
func TestSpaceLinks(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<div class="flex"><a href="/quickstart">Quickstart</a><a href="/webhooks">Webhooks</a></div>`, "Quickstart Webhooks"},
		{`<p><a href="/b/aaa">AAA</a><a href="/b/erie">Erie</a><a href="/b/2">2 more</a></p>`, "AAA Erie 2 more"},
		{`<p>The <a href="/a">Arte</a><a href="/b">mis m</a><a href="/c">oon program</a>.</p>`, "The Artemis moon program."},
		{`<p><a href="/a">Home</a> <a href="/b">News</a></p>`, "Home News"},
		{`<p>See <a href="/a">@pat</a><a href="/b">.</a></p>`, "See @pat."},
		{`<pre><code><a href="/io">io</a><a href="/r">Reader</a></code></pre>`, "ioReader"},
	}
	for _, tt := range tests {
		doc := preparedPage(t, tt.in)
		if got := strings.TrimSpace(textOf(findBody(doc))); got != tt.want {
			t.Errorf("%s: text %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPlainHeadingDivs checks that the <div>s a theme sets inside a
// heading become <span>s, with a space between two of them, so that
// readability keeps the heading's text.
func TestPlainHeadingDivs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<h2 id="req"><div class="grid-area-1-1"><a href="#req" aria-label="Direct link to heading"></a></div><div class="grid-area-1-1 z-[1]">Requirements</div></h2>`, "Requirements"},
		{`<h3><div>Part 1</div><div>The start</div></h3>`, "Part 1 The start"},
		{`<h4 class="code-header">pub fn map&lt;U&gt;(self) -&gt; U<div class="where">where F: FnOnce(T) -&gt; U</div></h4>`, "pub fn map<U>(self) -> U where F: FnOnce(T) -> U"},
	}
	for _, tt := range tests {
		doc := preparedPage(t, tt.in)
		h := findFirst(doc, func(n *html.Node) bool { return headingAtoms[n.DataAtom] })
		if d := findFirst(h, func(n *html.Node) bool { return n != h && n.DataAtom == atom.Div }); d != nil {
			t.Errorf("%s: a <div> is left in the heading", tt.in)
		}
		if got := strings.Join(strings.Fields(textOf(h)), " "); got != tt.want {
			t.Errorf("%s: text %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHeadingNamedAnchor checks that a section whose heading is a named
// anchor (an <a> without an address, the target of a table of contents)
// keeps its heading and its opening paragraph, and that an <a> a script
// makes a control stays a link.
func TestHeadingNamedAnchor(t *testing.T) {
	section := func(title, body string) string {
		return `<div class="wrapper"><div class="wrapper__body"><h2><a id="` + title + `" name="` + title + `"><strong>` + title + `</strong></a></h2><p>` + body + `</p></div></div>`
	}
	para := `<div class="wrapper"><p class="wrapper__body">The group writes policies in every state, and its agents sell home, auto and farm cover together, which brokers value when a client wants a single carrier for everything.</p></div>`
	page := `<html><head><title>Top insurers</title></head><body><article><h1>The top ten insurers in the US</h1>` +
		section("1. State Farm Group", "State Farm is the largest insurer in the country by premiums written, in home and auto alike.") +
		strings.Repeat(para, 6) +
		section("Choosing from the top ten insurance companies in the US", "With all these choices, finding the best carrier for your clients can be a daunting task. Here is how:") +
		`<div class="wrapper"><p class="wrapper__body">Step 1. Clarify the client's situation, key risks and main priorities.</p></div>` +
		`<div class="wrapper"><p class="wrapper__body">Step 2. Define the specific coverages and limits needed.</p></div>` +
		`</article></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Choosing from the top ten", "With all these choices", "Step 2."} {
		if !strings.Contains(doc.Content, want) {
			t.Errorf("%q is missing:\n%s", want, doc.Content)
		}
	}

	tests := []struct {
		in   string
		link bool
	}{
		{`<h2><a name="pricing">Pricing</a></h2>`, false},
		{`<h2><a>Pricing</a></h2>`, false},
		{`<h2><a href="/pricing">Pricing</a></h2>`, true},
		{`<h2><a data-href="/pricing">Pricing</a></h2>`, true},
		{`<h2><a role="button" aria-expanded="false">Pricing</a></h2>`, true},
		{`<h2><a tabindex="0" onclick="toggle()">Pricing</a></h2>`, true},
	}
	for _, tt := range tests {
		d := preparedPage(t, tt.in)
		if got := findFirst(d, func(n *html.Node) bool { return n.DataAtom == atom.A }) != nil; got != tt.link {
			t.Errorf("%s: <a> kept %v, want %v", tt.in, got, tt.link)
		}
	}
}

// TestCarouselClone checks that the slides a carousel library copies
// for its endless loop are read once, and that other names with "clone"
// in them stay.
func TestCarouselClone(t *testing.T) {
	slide := func(cls, name, quote string) string {
		return `<div class="slick-slide` + cls + `"><h3>` + name + `</h3><p>` + quote + `</p></div>`
	}
	quotes := [][2]string{
		{"Unique packaging designs", "Every box we design starts from the product and the shelf it will stand on, never from a template."},
		{"Solutions that work", "We test each structure for transport and for the first opening, so that nothing breaks on the way."},
		{"Market-ready packaging", "Print-ready files, a brand guide and two rounds of revisions come with every design we deliver."},
	}
	var slides string
	for _, q := range quotes[1:] {
		slides += slide(" slick-cloned", q[0], q[1])
	}
	for _, q := range quotes {
		slides += slide(" slick-active", q[0], q[1])
	}
	for _, q := range quotes[:2] {
		slides += slide(" slick-cloned", q[0], q[1])
	}
	page := `<html><head><title>Packaging design</title></head><body><main><h1>Packaging design</h1>` +
		`<p>We design packaging for cosmetics brands, from the first sketch to the printed box, and we have done so for twelve years.</p>` +
		`<div class="slick-slider"><div class="slick-track">` + slides + `</div></div>` +
		`<p class="cloned-repo">Clone the starter kit from our repository to try the dielines yourself before you order a sample.</p></main></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://studio.example.com/packaging", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range quotes {
		if n := strings.Count(doc.Content, q[1]); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", q[0], n, doc.Content)
		}
	}
	if !strings.Contains(doc.Content, "Clone the starter kit") {
		t.Errorf("lost a paragraph named with clone:\n%s", doc.Content)
	}
	for _, tc := range []struct {
		class string
		clone bool
	}{
		{"slick-slide slick-cloned", true}, {"swiper-slide swiper-slide-duplicate", true}, {"splide__slide splide__slide--clone", true},
		{"owl-item cloned", true}, {"cloned", false}, {"repo-cloned-badge", false}, {"swiper-slide", false},
	} {
		n := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div, Attr: []html.Attribute{{Key: "class", Val: tc.class}}}
		if got := carouselClone(n); got != tc.clone {
			t.Errorf("%q: clone %v, want %v", tc.class, got, tc.clone)
		}
	}
}

// TestSpaceAriaHidden checks that a visible separator hidden from
// screen readers leaves a space when the extractors remove it, and that
// an icon without text and code are left as they are.
func TestSpaceAriaHidden(t *testing.T) {
	byline := `<p class="byline"><span>Nov 7, 2025</span><span aria-hidden="true"><span>·</span></span><span>11 min read</span></p>`
	story := `<p>` + strings.Repeat("The scheduler now places containers by the topology of the CPU, and tail latency fell by a third. ", 6) + `</p>`
	page := `<html><head><title>Scaling containers</title></head><body><article><h1>Scaling containers</h1>` + byline + story + story + `</article></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://blog.example.com/scaling-containers", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc.Content, "202511") {
		t.Errorf("the byline's words ran together:\n%s", doc.Content)
	}
	tests := []struct{ in, want string }{
		{byline, "Nov 7, 2025 · 11 min read"},
		{`<p>Next<i class="fa fa-arrow" aria-hidden="true"></i>page</p>`, "Nextpage"},
		{`<pre>fmt.<span aria-hidden="true">Println</span>(x)</pre>`, "fmt.(x)"}, // a gutter, dropped (dropGutters)
	}
	for _, tt := range tests {
		d := preparedPage(t, tt.in)
		if got := collapseSpace(textOf(findBody(d))); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestScrollbarNames checks that a code block whose class hides only its
// scrollbar ("hide-scroll", GitBook) reaches trafilatura's reading.
func TestScrollbarNames(t *testing.T) {
	para := `<p>Harbor writes a snapshot of its database once an hour, and you can take one yourself at any time with the command below, before an upgrade or a move of the host.</p>`
	page := `<html><body><article><h1>Backups</h1>` + strings.Repeat(para, 4) +
		`<pre class="hide-scroll relative overflow-auto"><code>harbor snapshot create --to /backups/now.db</code></pre>` +
		`<p>Copy the snapshot off the machine. A snapshot on the same disk as the database is lost with it.</p></article></body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	prepareDoc(doc)
	traf := candTrafilatura(doc, nil, trafRun{focus: trafilatura.Balanced})
	if traf == nil || !strings.Contains(textOf(traf), "harbor snapshot create") {
		t.Errorf("trafilatura lost the code block: %q", textOf(traf))
	}
}

// TestAriaTable checks that a table built of <div>s with ARIA's roles
// becomes a Markdown table, and that a shape ARIA does not define (a
// row holding something other than cells, a single row) stays as it is.
func TestAriaTable(t *testing.T) {
	head := `<div role="rowgroup"><div role="row"><div role="columnheader">Variable</div><div role="columnheader">Default</div></div></div>`
	tests := []struct{ in, want string }{
		{`<div role="table">` + head + `<div role="rowgroup"><div role="row"><div role="cell"><p><code>HARBOR_LISTEN</code></p></div><div role="cell"><p>:8443</p></div></div>` +
			`<div role="row"><div role="cell">HARBOR_LOG</div><div role="cell">text</div></div></div></div>`,
			"| Variable        | Default |\n|-----------------|---------|\n| `HARBOR_LISTEN` | :8443   |\n| HARBOR_LOG     | text    |"},
		{`<div role="grid"><div role="row"><div role="gridcell">Mon</div><div role="gridcell">9–17</div></div><div role="row"><div role="rowheader">Tue</div><div role="gridcell">9–12</div></div></div>`,
			"|     |      |\n|-----|------|\n| Mon | 9–17 |\n| Tue | 9–12 |"},
		{`<div role="table">` + head + `<div role="row"><div class="wrap"><div role="cell">a</div></div></div></div>`, "Variable\n\nDefault\n\na"},
		{`<div role="table"><div role="row"><div role="cell">a</div><div role="cell">b</div></div></div>`, "a\n\nb"},
	}
	for _, tt := range tests {
		doc := preparedPage(t, tt.in)
		if got := strings.TrimSpace(renderMarkdown(findBody(doc), nil)); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestCodeSignature checks that a declaration's signature, named so by
// an API documentation generator (Sphinx's in its <dt>), becomes a code
// block of its text without the permalink's sign, and that a forum
// post's "signature" stays as it is.
func TestCodeSignature(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<div class="tsd-signature tsd-anchor-link" id="createclient"><span class="tsd-kind-call-signature">createClient</span><span class="tsd-signature-symbol">(</span><span class="tsd-kind-parameter">options</span><span class="tsd-signature-symbol">:</span> <a href="../interfaces/ClientOptions.html" class="tsd-signature-type">ClientOptions</a><span class="tsd-signature-symbol">)</span><span class="tsd-signature-symbol">:</span> <a href="../classes/Client.html">Client</a><a href="#createclient" aria-label="Permalink" class="tsd-anchor-icon"><svg></svg></a></div>`,
			"createClient(options: ClientOptions): Client"},
		{`<div class="member-signature"><span class="modifiers">public</span>&nbsp;<span class="return-type">void</span>&nbsp;<span class="element-name">acquire</span>()
             throws <span class="exceptions"><a href="InterruptedException.html">InterruptedException</a></span></div>`,
			"public void acquire()\n             throws InterruptedException"},
		{`<dl class="py function"><dt class="sig sig-object py" id="tern.cache.expire"><span class="sig-prename descclassname"><span class="pre">tern.cache.</span></span><span class="sig-name descname"><span class="pre">expire</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">key</span></span></em>, <em class="sig-param"><span class="o"><span class="pre">*</span></span></em>, <em class="sig-param"><span class="n"><span class="pre">soft</span></span><span class="o"><span class="pre">=</span></span><span class="default_value"><span class="pre">False</span></span></em><span class="sig-paren">)</span><a class="headerlink" href="#tern.cache.expire" title="Link to this definition">¶</a></dt><dd><p>Remove one entry now.</p></dd></dl>`,
			"tern.cache.expire(key, *, soft=False)"},
		{`<div class="post-signature flex--item"><div class="user-info">asked Jan 3 at 10:00 <a href="/users/1">pat</a></div></div>`, ""},
		{`<aside class="message-signature"><div>Sent from my phone (sorry for typos)</div></aside>`, ""},
	}
	for _, tt := range tests {
		doc := preparedPage(t, tt.in)
		got := ""
		if pre := findFirst(doc, func(n *html.Node) bool { return n.DataAtom == atom.Pre }); pre != nil {
			got = textOf(pre)
		}
		if got != tt.want {
			t.Errorf("%s: code block %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAdmonitionAlert checks that a note set as a Bootstrap alert keeps
// its text through readability, which drops the role "alert", and that
// a site's dismissible message or a colour-only alert keeps the role.
func TestAdmonitionAlert(t *testing.T) {
	tests := []struct {
		in   string
		role bool // whether the role stays
	}{
		{`<div class="alert alert-info" role="alert"><h4 class="alert-heading">Note</h4>Route spans by trace ID first.</div>`, false},
		{`<div class="alert alert-info note callout" role="alert">Route spans by trace ID first.</div>`, false},
		{`<div class="alert alert-warning" role="alert"><h4>Warning:</h4>Back up first.</div>`, false},
		{`<div class="alert alert-warning alert-dismissible fade show" role="alert"><h4>Note</h4>Register to keep your place.</div>`, true},
		{`<div class="alert alert-warning" role="alert">You are offline.</div>`, true},
		{`<div class="alert alert-danger" role="alert"><h4>Browsing users</h4>Sign up now.</div>`, true},
	}
	for _, tt := range tests {
		doc := preparedPage(t, tt.in)
		div := findFirst(doc, func(n *html.Node) bool { return n.DataAtom == atom.Div })
		if got := hasAttr(div, "role"); got != tt.role {
			t.Errorf("%s: role kept = %v, want %v", tt.in, got, tt.role)
		}
	}
}

// TestRootNamesOnArticles: a story whose <html> carries a theme's state
// ("header-spacing") is read from its own block, not from the whole body
// with the site's header and print logo.
func TestRootNamesOnArticles(t *testing.T) {
	para := func(s string) string {
		return "<p>" + s + " The owners had searched the neighbourhood for weeks and put up posters on every corner of the street.</p>"
	}
	page := `<html class="header-spacing spacing"><head><title>Cat found 700 miles from home</title>` +
		`<meta property="og:type" content="article"></head><body>` +
		`<div class="header"><h2>Breaking News</h2><img src="/img/print-header-logo.png" alt="print header logo"> https://news.example/cat-found</div>` +
		`<div class="article-body"><h1>Cat found 700 miles from home</h1>` +
		para("A cat that went missing in Texas turned up in New Mexico two years later.") +
		para("A shelter scanned its microchip and called the family.") +
		para("The family drove through the night to bring it home.") +
		para("Vets said the cat was thin but healthy.") +
		`</div></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://news.example/cat-found", Format: Markdown})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"turned up in New Mexico", "thin but healthy"} {
		if !strings.Contains(doc.Content, want) {
			t.Errorf("%q is missing:\n%s", want, doc.Content)
		}
	}
	for _, gone := range []string{"Breaking News", "print header logo"} {
		if strings.Contains(doc.Content, gone) {
			t.Errorf("%q is kept:\n%s", gone, doc.Content)
		}
	}
}

// TestDropSignupBoxes: a signup box between a story's paragraphs goes
// whole, named or not; a page that is its form keeps it.
func TestDropSignupBoxes(t *testing.T) {
	para := func(s string) string {
		return "<p>" + s + " The laptop ships with a charger and a one-year warranty from the refurbisher, and returns are free.</p>"
	}
	box := `<div class="mt-8 p-4 border"><div class="font-bold">Deals Desk</div><div><div class="header-300">Be the first to know!</div>` +
		`<div class="header-600">Get editor selected deals texted right to your phone!</div></div>` +
		`<form class="flex flex-col"><input type="tel" placeholder="Enter Phone Number"><button type="submit">Sign Me Up</button></form>` +
		`<div class="text-xs">By signing up, you agree to receive recurring automated marketing messages at the number provided. Reply STOP to opt out.</div>` +
		`<div class="hidden">Thanks for signing up!</div></div>`
	mailchimp := `<div class="block"><p>Weekly picks, straight to you.</p><form><input type="text" name="EMAIL" placeholder="Email"><input type="submit" value="Go"></form></div>`
	article := `<html><head><title>A laptop deal</title><meta property="og:type" content="article"></head><body><article><h1>A laptop deal</h1>` +
		para("The refurbished laptop costs a quarter of its original price this week.") + box +
		para("Its processor keeps up with a heavy workload.") + mailchimp +
		para("The screen is bright enough to work outdoors.") +
		para("The battery lasts a working day.") + `</article></body></html>`
	contact := `<html><head><title>Contact us</title><meta property="og:type" content="article"></head><body><article><h1>Contact us</h1>` +
		`<div><p>Write to us and we answer within a day.</p><form><label>Email</label><input type="email" name="email"><label>Message</label><textarea></textarea><button>Send</button></form></div>` +
		`</article></body></html>`
	// The same story declaring nothing, at a headline's address.
	undeclaredStory := strings.Replace(article, `<meta property="og:type" content="article">`, "", 1)
	tests := []struct {
		name       string
		page       string
		url        string
		kept, gone []string
	}{
		{"boxes between paragraphs", article, "https://deals.example/laptop",
			[]string{"quarter of its original price", "heavy workload", "battery lasts"},
			[]string{"Be the first to know", "By signing up", "Thanks for signing up", "Deals Desk", "Weekly picks"}},
		{"undeclared, at a headline's address", undeclaredStory, "https://deals.example/refurbished-laptop-costs-a-quarter-this-week",
			[]string{"quarter of its original price", "heavy workload", "battery lasts"},
			[]string{"Be the first to know", "By signing up", "Thanks for signing up", "Deals Desk", "Weekly picks"}},
		{"a page that is its form", contact, "https://deals.example/laptop", []string{"Write to us"}, nil},
	}
	for _, tt := range tests {
		doc, err := Extract(context.Background(), []byte(tt.page), Options{URL: tt.url, Format: Text})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tt.kept {
			if !strings.Contains(doc.Content, want) {
				t.Errorf("%s: %q is missing:\n%s", tt.name, want, doc.Content)
			}
		}
		for _, bad := range tt.gone {
			if strings.Contains(doc.Content, bad) {
				t.Errorf("%s: %q is kept:\n%s", tt.name, bad, doc.Content)
			}
		}
	}
}

// TestResponsiveTwin: of two copies set for two screen widths with the
// same text, the wide-screen one goes; copies that differ, or that are
// not both set by width, stay.
func TestResponsiveTwin(t *testing.T) {
	tests := []struct {
		in   string
		want string // the prepared body's text
	}{
		{`<div><span class="md:hidden">NEW</span><span class="hidden md:block">NEW</span> Trail shoe</div>`, "NEW Trail shoe"},
		{`<div><div class="hidden lg:flex"><h2>iPhone Parts</h2></div> <div class="lg:hidden"><h2>iPhone Parts</h2></div></div>`, "iPhone Parts"},
		{`<div><span class="md:hidden">Menu</span><span class="hidden md:block">Main menu</span></div>`, "MenuMain menu"},
		{`<div><span class="hidden">NEW</span><span class="hidden md:block">NEW</span></div>`, "NEWNEW"},
		{`<div><span class="sm:hidden">NEW</span><span class="hidden md:block">NEW</span></div>`, "NEWNEW"},
	}
	for _, tt := range tests {
		d := preparedPage(t, tt.in)
		if got := collapseSpace(textOf(findBody(d))); got != tt.want {
			t.Errorf("%s: text %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSkipLink: a link to a place on the same page that says it skips
// there is left out of the text wherever a theme puts it; a link in a
// sentence, an editor's longer "Jump to ..." line, a link to another
// page, and prose that starts with the word stay.
func TestSkipLink(t *testing.T) {
	tests := []struct {
		link string
		skip bool
	}{
		{`<a href="#main">Skip to main content</a>`, true},
		{`<a class="plp-skip" href="#product-list-skip">Skip to product list</a>`, true},
		{`<a href="#sb-1" class="skip-block">Skip Navigation block</a>`, true},
		{`<a href="#recipe">Jump to Recipe</a>`, true},
		{`<a href="#inhalt">Zum Inhalt springen</a>`, true},
		{`<a href="#contenu">Aller au contenu</a>`, true},
		// Named a skip link, in a language no phrase knows.
		{`<a href="#sb-1" class="skip-block">Kiqrl Egxhlt qfzhgmxezogf block</a>`, true},
		{`<a class="skipLink screen-reader-text" href="#content">Cxhtqz cxk Ofpqsz</a>`, true},
		{`<a class="skip-link" href="/kiqrl">Kiqrl Egxhlt qfzhgmxezogf</a>`, false},
		{`<p>Ngx egf <a class="skip" href="#end">kiqrl zg zit tfr</a> gy zit sokz.</p>`, false},
		{`<a href="/skip-the-line">Skip the line at the museum</a>`, false},
		{`<a href="#faq">Frequently asked questions</a>`, false},
		{`<a href="#notes">` + strings.Repeat("skip ", 25) + `</a>`, false},
		{`<p>You can <a href="#end">jump to the end of the list</a> to see them all.</p>`, false},
		{`<p><a href="#list"><strong>Jump to the full list of the best ferries</strong></a></p>`, false},
	}
	for _, tt := range tests {
		n := parseFragment(t, tt.link)
		a := findFirst(n, func(c *html.Node) bool { return c.DataAtom == atom.A })
		if got := skipLink(a); got != tt.skip {
			t.Errorf("skipLink(%s) = %v, want %v", tt.link, got, tt.skip)
		}
	}
	story := strings.Repeat(`<p>The ferry to the island leaves the harbour every hour, and the crossing takes forty minutes in calm weather.</p>`, 4)
	page := `<html><head><title>Island ferries</title></head><body><a href="#main">Skip to main content</a><main id="main"><h1>Island ferries</h1>` +
		`<div class="carousel"><a href="#after-gallery">Skip images</a><img src="/a.jpg" alt=""></div>` + story +
		`<p>Skip the morning boats in August: they fill up with day trippers.</p></main></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://ferries.example.com/island", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	checkGoneKept(t, doc.Content, []string{"Skip to main content", "Skip images"}, []string{"The ferry to the island", "Skip the morning boats"})
}
