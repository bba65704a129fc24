package extract

import (
	"context"
	"errors"
	"fmt"
	nurl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func mustExtract(t *testing.T, file, url string, f Format) *Document {
	t.Helper()
	body, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Extract(context.Background(), body, Options{URL: url, Format: f})
	if err != nil {
		t.Fatalf("Extract(%s): %v", file, err)
	}
	return doc
}

// TestDocsMarkdown checks that the parts of a documentation page a model
// depends on survive byte for byte: fenced code with its language, tabs
// and blank lines; highlighter spans stripped without losing text; GFM
// tables; nested lists; absolute links; and that site chrome is gone.
func TestDocsMarkdown(t *testing.T) {
	md := mustExtract(t, "docs.html", "https://gopher.example/docs/files", Markdown).Content
	want := []struct{ name, part string }{
		{"title heading", "# Reading files\n"},
		{"go code with tabs and blank line", "```go\nfunc main() {\n\tdata, err := os.ReadFile(\"config.yaml\")\n\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tfmt.Println(string(data))\n}\n```"},
		{"github highlight-source wrapper", "```python\ndef read(path):\n    with open(path) as f:\n        return f.read()\n```"},
		{"pre data-lang", "```rust\nfn main() {\n    println!(\"hi\");\n}\n```"},
		// The padding counts the backslash unescapeIntraword takes away.
		{"gfm table", "| Flag      | Meaning         |\n|-----------|-----------------|\n| O_RDONLY | open read-only  |\n| O_RDWR   | open read-write |"},
		{"nested list", "- Open the file\n\n  - check the error\n  - defer Close\n- Read the contents"},
		{"absolute link", "[the os package](https://gopher.example/pkg/os)"},
		{"inline code", "The `os` package"},
		{"admonition text", "Large files should be streamed with a bufio.Scanner instead of read at once."},
	}
	for _, w := range want {
		if !strings.Contains(md, w.part) {
			t.Errorf("%s: missing\n%s\n--- in ---\n%s", w.name, w.part, md)
		}
	}
	for _, noise := range []string{"All rights reserved", "Networking", "Privacy", "Blog"} {
		if strings.Contains(md, noise) {
			t.Errorf("boilerplate %q leaked into:\n%s", noise, md)
		}
	}
}

func TestDocsTextAndHTML(t *testing.T) {
	txt := mustExtract(t, "docs.html", "https://gopher.example/docs/files", Text).Content
	for _, part := range []string{
		"func main() {\n\tdata, err := os.ReadFile(\"config.yaml\")\n\n\tif err != nil {",
		"O_RDONLY\topen read-only",
		"check the error",
	} {
		if !strings.Contains(txt, part) {
			t.Errorf("text missing %q:\n%s", part, txt)
		}
	}
	for _, syntax := range []string{"```", "| ---", "](http", "# "} {
		if strings.Contains(txt, syntax) {
			t.Errorf("text output contains Markdown syntax %q", syntax)
		}
	}
	h := mustExtract(t, "docs.html", "https://gopher.example/docs/files", HTML).Content
	for _, part := range []string{`<code class="language-go">`, `href="https://gopher.example/pkg/os"`, "<table>"} {
		if !strings.Contains(h, part) {
			t.Errorf("html missing %q:\n%s", part, h)
		}
	}
	if strings.Contains(h, "token keyword") {
		t.Error("html keeps highlighter spans")
	}
}

// TestForumKeepsAllPosts guards the classic article-extractor failure on
// threads: keeping the first (longest) post and dropping the replies.
func TestForumKeepsAllPosts(t *testing.T) {
	for _, f := range []Format{Text, Markdown} {
		out := mustExtract(t, "forum.html", "https://forum.example/t/best-first-telescope/123", f).Content
		for _, post := range []string{
			"I am new to astronomy and want to buy my first telescope.",
			"Get a six inch Dobsonian.",
			"Agree with the Dobsonian advice.",
			"Thanks everyone, I ordered the six inch Dobsonian",
		} {
			if !strings.Contains(out, post) {
				t.Errorf("%s: post %q missing:\n%s", f, post, out)
			}
		}
		if strings.Contains(out, "Powered by forum software") {
			t.Errorf("%s: footer leaked", f)
		}
	}
}

func TestMetadata(t *testing.T) {
	tests := []struct {
		name string
		html string
		url  string
		want Metadata
	}{
		{
			name: "json-ld article wins over meta tags",
			html: `<html lang="en-us"><head><title>Fallback title | Site</title>
<meta name="author" content="Meta Author"><meta name="description" content="meta description">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Example News"},
{"@type":"NewsArticle","headline":"Rates rise again","author":[{"@type":"Person","name":"Ana Lima"},{"@type":"Person","name":"Bo Chen"}],
"datePublished":"2024-05-06T07:08:09+02:00","description":"The central bank raised rates.","inLanguage":"en"}]}</script>
<link rel="canonical" href="/news/rates"></head><body><p>Body text of the article goes here.</p></body></html>`,
			url: "https://news.example/x?utm=1",
			want: Metadata{Title: "Rates rise again", Author: "Ana Lima, Bo Chen", Published: time.Date(2024, 5, 6, 5, 8, 9, 0, time.UTC),
				Language: "en-US", CanonicalURL: "https://news.example/news/rates", SiteName: "Example News", Description: "The central bank raised rates."},
		},
		{
			name: "opengraph",
			html: `<html><head><meta property="og:title" content="OG Title"><meta property="og:site_name" content="OG Site">
<meta property="og:description" content="OG description"><meta property="article:published_time" content="2023-01-02">
<meta property="og:url" content="https://og.example/a"><meta property="og:locale" content="pt_BR"></head><body><p>Text here.</p></body></html>`,
			want: Metadata{Title: "OG Title", SiteName: "OG Site", Description: "OG description", Published: time.Date(2023, 1, 2, 0, 0, 0, 0, time.UTC),
				CanonicalURL: "https://og.example/a", Language: "pt-BR"},
		},
		{
			name: "plain meta tags and title without site suffix",
			html: `<html lang="de"><head><title>Anleitung – Beispiel</title><meta name="author" content="Jo Weber">
<meta name="description" content="Kurz."><meta name="date" content="2020-02-03T04:05:06Z"></head><body><h1>Anleitung</h1><p>Text.</p></body></html>`,
			want: Metadata{Title: "Anleitung", Author: "Jo Weber", Description: "Kurz.", Language: "de", Published: time.Date(2020, 2, 3, 4, 5, 6, 0, time.UTC)},
		},
		{
			name: "title without site suffix when the <h1> repeats it with a permalink's sign",
			html: `<html><head><title>Advanced Usage — Requests 2.33 documentation</title></head><body>` +
				`<h1>Advanced Usage<a class="headerlink" href="#advanced-usage" title="Link to this heading">¶</a></h1><p>Text.</p></body></html>`,
			want: Metadata{Title: "Advanced Usage"},
		},
		{
			name: "a name ending in a sign that is no permalink",
			html: `<html><head><title>C# – Tour of the language</title></head><body><h1>C#</h1><p>Text.</p></body></html>`,
			want: Metadata{Title: "C#"},
		},
		{
			name: "a blog's name as the <h1>, a link home, and the post's title after it in <title>",
			html: `<html><head><title>Marsh Notes: First swallows of the spring</title></head><body>` +
				`<h1><a href="https://marsh.example/">Marsh Notes</a></h1><h3>First swallows of the spring</h3><p>Text.</p></body></html>`,
			url:  "https://marsh.example/2024/04/swallows.html",
			want: Metadata{Title: "First swallows of the spring"},
		},
		{
			name: "microformats' publication stamps, hAtom's before the first <time>",
			html: `<html><head><title>T</title></head><body><time datetime="2020-01-01">a comment's</time>` +
				`<div class="hentry"><abbr class="published" title="2024-04-14T18:20:00+01:00">6:20 PM</abbr></div></body></html>`,
			want: Metadata{Title: "T", Published: time.Date(2024, 4, 14, 17, 20, 0, 0, time.UTC)},
		},
		{
			name: "microformats2's dt-published",
			html: `<html><head><title>T</title></head><body><div class="h-entry"><time class="dt-published" datetime="2023-05-06">6 May</time></div></body></html>`,
			want: Metadata{Title: "T", Published: time.Date(2023, 5, 6, 0, 0, 0, 0, time.UTC)},
		},
		{
			name: "the site's name at the end, a relative link home",
			html: `<html><head><title>First swallows | Marsh Notes</title></head><body><h1><a href="/">Marsh Notes</a></h1><p>Text.</p></body></html>`,
			url:  "https://www.marsh.example/swallows",
			want: Metadata{Title: "First swallows"},
		},
		{
			name: "an <h1> linking to the post itself is its title",
			html: `<html><head><title>First swallows - Marsh Notes</title></head><body><h1><a href="/2024/04/swallows.html">First swallows</a></h1><p>Text.</p></body></html>`,
			url:  "https://marsh.example/2024/04/swallows.html",
			want: Metadata{Title: "First swallows"},
		},
		{
			name: "a site's name inside a word of the title stays",
			html: `<html><head><title>Marsh Notes-like birds</title></head><body><h1><a href="/">Marsh Notes</a></h1><p>Text.</p></body></html>`,
			url:  "https://marsh.example/birds",
			want: Metadata{Title: "Marsh Notes-like birds"},
		},
		{
			name: "a home page whose title is the site's name",
			html: `<html><head><title>Marsh Notes</title></head><body><h1><a href="/">Marsh Notes</a></h1><p>Text.</p></body></html>`,
			url:  "https://marsh.example/",
			want: Metadata{Title: "Marsh Notes"},
		},
		{
			name: "an article for subscribers only (JSON-LD, a string false)",
			html: `<html><head><title>T</title><script type="application/ld+json">{"@type":"NewsArticle","headline":"Rents rise","isAccessibleForFree":"False",` +
				`"hasPart":{"@type":"WebPageElement","isAccessibleForFree":false,"cssSelector":".paywall"}}</script></head><body><p>x</p></body></html>`,
			want: Metadata{Title: "Rents rise", Paywalled: true},
		},
		{
			name: "an article for subscribers only (microdata)",
			html: `<html><head><title>T</title></head><body><article itemscope itemtype="https://schema.org/NewsArticle">` +
				`<meta itemprop="isAccessibleForFree" content="false"><p>x</p></article></body></html>`,
			want: Metadata{Title: "T", Paywalled: true},
		},
		{
			name: "a list of article teasers, the first for subscribers (microdata)",
			html: `<html><head><title>T</title></head><body>` +
				`<article itemscope itemtype="https://schema.org/NewsArticle"><meta itemprop="isAccessibleForFree" content="false"><p>x</p></article>` +
				`<article itemscope itemtype="https://schema.org/NewsArticle"><meta itemprop="isAccessibleForFree" content="true"><p>y</p></article></body></html>`,
			want: Metadata{Title: "T"},
		},
		{
			name: "a free article",
			html: `<html><head><title>T</title><script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":true}</script></head><body><p>x</p></body></html>`,
			want: Metadata{Title: "T"},
		},
		{
			name: "broken json-ld is ignored",
			html: `<html><head><title>T</title><script type="application/ld+json">{"@type": "Article", "headline": </script></head><body><p>x</p></body></html>`,
			want: Metadata{Title: "T"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Extract(context.Background(), []byte(tc.html), Options{URL: tc.url, Format: Raw})
			if err != nil {
				t.Fatal(err)
			}
			got := doc.Metadata
			if !got.Published.Equal(tc.want.Published) {
				t.Errorf("Published = %v, want %v", got.Published, tc.want.Published)
			}
			got.Published, tc.want.Published = time.Time{}, time.Time{}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestFormatsAndErrors(t *testing.T) {
	page := []byte(`<html><body><article><p>` + strings.Repeat("A sentence about things. ", 30) + `</p></article></body></html>`)
	raw, err := Extract(context.Background(), page, Options{Format: Raw})
	if err != nil || raw.Content != string(page) || raw.Format != Raw {
		t.Fatalf("raw: %v %q", err, raw.Content)
	}
	md, err := Extract(context.Background(), page, Options{})
	if err != nil || md.Format != Markdown || !strings.Contains(md.Content, "A sentence about things.") {
		t.Fatalf("default markdown: %v %+v", err, md)
	}
	if _, err := Extract(context.Background(), page, Options{Format: "pdf"}); err == nil {
		t.Error("bad format accepted")
	}
	if _, err := Extract(context.Background(), []byte("<html><body><script>x()</script></body></html>"), Options{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty page: err = %v, want ErrEmpty", err)
	}
	// A JavaScript shell with a long title: trafilatura's last resort is
	// the document's whole text, which would pass the title off as content.
	shell := []byte(`<html><head><title>Online Mental Health Care That Caters to You | Cerebral | Online Therapy | Virtual Counseling</title></head>` +
		`<body><div hidden></div><noscript></noscript><script>boot()</script></body></html>`)
	if d, err := Extract(context.Background(), shell, Options{}); !errors.Is(err, ErrEmpty) {
		t.Errorf("title-only shell: err = %v, want ErrEmpty (content %q)", err, d.Content)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(ctx, page, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// TestCodeLines checks that a code block whose lines are block elements
// keeps one line to each, without doubling the newlines a highlighter
// already writes.
func TestCodeLines(t *testing.T) {
	tests := []struct{ html, want string }{
		{`<pre class="editor editor-colors"><div class="line"><span>npm install harbor</span></div><div class="line"><span>harbor serve</span></div></pre>`,
			"npm install harbor\nharbor serve"},
		{"<pre><div class=line>a = 1\n</div><div class=line>b = 2\n</div></pre>", "a = 1\nb = 2\n"},
		{`<pre><code>$ harbor init<p>Created ./data</p>$ harbor serve</code></pre>`, "$ harbor init\nCreated ./data\n$ harbor serve"},
		{`<pre><div><div>x</div></div><br><div>y</div></pre>`, "x\ny"},
		{"<pre><span class=line>one</span>\n<span class=line>two</span></pre>", "one\ntwo"},
	}
	for _, tc := range tests {
		doc := preparedPage(t, tc.html)
		pre := findFirst(doc, func(n *html.Node) bool { return isElem(n, atom.Pre) })
		if got := preText(pre); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.html, got, tc.want)
		}
	}
}

func TestCodeLanguageDetection(t *testing.T) {
	tests := []struct{ html, lang string }{
		{`<pre><code class="language-go">x := 1</code></pre>`, "go"},
		{`<pre class="lang-js"><code>let x</code></pre>`, "js"},
		{`<pre><code class="hljs python">x = 1</code></pre>`, "python"},
		{`<div class="highlight-source-shell"><pre>ls -la</pre></div>`, "shell"},
		{`<div class="highlight-python notranslate"><div class="highlight"><pre>x = 1</pre></div></div>`, "python"},
		{`<div class="language-ruby highlighter-rouge"><div class="highlight"><pre class="highlight"><code>puts 1</code></pre></div></div>`, "ruby"},
		{`<pre data-lang="sql">SELECT 1</pre>`, "sql"},
		{`<div class="highlight hl-ipython3"><pre><span></span>import pandas as pd</pre></div>`, "python"},
		{`<div class="language-python highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1</pre></div></td><td class="code"><div><pre><code>def get(url):</code></pre></div></td></tr></table></div>`, "python"},
		{`<div class="hl-section"><pre>plain</pre></div>`, ""},
		{`<div class="highlight hl-ini"><pre>[core]</pre></div>`, "ini"},
		{`<pre class="shiki github-light" language="bash"><code language="bash" numberOfLines="1"><span class="line">ls</span></code></pre>`, "bash"},
		{`<pre class="brush: php">echo 1;</pre>`, "php"},
		{`<pre lang="en">not code language</pre>`, ""},
		{`<pre lang="python3"><span class="kn">import</span> <span class="nn">httpx</span></pre>`, "python"},
		{`<pre lang="es6">not a language we know</pre>`, ""},
		{`<pre class="rust rust-example-rendered"><code>let x = 1;</code></pre>`, "rust"},
		{`<div class="rust"><pre>fn main() {}</pre></div>`, ""},
		{`<pre>plain</pre>`, ""},
	}
	for _, tc := range tests {
		root := parseFragment(t, tc.html)
		normalizeCode(root, nil)
		code := findFirst(root, func(n *html.Node) bool { return isElem(n, atom.Code) })
		got := strings.TrimPrefix(attr(code, "class"), "language-")
		if got != tc.lang {
			t.Errorf("%s: lang %q, want %q", tc.html, got, tc.lang)
		}
	}
}

func TestCodeKeepsGutterFreeText(t *testing.T) {
	root := parseFragment(t, `<pre><code><span class="lineno">1</span>a := 1
<span class="lineno">2</span>	b := 2<br>c</code></pre>`)
	normalizeCode(root, nil)
	if got, want := textOf(root), "a := 1\n\tb := 2\nc"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCodeLanguageLabel checks that a label naming the block's language
// just before it goes, past an empty copy button, and that a label of
// another name, or a heading, stays.
func TestCodeLanguageLabel(t *testing.T) {
	tests := []struct {
		html string
		kept bool
	}{
		{`<div class="language-bash"><button class="copy"></button><span class="lang">bash</span><pre><code>ls</code></pre></div>`, false},
		{`<div class="language-go"><span class="lang">Go</span> <pre><code>x := 1</code></pre></div>`, false},
		{`<div class="language-yaml"><div class="title">config.yaml</div><pre><code>a: 1</code></pre></div>`, true},
		{`<h3>Bash</h3><pre><code class="language-bash">ls</code></pre>`, true},
		{`<span>bash</span><pre><code>ls</code></pre>`, true},
	}
	for _, tc := range tests {
		root := parseFragment(t, tc.html)
		normalizeCode(root, nil)
		code := findFirst(root, func(n *html.Node) bool { return isElem(n, atom.Code) })
		label := strings.TrimSpace(strings.TrimSuffix(textOf(root), textOf(code)))
		if kept := label != ""; kept != tc.kept {
			t.Errorf("%s: label %q kept = %v, want %v", tc.html, label, kept, tc.kept)
		}
	}
}

// TestNeverPanics feeds malformed markup and binary garbage.
func TestNeverPanics(t *testing.T) {
	inputs := []string{
		"", "\x00\x01\x02\xff\xfe", "<", "<html", "<<<>>>", "<table><tr><td><table><td>", "<pre><code class=language->",
		"<script type=application/ld+json>[[[[</script>", strings.Repeat("<div>", 5000) + "deep" + strings.Repeat("</div>", 10),
		"<svg><title>x</title></svg><p>hi</p>", "<html><body><pre data-lang></pre></body>", "\xef\xbb\xbf<p>bom</p>",
	}
	for _, in := range inputs {
		for _, f := range []Format{Markdown, Text, HTML, Raw} {
			_, _ = Extract(context.Background(), []byte(in), Options{URL: "::bad url", Format: f})
		}
	}
}

// FuzzExtract checks that no input makes Extract panic. Inputs are capped
// so the fuzzer explores structure rather than size. The seeds include the
// documentation templates, whose markup reaches the code-block, heading,
// callout and table-of-contents passes.
//
// Run it with a short minimisation budget:
//
//	go test ./internal/extract -run '^$' -fuzz '^FuzzExtract$' -fuzztime 5m -fuzzminimizetime 1s
//
// Each new input is minimised before fuzzing goes on, and the default
// budget (60 s) spent on pages this large reads as a stall: the progress
// line shows 0 execs/sec meanwhile (golang/go#48820, #51484).
func FuzzExtract(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/docs/*.html")
	for _, name := range append([]string{"testdata/docs.html", "testdata/forum.html"}, seeds...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b, "https://example.com/a/b")
		}
	}
	f.Add([]byte("<p>x</p>"), "")
	f.Add([]byte("\x00<pre class='language-go'>\t</pre>"), "http://[::1")
	f.Fuzz(func(t *testing.T, body []byte, url string) {
		if len(body) > 64<<10 {
			body = body[:64<<10]
		}
		for _, fm := range []Format{Markdown, Text} {
			doc, err := Extract(context.Background(), body, Options{URL: url, Format: fm})
			if err == nil && doc == nil {
				t.Fatal("nil document without error")
			}
		}
	})
}

func parseFragment(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader("<html><body>" + s + "</body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	return findBody(doc)
}

// TestDeepNesting checks that pages nested deeper than html.Parse accepts
// (512 open elements) are still extracted, from plain divs to nested
// tables, whose implied <tbody> and <tr> deepen the parser's stack.
func TestDeepNesting(t *testing.T) {
	prose := strings.Repeat("Deeply nested words still reach the reader. ", 20)
	tests := map[string]string{
		"divs":         strings.Repeat("<div>", 3000) + "<p>" + prose + "</p>" + strings.Repeat("</div>", 3000),
		"unclosed":     strings.Repeat("<div><span>", 1000) + "<p>" + prose,
		"tables":       strings.Repeat("<table><td>", 600) + prose + strings.Repeat("</td></table>", 600),
		"shallow tail": "<p>" + prose + "</p>" + strings.Repeat("<section>", 700) + "x",
	}
	for name, page := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := html.Parse(strings.NewReader(page)); err == nil {
				t.Fatal("html.Parse accepts this page: the test no longer covers the deep-nesting path")
			}
			doc, err := Extract(context.Background(), []byte("<html><body>"+page), Options{Format: Text})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if got := strings.Count(doc.Content, "reach the reader"); got != 20 {
				t.Errorf("%d of 20 sentences extracted:\n%.300s", got, doc.Content)
			}
		})
	}
}

// TestArticleComments checks that reader comments under a declared
// article are dropped, while a declared article that is mostly its
// comments (a link post) keeps them, as a forum thread does.
func TestArticleComments(t *testing.T) {
	// A short story: readability retries without its "unlikely" filters
	// (which would catch class="comment") when its first pass finds under
	// 500 characters, and then takes the comments too.
	story := strings.Repeat("The council approved the new budget after a long debate. ", 5)
	about := `<aside><p>` + strings.Repeat("The Daily Example covers the town council and its schools. ", 5) + `</p></aside>`
	comment := `<li class="comment"><p>` + strings.Repeat("I disagree with the reader who wrote first, strongly. ", 6) + `</p></li>`
	page := func(body string) []byte {
		return []byte(`<html><head><meta property="og:type" content="article"><title>T</title></head><body>` + about + `<article><h1>T</h1>` +
			body + `<div id="comments"><ol class="comment-list">` + strings.Repeat(comment, 8) + `</ol></div></article></body></html>`)
	}
	tests := []struct {
		name, body   string
		wantComments bool
	}{
		{"article", "<p>" + story + "</p>", false},
		// Older CMSs and news aggregators print the story as text and
		// <br> line breaks in a <div>: prose all the same.
		{"article written as text and line breaks", `<div class="body">` + strings.ReplaceAll(story, ". ", ".<br><br>\n") + `</div>`, false},
		{"link post", `<p><a href="https://example.org/x">A link worth reading</a></p>`, true},
		{"link post with a short note", `<div>Via <a href="https://example.org/x">A link worth reading</a>, worth a look.</div>`, true},
	}
	for _, tc := range tests {
		doc, err := Extract(context.Background(), page(tc.body), Options{URL: "https://news.example/2024/05/budget", Format: Text})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := strings.Contains(doc.Content, "I disagree"); got != tc.wantComments {
			t.Errorf("%s: comments kept = %v, want %v\n%.400s", tc.name, got, tc.wantComments, doc.Content)
		}
	}
}

// harbourPage is an undeclared news page: a story of the given number of
// paragraphs (at most seven) under a thread of reader comments (at most
// six).
func harbourPage(paragraphs, comments int) []byte {
	story := []string{
		"The council approved the new budget for the harbour after a long debate about the cost of dredging.",
		"Fishermen had asked for the channel to be deepened before the winter storms, when the sandbanks move.",
		"The harbour master said the work would start in October and take about six weeks to finish.",
		"Two councillors voted against the plan, saying the money should go to the lifeboat station instead.",
		"The dredged sand will be used to rebuild the dunes north of the harbour, which lost several metres last year.",
		"A public meeting about the timetable for the work will be held in the town hall on the first Monday of September.",
		"Residents of the harbour front have been promised that the dredger will not work at night or on Sundays.",
	}
	var b strings.Builder
	b.WriteString(`<html><head><title>Budget</title></head><body><div class="content"><h1>Budget</h1>`)
	for _, p := range story[:paragraphs] {
		b.WriteString("<p>" + p + "</p>\n")
	}
	b.WriteString(`</div><div id="comments" class="comments-area"><h2>Comments</h2><ol class="commentlist">`)
	for i, who := range []string{"Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"}[:comments] {
		fmt.Fprintf(&b, `<li class="comment"><div class="comment-content"><p>I disagree with %s, reader number %d, because the lifeboat station needs a new slipway, `+
			`the old one floods at every spring tide, and nobody on the council has been down there to look at it since %d.</p></div></li>`, who, i+1, 2010+i)
	}
	b.WriteString(`</ol></div></body></html>`)
	return []byte(b.String())
}

// TestStoryAndThread: on an undeclared page the story comes out without
// the reader comments under it.
//   - A story shorter than its thread: readability's densest block is the
//     thread, and the comment sections are removed before it runs again.
//   - A story that outweighs a few comments: they are not the content,
//     whichever candidate wins (dropMinorComments). A thread that
//     outweighs its story may be a discussion, and is left to the
//     selection, as in the first case.
//   - The same with every class name hashed (CSS modules): the heading
//     "Top Rated Comments" that opens its container names the thread.
func TestStoryAndThread(t *testing.T) {
	hashed := strings.NewReplacer(`id="comments" class="comments-area"`, `class="x886d2d7"`, `class="commentlist"`, `class="xf44d8d5"`,
		`class="comment"`, `class="x7a6c45e"`, `class="comment-content"`, `class="x0bec3c2"`, `class="content"`, `class="x0bec3c2"`,
		`<h2>Comments</h2>`, `<h2>Top Rated Comments</h2>`)
	for _, tc := range []struct {
		name                 string
		paragraphs, comments int
		hashed               bool
		want                 []string
	}{
		{"short story, long thread", 4, 6, false, []string{"cost of dredging", "lifeboat station instead"}},
		{"long story, short thread", 7, 2, false, []string{"cost of dredging", "not work at night"}},
		{"hashed names, short story, long thread", 4, 6, true, []string{"cost of dredging", "lifeboat station instead"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := harbourPage(tc.paragraphs, tc.comments)
			if tc.hashed {
				page = []byte(hashed.Replace(string(page)))
			}
			doc, err := Extract(context.Background(), page, Options{URL: "https://harbour.example/budget", Format: Text})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(doc.Content, w) {
					t.Errorf("lost the story (%q):\n%s", w, doc.Content)
				}
			}
			if strings.Contains(doc.Content, "I disagree") {
				t.Errorf("kept the comments:\n%s", doc.Content)
			}
		})
	}
}

// TestCommentSectionNames checks the names of comment sections, English
// and in the site's language, and that the singular German "Kommentar"
// (an opinion piece) is not one.
func TestCommentSectionNames(t *testing.T) {
	for _, tc := range []struct {
		attr string
		want bool
	}{
		{`id="comments"`, true},
		{`class="comments-area"`, true},
		{`id="disqus_thread"`, true},
		{`class="kommentare"`, true},
		{`id="leserKommentare"`, true},
		{`class="commentaires-list"`, true},
		{`class="box comentarios"`, true},
		{`class="commenti-area"`, true},
		{`id="reacties"`, true},
		{`class="kommentar"`, false},
		{`class="kommentar-box"`, false},
		{`class="comment-count"`, false},
		{`class="box-comment"`, true},
		{`class="section_comments"`, true},
		{`id="binh-luan"`, true},
		{`class="comment-box-title"`, false},
	} {
		n := parseFragment(t, `<div `+tc.attr+`>x</div>`).FirstChild
		if got := isCommentSection(n); got != tc.want {
			t.Errorf("%s: comment section = %v, want %v", tc.attr, got, tc.want)
		}
	}
}

// TestThreadOpeningHeading: a container that a thread's heading opens is
// a comment section whatever its name (opensThread); a paper's
// "Discussion", the reply form and a section that only holds such a
// heading further down are not.
func TestThreadOpeningHeading(t *testing.T) {
	for _, tc := range []struct {
		html string
		want bool
	}{
		{`<div class="x1"><h2>Top Rated Comments</h2><div>Nice.</div></div>`, true},
		{`<div class="x1"><a name="comments"></a><h4>10 comments:</h4><ol><li>Nice.</li></ol></div>`, true},
		{`<section><h3>Kommentare (4)</h3><p>Gut.</p></section>`, true},
		{`<section><h3>Recent Comments</h3><ul><li>Ann on Budget</li></ul></section>`, true},
		{`<section><h2>Discussion</h2><p>The results suggest a wider effect.</p></section>`, false},
		{`<div><h3>Leave a Reply</h3><form><textarea></textarea></form></div>`, false},
		{`<div><p>The story.</p><h2>Comments</h2><p>Nice.</p></div>`, false},
		{`<div>Intro <h2>Comments</h2></div>`, false},
		{`<div><h2>Comments are closed on this page for legal reasons</h2></div>`, false},
	} {
		n := parseFragment(t, tc.html).FirstChild
		if got := isCommentSection(n); got != tc.want {
			t.Errorf("%s: comment section = %v, want %v", tc.html, got, tc.want)
		}
	}
}

// TestTrafilaturaComments: trafilatura's candidate carries the comment
// thread it finds under a story only when asked to (on forum threads,
// where the replies are the content).
func TestTrafilaturaComments(t *testing.T) {
	page := harbourPage(7, 6)
	base, _ := nurl.Parse("https://harbour.example/budget")
	for _, comments := range []bool{false, true} {
		doc, err := parseHTML(page)
		if err != nil {
			t.Fatal(err)
		}
		prepareDoc(doc)
		text := renderText(candTrafilatura(doc, base, trafRun{focus: trafilatura.Balanced, fallback: true, comments: comments}))
		if !strings.Contains(text, "cost of dredging") {
			t.Errorf("comments=%v: lost the story:\n%s", comments, text)
		}
		if got := strings.Contains(text, "I disagree"); got != comments {
			t.Errorf("comments=%v: comment thread in the candidate = %v\n%s", comments, got, text)
		}
	}
}

// TestPruneByConsensus checks which leaf blocks of an article a reference
// extraction removes: blocks whose word pairs it lacks (a byline, a
// teaser) and one-word labels it lacks ("Advert"), never headings, code,
// quotes, a named lead or a second part of the body, and nothing when the
// reference disagrees with most of the text.
func TestPruneByConsensus(t *testing.T) {
	story := strings.Repeat("the committee met on tuesday to weigh the proposal for a new bridge ", 6)
	root := parseFragment(t, `<h2>Heading absent from reference</h2><p>`+story+`</p><p>Advert</p><p>Bridge</p>`+
		`<p>Read more stories from our award winning team</p><pre>code absent too</pre><p>`+story+`</p>`)
	pruneByConsensus(root, story+" bridge "+story)
	got := textOf(root)
	for _, want := range []string{"Heading absent", "code absent", "Bridge", "the committee met"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q was pruned", want)
		}
	}
	for _, gone := range []string{"Advert", "Read more stories"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q was kept", gone)
		}
	}

	// An FAQ's question, the <summary> over its answer: trafilatura
	// keeps the answer and drops the question.
	root = parseFragment(t, `<p>`+story+`</p><details><summary>Where did the bridge plan start?</summary><p>`+story+`</p></details>`)
	pruneByConsensus(root, story+" "+story)
	if !strings.Contains(textOf(root), "Where did the bridge plan start?") {
		t.Errorf("details: the question was pruned: %q", textOf(root))
	}

	// List items without links are steps, notes and facts of the story
	// (the reference extractor often drops lists); linked ones are
	// teasers.
	root = parseFragment(t, `<p>`+story+`</p><ul><li>Notice the cover attribute on the script tag</li>`+
		`<li><a href="/x">Another story from our award winning team</a></li></ul><p>`+story+`</p>`)
	pruneByConsensus(root, story+" "+story)
	if got := textOf(root); !strings.Contains(got, "Notice the cover") || strings.Contains(got, "Another story") {
		t.Errorf("list items: got %q, want the plain item kept and the linked one pruned", got)
	}

	// So are a reference list's terms and descriptions (a documentation
	// page's functions and options, each term an anchor or in code),
	// which trafilatura drops too; a box of facts is judged as before.
	root = parseFragment(t, `<p>`+story+`</p><dl class="py function"><dt id="tern.expire"><span class="sig-name">expire</span>(<em>key</em>)</dt>`+
		`<dd><p>Remove one entry now, whatever its age.</p></dd></dl><dl><dt><code>--verbose</code></dt><dd>Print every request as it is sent.</dd></dl>`+
		`<dl class="facts"><dt>Acceptance rate</dt><dd>Ninety six percent of those who apply</dd></dl><p>`+story+`</p>`)
	pruneByConsensus(root, story+" "+story)
	got = textOf(root)
	for _, want := range []string{"expire(key)", "Remove one entry", "--verbose", "Print every request"} {
		if !strings.Contains(got, want) {
			t.Errorf("reference lists: %q was pruned", want)
		}
	}
	if strings.Contains(got, "Ninety six") {
		t.Errorf("reference lists: the box of facts was kept: %q", got)
	}

	// Quotes are the words of the story's people: trafilatura drops a
	// <figure> whole, pull quotes in one included, and some embeds.
	root = parseFragment(t, `<p>`+story+`</p><figure class="wp-block-pullquote"><blockquote><p>Low cost per month is how you get your name out</p></blockquote><p>Christine, a cleaning business owner</p></figure>`+
		`<blockquote class="twitter-tweet"><p>Grateful for everything he has done for the club</p></blockquote><p>`+story+`</p>`)
	pruneByConsensus(root, story+" "+story)
	for _, want := range []string{"Low cost per month", "Christine, a cleaning", "Grateful for everything"} {
		if !strings.Contains(textOf(root), want) {
			t.Errorf("quotes: %q was pruned", want)
		}
	}

	// A lead named as one: trafilatura reads only the body's container
	// when it finds one by name, and leaves the standfirst above it out.
	root = parseFragment(t, `<div class="article__lead"><p>Five hours of debate ended without a vote on the wind farm</p></div>`+
		`<p class="article-teaser">Nach fünf Stunden Debatte vertagte der Rat die Entscheidung über den Windpark</p>`+
		`<p class="intro">Short intro line</p><p>`+story+`</p><p>`+story+`</p>`+
		`<div class="summary"><a href="/a">Council approves harbour budget after long debate</a> <a href="/b">Ferry timetable changes again</a></div>`+
		`<div class="teaser"><p>Another story from the harbour about the new ferry timetable and its critics</p></div>`)
	pruneByConsensus(root, story+" "+story)
	got = textOf(root)
	for _, want := range []string{"Five hours of debate", "Nach fünf Stunden"} {
		if !strings.Contains(got, want) {
			t.Errorf("leads: %q was pruned: %q", want, got)
		}
	}
	for _, gone := range []string{"Short intro", "Ferry timetable", "Another story from the harbour"} {
		if strings.Contains(got, gone) {
			t.Errorf("leads: %q was kept: %q", gone, got)
		}
	}

	// A body split around ads into containers of one class: trafilatura
	// reads the first. Readability turns a container holding one
	// paragraph into that paragraph, class and all. A container of
	// another class is judged as before.
	tail := "the council will vote on the final design of the bridge in june after a public meeting"
	last := "work on the bridge could then start in the spring of next year if the budget allows it"
	root = parseFragment(t, `<div class="body"><p>`+story+`</p><p>`+story+`</p></div><div class="ad"><p>Advert</p></div>`+
		`<div class="body"><p>`+tail+`</p><p>`+tail+`</p></div><div class="ad"><p>Advert</p></div><p class="body">`+last+`</p>`+
		`<div class="promo"><p>Subscribe today and read every story from our award winning newsroom</p></div>`)
	pruneByConsensus(root, story+" "+story)
	got = textOf(root)
	if !strings.Contains(got, "the council will vote") || !strings.Contains(got, "work on the bridge") || strings.Contains(got, "Subscribe") || strings.Contains(got, "Advert") {
		t.Errorf("split body: got %q, want the later bodies kept and the ads and promo pruned", got)
	}

	// A template's components share a class that names the story
	// ("crux-article") beside names of their own: the tail's container
	// is another component of the body. A shared layout class
	// ("clearfix") says nothing.
	root = parseFragment(t, `<div class="article-text crux-article"><p>`+story+`</p><p>`+story+`</p></div>`+
		`<div class="text-container crux-article"><p>`+tail+`</p></div>`+
		`<div class="author clearfix"><p>Jane Doe writes about bridges and roads for our award winning newsroom</p></div>`)
	pruneByConsensus(root, story+" "+story)
	got = textOf(root)
	if !strings.Contains(got, "the council will vote") || strings.Contains(got, "Jane Doe") {
		t.Errorf("story classes: got %q, want the tail kept and the author box pruned", got)
	}

	// A page builder's sections: each has a numbered name of its own
	// ("elementor-element-a1f3c07"), and the tail's paragraphs stand in a
	// text widget inside a section of the same kind as the kept ones.
	// A promo inside a kept section is still judged as it is, and so is
	// an author box in such a section: it holds more than prose.
	root = parseFragment(t, `<div class="elementor-section elementor-element-a1f3c07"><p>`+story+`</p><p>`+story+`</p>`+
		`<p>Shop the whole range today with free shipping on every order over fifty dollars</p></div>`+
		`<div class="elementor-section elementor-element-b2e8d41"><div class="elementor-widget elementor-element-c3d9e52"><p>`+tail+`</p><p>`+last+`</p></div></div>`+
		`<div class="elementor-section elementor-element-d4a7b63"><div class="author-box"><p>About the author</p><p>Jane Doe writes about bridges and roads for our award winning newsroom</p></div></div>`)
	pruneByConsensus(root, story+" "+story)
	got = textOf(root)
	if !strings.Contains(got, "the council will vote") || !strings.Contains(got, "work on the bridge") || strings.Contains(got, "Shop the whole range") || strings.Contains(got, "Jane Doe") {
		t.Errorf("builder sections: got %q, want the tail kept and the promo and author box pruned", got)
	}

	root = parseFragment(t, `<p>`+story+`</p><p>`+story+`</p>`)
	pruneByConsensus(root, strings.Repeat("an unrelated reference about something else entirely ", 10))
	if strings.Count(textOf(root), "the committee met") != 12 {
		t.Error("a reference that disagrees with most of the article pruned it")
	}
}

// TestShortPageOnce checks that a short page comes out once, paragraph by
// paragraph, and without its <title> as its first words: go-trafilatura's
// fallback for short pages appends the whole document's text, the title
// included, as one run-together paragraph.
func TestShortPageOnce(t *testing.T) {
	tests := []struct{ name, page, want string }{
		{
			name: "untitled",
			page: `<html><body><p>hello world, this is a short sentence about nothing.</p><p>second para here.</p></body></html>`,
			want: "hello world, this is a short sentence about nothing.\n\nsecond para here.",
		},
		{
			name: "titled",
			page: `<html><head><title>A short page</title></head><body><p>hello world, this is a short sentence.</p><p>second para.</p></body></html>`,
			want: "hello world, this is a short sentence.\n\nsecond para.",
		},
		{
			name: "titled, text outside paragraphs",
			page: `<html><head><title>Link test</title></head><body><a href="#"><p>abc</p><p>def</p>ghi</a></body></html>`,
			want: "abc\n\ndef\n\nghi",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract(context.Background(), []byte(tt.page), Options{Format: Text})
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(doc.Content) != tt.want {
				t.Errorf("got %q, want %q", doc.Content, tt.want)
			}
		})
	}
}

func TestCollectElements(t *testing.T) {
	doc, err := parseHTML([]byte(`<html><body><div id="a"><p id="b">x</p><section id="c"><p id="d">y</p></section></div><aside id="e"><p id="f">z</p></aside></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	body := findBody(doc)
	tests := []struct {
		name  string
		judge map[string]visit // by id; elements not listed are descended into
		want  string
	}{
		{"every paragraph", map[string]visit{"b": take, "d": take, "f": take}, "b d f"},
		{"take stops the descent", map[string]visit{"a": take, "b": take, "d": take}, "a"},
		{"skip stops the descent", map[string]visit{"c": skip, "d": take, "f": take}, "f"},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ids []string
			for _, n := range collectElements(body, func(n *html.Node) visit { return tt.judge[attr(n, "id")] }) {
				ids = append(ids, attr(n, "id"))
			}
			if got := strings.Join(ids, " "); got != tt.want {
				t.Errorf("collected %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRemoveUnlessThird(t *testing.T) {
	page := `<div><p>one two three four five six seven eight nine</p><p id="x">ten eleven</p><p id="y">twelve thirteen fourteen fifteen</p></div>`
	tests := []struct {
		ids     []string
		removed bool
	}{
		{[]string{"x"}, true},       // 2 of 15 words
		{[]string{"x", "y"}, false}, // 6 of 15: over a third
	}
	for _, tt := range tests {
		doc, err := parseHTML([]byte(page))
		if err != nil {
			t.Fatal(err)
		}
		var nodes []*html.Node
		for _, id := range tt.ids {
			nodes = append(nodes, findFirst(doc, func(n *html.Node) bool { return attr(n, "id") == id }))
		}
		before := wordCount(doc)
		got := removeUnlessThird(findBody(doc), nodes)
		if got != tt.removed {
			t.Errorf("%v: removed = %v, want %v", tt.ids, got, tt.removed)
		}
		if removed := wordCount(doc) < before; removed != tt.removed {
			t.Errorf("%v: the page lost words = %v, want %v", tt.ids, removed, tt.removed)
		}
	}
}

// TestParagraphsInsideParagraph: a story written as text and <br> lines
// in a <span> that also holds its figures (<div><span>text<br><br><div>
// <img>...) comes out whole. Readability wraps the span in a paragraph and
// turns the runs into paragraphs inside it; read as one paragraph,
// trafilatura's reference kept the text before the first figure and
// consensus pruning removed the rest.
func TestParagraphsInsideParagraph(t *testing.T) {
	paragraphs := []string{
		"Apple has moved the escape key back to the keyboard, and coders will notice it first.",
		"The display is brighter than last year's panel and reaches five hundred nits in our tests.",
		"Six speakers fill a small room without distortion, even at the highest volume setting.",
		"Battery life ran to eleven hours of web browsing over our office network on a single charge.",
		"Four ports remain, all of them USB-C, so an adapter is needed for older monitors and drives.",
		"Under sustained load the fans stay quiet until the processor passes eighty degrees Celsius.",
		"The camera is still limited to 720p, which looks dated on video calls beside rival machines.",
		"Its trackpad is enormous, and palm rejection worked well throughout a week of writing.",
	}
	var b strings.Builder
	b.WriteString(`<html><head><meta property="og:type" content="article"><title>Laptop review</title></head><body>` +
		`<nav><a href="/">Home</a> <a href="/reviews">Reviews</a></nav><div class="article"><h1>Laptop review</h1><span>`)
	for i, p := range paragraphs {
		b.WriteString(p + " " + p + "<br><br>\n")
		if i == 5 { // the story's last quarter follows its figure
			b.WriteString(`<div align="center"><div class="article-img"><img src="https://review.example/1.jpg" alt="The laptop"></div><br><span class="caption">The laptop on a desk</span></div><br><br>` + "\n")
		}
	}
	b.WriteString(`</span></div><footer>Copyright Review Example</footer></body></html>`)
	doc, err := Extract(context.Background(), []byte(b.String()), Options{URL: "https://review.example/2019/11/laptop-review", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paragraphs {
		if !strings.Contains(doc.Content, p) {
			t.Errorf("lost %q:\n%s", p, doc.Content)
		}
	}
}

// TestInvisibleCharacters: zero-width spaces, word joiners, stray
// byte-order marks and soft hyphens render as nothing and come out as
// nothing, in the text and in the title; zero-width joiners (emoji, Indic
// and Persian scripts) stay, but for a text of joiners alone.
func TestInvisibleCharacters(t *testing.T) {
	page := `<html><head><title>Bundes&#8203;regie&shy;rung beschließt</title></head><body><article><h1>Bundesregierung beschließt</h1>` +
		`<p>Die Bundes&shy;regierung hat am Montag beschlossen, dass die Steuer&#8203;erhöhung kommt. Das Wort&#8288;ende und der&#65279;Rest.</p>` +
		`<p>Family: 👩&#8205;👩&#8205;👧. ` + strings.Repeat("Mehr Text hier im Artikel über die Pläne. ", 12) + `</p></article></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://news.example/politik/steuer.html", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Die Bundesregierung hat", "Steuererhöhung kommt", "Wortende und derRest", "👩\u200d👩\u200d👧"} {
		if !strings.Contains(doc.Content, want) {
			t.Errorf("text lacks %q:\n%q", want, doc.Content)
		}
	}
	if doc.Metadata.Title != "Bundesregierung beschließt" {
		t.Errorf("title = %q", doc.Metadata.Title)
	}
	// A page builder's spacer paragraph of one joiner joins nothing.
	spaced := strings.Replace(page, `</p><p>Family`, `</p><p>&zwj;</p><p> &zwnj; </p><p>Family`, 1)
	md, err := Extract(context.Background(), []byte(spaced), Options{URL: "https://news.example/politik/steuer.html"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(md.Content, "\n") {
		if l != "" && strings.Trim(l, "\u200c\u200d ") == "" {
			t.Errorf("a line of joiners only: %q in\n%s", l, md.Content)
		}
	}
	if !strings.Contains(md.Content, "👩\u200d👩\u200d👧") {
		t.Errorf("the emoji lost its joiners:\n%s", md.Content)
	}
}

// TestTidyStoryBareTerms: when the label rules take every description
// of an info box, its term ("Details") goes too; a glossary stays whole.
func TestTidyStoryBareTerms(t *testing.T) {
	story := strings.Repeat("the committee met on tuesday to weigh the proposal for a new bridge ", 6)
	root := parseFragment(t, `<dl class="article-info"><dt>Details</dt><dd>Category: <a href="/news">News</a></dd><dd>Views: 1873</dd></dl>`+
		`<p>`+story+`</p><dl><dt>Bridge</dt><dd>the proposal for a new bridge</dd></dl><p>`+story+`</p>`)
	// Trafilatura kept the box: the label rules take its descriptions.
	tidyStory(root, "", "Details Category: News Views: 1873 "+story+" bridge the proposal for a new bridge "+story, "")
	got := textOf(root)
	for _, gone := range []string{"Details", "Category", "Views"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q was kept", gone)
		}
	}
	for _, want := range []string{"Bridge", "the proposal for a new bridge", "the committee met"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q was removed", want)
		}
	}
}

// TestUndeclaredStoryTidied: a page that declares nothing but stands at a
// headline's address (storySlug) and whose story both extractors read is
// cleaned as an article: its "Read more" link line goes. At an address
// that names nothing, only the label rules of every page run, and the
// line stays.
func TestUndeclaredStoryTidied(t *testing.T) {
	para := func(s string) string {
		return "<p>The " + s + " committee met on Monday evening and agreed after a long debate that the new plan should go ahead before the summer holidays, " +
			"although several members asked for a second reading in the autumn.</p>"
	}
	page := `<html><head><title>Council agrees new transport plan</title></head><body>` +
		`<div id="kopf"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>` +
		`<div id="haupt"><h1>Council agrees new transport plan</h1>` + para("transport") +
		`<p>Read more: <a href="/news/bus-fares-rise-again-next-year">Bus fares rise again next year</a></p>` +
		para("finance") + `<p>Photo: Jane Smith</p>` + para("planning") + `</div>` +
		`<div id="fuss"><a href="/imprint">Imprint</a></div></body></html>`
	for _, tc := range []struct {
		url  string
		gone bool
	}{
		{"https://news.example/region/council-agrees-new-transport-plan-before-summer", true},
		{"https://news.example/artikel.php?id=123", false},
	} {
		doc, err := Extract(context.Background(), []byte(page), Options{URL: tc.url, Format: Text})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Content, "planning committee met") {
			t.Errorf("%s: the story is missing:\n%s", tc.url, doc.Content)
		}
		if got := strings.Contains(doc.Content, "Read more"); got == tc.gone {
			t.Errorf("%s: \"Read more\" line kept = %v, want %v:\n%s", tc.url, got, !tc.gone, doc.Content)
		}
	}
}

// TestStoryHeadline: the story's rules take the headline from the
// reading when the page's title sets a section's or a site's name before
// or after it ("Opinion | ..."): the title's words are then not the
// heading's, but the <h1> the title repeats is (pageMeta.headline). On
// an undeclared page trafilatura's reading, which wins when it holds
// more, keeps the headline; readability's drops it itself.
func TestStoryHeadline(t *testing.T) {
	const headline = "Why the council should rethink its transport plan"
	for _, title := range []string{"Opinion | " + headline, headline + " | The Gazette", "The Gazette: " + headline} {
		page := `<html><head><title>` + title + `</title><meta property="og:title" content="` + title + `"></head><body>` +
			`<div class="masthead"><a href="/">The Gazette</a></div><h1>` + headline + `</h1>` +
			`<p>The transport committee met on Monday evening and agreed after a long debate that the new plan should go ahead.</p></body></html>`
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		base, _ := nurl.Parse("https://gazette.example/opinion/why-the-council-should-rethink-its-transport-plan")
		pm := extractMetadata(doc, base)
		story := findBody(doc)
		tidyStory(story, pm.headline(), "", "")
		if got := textOf(story); strings.Contains(got, headline) || !strings.Contains(got, "committee met") {
			t.Errorf("%q: the story reads %q, want it without its headline", title, collapseSpace(got))
		}
	}
}

// TestHeadingOfTitle checks that the page's <h1> stands for a title that
// only adds the site's name to it, and not when the <h1> is the site's
// name or the title says more than a name.
func TestHeadingOfTitle(t *testing.T) {
	tests := []struct{ title, h1, want string }{
		{"Deploying with Docker | Harbor Docs", "Deploying with Docker", "Deploying with Docker"},
		{"Harbor Docs: Deploying with Docker", "Deploying with Docker", "Deploying with Docker"},
		{"Deploying with Docker – Harbor", "Deploying with Docker", "Deploying with Docker"},
		{"How to deploy Harbor with Docker | Blog", "Blog", ""},
		{"Deploying with Docker", "Deploying with Docker", ""},
		{"Deploying with Docker Compose", "Deploying with Docker", ""},
		{"Go | The Go Programming Language", "Go", ""},
		{"Deploying with Docker | Harbor Docs", "", ""},
	}
	for _, tt := range tests {
		if got := headingOfTitle(tt.title, tt.h1); got != tt.want {
			t.Errorf("headingOfTitle(%q, %q) = %q, want %q", tt.title, tt.h1, got, tt.want)
		}
	}
}

// TestCarriageReturnEntities: a page whose CRLF line breaks were written
// as "&#13;" and a line feed (lxml's serializer, some CMSs) reads as the
// same page with its CRLFs in the markup, which the parser turns into
// line feeds, and no carriage return reaches the text.
func TestCarriageReturnEntities(t *testing.T) {
	lines := []string{`<html><head><title>Build notes</title></head><body>`,
		`<nav><ul><li><a href="/">Home</a></li>`, `<li><a href="/docs">Docs</a></li></ul></nav>`,
		`<article><h1>Build notes</h1>`,
		`<p>` + strings.Repeat("The build now caches modules between runs, so a second build takes seconds. ", 6) + `</p>`,
		`<pre><code>go build ./...`, `go test ./...</code></pre>`,
		`<p>` + strings.Repeat("Each cache entry is keyed by the module's checksum and the toolchain version. ", 6) + `</p>`,
		`</article></body></html>`}
	read := func(sep string) string {
		doc, err := Extract(context.Background(), []byte(strings.Join(lines, sep)), Options{URL: "https://dev.example/notes/build"})
		if err != nil {
			t.Fatal(err)
		}
		return doc.Content
	}
	raw, entities := read("\r\n"), read("&#13;\n")
	if strings.Contains(entities, "\r") {
		t.Errorf("a carriage return reached the text:\n%q", entities)
	}
	if raw != entities {
		t.Errorf("with &#13;:\n%q\nwith CRLF:\n%q", entities, raw)
	}
	if !strings.Contains(raw, "go build ./...\ngo test ./...") {
		t.Errorf("the code block's lines were lost:\n%s", raw)
	}
}
