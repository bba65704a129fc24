package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/messages/wire"
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
	rd := wire.NewReader(r, 0, 0)
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
	call := &searchCall{Query: "golang generics tutorial", Tool: wire.Tool{Type: "web_search_20250305", Name: "web_search"}}
	o := &outcome{results: goResults, provider: "fake"}
	comp := &composer{sealer: s, now: time.Now().UTC(), maxQueryLen: 500}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := comp.compose(call, o); err != nil {
			b.Fatal(err)
		}
	}
}
