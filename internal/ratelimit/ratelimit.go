// Package ratelimit implements search.Limiter with in-process token buckets
// (golang.org/x/time/rate), one per key. The engine keys calls by provider
// name, so each provider gets its own rate and burst.
//
// The interface the engine sees is one method, Wait(ctx, key), so a shared
// implementation (for example Redis, for several webgate replicas behind
// one API key) can replace Local without touching the engine.
package ratelimit

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/time/rate"
)

// ErrWouldExceedDeadline means waiting for a token would outlast the
// caller's deadline, so Wait gave up at once instead of sleeping in vain.
var ErrWouldExceedDeadline = errors.New("rate limit wait would exceed the deadline")

// Limit is a token bucket: RPS tokens per second, at most Burst saved up.
type Limit struct {
	RPS   float64
	Burst int
}

// Unlimited reports whether l imposes no limit (RPS <= 0).
func (l Limit) Unlimited() bool { return l.RPS <= 0 }

// Local holds one token bucket per configured key. Keys without a
// configured limit are not limited. It is safe for concurrent use and never
// changes after construction, so Wait takes no lock of its own.
type Local struct {
	buckets map[string]*rate.Limiter
}

// NewLocal builds buckets for limits. Entries with RPS <= 0 are unlimited;
// a Burst below 1 is raised to 1 so a limited key can make progress at all.
func NewLocal(limits map[string]Limit) *Local {
	l := &Local{buckets: make(map[string]*rate.Limiter, len(limits))}
	for k, lim := range limits {
		if lim.Unlimited() {
			continue
		}
		l.buckets[k] = rate.NewLimiter(rate.Limit(lim.RPS), max(lim.Burst, 1))
	}
	return l
}

// Wait blocks until key may make one call, or fails when ctx ends first. If
// ctx has a deadline that the wait would overrun, Wait fails immediately
// with an error wrapping ErrWouldExceedDeadline, so the engine can fall back
// to another provider instead of sleeping.
func (l *Local) Wait(ctx context.Context, key string) error {
	b := l.buckets[key]
	if b == nil {
		return ctx.Err()
	}
	if err := b.Wait(ctx); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("rate limit %s: %w", key, ctx.Err())
		}
		// rate.Limiter refuses up front when the reservation would end after
		// the deadline.
		return fmt.Errorf("rate limit %s: %w", key, ErrWouldExceedDeadline)
	}
	return nil
}
