package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkFetch measures the fetch path against a loopback server:
// "miss" is a full fetch (robots.txt cached after the first iteration,
// request, body read, charset check, HTML extraction to Markdown); "hit"
// is a cache hit with shaping, what paging through a document costs;
// "miss-passthrough" is a full fetch of a Markdown body, without extraction.
//
//	go test ./internal/fetch/ -run '^$' -bench BenchmarkFetch -benchmem
func BenchmarkFetch(b *testing.B) {
	page := strings.Replace(articleHTML, "<h2>Details</h2>", strings.Repeat("<p>More body text for the benchmark page, in ordinary sentences.</p>\n", 200)+"<h2>Details</h2>", 1)
	srv, _ := newServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			_, _ = w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		}
		if r.URL.Path == "/doc.md" {
			w.Header().Set("Content-Type", "text/markdown")
			_, _ = w.Write([]byte(page))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	f := newTestFetcher(b, nil)
	ctx := context.Background()
	b.Run("miss", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			if _, err := f.Fetch(ctx, Request{URL: srv.URL + "/article", NoCache: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same bytes served as Markdown skip extraction: the cost of the
	// network path itself (checks, request, limits, charset, cache write).
	b.Run("miss-passthrough", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			if _, err := f.Fetch(ctx, Request{URL: srv.URL + "/doc.md", NoCache: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hit", func(b *testing.B) {
		if _, err := f.Fetch(ctx, Request{URL: srv.URL + "/article"}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			r, err := f.Fetch(ctx, Request{URL: srv.URL + "/article", MaxLength: 2000, StartIndex: 1000})
			if err != nil || !r.Cached {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadBody measures reading a 1 MiB HTML body through the size
// and bomb guards, plain and in each content coding: what decompression
// adds to a fetch.
//
//	go test ./internal/fetch/ -run '^$' -bench BenchmarkReadBody -benchmem
func BenchmarkReadBody(b *testing.B) {
	var page strings.Builder
	for i := 0; page.Len() < 1<<20; i++ {
		fmt.Fprintf(&page, "<p id=\"p%d\">Paragraph %d of the page: ordinary prose with a number, %d, and a <a href=\"/l/%d\">link</a>.</p>\n", i, i, i*7919%10007, i)
	}
	plain := []byte(page.String())
	for _, coding := range append([]string{"identity"}, codings...) {
		body := plain
		if coding != "identity" {
			body = encodeAs(b, coding, plain)
		}
		// With a Content-Length, and without (a chunked response).
		for _, hint := range []int64{int64(len(body)), -1} {
			name := coding + "/length"
			if hint < 0 {
				name = coding + "/chunked"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(plain)))
				for b.Loop() {
					out, err := readBody(bytes.NewReader(body), coding, 10<<20, 100, hint)
					if err != nil || len(out) != len(plain) {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
