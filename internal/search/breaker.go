package search

import (
	"errors"
	"sync"
	"time"
)

// BreakerState is the state of a provider's circuit breaker.
type BreakerState string

// Breaker states.
const (
	// BreakerClosed lets every request through.
	BreakerClosed BreakerState = "closed"
	// BreakerOpen skips the provider until the cooldown ends.
	BreakerOpen BreakerState = "open"
	// BreakerHalfOpen lets one trial request through; its outcome closes or
	// re-opens the breaker.
	BreakerHalfOpen BreakerState = "half-open"
)

// ProviderStatus is a snapshot of one provider's health, for `webgate
// providers` and the console.
type ProviderStatus struct {
	Name  string
	State BreakerState
	// ConsecutiveFailures counts failures since the last success.
	ConsecutiveFailures int
	// LastError is the most recent failure, nil if none yet.
	LastError error
	// LastErrorAt is when LastError happened.
	LastErrorAt time.Time
	// OpenUntil is when an open breaker lets a trial through; zero unless
	// State is BreakerOpen.
	OpenUntil time.Time
}

// breaker is a consecutive-failure circuit breaker with a single half-open
// trial. Every allow() that returns true must be followed by exactly one of
// success, failure or release, which is how the half-open trial slot is
// handed back.
type breaker struct {
	threshold int
	cooldown  time.Duration

	mu        sync.Mutex
	state     BreakerState
	failures  int
	openUntil time.Time
	trial     bool // a half-open trial request is in flight
	lastErr   error
	lastErrAt time.Time
}

func newBreaker(threshold int, cooldown time.Duration) *breaker {
	return &breaker{threshold: threshold, cooldown: cooldown, state: BreakerClosed}
}

// allow reports whether a request may go to the provider now. In the open
// state it turns half-open once the cooldown has passed and admits exactly
// one trial.
func (b *breaker) allow(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case BreakerClosed:
		return true
	case BreakerOpen:
		if now.Before(b.openUntil) {
			return false
		}
		b.state = BreakerHalfOpen
		b.openUntil = time.Time{}
		b.trial = true
		return true
	default: // half-open
		if b.trial {
			return false
		}
		b.trial = true
		return true
	}
}

// success closes the breaker.
func (b *breaker) success() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state = BreakerClosed
	b.failures = 0
	b.trial = false
	b.openUntil = time.Time{}
}

// failure records a failed request. It reports whether this failure opened
// the breaker. A failed half-open trial re-opens it; severe errors (see
// tripsAtOnce) open it regardless of the count. A rate-limit error carrying
// Retry-After opens it for exactly that long (unless it is already open for
// longer), so every request, not only this one, leaves the provider alone
// for as long as it asked.
func (b *breaker) failure(now time.Time, err error) (opened bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures++
	b.lastErr = err
	b.lastErrAt = now
	wasOpen := b.state == BreakerOpen
	until := time.Time{}
	if b.state == BreakerHalfOpen || b.failures >= b.threshold || tripsAtOnce(err) {
		until = now.Add(b.cooldown)
	}
	if ra := RetryAfterOf(err); ra > 0 && errors.Is(err, ErrRateLimited) && now.Add(ra).After(until) {
		until = now.Add(ra)
	}
	if !until.IsZero() {
		b.state = BreakerOpen
		if until.After(b.openUntil) || !wasOpen {
			b.openUntil = until
		}
	}
	b.trial = false
	return !wasOpen && b.state == BreakerOpen
}

// release ends a request that gave no verdict on the provider's health (the
// query was invalid, the request was cancelled by the caller or lost a
// hedge, or a local rate limit skipped it). A half-open breaker stays
// half-open and the next request becomes the trial.
func (b *breaker) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.trial = false
}

// openAt reports whether the breaker will still refuse requests at t (used
// to stop retrying when a failure opened it for longer than the retry
// wait).
func (b *breaker) openAt(t time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state == BreakerOpen && t.Before(b.openUntil)
}

func (b *breaker) status(name string) ProviderStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	return ProviderStatus{
		Name: name, State: b.state, ConsecutiveFailures: b.failures,
		LastError: b.lastErr, LastErrorAt: b.lastErrAt, OpenUntil: b.openUntil,
	}
}

// tripsAtOnce reports whether err opens a breaker on its own: bad
// credentials, an exhausted quota and an outright block do not heal within
// seconds, and hammering a provider that blocks us (DuckDuckGo's anomaly
// page) only prolongs the block. Transient errors (ErrUnavailable,
// ErrRateLimited) need BreakerFailures in a row.
func tripsAtOnce(err error) bool {
	return errors.Is(err, ErrAuth) || errors.Is(err, ErrQuota) || errors.Is(err, ErrBlocked)
}
