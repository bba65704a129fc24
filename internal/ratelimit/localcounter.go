package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrInvalidCount means Allow was called with n < 1 or a window shorter
// than a millisecond, which no caller should do.
var ErrInvalidCount = errors.New("ratelimit: n must be at least 1 and window at least 1ms")

// LocalCounter is the in-process Counter: per-key counts in fixed windows
// aligned to the clock (window start = now truncated to a multiple of the
// window since the zero time, so a 24h window starts at midnight UTC and a
// 1m window at the start of each minute). It is safe for concurrent use.
//
// Memory is bounded by the keys active in their current window: counts of
// ended windows are swept as the map grows.
type LocalCounter struct {
	now func() time.Time

	mu        sync.Mutex
	counts    map[counterKey]*window
	sweepSize int // sweep ended windows when len(counts) reaches this
}

type counterKey struct {
	key    string
	window time.Duration
}

type window struct {
	start time.Time
	count int
}

// NewLocalCounter returns a LocalCounter. now is the clock; nil means
// time.Now.
func NewLocalCounter(now func() time.Time) *LocalCounter {
	if now == nil {
		now = time.Now
	}
	return &LocalCounter{now: now, counts: map[counterKey]*window{}, sweepSize: 1024}
}

var _ Counter = (*LocalCounter)(nil)

// Allow implements Counter.
func (c *LocalCounter) Allow(ctx context.Context, key string, n, limit int, win time.Duration) (Decision, error) {
	if n < 1 || win < time.Millisecond {
		return Decision{}, fmt.Errorf("allow %q n=%d window=%s: %w", key, n, win, ErrInvalidCount)
	}
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	now := c.now()
	start := now.Truncate(win)
	c.mu.Lock()
	defer c.mu.Unlock()
	k := counterKey{key, win}
	w := c.counts[k]
	if w == nil {
		if len(c.counts) >= c.sweepSize {
			c.sweep(now)
		}
		w = &window{start: start}
		c.counts[k] = w
	} else if !w.start.Equal(start) {
		w.start, w.count = start, 0
	}
	if w.count+n > limit {
		return Decision{Allowed: false, Remaining: max(limit-w.count, 0), RetryAfter: start.Add(win).Sub(now)}, nil
	}
	w.count += n
	return Decision{Allowed: true, Remaining: limit - w.count}, nil
}

// sweep drops the counts of windows that have ended, and doubles the
// threshold when most entries are live so sweeping stays amortised O(1).
func (c *LocalCounter) sweep(now time.Time) {
	for k, w := range c.counts {
		if !now.Before(w.start.Add(k.window)) {
			delete(c.counts, k)
		}
	}
	if len(c.counts) >= c.sweepSize/2 {
		c.sweepSize *= 2
	}
}

// Len reports how many key windows are held, for tests and metrics.
func (c *LocalCounter) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.counts)
}
