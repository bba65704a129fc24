package policy

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/search"
)

// Enforcer applies the caller's policy (from the context, see WithCaller)
// to searches and fetches. Callers without a policy (anonymous callers of
// an auth-less server, the CLI, MCP over stdio, unrestricted keys) pass
// through untouched.
type Enforcer struct {
	counter ratelimit.Counter
	log     *slog.Logger
}

// NewEnforcer returns an Enforcer counting rate limits and budgets in
// counter (ratelimit.NewLocalCounter in one process, the Redis counter
// across replicas). log may be nil.
func NewEnforcer(counter ratelimit.Counter, log *slog.Logger) *Enforcer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Enforcer{counter: counter, log: log}
}

// Searcher wraps next with policy checks.
func (e *Enforcer) Searcher(next search.Searcher) search.Searcher {
	return searcher{e, next}
}

// Getter wraps next with policy checks.
func (e *Enforcer) Getter(next fetch.Getter) fetch.Getter {
	return getter{e, next}
}

type searcher struct {
	e    *Enforcer
	next search.Searcher
}

// Search checks surface, tool and domains (narrowing the query to the
// merged rules), then the rate limit and the daily budget, and filters the
// results through the merged rules once more: the engine can push only one
// list down to providers, and a key's rules must hold whatever a provider
// returns.
func (s searcher) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	c, _ := CallerFrom(ctx)
	p := c.Policy
	if p == nil {
		return s.next.Search(ctx, q)
	}
	if err := s.e.admit(c, ToolSearch); err != nil {
		return nil, err
	}
	eff, err := p.Domains.Merge(q.AllowedDomains, q.BlockedDomains)
	if err != nil {
		if IsDenial(err) {
			return nil, err
		}
		return nil, fmt.Errorf("search: %w: %w", search.ErrInvalidQuery, err)
	}
	q.AllowedDomains, q.BlockedDomains = nil, nil
	if eff.Allow != nil {
		q.AllowedDomains = eff.Allow.Strings()
	} else if eff.Block != nil {
		q.BlockedDomains = eff.Block.Strings()
	}
	if err := s.e.limit(ctx, c, "rate:"+c.KeyID, p.RateLimit.Requests, p.RateLimit.Per, ErrRateLimited); err != nil {
		return nil, err
	}
	if err := s.e.limit(ctx, c, "searches:"+c.KeyID, p.DailySearches, 24*time.Hour, ErrBudget); err != nil {
		return nil, err
	}
	resp, err := s.next.Search(ctx, q)
	if err != nil || eff.IsZero() {
		return resp, err
	}
	// A copy: the engine may share resp with its cache.
	out := *resp
	out.Results = make([]search.Result, 0, len(resp.Results))
	for _, r := range resp.Results {
		if eff.Permits(r.URL) {
			out.Results = append(out.Results, r)
		}
	}
	return &out, nil
}

type getter struct {
	e    *Enforcer
	next fetch.Getter
}

// Fetch checks surface, tool, the key's domain rules on the URL and the
// rate limit, and refuses the page when a redirect led outside the key's
// domains.
func (g getter) Fetch(ctx context.Context, req fetch.Request) (*fetch.Result, error) {
	c, _ := CallerFrom(ctx)
	p := c.Policy
	if p == nil {
		return g.next.Fetch(ctx, req)
	}
	if err := g.e.admit(c, ToolFetch); err != nil {
		return nil, err
	}
	eff, _ := p.Domains.Merge(nil, nil) // the key's own rules always merge
	if !eff.Permits(strings.TrimSpace(req.URL)) {
		return nil, deny(ErrDomain, "fetching %s is outside the domains API key %q may use", req.URL, c.KeyID)
	}
	if err := g.e.limit(ctx, c, "rate:"+c.KeyID, p.RateLimit.Requests, p.RateLimit.Per, ErrRateLimited); err != nil {
		return nil, err
	}
	res, err := g.next.Fetch(ctx, req)
	if err == nil && res != nil && res.FinalURL != "" && !eff.Permits(res.FinalURL) {
		return nil, deny(ErrDomain, "%s redirected to %s, outside the domains API key %q may use", req.URL, res.FinalURL, c.KeyID)
	}
	return res, err
}

// admit checks the surface and the tool.
func (e *Enforcer) admit(c Caller, tool string) error {
	p := c.Policy
	if !p.AllowsSurface(c.Surface) {
		return deny(ErrSurface, "API key %q may not be used on the %s surface (allowed: %s)", c.KeyID, c.Surface, strings.Join(p.Surfaces, ", "))
	}
	if !p.AllowsTool(tool) {
		return deny(ErrTool, "API key %q may not use %s (allowed: %s)", c.KeyID, tool, strings.Join(p.Tools, ", "))
	}
	return nil
}

// limit takes one event from counter key in a window of per, refusing
// with kind when the limit is used up. A limit of 0 means none. When the
// counter itself fails (a shared store unreachable), the request is let
// through and the failure logged: a limit exists to contain cost and
// abuse, and an outage of the store should not become an outage of search.
func (e *Enforcer) limit(ctx context.Context, c Caller, key string, limit int, per time.Duration, kind error) error {
	if limit <= 0 {
		return nil
	}
	d, err := e.counter.Allow(ctx, key, 1, limit, per)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		e.log.WarnContext(ctx, "rate limit counter failed; allowing the request", "key_id", c.KeyID, "err", err)
		return nil
	}
	if d.Allowed {
		return nil
	}
	var msg string
	if kind == ErrBudget {
		msg = fmt.Sprintf("API key %q has used its %d searches for today (UTC); the budget resets in %s", c.KeyID, limit, roundUp(d.RetryAfter))
	} else {
		msg = fmt.Sprintf("API key %q is over its rate limit of %d per %s; retry in %s", c.KeyID, limit, per, roundUp(d.RetryAfter))
	}
	return &Denial{Kind: kind, Msg: msg, RetryAfter: d.RetryAfter}
}

func roundUp(d time.Duration) time.Duration {
	return (d + time.Second - 1).Truncate(time.Second)
}
