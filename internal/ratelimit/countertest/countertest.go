// Package countertest is the contract every ratelimit.Counter must meet,
// run against each implementation (the in-process LocalCounter, the Redis
// counter) so they behave the same behind the policy layer.
package countertest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/ratelimit"
)

// Factory returns a fresh Counter with no counts, and a function that moves
// the counter's clock forward by d (for a real backend: fast-forward its
// clock, or sleep in integration tests).
type Factory func(t *testing.T) (c ratelimit.Counter, advance func(d time.Duration))

// Run runs the contract against counters made by newCounter.
func Run(t *testing.T, newCounter Factory) {
	t.Run("LimitThenRefuse", func(t *testing.T) {
		c, _ := newCounter(t)
		ctx := context.Background()
		for i := range 3 {
			d := allow(t, c, ctx, "k", 1, 3, time.Minute)
			if !d.Allowed || d.Remaining != 2-i {
				t.Fatalf("call %d = %+v, want allowed with %d remaining", i+1, d, 2-i)
			}
		}
		d := allow(t, c, ctx, "k", 1, 3, time.Minute)
		if d.Allowed || d.Remaining != 0 {
			t.Fatalf("4th call = %+v, want refused with 0 remaining", d)
		}
		if d.RetryAfter <= 0 || d.RetryAfter > time.Minute {
			t.Fatalf("RetryAfter = %s, want within the 1m window", d.RetryAfter)
		}
	})
	t.Run("RefusalDoesNotConsume", func(t *testing.T) {
		c, _ := newCounter(t)
		ctx := context.Background()
		if d := allow(t, c, ctx, "k", 3, 5, time.Hour); !d.Allowed || d.Remaining != 2 {
			t.Fatalf("n=3 of 5 = %+v", d)
		}
		if d := allow(t, c, ctx, "k", 3, 5, time.Hour); d.Allowed || d.Remaining != 2 {
			t.Fatalf("n=3 more = %+v, want refused with 2 remaining", d)
		}
		if d := allow(t, c, ctx, "k", 2, 5, time.Hour); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("n=2 after a refusal = %+v, want allowed: a refusal must not consume", d)
		}
	})
	t.Run("WindowResets", func(t *testing.T) {
		c, advance := newCounter(t)
		ctx := context.Background()
		allow(t, c, ctx, "k", 2, 2, 2*time.Second)
		d := allow(t, c, ctx, "k", 1, 2, 2*time.Second)
		if d.Allowed {
			t.Fatalf("over the limit: %+v", d)
		}
		advance(d.RetryAfter + 10*time.Millisecond)
		if d := allow(t, c, ctx, "k", 2, 2, 2*time.Second); !d.Allowed {
			t.Fatalf("after the window ended: %+v, want the full limit again", d)
		}
	})
	t.Run("KeysAndWindowsAreIndependent", func(t *testing.T) {
		c, _ := newCounter(t)
		ctx := context.Background()
		allow(t, c, ctx, "a", 1, 1, time.Minute)
		if d := allow(t, c, ctx, "b", 1, 1, time.Minute); !d.Allowed {
			t.Fatalf("key b limited by key a: %+v", d)
		}
		if d := allow(t, c, ctx, "a", 1, 1, time.Minute); d.Allowed {
			t.Fatalf("key a over its limit: %+v", d)
		}
	})
	t.Run("ZeroLimitRefusesAll", func(t *testing.T) {
		c, _ := newCounter(t)
		if d := allow(t, c, context.Background(), "z", 1, 0, time.Minute); d.Allowed {
			t.Fatalf("limit 0 allowed a call: %+v", d)
		}
	})
	t.Run("InvalidArguments", func(t *testing.T) {
		c, _ := newCounter(t)
		if _, err := c.Allow(context.Background(), "k", 0, 5, time.Minute); err == nil {
			t.Error("n=0 accepted")
		}
	})
	t.Run("CancelledContext", func(t *testing.T) {
		c, _ := newCounter(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Allow(ctx, "k", 1, 5, time.Minute); err == nil {
			t.Error("a cancelled context was not reported")
		}
	})
	t.Run("ConcurrentCallsNeverOvershoot", func(t *testing.T) {
		c, _ := newCounter(t)
		const workers, limit = 64, 37
		var allowed atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for range workers {
			wg.Go(func() {
				d, err := c.Allow(context.Background(), "shared", 1, limit, time.Hour)
				if err != nil {
					errs <- err
					return
				}
				if d.Allowed {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := allowed.Load(); got != limit {
			t.Fatalf("%d of %d concurrent calls allowed, want exactly %d", got, workers, limit)
		}
	})
}

func allow(t *testing.T, c ratelimit.Counter, ctx context.Context, key string, n, limit int, win time.Duration) ratelimit.Decision {
	t.Helper()
	d, err := c.Allow(ctx, key, n, limit, win)
	if err != nil {
		t.Fatal(fmt.Errorf("Allow(%q, %d, %d, %s): %w", key, n, limit, win, err))
	}
	return d
}

// ClearOfWindowEdge waits, when needed, until a clock-aligned counting
// window of each given length has at least margin left, so that a test
// counting calls against a limit cannot straddle a window change (where
// the count starts afresh) however slowly the machine runs it.
func ClearOfWindowEdge(t testing.TB, margin time.Duration, windows ...time.Duration) {
	t.Helper()
	for _, w := range windows {
		left := w - time.Duration(time.Now().UnixNano()%int64(w))
		if left < margin {
			t.Logf("waiting %s for the next %s window", left.Round(time.Millisecond), w)
			time.Sleep(left + 50*time.Millisecond)
		}
	}
}
