package ratelimit

import (
	"context"
	"time"
)

// Counter counts events per key in fixed windows. Per-key request rate
// limits and daily search budgets are both Counters with different windows;
// the local implementation keeps counts in this process, the Redis one
// shares them between replicas.
type Counter interface {
	// Allow adds n events to key's current window of length window and
	// reports whether the window's total stays within limit. A refused
	// call does not consume from the window.
	Allow(ctx context.Context, key string, n, limit int, window time.Duration) (Decision, error)
}

// Decision is the answer of Counter.Allow.
type Decision struct {
	Allowed bool
	// Remaining is how many events the window still admits.
	Remaining int
	// RetryAfter is how long until the window resets, when refused.
	RetryAfter time.Duration
}
