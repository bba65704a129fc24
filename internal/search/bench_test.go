package search

import (
	"context"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/cache"
)

// benchProvider answers instantly with ten results, so the benchmarks
// measure the engine, not a backend.
type benchProvider struct{ res []Result }

func (p benchProvider) Name() string { return "bench" }
func (p benchProvider) Search(context.Context, Query) ([]Result, error) {
	return p.res, nil
}

func newBenchEngine(b *testing.B, c cache.Cache[*Response]) *Engine {
	b.Helper()
	res := make([]Result, 10)
	for i := range res {
		res[i] = Result{Title: "Result " + strconv.Itoa(i), URL: "https://example" + strconv.Itoa(i) + ".com/page", Snippet: "snippet"}
	}
	e, err := NewEngine(Options{Providers: []Provider{benchProvider{res}}, Cache: c, CacheTTL: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// benchQuery is a realistic query: some text, a count and a domain rule.
var benchQuery = Query{Text: "golang generics tutorial", MaxResults: 10, BlockedDomains: []string{"pinterest.com"}}

// BenchmarkSearchCacheHit measures a cache hit end to end through
// Engine.Search and reports the p50 and p99 latency of single calls.
func BenchmarkSearchCacheHit(b *testing.B) {
	e := newBenchEngine(b, cache.NewLocal[*Response](10000))
	ctx := context.Background()
	if _, err := e.Search(ctx, benchQuery); err != nil {
		b.Fatal(err)
	}
	durs := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		r, err := e.Search(ctx, benchQuery)
		durs = append(durs, time.Since(start))
		if err != nil || !r.Cached {
			b.Fatalf("not a cache hit: %v", err)
		}
	}
	b.StopTimer()
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(durs[min(len(durs)-1, len(durs)*99/100)].Nanoseconds()), "p99-ns")
}

// BenchmarkSearchParallel measures throughput through the Engine with a
// zero-latency provider: "miss" makes every query distinct (validation,
// domain parsing, coalescing, filtering, de-duplication and a cache write
// each time), "hit" repeats one cached query.
func BenchmarkSearchParallel(b *testing.B) {
	b.Run("miss", func(b *testing.B) {
		e := newBenchEngine(b, cache.NewLocal[*Response](10000))
		var n atomic.Int64
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			ctx := context.Background()
			for pb.Next() {
				q := benchQuery
				q.Text = "query " + strconv.FormatInt(n.Add(1), 10)
				if _, err := e.Search(ctx, q); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("hit", func(b *testing.B) {
		e := newBenchEngine(b, cache.NewLocal[*Response](10000))
		if _, err := e.Search(context.Background(), benchQuery); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			ctx := context.Background()
			for pb.Next() {
				if _, err := e.Search(ctx, benchQuery); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
