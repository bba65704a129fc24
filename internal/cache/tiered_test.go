package cache

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// mapCache is a shared tier in a map, optionally telling entries' TTLs.
type mapCache struct {
	m       map[string]string
	ttls    map[string]time.Duration
	sets    int
	withTTL bool
}

func (c *mapCache) Get(_ context.Context, k string) (string, bool) { v, ok := c.m[k]; return v, ok }
func (c *mapCache) Set(_ context.Context, k, v string, ttl time.Duration) {
	c.sets++
	c.m[k], c.ttls[k] = v, ttl
}

type ttlCache struct{ *mapCache }

func (c ttlCache) GetTTL(_ context.Context, k string) (string, time.Duration, bool) {
	v, ok := c.m[k]
	return v, c.ttls[k] / 2, ok
}

func TestTiered(t *testing.T) {
	ctx := context.Background()
	for _, withTTL := range []bool{false, true} {
		t.Run(fmt.Sprint("ttl=", withTTL), func(t *testing.T) {
			shared := &mapCache{m: map[string]string{}, ttls: map[string]time.Duration{}}
			var sharedTier Cache[string] = shared
			if withTTL {
				sharedTier = ttlCache{shared}
			}
			var seen []string
			tc := &Tiered[string]{
				Local: NewLocal[string](10), Shared: sharedTier, BackfillTTL: time.Minute,
				Observe: func(tier string, hit bool) { seen = append(seen, fmt.Sprintf("%s:%v", tier, hit)) },
			}
			if _, ok := tc.Get(ctx, "k"); ok {
				t.Fatal("hit on an empty cache")
			}
			// Another replica stored it in the shared tier.
			shared.m["k"], shared.ttls["k"] = "v", time.Hour
			if v, ok := tc.Get(ctx, "k"); !ok || v != "v" {
				t.Fatalf("shared hit = %q %v", v, ok)
			}
			// Now it is local: the shared tier is not asked again.
			delete(shared.m, "k")
			if v, ok := tc.Get(ctx, "k"); !ok || v != "v" {
				t.Fatalf("backfilled local hit = %q %v", v, ok)
			}
			tc.Set(ctx, "n", "w", time.Minute)
			if shared.m["n"] != "w" || shared.ttls["n"] != time.Minute {
				t.Errorf("Set did not reach the shared tier: %v", shared.m)
			}
			if v, ok := tc.Local.Get(ctx, "n"); !ok || v != "w" {
				t.Errorf("Set did not reach the local tier")
			}
			want := "[local:false redis:false local:false redis:true local:true]"
			if fmt.Sprint(seen) != want {
				t.Errorf("observed %v, want %s", seen, want)
			}
		})
	}
}

func TestTieredLocalOnly(t *testing.T) {
	ctx := context.Background()
	var seen []string
	tc := &Tiered[int]{Local: NewLocal[int](10), Observe: func(tier string, hit bool) { seen = append(seen, fmt.Sprint(tier, hit)) }}
	tc.Set(ctx, "a", 1, time.Minute)
	if v, ok := tc.Get(ctx, "a"); !ok || v != 1 {
		t.Fatal("local hit lost")
	}
	if _, ok := tc.Get(ctx, "b"); ok {
		t.Fatal("phantom hit")
	}
	if fmt.Sprint(seen) != "[localtrue localfalse]" {
		t.Errorf("observed %v", seen)
	}
}
