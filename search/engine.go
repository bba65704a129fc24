package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/webgate/webgate/cache"
)

// Mode selects how the Engine uses its providers.
type Mode string

// Modes.
const (
	// ModeFallback asks providers in order until one answers.
	ModeFallback Mode = "fallback"
	// ModeFanOut asks several providers at once and fuses their rankings.
	ModeFanOut Mode = "fanout"
)

// Limiter throttles calls to a provider. Wait blocks until a call may
// proceed or ctx ends. Implementations may be local or shared (Redis).
type Limiter interface {
	Wait(ctx context.Context, key string) error
}

// Options configures an Engine. Zero values mean the documented defaults.
type Options struct {
	// Providers is the chain, in fallback order. It must not be empty.
	Providers []Provider
	// Mode is ModeFallback (default) or ModeFanOut.
	Mode Mode
	// FanOut is how many providers a fan-out query asks; default 3.
	FanOut int
	// MaxResults is the default result count; default 10.
	MaxResults int
	// Timeout bounds one Search call end to end; default 15s.
	Timeout time.Duration
	// Hedge starts the next provider after this delay; 0 disables.
	Hedge time.Duration
	// Retries per provider on retryable errors; default 0.
	Retries int
	// RetryBackoff is the first retry wait; default 200ms.
	RetryBackoff time.Duration
	// Cache stores responses; nil disables caching.
	Cache cache.Cache[*Response]
	// CacheTTL is the lifetime of cached responses; default 10m.
	CacheTTL time.Duration
	// Limiter throttles each provider (keyed by provider name); nil means
	// unlimited.
	Limiter Limiter
	// BreakerFailures consecutive failures open a provider's breaker;
	// default 5.
	BreakerFailures int
	// BreakerCooldown is how long an open breaker skips a provider; default
	// 30s.
	BreakerCooldown time.Duration
	// Logger receives debug and warning logs; nil discards.
	Logger *slog.Logger
}

// Engine runs queries against a chain of providers.
type Engine struct {
	opts   Options
	byName map[string]Provider
	log    *slog.Logger
}

// NewEngine validates opts and returns an Engine.
func NewEngine(opts Options) (*Engine, error) {
	if len(opts.Providers) == 0 {
		return nil, fmt.Errorf("search: %w", ErrNoProviders)
	}
	if opts.MaxResults <= 0 {
		opts.MaxResults = 10
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 15 * time.Second
	}
	e := &Engine{opts: opts, byName: map[string]Provider{}, log: opts.Logger}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	for _, p := range opts.Providers {
		e.byName[p.Name()] = p
	}
	return e, nil
}

// Search runs q. It returns results from the first provider that answers,
// filtered by q's domain rules.
func (e *Engine) Search(ctx context.Context, q Query) (*Response, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return nil, fmt.Errorf("search: %w: empty query", ErrInvalidQuery)
	}
	if q.MaxResults <= 0 {
		q.MaxResults = e.opts.MaxResults
	}
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	chain := e.opts.Providers
	if q.Provider != "" {
		p, ok := e.byName[q.Provider]
		if !ok {
			return nil, fmt.Errorf("search: provider %q: %w", q.Provider, ErrNoProviders)
		}
		chain = []Provider{p}
	}
	var errs []error
	resp := &Response{Query: q}
	for _, p := range chain {
		start := time.Now()
		res, err := p.Search(ctx, q)
		resp.Attempts = append(resp.Attempts, Attempt{Provider: p.Name(), Took: time.Since(start), Results: len(res), Err: err})
		if err != nil {
			errs = append(errs, err)
			if errors.Is(err, ErrInvalidQuery) {
				break
			}
			continue
		}
		if len(res) > q.MaxResults {
			res = res[:q.MaxResults]
		}
		resp.Provider = p.Name()
		resp.Results = res
		return resp, nil
	}
	return nil, fmt.Errorf("search: %w", errors.Join(errs...))
}
