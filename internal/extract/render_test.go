package extract

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestPlainHeadings checks that bold or italic markup spanning a whole
// heading is dropped from the Markdown, through styling spans, line
// breaks and empty anchors, and that emphasis on a part of a heading,
// or outside headings, stays; and that a decorative image (alt="") goes
// from a heading, and only from a heading.
func TestPlainHeadings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<h2><strong>What is social shopping?</strong></h2>`, "## What is social shopping?"},
		{`<h4><br><strong>What does it offer?</strong></h4>`, "#### What does it offer?"},
		{`<h2><span class="ez-toc-section" id="a"></span><b>1. Search intent</b><span class="ez-toc-section-end"> </span></h2>`, "## 1. Search intent"},
		{`<h2><span style="font-weight:400"><b><em>Both marks</em></b></span></h2>`, "## Both marks"},
		{`<h3><strong>Step 1:</strong> Mix the flour</h3>`, "### **Step 1:** Mix the flour"},
		{`<h3><a href="/x"><strong>A linked title</strong></a></h3>`, "### [**A linked title**](/x)"},
		{`<p><strong>A bold paragraph</strong></p>`, "**A bold paragraph**"},
		{`<h2><img src="/icon/code.svg" alt="">README <img src="/badge.svg" alt="stable"></h2>`, "## README ![stable](/badge.svg)"},
		{`<p><img src="/chart.png" alt=""></p>`, "![](/chart.png)"},
	}
	for _, tt := range tests {
		got := strings.TrimSpace(renderMarkdown(parseFragment(t, tt.in), nil))
		if got != tt.want {
			t.Errorf("renderMarkdown(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestUnwrapOneCellTables checks that a table of one cell becomes what
// the cell holds, nested ones too, and that tables of more cells, or with
// a caption, stay tables.
func TestUnwrapOneCellTables(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<table class="d-block"><tbody><tr><td class="comment-body"><p>Tested the fix.</p></td></tr></tbody></table>`, "Tested the fix."},
		{`<table><tr><td><table><tr><td><p>Inner box.</p></td></tr></table></td><td>Next cell</td></tr></table>`, "| Inner box. | Next cell |"},
		{`<table><tr><th>Key</th></tr><tr><td>a</td></tr></table>`, "| Key |\n|-----|\n| a   |"},
		{`<table><caption>Totals</caption><tr><td>42</td></tr></table>`, "| 42 |"},
		// A callout of one row: an icon or a label beside the text.
		{`<div class="admonitionblock note"><table><tr><td class="icon"><i class="fa icon-note" title="Note"></i></td><td class="content">Logback has no <code>FATAL</code> level.</td></tr></table></div>`,
			"**Note:** Logback has no `FATAL` level."},
		{`<table><tr><td class="icon"><div class="title">Tip</div></td><td class="content"><div class="paragraph"><p>Set it on the command line.</p></div></td></tr></table>`,
			"**Tip:** Set it on the command line."},
		{`<table><tr><td><img src="/w.png" alt="[icon]"></td><td>This section needs expansion.</td></tr></table>`, "This section needs expansion."},
		// A highlighter's gutter of line numbers beside the code.
		{`<table class="highlight"><tr><td class="gutter"><pre>1
2
3</pre></td><td class="code"><pre>import a
import b
a.run()</pre></td></tr></table>`, "```\nimport a\nimport b\na.run()\n```"},
		{`<table><tr><td>Total</td><td>Tax</td><td>42</td></tr></table>`, "| Total | Tax | 42 |"},
		{`<table><tr><td>Total</td></tr><tr><td>42</td></tr></table>`, "| Total |"},
	}
	for _, tt := range tests {
		got := strings.TrimSpace(renderMarkdown(parseFragment(t, tt.in), nil))
		if !strings.Contains(got, tt.want) || strings.Contains(tt.want, "|") != strings.Contains(got, "|") {
			t.Errorf("renderMarkdown(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTidyLinks checks that links with nothing to show go from the
// Markdown, that links to a place on the same page keep their text
// without the address, or go whole when that text is only a sign (a
// permalink's "¶", a footnote's "↩"), or when they are a footnote's mark
// whose note the content lacks, and that other links stay.
func TestTidyLinks(t *testing.T) {
	base, _ := url.Parse("https://blog.example.com/guides/n8n/?ref=1")
	tests := []struct{ in, want string }{
		{`<p>Share <a href="https://x.example/intent?u=1"><svg></svg></a><a href="/feed"> </a>this.</p>`, "Share this."},
		{`<h2><a href="https://blog.example.com/guides/n8n/?ref=1#intro">Introduction</a></h2>`, "## Introduction"},
		{`<h2><a href="#key-takeaways"><strong>Key Takeaways</strong></a></h2>`, "## Key Takeaways"},
		{`<h3><a href="http://www.blog.example.com/guides/n8n?ref=1&utm_source=feed#faq">FAQ</a></h3>`, "### FAQ"},
		{`<p>See <a href="#table-2">the table below</a> and <a href="https://blog.example.com/guides/other/#x">another guide</a>.</p>`,
			"See the table below and [another guide](https://blog.example.com/guides/other/#x)."},
		{`<p><a href="javascript:void(0)">Privacy settings</a> <a href=" JavaScript:openChat()">Chat</a></p>`, "Privacy settings Chat"},
		{`<p><a href="https://blog.example.com/img/full.jpg"><img src="https://blog.example.com/img/t.jpg" alt="Chart"></a></p>`,
			"[![Chart](https://blog.example.com/img/t.jpg)](https://blog.example.com/img/full.jpg)"},
		{`<h2 id="usage">Basic usage<a class="headerlink" href="#usage" title="Link to this heading">¶</a></h2>`, "## Basic usage"},
		{`<h2 id="tour"><a class="doc-anchor" href="#tour">§</a>A Tour of Tokio</h2>`, "## A Tour of Tokio"},
		{`<h2 class="memtitle"><span class="permalink"><a href="#a1f2">&#9670;&#160;</a></span>ringbuf_init()</h2>`, "## ringbuf_init()"},
		{`<p>A claim.<sup><a href="#fn1">1</a></sup></p><ol><li id="fn1">The source. <a href="#fnref1">↩︎</a></li></ol>`, "A claim.1\n\n1. The source."},
		{`<p>It sits<a href="#m1"> </a>near the <a href="#m2"> (</a>border) <a href="#n">*</a></p>`, "It sits near the (border) *"},
		{`<p><a href="#gallery"><img src="https://blog.example.com/img/t.jpg" alt="Photo"></a> <a href="#top">↑ Back to top</a></p>`,
			"![Photo](https://blog.example.com/img/t.jpg) ↑ Back to top"},
		// A footnote's mark whose note the content lacks goes; one whose
		// note is there stays, as does a longer link in a <sup>.
		{`<p>Bills fell by a third on average<sup data-fn="f1" class="fn"><a href="#f1" id="f1-link">1</a></sup>, and more<sup><a href="#fn%3A2">[2]</a></sup>.</p>`,
			"Bills fell by a third on average, and more."},
		{`<p>Bills fell<sup><a href="#n1">1</a></sup>.</p><ol><li id="n1">Weather-corrected.</li></ol>`, "Bills fell1.\n\n1. Weather-corrected."},
		{`<p>Bills fell<sup><a href="#method">see the method</a></sup>.</p>`, "Bills fellsee the method."},
		// No address: the converter wrote these as links to the page.
		{`<p>Tap <a class="more-caption">less</a>, <a name="x">an anchor</a> and <a href=" ">nothing</a>.</p>`, "Tap less, an anchor and nothing."},
	}
	for _, tt := range tests {
		c := parseFragment(t, tt.in)
		absolutize(c, base) // as Extract runs it, first
		tidyLinks(c, base)
		got := strings.TrimSpace(renderMarkdown(c, base))
		if got != tt.want {
			t.Errorf("renderMarkdown(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestUnescapeIntraword checks that an underscore between two letters or
// digits loses its backslash, and that one at a word's edge, in a run of
// underscores or in a code span keeps it.
func TestUnescapeIntraword(t *testing.T) {
	tests := []struct{ in, want string }{
		{`Email louise\_matsakis@wired.com or @PFF\_Browns.`, `Email louise_matsakis@wired.com or @PFF_Browns.`},
		{`DOI: 10.1007/978-3-319-09575-2\_199-1, Jeong\_희진`, `DOI: 10.1007/978-3-319-09575-2_199-1, Jeong_희진`},
		{`\_start and end\_ and \_\_\_ and a \_ b`, `\_start and end\_ and \_\_\_ and a \_ b`},
		{"in `a\\_b` code, out a\\_b, ``x\\_y ` z\\_w``", "in `a\\_b` code, out a_b, ``x\\_y ` z\\_w``"},
		{`no escapes here`, `no escapes here`},
	}
	for _, tt := range tests {
		if got := unescapeIntraword(tt.in); got != tt.want {
			t.Errorf("unescapeIntraword(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	got := renderMarkdown(parseFragment(t, `<p>Write to louise_matsakis@wired.com about <code>snake\_case</code>.</p>`), nil)
	if !strings.Contains(got, "louise_matsakis@wired.com") || !strings.Contains(got, "`snake\\_case`") {
		t.Errorf("renderMarkdown = %q", got)
	}
}

// FuzzUnescapeIntraword checks that unescaping only ever removes
// backslashes, and leaves a line without "\_" as it is.
func FuzzUnescapeIntraword(f *testing.F) {
	f.Add(`louise\_matsakis and ` + "`a\\_b`")
	f.Add(`\_\_x\_`)
	f.Fuzz(func(t *testing.T, s string) {
		got := unescapeIntraword(s)
		if strings.ReplaceAll(got, `\`, "") != strings.ReplaceAll(s, `\`, "") {
			t.Fatalf("unescapeIntraword(%q) = %q changed more than backslashes", s, got)
		}
		if !strings.Contains(s, `\_`) && got != s {
			t.Fatalf("unescapeIntraword(%q) = %q", s, got)
		}
	})
}

// TestTidyMarkdownBlockLinks checks that a link around blocks (a card)
// loses the backslash lines the converter writes for its blank lines,
// keeping one hard break between its parts, and that a backslash line
// elsewhere, or inside fenced code, stays.
func TestTidyMarkdownBlockLinks(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<a href="https://docs.example.com/webhooks"><div><h2>Webhooks</h2><div><p>Verify every event.</p></div></div></a>`,
			"[**Webhooks**  \nVerify every event.](https://docs.example.com/webhooks)"},
		{`<a href="https://example.com/v"><img src="https://example.com/t.jpg" alt="Ann"><p>Ann Lee</p><p>Nurse</p></a>`,
			"[![Ann](https://example.com/t.jpg)  \nAnn Lee  \nNurse](https://example.com/v)"},
		{`<pre><code>a  
\
b</code></pre>`, "```\na  \n\\\nb\n```"},
		{`<p>C:\</p>`, `C:\\`},
	}
	for _, tt := range tests {
		got := strings.TrimSpace(renderMarkdown(parseFragment(t, tt.in), nil))
		if got != tt.want {
			t.Errorf("renderMarkdown(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTitleHeading checks which heading opens a page's Markdown as its
// <h1>: the first heading, when the title holds its text and at most a
// line of words comes before it; otherwise none, and Extract heads the
// Markdown with the title.
func TestTitleHeading(t *testing.T) {
	tests := []struct {
		in, title, want string
	}{
		{`<h2>Deploying with Docker</h2><p>Run Harbor in a container.</p>`, "Deploying with Docker | Harbor Docs", "Deploying with Docker"},
		{`<p><a href="/deploy">Deploy</a></p><h2>Deploying  with docker</h2><p>Run it.</p>`, "Deploying with Docker | Harbor Docs", "Deploying  with docker"},
		{`<h2>Requirements</h2><p>Docker 24.</p>`, "Deploying with Docker | Harbor Docs", ""},
		{`<p>Harbor ships as one image that holds the server and its command-line tool, and keeps its data on a volume.</p><h2>Deploying with Docker</h2>`, "Deploying with Docker", ""},
		{`<h1>Deploying</h1><h2>Deploying</h2>`, "Deploying", ""},
		{`<h2>Deploying</h2>`, "", ""},
		{`<h2>Go</h2><p>Run it.</p>`, "Go | The Go Programming Language", ""},
		{`<h2>Docs</h2><p>Run it.</p>`, "Documentation | Harbor", ""},
		{`<h2>README</h2><p>Run it.</p>`, "README | mostly-adequate-guide", "README"},
	}
	for _, tt := range tests {
		got := ""
		if h := titleHeading(parseFragment(t, tt.in), tt.title); h != nil {
			got = textOf(h)
		}
		if got != tt.want {
			t.Errorf("titleHeading(%s, %q) = %q, want %q", tt.in, tt.title, got, tt.want)
		}
	}
}

// TestNoListEndComment checks that two lists in a row render as two
// runs of items, with no "<!--THE END-->" comment between them.
func TestNoListEndComment(t *testing.T) {
	got := strings.TrimSpace(renderMarkdown(parseFragment(t, `<ul><li>Read more: first</li></ul><ul><li>second</li></ul><h2>Next</h2><ul></ul><h2>Last</h2>`), nil))
	if strings.Contains(got, "<!--") {
		t.Errorf("renderMarkdown = %q, has a comment", got)
	}
	if !strings.Contains(got, "- Read more: first") || !strings.Contains(got, "- second") || !strings.Contains(got, "## Next\n\n## Last") {
		t.Errorf("renderMarkdown = %q", got)
	}
}

// TestTidyMarkdownQuotedCode checks that every line of a code block in a
// blockquote keeps the quote's marks: the converter writes them on the
// first line only.
func TestTidyMarkdownQuotedCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<blockquote><pre><code class="language-bash">pip install a
pip install b</code></pre></blockquote><p>After.</p>`, "> ```bash\n> pip install a\n> pip install b\n> ```\n\nAfter."},
		{`<blockquote><blockquote><pre>a

b</pre></blockquote></blockquote>`, "> > ```\n> > a\n> > \n> > b\n> > ```"},
		{`<pre>> not a quote
b</pre>`, "```\n> not a quote\nb\n```"},
	}
	for _, tt := range tests {
		if got := strings.TrimSpace(renderMarkdown(parseFragment(t, tt.in), nil)); got != tt.want {
			t.Errorf("renderMarkdown(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTidyMarkdownListFence checks that a code block opening a list item
// ("- ```") is read as a fence: the lines after it are tidied again, so
// an address after the list loses the converter's backslash.
func TestTidyMarkdownListFence(t *testing.T) {
	got := renderMarkdown(parseFragment(t, `<ul><li><pre><code>run()</code></pre><p>Then call it.</p></li></ul><p>Mail louise_matsakis@example.com.</p>`), nil)
	if want := "- ```\n  run()\n  ```\n\n  Then call it.\n\nMail louise_matsakis@example.com."; strings.TrimSpace(got) != want {
		t.Errorf("renderMarkdown = %q, want %q", got, want)
	}
}

// TestSeparateCells checks that the rows of a table the converter cannot
// write as a Markdown table keep their cells apart, and that a table it
// can write is left alone.
func TestSeparateCells(t *testing.T) {
	stars := `<ul class="rating"><li>1</li><li>2</li><li>3</li></ul>`
	tests := []struct{ in, want string }{
		{`<table><tr><td></td><th>Apollo</th><th>Segway</th></tr><tr><td>Rating</td><td>` + stars + `</td><td>` + stars + `</td></tr>` +
			`<tr><th>Bottom line</th><td>Our favorite if you will spend the money</td><td>A best-in-class model</td></tr></table>`,
			"Bottom line | Our favorite if you will spend the money | A best-in-class model"},
		{`<table><tr><td><h3>Onions</h3></td><td>1 and a half</td><td>3</td></tr><tr><td>Celery</td><td>80g</td><td>160g</td></tr></table>`,
			"Celery | 80g | 160g"},
		{`<table><tr><th>Item</th><th>Weight</th></tr><tr><td>Celery</td><td>80g</td></tr></table>`,
			"| Celery | 80g    |"},
	}
	for _, tt := range tests {
		got := renderMarkdown(parseFragment(t, tt.in), nil)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s:\n%s\nwant %q", tt.in, got, tt.want)
		}
		if strings.Contains(got, "\n|\n") || strings.Contains(got, "\n| \n") {
			t.Errorf("%s: a bar stands alone:\n%s", tt.in, got)
		}
	}
}

// TestRestoreTables checks that a table readability renamed to a <div>
// is a table again, and that a <div> of other blocks stays one.
func TestRestoreTables(t *testing.T) {
	root := parseFragment(t, `<table class="compare"><tbody><tr><th>Range</th><td>40 km</td><td>35 km</td></tr></tbody></table><div><p>Text</p></div>`)
	tbl := findFirst(root, func(n *html.Node) bool { return n.DataAtom == atom.Table })
	tbl.Data, tbl.DataAtom = "div", atom.Div // as readability leaves it
	restoreTables(root)
	if got := renderMarkdown(root, nil); !strings.Contains(got, "| Range | 40 km | 35 km |") {
		t.Errorf("the table is not restored:\n%s", got)
	}
	if n := len(collectElements(root, func(c *html.Node) visit {
		if c.DataAtom == atom.Table {
			return take
		}
		return descend
	})); n != 1 {
		t.Errorf("%d tables, want 1", n)
	}
}
