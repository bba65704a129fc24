package fetch_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/perf/gcfloor"
)

// shortParagraphs is a page of about size bytes made of short paragraphs,
// the shape that costs extraction the most memory per byte (two DOM
// nodes, a paragraph and its line break, per 17 bytes): 10 MiB holds
// about 600,000 of them.
func shortParagraphs(size int) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>Lines</title></head><body>\n")
	for i := 0; b.Len() < size-100; i++ {
		fmt.Fprintf(&b, "<p>Line %d</p>\n", i%10000)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// longArticle is a realistic article of about size bytes: site chrome,
// a style sheet and a script, then sections of prose paragraphs with
// inline links and emphasis, lists and tables.
func longArticle(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A long article</title>
<meta name="description" content="Budget hearings, in full."><style>body{font:1em/1.5 serif;max-width:40em}</style>
<script>window.dataLayer=[];</script></head><body>
<header class="site-header"><a href="/">Home</a><nav><ul><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul></nav></header>
<main><article><h1>A long article</h1><p class="byline">By A. Writer</p>
`)
	for i := 0; b.Len() < size-2000; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "<h2 id=\"s%d\">Section %d</h2>\n", i, i/10+1)
		}
		fmt.Fprintf(&b, `<p>On day %d the committee reviewed the <a href="/ref/%d">budget report</a>, which found that spending on <em>public transport</em> had risen for the third year while maintenance backlogs grew. Members asked how the figures compared with <a href="https://example.org/estimates/%d">earlier estimates</a> and whether the <strong>new timetable</strong> would change them.</p>
`, i, i, i)
		if i%25 == 0 {
			fmt.Fprintf(&b, "<ul><li>First point of day %d</li><li>Second point, with <code>budget.total()</code></li><li>Third point</li></ul>\n<table><tr><th>Year</th><th>Cost</th></tr><tr><td>%d</td><td>%d</td></tr></table>\n", i, 2000+i%20, i*3)
		}
	}
	b.WriteString("</article></main><footer><p>Copyright</p></footer></body></html>\n")
	return b.Bytes()
}

// memProbe samples the heap while work runs and reads the process's peak
// resident set size (Linux: /proc/self/status VmHWM, reset through
// /proc/self/clear_refs).
type memProbe struct {
	peakHeap atomic.Uint64
	stop     chan struct{}
	done     chan struct{}
}

func startProbe() *memProbe {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // reset VmHWM to the current RSS
	p := &memProbe{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > p.peakHeap.Load() {
				p.peakHeap.Store(v)
			}
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// end stops sampling and returns the peak heap and peak RSS in MiB (RSS
// 0 where the system does not tell).
func (p *memProbe) end() (heap, rss float64) {
	close(p.stop)
	<-p.done
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(st)) {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				rss = kb / 1024
			}
		}
	}
	return float64(p.peakHeap.Load()) / (1 << 20), rss
}

// BenchmarkExtractMemory fetches 1, 2 and 4 pages of 10 MiB at once
// through the fetcher with the content guard's stripping (as `webgate
// serve` runs it with server.min_heap_bytes: 67108864, a heap floor that
// can only raise the peak) and reports the peak heap and the
// peak resident set of the process, in MiB, how many pages came back
// whole and how many failed (timed out). The pages are a worst case (600,000 short paragraphs) and a
// realistic long article. The goal: 4 at once within the 512 MiB limit of
// deploy/, without GOMEMLIMIT.
//
//	go test ./internal/fetch -run '^$' -bench BenchmarkExtractMemory -benchtime 1x
func BenchmarkExtractMemory(b *testing.B) {
	if os.Getenv("GOMEMLIMIT") != "" {
		b.Skip("GOMEMLIMIT is set; the goal is without it")
	}
	defer gcfloor.Start(64 << 20).Stop() // server.min_heap_bytes
	pages := map[string][]byte{
		"paragraphs": shortParagraphs(10 << 20),
		"article":    longArticle(10 << 20),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, ok := pages[strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")[0]]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
	defer srv.Close()
	for _, name := range []string{"paragraphs", "article"} {
		for _, n := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				f, err := fetch.New(fetch.Options{AllowPrivateNetworks: true, IgnoreRobots: true, CacheTTL: -1,
					PerHostConcurrency: n, Timeout: 2 * time.Minute})
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				g := guard.NewLayer(guard.LayerOptions{StripHidden: true, FlagInjection: true}).Getter(f)
				var heap, rss, whole, failed float64
				for i := 0; b.Loop(); i++ {
					p := startProbe()
					var wg sync.WaitGroup
					var complete, errs atomic.Int64
					for j := range n {
						wg.Go(func() {
							res, err := g.Fetch(context.Background(), fetch.Request{URL: fmt.Sprintf("%s/%s/%d-%d", srv.URL, name, i, j)})
							switch {
							case err != nil:
								// A page that times out is a result
								// to report, not a broken benchmark.
								b.Log(err)
								errs.Add(1)
							case !res.Incomplete:
								complete.Add(1)
							}
						})
					}
					wg.Wait()
					h, r := p.end()
					heap, rss = max(heap, h), max(rss, r)
					whole, failed = float64(complete.Load()), float64(errs.Load())
				}
				b.ReportMetric(heap, "peak-heap-MiB")
				if rss > 0 {
					b.ReportMetric(rss, "peak-rss-MiB")
				}
				b.ReportMetric(whole, "whole-pages")
				b.ReportMetric(failed, "failed-pages")
			})
		}
	}
}
