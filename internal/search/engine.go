package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/domains"
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
// proceed or ctx ends. Implementations may be local or shared (Redis); an
// error while ctx is still alive means "not within the deadline" and makes
// the Engine move on to the next provider without counting a failure.
type Limiter interface {
	Wait(ctx context.Context, key string) error
}

// Options configures an Engine. Zero values mean the documented defaults.
type Options struct {
	// Providers is the chain, in fallback order. It must not be empty and
	// names must be unique.
	Providers []Provider
	// Mode is ModeFallback (default) or ModeFanOut.
	Mode Mode
	// FanOut is how many providers a fan-out query asks; default 3.
	FanOut int
	// MaxResults is the default result count; default 10, at most 50.
	MaxResults int
	// SafeSearch is the adult-content filter of queries that set none;
	// empty leaves each provider's own default.
	SafeSearch SafeSearch
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

// member is one provider in the chain with its breaker.
type member struct {
	p    Provider
	name string
	br   *breaker
}

// Engine runs queries against a chain of providers. It is safe for
// concurrent use.
type Engine struct {
	opts   Options
	fanOut int
	chain  []*member
	byName map[string]*member
	log    *slog.Logger
	flight singleflight.Group

	// Seams for tests; production uses the real clock and randomness.
	now    func() time.Time
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func() float64 // in [0, 1)
	// joined, when set, is called once a caller is waiting on a (possibly
	// shared) provider run; tests use it to know every caller has joined.
	joined func()
}

// errEngineTimeout is the cause of a context ended by Options.Timeout, which
// tells a slow provider (counts against its breaker) apart from a caller
// that gave up (does not).
var errEngineTimeout = errors.New("search deadline exceeded")

// errHedgeLost is the cause of a context cancelled because another provider
// answered first.
var errHedgeLost = errors.New("another provider answered first")

// NewEngine validates opts and returns an Engine.
func NewEngine(opts Options) (*Engine, error) {
	if len(opts.Providers) == 0 {
		return nil, fmt.Errorf("search: %w", ErrNoProviders)
	}
	switch opts.Mode {
	case "":
		opts.Mode = ModeFallback
	case ModeFallback, ModeFanOut:
	default:
		return nil, fmt.Errorf("search: unknown mode %q (want %q or %q)", opts.Mode, ModeFallback, ModeFanOut)
	}
	if opts.FanOut <= 0 {
		opts.FanOut = 3
	}
	if opts.MaxResults <= 0 {
		opts.MaxResults = 10
	}
	opts.MaxResults = min(opts.MaxResults, MaxResultsLimit)
	if opts.Timeout <= 0 {
		opts.Timeout = 15 * time.Second
	}
	opts.Hedge = max(opts.Hedge, 0)
	opts.Retries = max(opts.Retries, 0)
	if opts.RetryBackoff <= 0 {
		opts.RetryBackoff = 200 * time.Millisecond
	}
	if opts.CacheTTL <= 0 {
		opts.CacheTTL = 10 * time.Minute
	}
	if opts.BreakerFailures <= 0 {
		opts.BreakerFailures = 5
	}
	if opts.BreakerCooldown <= 0 {
		opts.BreakerCooldown = 30 * time.Second
	}
	e := &Engine{
		opts:   opts,
		byName: make(map[string]*member, len(opts.Providers)),
		log:    opts.Logger,
		now:    time.Now,
		sleep:  sleepCtx,
		jitter: rand.Float64,
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	for _, p := range opts.Providers {
		if p == nil {
			return nil, errors.New("search: nil provider in chain")
		}
		name := p.Name()
		if _, dup := e.byName[name]; dup {
			return nil, fmt.Errorf("search: provider %q is in the chain twice", name)
		}
		m := &member{p: p, name: name, br: newBreaker(opts.BreakerFailures, opts.BreakerCooldown)}
		e.chain = append(e.chain, m)
		e.byName[name] = m
	}
	e.fanOut = min(opts.FanOut, len(e.chain))
	return e, nil
}

// Status reports every provider's breaker, in chain order.
func (e *Engine) Status() []ProviderStatus {
	out := make([]ProviderStatus, len(e.chain))
	for i, m := range e.chain {
		out[i] = m.br.status(m.name)
	}
	return out
}

// Search runs q: it validates and normalises the query, answers from the
// cache when it can, coalesces identical concurrent misses into one
// provider run, and otherwise asks the chain (in fallback or fan-out mode).
// Results always satisfy q's domain rules, are de-duplicated, truncated to
// MaxResults and ranked from 1.
//
// The returned Response, and in particular its Results slice, may be shared
// with the cache and with concurrent callers: treat it as read-only and copy
// Results before modifying them.
func (e *Engine) Search(ctx context.Context, q Query) (*Response, error) {
	if err := e.normalize(&q); err != nil {
		return nil, err
	}
	key := e.cacheKey(&q)
	if e.opts.Cache != nil {
		if r, ok := e.opts.Cache.Get(ctx, key); ok && r != nil {
			if r.Cached && r.Attempts == nil {
				// Stored by this process (below), already marked: shared
				// read-only, as the doc says, instead of copied per hit.
				return r, nil
			}
			out := *r // decoded from a shared tier
			out.Cached = true
			out.Attempts = nil
			return &out, nil
		}
	}
	if ctx.Err() != nil {
		return nil, ctxErr(ctx)
	}
	// The shared run must not die with whichever caller happened to start
	// it: it gets a context detached from the caller's cancellation but
	// still bounded by the engine timeout, and each caller waits on its own
	// context. The closure gets its own copy of q so that only a miss pays
	// for moving the query to the heap.
	fq := q
	ch := e.flight.DoChan(key, func() (any, error) {
		fctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), e.opts.Timeout, errEngineTimeout)
		defer cancel()
		resp, err := e.run(fctx, fq)
		if err != nil {
			return nil, err
		}
		if e.opts.Cache != nil {
			stored := *resp
			stored.Attempts, stored.Cached = nil, true
			e.opts.Cache.Set(fctx, key, &stored, e.opts.CacheTTL)
		}
		return resp, nil
	})
	if e.joined != nil {
		e.joined()
	}
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		out := *res.Val.(*Response)
		return &out, nil
	case <-ctx.Done():
		return nil, ctxErr(ctx)
	}
}

// ctxErr reports why the caller's context ended, keeping both the standard
// error (for errors.Is(err, context.Canceled)) and a custom cause, if any.
func ctxErr(ctx context.Context) error {
	err, cause := ctx.Err(), context.Cause(ctx)
	if cause == nil || cause == err {
		return fmt.Errorf("search: %w", err)
	}
	return fmt.Errorf("search: %w: %w", err, cause)
}

// engineLimits is what the Engine itself refuses: DefaultLimits, except
// that any non-empty query is searched. The surfaces apply the whole
// contract (DefaultLimits, or the Messages surfaces' own) before they
// call the Engine; the Engine is the last line for programs using it
// directly.
var engineLimits = Limits{MinQueryLen: 1, MaxQueryLen: MaxQueryLen, MaxResults: MaxResultsLimit, MaxDomains: MaxDomainFilter}

// normalize validates q and applies defaults in place. Every error wraps
// ErrInvalidQuery (or ErrNoProviders for an unknown provider name). A
// result count above the limit is lowered to it rather than refused.
func (e *Engine) normalize(q *Query) error {
	q.Text = strings.TrimSpace(q.Text)
	q.MaxResults = min(q.MaxResults, MaxResultsLimit)
	if err := q.Validate(engineLimits); err != nil {
		return err
	}
	if q.MaxResults <= 0 {
		q.MaxResults = e.opts.MaxResults
	}
	if q.SafeSearch == SafeSearchDefault {
		q.SafeSearch = e.opts.SafeSearch
	}
	if q.Provider != "" {
		if _, ok := e.byName[q.Provider]; !ok {
			return fmt.Errorf("search: provider %q is not configured: %w", q.Provider, ErrNoProviders)
		}
	}
	return nil
}

// hasControl reports whether s contains ASCII control characters; with
// allowSpace, tabs and line breaks are tolerated (they are white space in a
// query).
func hasControl(s string, allowSpace bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			if allowSpace && (c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
				continue
			}
			return true
		}
	}
	return false
}

func isASCIIAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// run executes a normalised query against the providers under ctx (which
// carries the engine deadline).
func (e *Engine) run(ctx context.Context, q Query) (*Response, error) {
	filter, err := domains.Parse(q.AllowedDomains, q.BlockedDomains)
	if err != nil {
		return nil, fmt.Errorf("search: %w: %w", ErrInvalidQuery, err)
	}
	// Providers get the canonical entries: ASCII hosts they can push down.
	if filter.Mode() == domains.ModeAllow {
		q.AllowedDomains = filter.Strings()
	} else if filter.Mode() == domains.ModeBlock {
		q.BlockedDomains = filter.Strings()
	}
	chain := e.chain
	if q.Provider != "" {
		chain = []*member{e.byName[q.Provider]}
	}
	// Domain rules are pushed down as well as each provider can (API
	// parameters, site: operators), but many backends ignore -site: or
	// cannot express a path prefix, and the Engine's own filter then drops
	// results. Asking for more makes max_results met whenever enough
	// allowed results exist; finish cuts back to what was asked.
	pq := q
	if filter.Mode() != domains.ModeNone {
		pq.MaxResults = overfetch(q.MaxResults)
	}
	var resp *Response
	switch {
	case e.opts.Mode == ModeFanOut && q.Provider == "":
		resp, err = e.fanOutRun(ctx, pq, chain, filter)
	case e.opts.Hedge > 0 && len(chain) > 1:
		resp, err = e.hedged(ctx, pq, chain, filter)
	default:
		resp, err = e.sequential(ctx, pq, chain, filter)
	}
	if err != nil {
		return nil, err
	}
	resp.Query = q
	resp.Results = finish(resp.Results, q.MaxResults)
	return resp, nil
}

// overfetch is how many results to ask a provider for when domain rules
// may drop some of them: twice what was asked, at least ten more, within
// MaxResultsLimit.
func overfetch(n int) int {
	return min(MaxResultsLimit, max(2*n, n+10))
}

// outcome is what one provider run (with its retries) produced.
type outcome struct {
	m        *member
	results  []Result
	attempts []Attempt
	err      error
}

// sequential asks the chain in order until a provider answers.
func (e *Engine) sequential(ctx context.Context, q Query, chain []*member, f *domains.Filter) (*Response, error) {
	resp := &Response{}
	var errs []error
	for _, m := range chain {
		if !m.br.allow(e.now()) {
			errs = append(errs, e.skipErr(m))
			continue
		}
		o := e.runProvider(ctx, m, q)
		resp.Attempts = append(resp.Attempts, o.attempts...)
		if o.err == nil {
			resp.Provider = m.name
			resp.Results = clean(o.results, f, m.name)
			return resp, nil
		}
		errs = append(errs, o.err)
		if errors.Is(o.err, ErrInvalidQuery) || ctx.Err() != nil {
			break
		}
	}
	return nil, e.failed(ctx, resp.Attempts, errs)
}

// hedged asks the chain in order but, when the running provider has not
// answered after Options.Hedge, also starts the next one; a failure starts
// the next one at once. The first success wins and the others are
// cancelled. Every goroutine sends to a channel buffered for all of them,
// so none blocks after Search has returned, and each ends as soon as its
// provider honours the cancellation.
func (e *Engine) hedged(ctx context.Context, q Query, chain []*member, f *domains.Filter) (*Response, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(errHedgeLost)
	results := make(chan outcome, len(chain))
	resp := &Response{}
	var errs []error
	next, running := 0, 0
	start := func() {
		for next < len(chain) {
			m := chain[next]
			next++
			if !m.br.allow(e.now()) {
				errs = append(errs, e.skipErr(m))
				continue
			}
			running++
			go func() { results <- e.runProvider(ctx, m, q) }()
			return
		}
	}
	timer := time.NewTimer(e.opts.Hedge)
	defer timer.Stop()
	start()
	for running > 0 {
		var hedge <-chan time.Time
		if next < len(chain) {
			hedge = timer.C
		}
		select {
		case o := <-results:
			running--
			resp.Attempts = append(resp.Attempts, o.attempts...)
			if o.err == nil {
				resp.Provider = o.m.name
				resp.Results = clean(o.results, f, o.m.name)
				return resp, nil
			}
			errs = append(errs, o.err)
			if errors.Is(o.err, ErrInvalidQuery) {
				return nil, e.failed(ctx, resp.Attempts, errs)
			}
			start()
			timer.Reset(e.opts.Hedge)
		case <-hedge:
			e.log.Debug("search: hedging", "after", e.opts.Hedge, "next", chain[next].name)
			start()
			timer.Reset(e.opts.Hedge)
		case <-ctx.Done():
			return nil, e.failed(ctx, resp.Attempts, errs)
		}
	}
	return nil, e.failed(ctx, resp.Attempts, errs)
}

// fanOutRun asks the first FanOut providers whose breakers are closed at
// once and fuses their answers. It waits for all of them (or the deadline)
// and tolerates partial failure: any success makes a response. If every
// provider asked fails, the rest of the chain is tried in order.
func (e *Engine) fanOutRun(ctx context.Context, q Query, chain []*member, f *domains.Filter) (*Response, error) {
	var errs []error
	var picked []*member
	for _, m := range chain {
		if len(picked) == e.fanOut {
			break
		}
		if !m.br.allow(e.now()) {
			errs = append(errs, e.skipErr(m))
			continue
		}
		picked = append(picked, m)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(errHedgeLost)
	results := make(chan outcome, len(picked))
	for _, m := range picked {
		go func() { results <- e.runProvider(ctx, m, q) }()
	}
	got := make([]outcome, 0, len(picked))
wait:
	for range picked {
		select {
		case o := <-results:
			got = append(got, o)
		case <-ctx.Done():
			break wait
		}
	}
	resp := &Response{}
	var lists [][]Result
	var names []string
	// Fuse in chain order, whatever order the answers arrived in, so the
	// tie-break and the Provider string are deterministic.
	for _, m := range picked {
		for _, o := range got {
			if o.m != m {
				continue
			}
			resp.Attempts = append(resp.Attempts, o.attempts...)
			if o.err != nil {
				errs = append(errs, o.err)
				continue
			}
			names = append(names, m.name)
			lists = append(lists, clean(o.results, f, m.name))
		}
	}
	if len(names) == 0 {
		// Nobody in the fan-out answered: rather than fail while healthy
		// providers remain further down the chain, fall back through them
		// in order, unless the query itself was refused or time is up.
		if rest := notPicked(chain, picked); len(rest) > 0 && ctx.Err() == nil && !anyInvalid(errs) {
			e.log.Debug("search: fan-out failed; falling back", "err", errors.Join(errs...))
			r, err := e.sequential(ctx, q, rest, f)
			if err == nil {
				r.Attempts = append(resp.Attempts, r.Attempts...)
				return r, nil
			}
			errs = append(errs, err)
		}
		return nil, e.failed(ctx, resp.Attempts, errs)
	}
	if len(errs) > 0 {
		e.log.Debug("search: fan-out partial failure", "answered", names, "err", errors.Join(errs...))
	}
	resp.Provider = strings.Join(names, "+")
	resp.Results = fuse(lists)
	return resp, nil
}

func notPicked(chain, picked []*member) []*member {
	var rest []*member
	for _, m := range chain {
		if !slices.Contains(picked, m) {
			rest = append(rest, m)
		}
	}
	return rest
}

func anyInvalid(errs []error) bool {
	return slices.ContainsFunc(errs, func(err error) bool { return errors.Is(err, ErrInvalidQuery) })
}

// runProvider calls one provider, retrying retryable errors with
// exponential backoff and jitter (or the provider's Retry-After) while the
// wait fits the deadline and the breaker stays closed. The caller has
// already been admitted by m.br.allow; runProvider always settles the
// breaker with exactly one success, failure or release.
func (e *Engine) runProvider(ctx context.Context, m *member, q Query) (o outcome) {
	o.m = m
	settled := false
	defer func() {
		if !settled {
			m.br.release()
		}
	}()
	for try := 0; ; try++ {
		if e.opts.Limiter != nil {
			if err := e.opts.Limiter.Wait(ctx, m.name); err != nil {
				o.err = fmt.Errorf("%s: local rate limit: %w", m.name, err)
				if ctx.Err() == nil {
					o.err = fmt.Errorf("%s: local rate limit: %w: %w", m.name, ErrRateLimited, err)
				}
				e.log.Debug("search: provider skipped", "provider", m.name, "err", err)
				return o
			}
		}
		start := e.now()
		res, err := e.call(ctx, m.p, q)
		took := e.now().Sub(start)
		o.attempts = append(o.attempts, Attempt{Provider: m.name, Took: took, Results: len(res), Err: err})
		e.log.Debug("search: attempt", "provider", m.name, "try", try+1, "took", took, "results", len(res), "err", err)
		if err == nil {
			m.br.success()
			settled = true
			o.results, o.err = res, nil
			return o
		}
		o.err = err
		if !e.countsAgainst(ctx, err) {
			return o
		}
		if opened := m.br.failure(e.now(), err); opened {
			e.log.Warn("search: circuit breaker opened", "provider", m.name, "until", m.br.status(m.name).OpenUntil, "err", err)
		}
		settled = true
		if try >= e.opts.Retries || !Retryable(err) {
			return o
		}
		wait := e.backoff(try, err)
		if dl, ok := ctx.Deadline(); ok && wait >= time.Until(dl) {
			e.log.Debug("search: retry would pass the deadline; falling back", "provider", m.name, "wait", wait)
			return o
		}
		if m.br.openAt(e.now().Add(wait)) {
			return o
		}
		if err := e.sleep(ctx, wait); err != nil {
			return o
		}
		// A retry is a new request: it needs the breaker's admission again
		// (it is closed unless a concurrent request just opened it).
		if !m.br.allow(e.now()) {
			return o
		}
		settled = false
	}
}

// call invokes the provider, turning a panic into an ErrUnavailable error so
// one buggy backend cannot take the process down (singleflight would
// otherwise re-panic it on a fresh goroutine).
func (e *Engine) call(ctx context.Context, p Provider, q Query) (res []Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			e.log.Error("search: provider panicked", "provider", p.Name(), "panic", v)
			res, err = nil, &ProviderError{Provider: p.Name(), Kind: ErrUnavailable, Err: fmt.Errorf("panic: %v", v)}
		}
	}()
	return p.Search(ctx, q)
}

// countsAgainst reports whether err says something about the provider's
// health. Invalid queries do not, and neither does a context we cancelled
// (hedge lost, fan-out over) or the caller cancelled; running out of the
// engine's own timeout does, since the provider was too slow.
func (e *Engine) countsAgainst(ctx context.Context, err error) bool {
	if errors.Is(err, ErrInvalidQuery) {
		return false
	}
	if ctx.Err() != nil {
		return errors.Is(context.Cause(ctx), errEngineTimeout)
	}
	return true
}

// backoff is the wait before retry number try+1: the provider's Retry-After
// when it gave one, else RetryBackoff doubled per retry, scaled by a jitter
// factor in [0.5, 1) so synchronised clients spread out.
func (e *Engine) backoff(try int, err error) time.Duration {
	if ra := RetryAfterOf(err); ra > 0 {
		return ra
	}
	d := e.opts.RetryBackoff << min(try, 16)
	return time.Duration(float64(d) * (0.5 + e.jitter()/2))
}

func (e *Engine) skipErr(m *member) error {
	st := m.br.status(m.name)
	return fmt.Errorf("%s: circuit breaker open until %s: %w", m.name, st.OpenUntil.Format(time.RFC3339), ErrNoProviders)
}

// failed builds the error for a run in which no provider answered.
func (e *Engine) failed(ctx context.Context, attempts []Attempt, errs []error) error {
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		if errors.Is(cause, errEngineTimeout) {
			cause = fmt.Errorf("%w after %s: %w", errEngineTimeout, e.opts.Timeout, context.DeadlineExceeded)
		}
		errs = append([]error{cause}, errs...)
	}
	e.log.Debug("search: no provider answered", "attempts", len(attempts), "err", errors.Join(errs...))
	if len(attempts) == 0 && ctx.Err() == nil && len(errs) > 0 {
		return fmt.Errorf("search: no provider could be asked: %w", errors.Join(errs...))
	}
	if len(errs) == 0 {
		return fmt.Errorf("search: %w", ErrNoProviders)
	}
	return fmt.Errorf("search: %w", errors.Join(errs...))
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
