package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/httplog"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/server"
)

// recording returns Claude Code's recorded search request body; in CI its
// absence is a failure, elsewhere the test is skipped.
func recording(tb testing.TB) []byte {
	tb.Helper()
	if _, err := os.Stat(defaultRecording); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("recorded request missing: %v", err)
		}
		tb.Skipf("recorded request missing: %v", err)
	}
	body, err := requestBody(defaultRecording)
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

func testStack(tb testing.TB, log *slog.Logger) http.Handler {
	tb.Helper()
	return testStackWith(tb, config.Default(), log)
}

func testStackWith(tb testing.TB, cfg *config.Config, log *slog.Logger) http.Handler {
	tb.Helper()
	opts, release, err := stack(cfg, log)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(release)
	return server.Handler(opts)
}

// TestStack checks that the benchmark server answers the recorded request
// through the fast path (a complete stream, no upstream call) for both the
// repeated and the varied query.
func TestStack(t *testing.T) {
	h := testStack(t, slog.New(slog.DiscardHandler))
	body := recording(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for i, b := range [][]byte{body, body, varied(body, 1)} {
		resp, err := http.Post(srv.URL+"/v1/messages?beta=true", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		rd := wire.NewReader(resp.Body, 0, 0)
		var names []string
		for {
			ev, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, ev.Name)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || len(names) < 10 || names[len(names)-1] != "message_stop" {
			t.Errorf("request %d: status %d, events %v", i, resp.StatusCode, names)
		}
	}
}

// varied returns body with n appended to its query.
func varied(body []byte, n int) []byte {
	const marker = "Perform a web search for the query: "
	i := bytes.Index(body, []byte(marker)) + len(marker)
	j := i + bytes.IndexByte(body[i:], '"')
	return []byte(fmt.Sprintf("%s %d%s", body[:j], n, body[j:]))
}

// discardWriter is a ResponseWriter that keeps nothing, so the benchmark
// measures the server's work rather than a recorder's buffer growth.
type discardWriter struct {
	h http.Header
	n int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Write(b []byte) (int, error) { d.n += len(b); return len(b), nil }
func (d *discardWriter) Flush()                      {}

// BenchmarkStack is the CPU and allocation cost of one fast-path answer
// through everything `webgate serve` runs except the socket: middleware,
// routing, the audit -> policy -> guard chain, the proxy, the search
// engine with its cache and a 0 ms provider, with an info-level access log
// formatted (to io.Discard). "hit" repeats the recorded query; "miss"
// varies it on every request. The "-noscan" variants switch off the two
// secret scans of the query (guard.query.mode: off, audit.queries: full),
// so the difference is what they cost; the defaults are what
// `webgate serve` runs.
func BenchmarkStack(b *testing.B) {
	// The log handler (redacting secrets) and heap floor (none unless
	// server.min_heap_bytes is set) `webgate serve` runs with.
	// "hit-plainlog" writes the log unredacted, so the difference from
	// "hit" is what the redaction costs.
	plain := httplog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})
	log := slog.New(guard.NewDetector(guard.Options{HighEntropy: true}).LogHandler(plain))
	defer app.HeapFloor(config.Default(), os.LookupEnv, log)()
	body := recording(b)
	noscan := func() *config.Config {
		c := config.Default()
		c.Guard.Query.Mode, c.Audit.Queries = "off", "full"
		return c
	}
	for _, v := range []struct {
		name  string
		cfg   func() *config.Config
		vary  bool
		plain bool
	}{
		{"hit", config.Default, false, false},
		{"miss", config.Default, true, false},
		{"hit-noscan", noscan, false, false},
		{"miss-noscan", noscan, true, false},
		{"hit-plainlog", config.Default, false, true},
	} {
		b.Run(v.name, func(b *testing.B) {
			l := log
			if v.plain {
				l = slog.New(plain)
			}
			h := testStackWith(b, v.cfg(), l)
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				bb := body
				if v.vary {
					// A distinct query per iteration: the engine cache
					// never hits and the provider is called every time.
					n++
					bb = varied(body, n)
				}
				req := httptest.NewRequest(http.MethodPost, "/v1/messages?beta=true", bytes.NewReader(bb))
				req.Header.Set("Content-Type", "application/json")
				w := &discardWriter{h: http.Header{}}
				h.ServeHTTP(w, req)
				if w.n < 1000 {
					b.Fatalf("short answer: %d bytes", w.n)
				}
			}
		})
	}
}

// BenchmarkPassthroughTTFB is the time to the first byte of a streamed
// reply from a fake upstream, fetched directly and through the whole
// serve stack (middleware, proxy), alternating the two on every iteration
// so both see the same machine load. The overhead is the difference of
// the medians (and of the 99th percentiles).
func BenchmarkPassthroughTTFB(b *testing.B) {
	first := []byte("event: message_start\ndata: {\"type\":\"message_start\"}\n\n")
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(first)
	}))
	defer up.Close()
	cfg := config.Default()
	cfg.Upstream.BaseURL = up.URL
	opts, release, err := stack(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	srv := httptest.NewServer(server.Handler(opts))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	body := []byte(`{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hello"}]}`)
	ttfb := func(url string) time.Duration {
		start := time.Now()
		resp, err := client.Post(url+"/v1/messages", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var one [1]byte
		if _, err := io.ReadFull(resp.Body, one[:]); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		io.Copy(io.Discard, resp.Body)
		return d
	}
	direct := make([]time.Duration, 0, b.N)
	proxied := make([]time.Duration, 0, b.N)
	for b.Loop() {
		direct = append(direct, ttfb(up.URL))
		proxied = append(proxied, ttfb(srv.URL))
	}
	slices.Sort(direct)
	slices.Sort(proxied)
	pct := func(d []time.Duration, p float64) time.Duration { return d[int(p*float64(len(d)-1))] }
	b.ReportMetric(float64(pct(direct, 0.5).Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64(pct(proxied, 0.5).Microseconds()), "proxied-p50-µs")
	b.ReportMetric(float64((pct(proxied, 0.5) - pct(direct, 0.5)).Microseconds()), "overhead-p50-µs")
	b.ReportMetric(float64((pct(proxied, 0.99) - pct(direct, 0.99)).Microseconds()), "overhead-p99-µs")
}

// BenchmarkQueryScan is the cost of one secret scan of the recorded query
// (and of its varied form) with the default guard configuration. The
// fast path pays it twice per search with the defaults: once in the
// query guard, once when the audit layer redacts the query it records.
// Since the guard's prefilters, a clean query costs well under a
// microsecond, so the second scan is not worth sharing state to avoid.
func BenchmarkQueryScan(b *testing.B) {
	body := recording(b)
	l, err := guard.FromConfig(config.Default().Guard)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []struct {
		name string
		body []byte
	}{{"recorded", body}, {"varied", varied(body, 1234567)}} {
		const marker = "Perform a web search for the query: "
		i := bytes.Index(v.body, []byte(marker)) + len(marker)
		q := string(v.body[i : i+bytes.IndexByte(v.body[i:], '"')])
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				if fs := l.Detector().Scan(q); len(fs) != 0 {
					b.Fatalf("%q: findings %v", q, fs)
				}
			}
		})
	}
}
