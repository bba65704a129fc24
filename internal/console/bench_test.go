package console_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/console"
	"github.com/webgate/webgate/internal/metrics"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/setup"
)

// TestPageWeight keeps the console small: the page and everything it
// loads, as sent to a browser that accepts gzip. The figures are in
// docs/benchmarks.md; raise the budget only with a reason.
func TestPageWeight(t *testing.T) {
	const budget = 24 << 10
	c, _ := newConsole(t, nil)
	_, _, page := call(t, c, nil, "GET", "/", "")
	urls := []string{"/"}
	for _, m := range regexp.MustCompile(`(?:src|href)="(/console/assets/[^"]+)"`).FindAllStringSubmatch(page, -1) {
		urls = append(urls, m[1])
	}
	var raw, gz int
	for _, u := range urls {
		for _, enc := range []string{"", "gzip"} {
			req := httptest.NewRequest("GET", u, nil)
			req.Header.Set("Accept-Encoding", enc)
			rec := httptest.NewRecorder()
			c.ServeHTTP(rec, req)
			if enc == "" {
				raw += rec.Body.Len()
			} else {
				gz += rec.Body.Len()
			}
		}
	}
	t.Logf("console page weight: %d requests, %d bytes, %d bytes gzipped", len(urls), raw, gz)
	if gz > budget {
		t.Errorf("the console sends %d gzipped bytes, over its %d-byte budget", gz, budget)
	}
}

func benchConsole(b *testing.B) *console.Console {
	rec := metrics.New(metrics.Options{})
	rec.SetProviders(func() []search.ProviderStatus {
		return []search.ProviderStatus{{Name: "brave", State: search.BreakerClosed}, {Name: "searxng", State: search.BreakerClosed}, {Name: "duckduckgo", State: search.BreakerClosed}}
	})
	for i := range 5000 {
		rec.ObserveRequest([]string{"api", "mcp", "messages"}[i%3], 200, time.Duration(i%200)*time.Millisecond)
		rec.ObserveProvider([]string{"brave", "searxng", "duckduckgo"}[i%3], time.Duration(i%900)*time.Millisecond, nil)
		rec.ObserveCache(metrics.CacheSearch, metrics.TierLocal, i%4 == 0)
	}
	lg := audit.New(audit.Options{Recent: 1000})
	b.Cleanup(func() { _ = lg.Close(b.Context()) })
	for i := range 1000 {
		lg.Log(audit.Record{Time: time.Now(), KeyID: fmt.Sprintf("key-%d", i%5), Surface: "mcp", Kind: "search", Query: "query", Outcome: "ok"})
	}
	c, err := console.New(console.Options{Searcher: &fakeSearcher{}, Fetcher: fakeFetcher{}, Snapshot: rec.Snapshot, Audit: lg,
		Setup: setup.Options{Binary: "/usr/local/bin/webgate", Home: "/home/u", GOOS: "linux"}})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkConsole times the handlers a page load and its 10-second
// status refresh cost the server.
func BenchmarkConsole(b *testing.B) {
	c := benchConsole(b)
	for _, bc := range []struct{ name, path, enc string }{
		{"page_gzip", "/", "gzip"},
		{"status", "/console/api/status", ""},
		{"audit_100", "/console/api/audit", ""},
		{"audit_key_filter", "/console/api/audit?key=key-3&limit=1000", ""},
		{"setup", "/console/api/setup?transport=http&url=http://127.0.0.1:8788/mcp", ""},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", bc.path, nil)
			req.Header.Set("Accept-Encoding", bc.enc)
			b.ReportAllocs()
			var n int
			for b.Loop() {
				rec := httptest.NewRecorder()
				c.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s = %d", bc.path, rec.Code)
				}
				n = rec.Body.Len()
			}
			b.ReportMetric(float64(n), "resp-bytes")
		})
	}
}
