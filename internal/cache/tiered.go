package cache

import (
	"context"
	"time"
)

// Tier names, as reported to Tiered.Observe.
const (
	TierLocal  = "local"
	TierShared = "redis"
)

// TTLGetter is implemented by a shared tier that can tell how long an
// entry has left, so Tiered copies it into the local tier for no longer
// than the shared tier keeps it.
type TTLGetter[V any] interface {
	GetTTL(ctx context.Context, key string) (v V, ttl time.Duration, ok bool)
}

// Tiered is a two-level cache: the local tier answers first; on a miss the
// shared tier (Redis, shared by every replica) is asked, and what it has is
// copied into the local tier for the rest of its lifetime. Set writes both.
//
// The shared tier may fail or vanish at any time; a Tiered built over one
// that does behaves as its local tier alone, because a failing shared tier
// reports misses and drops writes (see redisstore.Cache).
type Tiered[V any] struct {
	// Local is the in-process tier. It must not be nil.
	Local Cache[V]
	// Shared is the second-level tier; nil means local only.
	Shared Cache[V]
	// BackfillTTL is how long a shared hit is kept locally when the
	// shared tier cannot say how long the entry has left.
	BackfillTTL time.Duration
	// Observe, when set, is told the outcome of every lookup in every tier
	// asked (for metrics).
	Observe func(tier string, hit bool)
}

// Get implements Cache.
func (t *Tiered[V]) Get(ctx context.Context, key string) (V, bool) {
	v, ok := t.Local.Get(ctx, key)
	t.observe(TierLocal, ok)
	if ok || t.Shared == nil {
		return v, ok
	}
	ttl := t.BackfillTTL
	if g, isTTL := t.Shared.(TTLGetter[V]); isTTL {
		v, ttl, ok = g.GetTTL(ctx, key)
	} else {
		v, ok = t.Shared.Get(ctx, key)
	}
	t.observe(TierShared, ok)
	if ok && ttl > 0 {
		t.Local.Set(ctx, key, v, ttl)
	}
	return v, ok
}

// Set implements Cache.
func (t *Tiered[V]) Set(ctx context.Context, key string, v V, ttl time.Duration) {
	t.Local.Set(ctx, key, v, ttl)
	if t.Shared != nil {
		t.Shared.Set(ctx, key, v, ttl)
	}
}

func (t *Tiered[V]) observe(tier string, hit bool) {
	if t.Observe != nil {
		t.Observe(tier, hit)
	}
}
