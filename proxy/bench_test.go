package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/anthropic"
	"github.com/webgate/webgate/config"
)

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(p * float64(len(s)-1))
	return s[i]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// readToStop reads SSE events until message_stop.
func readToStop(r io.Reader) error {
	rd := anthropic.NewReader(r, 0, 0)
	for {
		ev, err := rd.Next()
		if err != nil {
			return err
		}
		if ev.Name == "message_stop" {
			return nil
		}
	}
}

// BenchmarkFastPath measures the search fast path end to end over real
// HTTP: c clients post Claude Code's search request to an httptest server
// at once, each timing its request until message_stop arrives. The search
// provider answers instantly and enrichment is off, so the figures are
// webgate's own cost (decoding, detection, sealing results and citations,
// streaming the events) plus the in-process HTTP client's.
func BenchmarkFastPath(b *testing.B) {
	for _, c := range []int{1, 50} {
		b.Run(fmt.Sprintf("clients=%d", c), func(b *testing.B) { benchFastPath(b, c) })
	}
}

func benchFastPath(b *testing.B, concurrency int) {
	h := newHandler(b, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency, MaxConnsPerHost: concurrency}}
	body := oldStyleBody("golang generics tutorial", true, nil)
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				start := time.Now()
				resp, err := client.Post(srv.URL+"/v1/messages", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				err = readToStop(resp.Body)
				lat[i] = time.Since(start)
				resp.Body.Close()
				if err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(ms(percentile(lat, 0.50)), "p50-ms")
	b.ReportMetric(ms(percentile(lat, 0.99)), "p99-ms")
}

// BenchmarkPassthroughTTFB compares time to first byte of a streamed reply
// fetched directly from a fake upstream and through the proxy, alternating
// the two on every iteration so both see the same machine load. The
// reported overhead is the difference of the medians.
func BenchmarkPassthroughTTFB(b *testing.B) {
	first := []byte("event: message_start\ndata: {\"type\":\"message_start\"}\n\n")
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(first)
	}))
	defer up.Close()
	h := newHandler(b, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: up.URL}})
	srv := httptest.NewServer(h)
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
		if _, err := io.ReadFull(resp.Body, one[:]); err != nil && !errors.Is(err, io.EOF) {
			b.Fatal(err)
		}
		d := time.Since(start)
		io.Copy(io.Discard, resp.Body)
		return d
	}
	direct := make([]time.Duration, 0, b.N)
	proxied := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		direct = append(direct, ttfb(up.URL))
		proxied = append(proxied, ttfb(srv.URL))
	}
	b.StopTimer()
	d50, p50 := percentile(direct, 0.5), percentile(proxied, 0.5)
	b.ReportMetric(float64(d50.Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64(p50.Microseconds()), "proxied-p50-µs")
	b.ReportMetric(float64((p50 - d50).Microseconds()), "overhead-p50-µs")
	b.ReportMetric(float64((percentile(proxied, 0.99) - percentile(direct, 0.99)).Microseconds()), "overhead-p99-µs")
}

// BenchmarkHandlerFastPath is the handler alone, without HTTP: the CPU and
// allocation cost of one streamed search answer.
func BenchmarkHandlerFastPath(b *testing.B) {
	h := newHandler(b, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	body := oldStyleBody("golang generics tutorial", true, nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/messages", bytes.NewReader(body)))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkCompose is composing one answer (what a search-cache miss
// adds): the digest, four sealed results and their sealed citations.
func BenchmarkCompose(b *testing.B) {
	s := testSealer(b)
	call := &searchCall{Query: "golang generics tutorial", Tool: anthropic.Tool{Type: "web_search_20250305", Name: "web_search"}}
	o := &outcome{results: goResults, provider: "fake"}
	comp := &composer{sealer: s, now: time.Now().UTC(), maxQueryLen: 500}
	b.ReportAllocs()
	for b.Loop() {
		ans, err := comp.compose(call, o, false)
		if err != nil {
			b.Fatal(err)
		}
		ans.release()
	}
}
