// Package cache provides the caching tiers shared by search and fetch.
//
// Cache is deliberately tiny so a shared Redis tier can sit behind the same
// interface later: Local is the in-process tier, built on otter, which keeps
// values as Go objects so a hit costs no decoding.
package cache

import (
	"context"
	"time"

	"github.com/maypok86/otter/v2"
	"github.com/maypok86/otter/v2/stats"
)

// Cache stores values by key for a bounded time.
type Cache[V any] interface {
	// Get returns the value for key if present and unexpired.
	Get(ctx context.Context, key string) (V, bool)
	// Set stores v under key for ttl. A ttl <= 0 stores nothing.
	Set(ctx context.Context, key string, v V, ttl time.Duration)
}

// Stats are cumulative counters of a cache tier.
type Stats struct {
	Hits, Misses uint64
	Size         int
}

// Local is an in-process, size-bounded cache with per-entry TTL.
type Local[V any] struct {
	c   *otter.Cache[string, entry[V]]
	rec *stats.Counter
}

type entry[V any] struct {
	v   V
	ttl time.Duration
}

// NewLocal returns a Local cache holding at most size entries. size <= 0
// yields a cache that stores nothing, which is how caching is disabled.
func NewLocal[V any](size int) *Local[V] {
	if size <= 0 {
		return &Local[V]{}
	}
	rec := stats.NewCounter()
	c := otter.Must(&otter.Options[string, entry[V]]{
		MaximumSize:   size,
		StatsRecorder: rec,
		ExpiryCalculator: otter.ExpiryWritingFunc(func(e otter.Entry[string, entry[V]]) time.Duration {
			return e.Value.ttl
		}),
	})
	return &Local[V]{c: c, rec: rec}
}

// Get implements Cache.
func (l *Local[V]) Get(_ context.Context, key string) (V, bool) {
	if l.c == nil {
		var zero V
		return zero, false
	}
	e, ok := l.c.GetIfPresent(key)
	return e.v, ok
}

// Set implements Cache.
func (l *Local[V]) Set(_ context.Context, key string, v V, ttl time.Duration) {
	if l.c == nil || ttl <= 0 {
		return
	}
	l.c.Set(key, entry[V]{v: v, ttl: ttl})
}

// Stats returns hit and miss counts and the current size.
func (l *Local[V]) Stats() Stats {
	if l.c == nil {
		return Stats{}
	}
	s := l.rec.Snapshot()
	return Stats{Hits: s.Hits, Misses: s.Misses, Size: l.c.EstimatedSize()}
}
