package extract

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// largePage builds an HTML page of about size bytes: a site header and
// menu, then forum-like posts (author link, prose, a list, a code block,
// a share bar), then a footer. Real pages that big are archives, long
// threads and single-page manuals of this shape.
func largePage(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<!doctype html><html><head><title>A long thread</title></head><body>
<header class="site-header"><a href="/">Home</a><nav><ul><li><a href="/a">Docs</a></li><li><a href="/b">Blog</a></li><li><a href="/c">Forum</a></li></ul></nav></header>
<main><h1>A long thread</h1>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<div class="post" id="p%d"><div class="meta"><a class="author" href="/u/%d">user%d</a> <time>2024-01-%02d</time></div>
<div class="body"><p>Post %d explains how the scheduler hands work to idle cores and why the queue is bounded, with measurements taken on a busy machine.</p>
<p>It then covers back-pressure, retries with jitter, and what happens to requests that were already accepted when the process is asked to stop.</p>
<ul><li>first point of post %d</li><li>second point, with <a href="/x/%d">a link</a></li></ul>
<pre><code class="language-go">for job := range queue {
	handle(job) // %d
}</code></pre></div>
<div class="share"><a href="/s1">Share</a> <a href="/s2">Tweet</a> <a href="/s3">Mail</a></div></div>
`, i, i%50, i%50, i%28+1, i, i, i, i)
	}
	b.WriteString(`</main><footer class="site-footer"><p>Copyright</p></footer></body></html>`)
	return b.Bytes()
}

// BenchmarkExtractLarge measures extraction of pages of 256 KiB to 8 MiB.
// Time and memory must grow no faster than the page: compare cpu-ns/op
// (process CPU, which waiting for a core does not inflate) and B/op
// across sizes.
//
//	go test ./internal/extract -run '^$' -bench BenchmarkExtractLarge -cpu 1 -benchtime 1x
func BenchmarkExtractLarge(b *testing.B) {
	for _, size := range []int{256 << 10, 1 << 20, 2 << 20, 8 << 20} {
		page := largePage(size)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			c0 := processCPU()
			for b.Loop() {
				if _, err := Extract(context.Background(), page, Options{URL: "https://forum.example/t/long/1"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((processCPU()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestLargePage checks that a page past the large-page limits takes the
// linear path, keeps every post, and allocates a bounded multiple of its
// size (the full candidate set allocated 760 bytes per byte of this page,
// growing with its square). Allocation is counted, not timed, so the test
// is steady on a busy machine. (It is about 45 bytes per byte, 210 under
// the race detector.)
func TestLargePage(t *testing.T) {
	page := largePage(1 << 20)
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	prepareDoc(doc)
	if s := measurePage(doc); !s.large() {
		t.Fatalf("a 1 MiB thread is not large: %+v", s)
	}
	posts := bytes.Count(page, []byte(`class="post"`))
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	out, err := Extract(context.Background(), page, Options{URL: "https://forum.example/t/long/1", Format: Markdown})
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.Content, " explains how the scheduler"); got != posts {
		t.Errorf("%d of %d posts extracted", got, posts)
	}
	if got := strings.Count(out.Content, "```go"); got != posts {
		t.Errorf("%d of %d code blocks extracted", got, posts)
	}
	if perByte := (m1.TotalAlloc - m0.TotalAlloc) / uint64(len(page)); perByte > 400 {
		t.Errorf("extraction allocated %d bytes per byte of HTML, want at most 400", perByte)
	}
}
