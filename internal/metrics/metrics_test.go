package metrics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/webgate/webgate/internal/search"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTest(t *testing.T) (*Recorder, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2025, 3, 1, 12, 0, 30, 0, time.UTC)}
	return New(Options{Version: "test", Now: c.now}), c
}

func TestHistogramQuantiles(t *testing.T) {
	tests := []struct {
		name          string
		values        []float64 // ms
		p50, p95, tol float64
	}{
		{"empty", nil, 0, 0, 0},
		{"constant", repeat(10, 100), 10, 10, 0.25},
		{"uniform 1..1000", ramp(1, 1000), 500, 950, 0.2},
		{"bimodal", append(repeat(2, 90), repeat(800, 10)...), 2, 800, 0.25},
		{"huge", []float64{1e9}, 1e9, 1e9, 1}, // clamps into the last bucket
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h latHist
			for _, v := range tt.values {
				h.add(v)
			}
			for _, c := range []struct{ q, want float64 }{{0.5, tt.p50}, {0.95, tt.p95}} {
				got := h.quantile(c.q)
				if tt.name == "huge" {
					if got != upper(histBuckets-1) && got < upper(histBuckets-2) {
						t.Errorf("q%.2f = %v, want the last bucket", c.q, got)
					}
					continue
				}
				if c.want == 0 {
					if got != 0 {
						t.Errorf("q%.2f = %v, want 0", c.q, got)
					}
					continue
				}
				if math.Abs(got-c.want)/c.want > tt.tol {
					t.Errorf("q%.2f = %.2f, want %.2f ± %.0f%%", c.q, got, c.want, tt.tol*100)
				}
			}
		})
	}
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func ramp(lo, hi int) []float64 {
	var out []float64
	for v := lo; v <= hi; v++ {
		out = append(out, float64(v))
	}
	return out
}

func TestSnapshotSurfacesAndRing(t *testing.T) {
	r, c := newTest(t)
	// An hour ago and more: must fall out of the ring.
	r.ObserveRequest("api", 200, 5*time.Millisecond)
	c.add(61 * time.Minute)
	for range 10 {
		r.ObserveRequest("api", 200, 10*time.Millisecond)
	}
	r.ObserveRequest("api", 502, 100*time.Millisecond)
	r.ObserveRequest("mcp", 200, time.Millisecond)
	c.add(10 * time.Minute) // the above is now outside the 5-minute recent span
	r.ObserveRequest("messages", 200, 20*time.Millisecond)
	r.ObserveRequest("ops", 200, time.Millisecond)

	s := r.Snapshot()
	var names []string
	for _, ss := range s.Surfaces {
		names = append(names, ss.Name)
		if len(ss.Points) != ringMinutes {
			t.Fatalf("%s has %d points, want %d", ss.Name, len(ss.Points), ringMinutes)
		}
		if !ss.Points[ringMinutes-1].Start.Equal(c.now().Truncate(time.Minute)) {
			t.Errorf("%s: last point starts %s, want the current minute %s", ss.Name, ss.Points[ringMinutes-1].Start, c.now().Truncate(time.Minute))
		}
	}
	if got, want := strings.Join(names, ","), "api,mcp,messages,ops"; got != want {
		t.Errorf("surfaces = %s, want %s", got, want)
	}
	api := s.Surfaces[0]
	if api.Hour.Count != 11 || api.Hour.Errors != 1 {
		t.Errorf("api hour = %+v, want 11 requests with 1 error (the request 71 minutes ago is gone)", api.Hour)
	}
	if api.Recent.Count != 0 {
		t.Errorf("api recent = %+v, want nothing in the last %d minutes", api.Recent, RecentMinutes)
	}
	if math.Abs(api.Hour.ErrorRate-1.0/11) > 1e-9 || math.Abs(api.Hour.PerMinute-11.0/60) > 1e-9 {
		t.Errorf("api rates = %+v", api.Hour)
	}
	if p := api.Hour.P50MS; p < 8 || p > 12 {
		t.Errorf("api p50 = %.2fms, want about 10", p)
	}
	pt := api.Points[ringMinutes-1-10]
	if pt.Count != 11 || pt.Errors != 1 {
		t.Errorf("api point ten minutes ago = %+v", pt)
	}
	if m := s.Surfaces[2]; m.Recent.Count != 1 || m.Recent.PerMinute != 1.0/RecentMinutes {
		t.Errorf("messages recent = %+v", m.Recent)
	}
}

func TestSnapshotProviders(t *testing.T) {
	r, c := newTest(t)
	openUntil := c.now().Add(42 * time.Second)
	rl := &search.ProviderError{Provider: "brave", Kind: search.ErrRateLimited, Status: 429, RetryAfter: 42 * time.Second}
	r.SetProviders(func() []search.ProviderStatus {
		return []search.ProviderStatus{
			{Name: "brave", State: search.BreakerOpen, OpenUntil: openUntil, ConsecutiveFailures: 1, LastError: rl, LastErrorAt: c.now()},
			{Name: "duckduckgo", State: search.BreakerClosed},
		}
	})
	r.ObserveProvider("duckduckgo", 30*time.Millisecond, nil)
	r.ObserveProvider("duckduckgo", 50*time.Millisecond, &search.ProviderError{Provider: "duckduckgo", Kind: search.ErrUnavailable})
	r.ObserveProvider("brave", time.Millisecond, rl)
	r.ObserveProvider("brave", time.Millisecond, fmt.Errorf("hedge lost: %w", context.Canceled))
	r.ObserveProvider("old", time.Millisecond, nil)

	s := r.Snapshot()
	if len(s.Providers) != 3 || s.Providers[0].Name != "brave" || s.Providers[1].Name != "duckduckgo" || s.Providers[2].Name != "old" {
		t.Fatalf("providers = %+v, want chain order then others", s.Providers)
	}
	b := s.Providers[0]
	if b.State != "open" || !b.OpenUntil.Equal(openUntil) || b.LastErrorKind != "rate_limited" || b.RetryAfter != 42*time.Second {
		t.Errorf("brave = %+v", b)
	}
	if b.Hour.Count != 1 || b.Hour.Errors != 1 {
		t.Errorf("brave hour = %+v: the cancelled call must not count", b.Hour)
	}
	d := s.Providers[1]
	if d.State != "closed" || d.Recent.Count != 2 || d.Recent.ErrorRate != 0.5 {
		t.Errorf("duckduckgo = %+v", d)
	}
	if p := d.Recent.P95MS; p < 40 || p > 60 { // one bucket is 19% wide
		t.Errorf("duckduckgo p95 = %.1fms, want about 50", p)
	}
	if s.Providers[2].State != "" {
		t.Errorf("a provider outside the chain has state %q", s.Providers[2].State)
	}
}

func TestSnapshotCaches(t *testing.T) {
	r, c := newTest(t)
	// 3 local hits; 2 local misses answered by Redis; 1 miss everywhere.
	for range 3 {
		r.ObserveCache(CacheSearch, TierLocal, true)
	}
	for range 3 {
		r.ObserveCache(CacheSearch, TierLocal, false)
	}
	r.ObserveCache(CacheSearch, TierRedis, true)
	r.ObserveCache(CacheSearch, TierRedis, true)
	r.ObserveCache(CacheSearch, TierRedis, false)
	c.add(time.Minute)
	r.ObserveCache(CacheFetch, TierLocal, false)
	r.AddFetchBytes(1500)
	r.AddFetchBytes(-3)

	s := r.Snapshot()
	if len(s.Caches) != 2 {
		t.Fatalf("caches = %+v", s.Caches)
	}
	sc := s.Caches[0]
	if sc.Name != CacheSearch || sc.Hits != 5 || sc.Misses != 1 || math.Abs(sc.HitRatio-5.0/6) > 1e-9 {
		t.Errorf("search cache = %+v, want 5 hits and 1 miss", sc)
	}
	if len(sc.Tiers) != 2 || sc.Tiers[0] != (TierStats{TierLocal, 3, 3}) || sc.Tiers[1] != (TierStats{TierRedis, 2, 1}) {
		t.Errorf("search tiers = %+v", sc.Tiers)
	}
	if fc := s.Caches[1]; fc.Hits != 0 || fc.Misses != 1 || fc.HitRatio != 0 || len(fc.Points) != ringMinutes {
		t.Errorf("fetch cache = %+v", fc)
	}
	if s.FetchBytes != 1500 {
		t.Errorf("fetch bytes = %d", s.FetchBytes)
	}
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
}

func TestStreamsAndRedisStatus(t *testing.T) {
	r, _ := newTest(t)
	r.StreamStarted("messages")
	r.StreamStarted("mcp")
	r.StreamEnded("messages")
	if got := r.Snapshot().ActiveStreams; got != 1 {
		t.Errorf("active streams = %d, want 1", got)
	}
	r.StreamEnded("mcp")
	body := scrape(t, r)
	if !strings.Contains(body, `webgate_http_streams_active{surface="messages"} 0`) {
		t.Errorf("streams gauge not back to 0:\n%s", grep(body, "streams"))
	}
	if strings.Contains(body, "webgate_redis_up") {
		t.Error("webgate_redis_up reported without Redis configured")
	}
	up := true
	r.SetRedis(func() RedisStatus { return RedisStatus{Configured: true, Up: up} })
	if body := scrape(t, r); !strings.Contains(body, "webgate_redis_up 1") {
		t.Errorf("redis up:\n%s", grep(body, "redis"))
	}
	up = false
	r.RedisError("cache_get")
	body = scrape(t, r)
	for _, want := range []string{"webgate_redis_up 0", `webgate_redis_errors_total{op="cache_get"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q:\n%s", want, grep(body, "redis"))
		}
	}
	if !r.Snapshot().Redis.Configured {
		t.Error("snapshot lost the redis status")
	}
}

func TestPrometheusExposition(t *testing.T) {
	r, c := newTest(t)
	r.SetProviders(func() []search.ProviderStatus {
		return []search.ProviderStatus{{Name: "brave", State: search.BreakerOpen, OpenUntil: c.now().Add(30 * time.Second)}}
	})
	r.ObserveRequest("api", 200, 3*time.Millisecond)
	r.ObserveRequest("messages", 503, time.Second)
	r.ObserveProvider("brave", 20*time.Millisecond, &search.ProviderError{Provider: "brave", Kind: search.ErrQuota})
	r.ObserveCache(CacheFetch, TierRedis, true)
	r.AddFetchBytes(2048)
	r.SetDraining(true)
	body := scrape(t, r)
	for _, want := range []string{
		`webgate_http_requests_total{code="200",surface="api"} 1`,
		`webgate_http_requests_total{code="503",surface="messages"} 1`,
		`webgate_http_request_duration_seconds_bucket{surface="api",le="0.005"} 1`,
		`webgate_provider_requests_total{outcome="quota",provider="brave"} 1`,
		`webgate_provider_request_duration_seconds_count{provider="brave"} 1`,
		`webgate_provider_breaker_state{provider="brave",state="open"} 1`,
		`webgate_provider_breaker_state{provider="brave",state="closed"} 0`,
		`webgate_provider_breaker_open_seconds{provider="brave"} 30`,
		`webgate_cache_requests_total{cache="fetch",result="hit",tier="redis"} 1`,
		`webgate_fetch_bytes_total 2048`,
		`webgate_draining 1`,
		`webgate_build_info{version="test"} 1`,
		`go_goroutines `,
		`process_`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

// TestPrivateRegistry proves nothing goes through the global default
// registry: two Recorders coexist (registering twice globally would
// panic), and a metric registered globally does not leak into /metrics.
func TestPrivateRegistry(t *testing.T) {
	leak := prometheus.NewCounter(prometheus.CounterOpts{Name: "webgate_test_global_leak_total", Help: "x"})
	prometheus.MustRegister(leak)
	t.Cleanup(func() { prometheus.Unregister(leak) })
	a, _ := newTest(t)
	b, _ := newTest(t)
	a.ObserveRequest("api", 200, time.Millisecond)
	if strings.Contains(scrape(t, a), "webgate_test_global_leak_total") {
		t.Error("the default registry leaks into /metrics")
	}
	if strings.Contains(scrape(t, b), `surface="api"`) {
		t.Error("two recorders share state")
	}
}

func TestNilRecorder(t *testing.T) {
	var r *Recorder
	r.ObserveRequest("api", 200, 0)
	r.StreamStarted("api")
	r.StreamEnded("api")
	r.ObserveProvider("p", 0, nil)
	r.ObserveCache(CacheSearch, TierLocal, true)
	r.AddFetchBytes(1)
	r.RedisError("x")
	r.SetDraining(true)
	r.SetProviders(nil)
	r.SetRedis(nil)
	_ = r.Snapshot()
	p := fakeProvider{}
	if r.Provider(p) != search.Provider(p) {
		t.Error("a nil recorder must not wrap providers")
	}
}

type fakeProvider struct{ err error }

func (fakeProvider) Name() string { return "fake" }
func (f fakeProvider) Search(context.Context, search.Query) ([]search.Result, error) {
	if f.err != nil {
		return nil, f.err
	}
	return []search.Result{{Title: "t", URL: "https://example.com/"}}, nil
}

func TestProviderWrapper(t *testing.T) {
	r, _ := newTest(t)
	ok := r.Provider(fakeProvider{})
	bad := r.Provider(fakeProvider{err: &search.ProviderError{Provider: "fake", Kind: search.ErrBlocked}})
	if ok.Name() != "fake" {
		t.Fatal("the wrapper changed the name")
	}
	if res, err := ok.Search(context.Background(), search.Query{Text: "x"}); err != nil || len(res) != 1 {
		t.Fatalf("ok = %v, %v", res, err)
	}
	if _, err := bad.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, search.ErrBlocked) {
		t.Fatalf("the wrapper changed the error: %v", err)
	}
	body := scrape(t, r)
	for _, want := range []string{`outcome="ok",provider="fake"} 1`, `outcome="blocked",provider="fake"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{nil, "ok"},
		{context.Canceled, "canceled"},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), "timeout"},
		{&search.ProviderError{Kind: search.ErrAuth}, "auth"},
		{&search.ProviderError{Kind: search.ErrRateLimited}, "rate_limited"},
		{&search.ProviderError{Kind: search.ErrQuota}, "quota"},
		{&search.ProviderError{Kind: search.ErrBlocked}, "blocked"},
		{&search.ProviderError{Kind: search.ErrInvalidQuery}, "invalid_query"},
		{&search.ProviderError{Kind: search.ErrUnavailable}, "unavailable"},
		{errors.New("parse failure"), "unavailable"},
	}
	for _, tt := range tests {
		if got := Outcome(tt.err); got != tt.want {
			t.Errorf("Outcome(%v) = %s, want %s", tt.err, got, tt.want)
		}
	}
}

// TestConcurrentEvents runs events and snapshots together under -race.
func TestConcurrentEvents(t *testing.T) {
	r, c := newTest(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 500 {
				r.ObserveRequest("api", 200+i, time.Duration(j)*time.Microsecond)
				r.ObserveProvider("p", time.Millisecond, nil)
				r.ObserveCache(CacheSearch, TierLocal, j%2 == 0)
				if j%100 == 0 {
					c.add(time.Minute)
					_ = r.Snapshot()
				}
			}
		})
	}
	wg.Wait()
	var total uint64
	for _, s := range r.Snapshot().Surfaces {
		total += s.Hour.Count
	}
	if total != 8*500 {
		t.Errorf("counted %d requests, want %d", total, 8*500)
	}
}

func scrape(t *testing.T, r *Recorder) string {
	t.Helper()
	rec := httptest.NewRecorder()
	r.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	if rec.Code != 200 {
		t.Fatalf("scrape: %d %s", rec.Code, b)
	}
	return string(b)
}

func grep(body, sub string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
