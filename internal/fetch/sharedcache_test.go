package fetch

import (
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/cache"
)

// TestSharedCacheOption: a cache given in Options replaces the built-in
// one, so two fetchers over one shared tier (two replicas over Redis)
// fetch a page once between them; OnDownload counts the one download.
func TestSharedCacheOption(t *testing.T) {
	srv, hits := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, articleHTML)
	}))
	shared := cache.NewLocal[*Result](10)
	var downloaded atomic.Int64
	mk := func() *Fetcher {
		return newTestFetcher(t, func(o *Options) {
			o.IgnoreRobots = true
			o.Cache = &cache.Tiered[*Result]{Local: cache.NewLocal[*Result](10), Shared: shared, BackfillTTL: time.Minute}
			o.OnDownload = func(n int) { downloaded.Add(int64(n)) }
		})
	}
	a, b := mk(), mk()
	ra, err := a.Fetch(context.Background(), Request{URL: srv.URL + "/a"})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Fetch(context.Background(), Request{URL: srv.URL + "/a"})
	if err != nil {
		t.Fatal(err)
	}
	if ra.Cached || !rb.Cached || rb.Content != ra.Content {
		t.Errorf("a.Cached=%v b.Cached=%v, contents equal %v: want b answered from the shared tier", ra.Cached, rb.Cached, rb.Content == ra.Content)
	}
	if n := hits.get("/a"); n != 1 {
		t.Errorf("the page was downloaded %d times, want once", n)
	}
	if got := downloaded.Load(); got != int64(len(articleHTML)) {
		t.Errorf("OnDownload counted %d bytes, want %d", got, len(articleHTML))
	}
	// A negative TTL still disables caching, whatever cache is given.
	c := newTestFetcher(t, func(o *Options) {
		o.IgnoreRobots = true
		o.CacheTTL = -1
		o.Cache = shared
	})
	if r, err := c.Fetch(context.Background(), Request{URL: srv.URL + "/a"}); err != nil || r.Cached {
		t.Errorf("with cache_ttl < 0: cached=%v err=%v", r != nil && r.Cached, err)
	}
}
