// Package app is the only place that wires start-up: it turns a
// configuration into the search engine with its providers, cache and
// limits, the fetcher, the operational parts (metrics, Redis, audit), and
// the surfaces built on them (the HTTP server's handlers, MCP, the web
// console). Package cli parses flags and calls it; cmd/loadgen calls it to
// benchmark exactly what `webgate serve` runs.
//
// A Service exports what surfaces call, Searcher and Getter (the engine
// and the fetcher behind audit, policy and guard), not the raw engines.
package app

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/metrics"
	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/redisstore"
	"github.com/webgate/webgate/internal/search"
)

// Service holds the configured engines behind the layers every surface
// calls through.
type Service struct {
	Config *config.Config
	Log    *slog.Logger
	// Searcher and Getter are what surfaces call: the search engine and
	// the page fetcher behind the audit, policy and guard layers (see
	// decorate).
	Searcher search.Searcher
	Getter   fetch.Getter
	// Metrics counts requests, provider calls and cache lookups; it also
	// serves /metrics and the console's in-process view.
	Metrics *metrics.Recorder
	// Redis is the shared tier's client; nil without redis.url.
	Redis *redisstore.Client
	// Guard is the guard layer; its detector also redacts audit records.
	Guard *guard.Layer
	// Counter counts per-key rate limits and budgets.
	Counter ratelimit.Counter
	// Audit is the audit log; Audit.Recent serves the console. Close the
	// Service to flush it.
	Audit *audit.Logger
	// AuditSinks are extra audit sinks (the Redis stream) besides the
	// configured file.
	AuditSinks []audit.Sink

	// engine is the search engine over the configured provider chain, and
	// fetcher the safe page fetcher built from cfg.Fetch. Surfaces reach
	// them only through Searcher and Getter.
	engine       *search.Engine
	fetcher      *fetch.Fetcher
	providerHTTP *http.Client
}

// New builds a Service from cfg. log may be nil.
func New(cfg *config.Config, log *slog.Logger) (*Service, error) {
	hc := providerClient()
	chain, err := providerChain(cfg, hc)
	if err != nil {
		return nil, err
	}
	return newService(cfg, log, chain, hc)
}

// providerChain builds the providers of cfg.Search.Providers, in order,
// from their registrations (see search.Register).
func providerChain(cfg *config.Config, hc *http.Client) ([]search.Provider, error) {
	chain := make([]search.Provider, 0, len(cfg.Search.Providers))
	for _, name := range cfg.Search.Providers {
		pr := cfg.Providers.ByName(name)
		if pr == nil {
			return nil, fmt.Errorf("provider %q: not known", name)
		}
		p, err := search.NewProvider(name, pr.Settings(), hc)
		if err != nil {
			return nil, err
		}
		chain = append(chain, p)
	}
	return chain, nil
}

// NewWithProviders builds a Service like New but over the given provider
// chain instead of cfg.Search.Providers, so benchmarks and tests can run
// the real engine, cache, layers and surfaces over in-process providers.
// Providers whose names cfg does not know are not rate limited.
func NewWithProviders(cfg *config.Config, log *slog.Logger, chain []search.Provider) (*Service, error) {
	return newService(cfg, log, chain, providerClient())
}

func newService(cfg *config.Config, log *slog.Logger, chain []search.Provider, hc *http.Client) (*Service, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{Config: cfg, Log: log, providerHTTP: hc}
	if err := s.startOps(); err != nil {
		return nil, err
	}
	sc := cfg.Search
	var c cache.Cache[*search.Response]
	var err error
	if sc.CacheTTL > 0 && sc.CacheSize > 0 {
		c = cache.NewLocal[*search.Response](sc.CacheSize)
	}
	s.engine, err = search.NewEngine(search.Options{
		Providers:       s.instrument(chain),
		Mode:            search.Mode(sc.Mode),
		FanOut:          sc.FanOut,
		MaxResults:      sc.MaxResults,
		SafeSearch:      search.SafeSearch(sc.SafeSearch),
		Timeout:         sc.Timeout,
		Hedge:           sc.Hedge,
		Retries:         sc.Retries,
		RetryBackoff:    sc.RetryBackoff,
		Cache:           s.searchCache(c),
		CacheTTL:        sc.CacheTTL,
		BreakerFailures: sc.Breaker.Failures,
		BreakerCooldown: sc.Breaker.Cooldown,
		Limiter:         rateLimiter(cfg, chain),
		Logger:          log,
	})
	if err != nil {
		return nil, fmt.Errorf("search engine: %w", err)
	}
	fo := fetch.OptionsFromConfig(cfg.Fetch)
	fo.Logger = log
	s.fetchOptions(&fo)
	s.renderOptions(&fo)
	if s.fetcher, err = fetch.New(fo); err != nil {
		return nil, fmt.Errorf("fetcher: %w", err)
	}
	s.shareOps()
	if err := s.decorate(); err != nil {
		return nil, err
	}
	return s, nil
}

// rateLimiter builds the per-provider token buckets from
// providers.<name>.rps and .burst (see config.Providers.RateLimit for the
// defaults). The buckets live in this process; a shared limiter can replace
// it behind the same search.Limiter interface.
func rateLimiter(cfg *config.Config, chain []search.Provider) search.Limiter {
	limits := make(map[string]ratelimit.Limit, len(chain))
	for _, p := range chain {
		rps, burst := cfg.Providers.RateLimit(p.Name())
		limits[p.Name()] = ratelimit.Limit{RPS: rps, Burst: burst}
	}
	return ratelimit.NewLocal(limits)
}

// providerClient is the HTTP client shared by search providers. Provider
// endpoints are fixed, operator-chosen URLs (never model input), so it does
// not need the SSRF guard the page fetcher has; it does need bounded
// timeouts at every stage.
func providerClient() *http.Client {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 15 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}
