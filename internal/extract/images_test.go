package extract

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// imageSrcs lists the src of every <img> under n, in document order.
func imageSrcs(n *html.Node) []string {
	var out []string
	for _, img := range collectElements(n, func(c *html.Node) visit {
		if c.DataAtom == atom.Img {
			return take
		}
		return descend
	}) {
		out = append(out, attr(img, "src"))
	}
	return out
}

// TestResolveLazyImages checks that a placeholder src gives way to the
// address a lazy-loading attribute holds, that a real src stays, and
// that an image with no address but a data: URI goes.
func TestResolveLazyImages(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"WP Rocket's inline SVG placeholder", `<img src="data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E" data-lazy-src="/up/a-1024x778.webp">`,
			[]string{"/up/a-1024x778.webp"}},
		{"lazysizes without src", `<img data-src="https://cdn.example.com/b.jpg" class="lazyload">`, []string{"https://cdn.example.com/b.jpg"}},
		{"a 1x1 GIF and a lazy srcset", `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==" data-srcset="/c-800.jpg 800w, /c-400.jpg 400w">`,
			[]string{"/c-800.jpg"}},
		{"a srcset address with commas", `<img src="" data-srcset="https://i.example.com/upload/c_fill,f_auto,w_320/d.jpg 320w, https://i.example.com/upload/c_fill,w_80/d.jpg 80w">`,
			[]string{"https://i.example.com/upload/c_fill,f_auto,w_320/d.jpg"}},
		{"a real srcset beside a placeholder", `<img src="data:image/gif;base64,R0lGOD==" srcset="/e.jpg 1x, /e@2x.jpg 2x">`, []string{"/e.jpg"}},
		{"an unknown data-*src* attribute", `<img src="data:," data-src-medium="https://img.example.com/f-m.jpg">`, []string{"https://img.example.com/f-m.jpg"}},
		{"a real src stays", `<img src="/g.png" data-src="/other.png">`, []string{"/g.png"}},
		{"no address at all goes", `<p>Before</p><img src="data:image/gif;base64,R0lGOD==" data-chomp-id="abc"><img alt="x"><p>After</p>`, nil},
		{"a placeholder file with the address beside it", `<img src="/img/lazy_placeholder.gif" data-src="/img/watch-review.jpg">`, []string{"/img/watch-review.jpg"}},
		{"a placeholder file alone goes", `<img src="https://cdn.example.com/assets/placeholder.svg?v=2" alt="Headphones"><img src="/static/loading.gif">`, nil},
		{"a file a word of which names a stand-in, alone, stays", `<img src="/photos/loading-dock.jpg"><img src="/art/blank-canvas.png">`,
			[]string{"/photos/loading-dock.jpg", "/art/blank-canvas.png"}},
		{"an inline image in a data: URI goes", `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk">`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := parseFragment(t, tt.in)
			resolveLazyImages(body)
			got := imageSrcs(body)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("srcs = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReplaceLazyImage checks that an image in a <noscript> block takes
// the place of the placeholder before it, as Readability.js does, and
// that a block after text or holding more than an image does not.
func TestReplaceLazyImage(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"Medium's blurred thumbnail, stand-in and noscript", `<figure><div><div><img src="https://m.example.com/max/60/a.png?q=20"></div>` +
			`<img width="1894" height="970"><noscript><img src="https://m.example.com/max/3788/a.png"></noscript></div></figure>`,
			[]string{"https://m.example.com/max/3788/a.png"}},
		{"a placeholder image right before", `<img src="data:image/gif;base64,R0lGOD==" class="lazy"><noscript><picture><img src="/b.jpg"></picture></noscript>`,
			[]string{"/b.jpg"}},
		{"text between stops it", `<img src="/thumb.jpg"> Photo <noscript><img src="/full.jpg"></noscript>`, []string{"/thumb.jpg"}},
		{"a block with text is not an image", `<img src="/thumb.jpg"><noscript><img src="/full.jpg"> Enable JavaScript</noscript>`, []string{"/thumb.jpg"}},
		{"a tracking pixel after a paragraph", `<p>Story.</p><noscript><img src="https://t.example.com/pixel.gif"></noscript>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseHTML([]byte("<html><body>" + tt.in + "</body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			prepareDoc(doc)
			got := imageSrcs(doc)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("srcs = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLazyImagesInMarkdown checks the whole path: a story's lazy images
// reach the Markdown with their addresses, resolved against the page,
// and no data: URI does.
func TestLazyImagesInMarkdown(t *testing.T) {
	story := strings.Repeat("<p>The council approved the new budget after a long debate on Tuesday night, with two members against.</p>", 4)
	page := `<html><head><title>Budget</title></head><body><article>` + story +
		`<figure><img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" data-lazy-src="/up/hall.jpg" alt="The town hall"><figcaption>The hall</figcaption></figure>` +
		`<img src="data:image/gif;base64,R0lGOD==" alt="">` + story + `</article></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://news.example.com/2025/03/budget/"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Content, "![The town hall](https://news.example.com/up/hall.jpg)") {
		t.Errorf("the lazy image is missing or unresolved:\n%s", doc.Content)
	}
	if strings.Contains(doc.Content, "data:") {
		t.Errorf("a data: URI reached the Markdown:\n%s", doc.Content)
	}
}

// FuzzFirstSrcsetURL checks that a srcset's first address never holds
// whitespace or ends with a comma, and is a part of the srcset.
func FuzzFirstSrcsetURL(f *testing.F) {
	f.Add("a.jpg 1024w, b.jpg 300w")
	f.Add(" ,https://i.example.com/c_fill,w_80/d.jpg 80w")
	f.Add("e.jpg,")
	f.Fuzz(func(t *testing.T, s string) {
		u := firstSrcsetURL(s)
		if strings.ContainsAny(u, " \t\n\r\f") || strings.HasSuffix(u, ",") || !strings.Contains(s, u) {
			t.Fatalf("firstSrcsetURL(%q) = %q", s, u)
		}
	})
}
