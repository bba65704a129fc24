package metrics

import (
	"testing"
	"time"
)

// BenchmarkObserveRequest is what every HTTP request pays for metrics.
func BenchmarkObserveRequest(b *testing.B) {
	r := New(Options{})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r.ObserveRequest("messages", 200, 3*time.Millisecond)
		}
	})
}

// BenchmarkObserveCache is what every cache lookup pays per tier.
func BenchmarkObserveCache(b *testing.B) {
	r := New(Options{})
	b.ReportAllocs()
	for b.Loop() {
		r.ObserveCache(CacheSearch, TierLocal, true)
	}
}

func BenchmarkSnapshot(b *testing.B) {
	r := New(Options{})
	for i := range 10000 {
		r.ObserveRequest("api", 200, time.Duration(i)*time.Microsecond)
		r.ObserveProvider("brave", time.Millisecond, nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Snapshot()
	}
}
