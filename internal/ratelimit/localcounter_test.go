package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/ratelimit/countertest"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestLocalCounterContract(t *testing.T) {
	countertest.Run(t, func(t *testing.T) (ratelimit.Counter, func(time.Duration)) {
		clk := &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 30, 0, time.UTC)}
		return ratelimit.NewLocalCounter(clk.now), clk.advance
	})
}

// TestLocalCounterDayWindow: a 24h window is the UTC day, so a daily budget
// refused at 23:00 UTC is available again one hour later.
func TestLocalCounterDayWindow(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC)}
	c := ratelimit.NewLocalCounter(clk.now)
	ctx := context.Background()
	if d, _ := c.Allow(ctx, "budget", 1, 1, 24*time.Hour); !d.Allowed {
		t.Fatal("first call refused")
	}
	d, _ := c.Allow(ctx, "budget", 1, 1, 24*time.Hour)
	if d.Allowed || d.RetryAfter != time.Hour {
		t.Fatalf("second call = %+v, want refused until midnight UTC (1h)", d)
	}
	clk.advance(time.Hour)
	if d, _ := c.Allow(ctx, "budget", 1, 1, 24*time.Hour); !d.Allowed {
		t.Fatalf("after midnight = %+v", d)
	}
}

// TestLocalCounterSweeps: counts of ended windows do not accumulate.
func TestLocalCounterSweeps(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	c := ratelimit.NewLocalCounter(clk.now)
	ctx := context.Background()
	for round := range 20 {
		for i := range 1000 {
			if _, err := c.Allow(ctx, fmt.Sprintf("k%d-%d", round, i), 1, 5, time.Second); err != nil {
				t.Fatal(err)
			}
		}
		clk.advance(time.Second)
	}
	if n := c.Len(); n > 4096 {
		t.Fatalf("%d entries kept for 1000 live keys: ended windows are not swept", n)
	}
}
