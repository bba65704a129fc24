package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/search"
	_ "github.com/webgate/webgate/internal/search/providers" // registers every provider
)

// Search configures the search engine.
type Search struct {
	// Providers is the fallback chain, in order. When empty, webgate uses
	// every provider that has credentials (API keys from the providers
	// section or the environment) in the order the providers section lists
	// them, which ends with the keyless duckduckgo.
	Providers []string `yaml:"providers"`
	// MaxResults is the number of results returned when a request does not
	// say. At most 50.
	MaxResults int `yaml:"max_results"`
	// SafeSearch is the adult-content filter of searches that do not set
	// one: "off", "moderate" (the default) or "strict". A request can
	// still choose (safe_search on the JSON API and MCP, --safe-search in
	// the CLI). Providers without such a filter ignore it.
	SafeSearch string `yaml:"safe_search"`
	// Mode is "fallback" (the default: ask providers in order until one
	// answers) or "fanout" (ask the first FanOut providers whose circuit
	// breakers are closed at once and merge their rankings with
	// reciprocal-rank fusion; if all of them fail, the rest of the chain is
	// tried in order).
	Mode string `yaml:"mode"`
	// FanOut is how many providers from the chain a fan-out query asks at
	// once.
	FanOut int `yaml:"fanout"`
	// Timeout is the deadline for a whole search request across retries and
	// fallbacks.
	Timeout time.Duration `yaml:"timeout"`
	// Hedge, when positive, starts the next provider in the chain if the
	// current one has not answered after this long, and takes the first good
	// answer. Zero (the default) disables hedging.
	Hedge time.Duration `yaml:"hedge"`
	// Retries is how many times one provider is retried on a rate limit or a
	// transient failure before falling back. Set -1 for none.
	Retries int `yaml:"retries"`
	// RetryBackoff is the first retry's wait, doubled for each further retry
	// and scaled by a random factor between 0.5 and 1. A provider's
	// Retry-After replaces it. When the wait would not end before the
	// request's deadline, the engine does not wait at all and falls back to
	// the next provider.
	RetryBackoff time.Duration `yaml:"retry_backoff"`
	// CacheTTL is how long a result set is reused for an identical query. Set
	// -1s to disable the cache.
	CacheTTL time.Duration `yaml:"cache_ttl"`
	// CacheSize is the maximum number of cached result sets.
	CacheSize int `yaml:"cache_size"`
	// Breaker configures the per-provider circuit breaker.
	Breaker Breaker `yaml:"breaker"`
}

// Breaker configures a per-provider circuit breaker.
type Breaker struct {
	// Failures is how many consecutive failures open the breaker.
	// Authentication, quota and "blocked" errors open it at once, a rate limit
	// with Retry-After opens it for that long, and invalid queries never
	// count.
	Failures int `yaml:"failures"`
	// Cooldown is how long an open breaker skips its provider before letting
	// one trial request through.
	Cooldown time.Duration `yaml:"cooldown"`
}

func (s *Search) applyDefaults() {
	if s.MaxResults == 0 {
		s.MaxResults = 10
	}
	if s.Mode == "" {
		s.Mode = "fallback"
	}
	if s.SafeSearch == "" {
		s.SafeSearch = "moderate"
	}
	if s.FanOut == 0 {
		s.FanOut = 3
	}
	if s.Timeout == 0 {
		s.Timeout = 15 * time.Second
	}
	if s.Retries == 0 {
		s.Retries = 1
	} else if s.Retries < 0 {
		s.Retries = 0
	}
	if s.RetryBackoff == 0 {
		s.RetryBackoff = 200 * time.Millisecond
	}
	if s.CacheTTL == 0 {
		s.CacheTTL = 10 * time.Minute
	}
	if s.CacheSize == 0 {
		s.CacheSize = 10000
	}
	if s.Breaker.Failures == 0 {
		s.Breaker.Failures = 5
	}
	if s.Breaker.Cooldown == 0 {
		s.Breaker.Cooldown = 30 * time.Second
	}
}

func (s *Search) validate(p Providers) []error {
	var errs []error
	if s.MaxResults < 1 || s.MaxResults > 50 {
		errs = append(errs, fmt.Errorf("search.max_results: %d must be between 1 and 50", s.MaxResults))
	}
	if s.SafeSearch != "off" && s.SafeSearch != "moderate" && s.SafeSearch != "strict" {
		errs = append(errs, fmt.Errorf("search.safe_search: %q must be off, moderate or strict", s.SafeSearch))
	}
	if s.Mode != "fallback" && s.Mode != "fanout" {
		errs = append(errs, fmt.Errorf("search.mode: %q must be fallback or fanout", s.Mode))
	}
	if s.FanOut < 1 {
		errs = append(errs, fmt.Errorf("search.fanout: %d must be at least 1", s.FanOut))
	}
	if s.Timeout < 0 {
		errs = append(errs, fmt.Errorf("search.timeout: %s must be positive", s.Timeout))
	}
	if s.Hedge < 0 {
		errs = append(errs, fmt.Errorf("search.hedge: %s must not be negative", s.Hedge))
	}
	if s.CacheSize < 0 {
		errs = append(errs, fmt.Errorf("search.cache_size: %d must not be negative", s.CacheSize))
	}
	if s.Breaker.Failures < 1 {
		errs = append(errs, fmt.Errorf("search.breaker.failures: %d must be at least 1", s.Breaker.Failures))
	}
	if len(s.Providers) == 0 {
		errs = append(errs, fmt.Errorf("search.providers: the chain is empty"))
	}
	seen := map[string]bool{}
	for i, name := range s.Providers {
		key := fmt.Sprintf("search.providers[%d]", i)
		if _, ok := search.Registered(name); !ok {
			errs = append(errs, fmt.Errorf("%s: unknown provider %q (known: %s)", key, name, strings.Join(search.ProviderNames(), ", ")))
			continue
		}
		if seen[name] {
			errs = append(errs, fmt.Errorf("%s: provider %q is listed twice", key, name))
		}
		seen[name] = true
		if missing := p.Missing(name); missing != "" {
			errs = append(errs, fmt.Errorf("%s: provider %q needs %s", key, name, missing))
		}
	}
	return errs
}

// Provider holds one search provider's settings. Every provider accepts
// BaseURL, which points it at a self-hosted instance, a proxy or a test
// server.
type Provider struct {
	// APIKey is the provider's secret. It is usually better to leave it out
	// of the file and set the provider's environment variable (e.g.
	// BRAVE_API_KEY), or to write ${BRAVE_API_KEY}.
	APIKey string `yaml:"api_key"`
	// BaseURL replaces the provider's public API endpoint.
	BaseURL string `yaml:"base_url"`
	// CX is the Programmable Search Engine ID; only the google provider
	// uses it (env GOOGLE_CSE_ID).
	CX string `yaml:"cx"`
	// RPS limits requests per second to this provider with a token bucket
	// kept in this process. Zero means the provider's built-in default: 1
	// for duckduckgo, which needs no key and blocks clients that send
	// bursts, and unlimited for the others. A request that would have to
	// wait past its deadline for a token skips the provider and falls back
	// to the next one instead of waiting.
	RPS float64 `yaml:"rps"`
	// Burst is the token bucket size: how many requests may go out at once
	// after a quiet spell. The default is 1 when RPS is set, and 2 for
	// duckduckgo's built-in limit.
	Burst int `yaml:"burst"`
	// Timeout bounds one HTTP request to the provider. The default is 10s.
	Timeout time.Duration `yaml:"timeout"`
}

// Settings returns what the provider's factory reads.
func (p *Provider) Settings() search.Settings {
	return search.Settings{APIKey: p.APIKey, BaseURL: p.BaseURL, CX: p.CX, Timeout: p.Timeout}
}

// Providers holds the settings of every provider by name. The names are
// those of the providers registered with search.Register (package
// internal/search/providers links them all in); after defaults are
// applied every registered provider has an entry.
type Providers map[string]*Provider

// ByName returns the settings for a provider name, or nil if unknown.
func (p Providers) ByName(name string) *Provider {
	if _, ok := search.Registered(name); !ok {
		return nil
	}
	return p[name]
}

// RateLimit returns the effective token bucket for the named provider,
// applying the defaults documented on Provider.RPS and Provider.Burst
// (the built-in limit is the provider's registration's). An rps of zero
// means unlimited.
func (p Providers) RateLimit(name string) (rps float64, burst int) {
	pr := p.ByName(name)
	if pr == nil {
		return 0, 0
	}
	rps, burst = pr.RPS, pr.Burst
	if reg, _ := search.Registered(name); rps == 0 && reg.RPS > 0 {
		rps = reg.RPS
		if burst == 0 {
			burst = reg.Burst
		}
	}
	if rps > 0 && burst == 0 {
		burst = 1
	}
	return rps, burst
}

// Configured reports whether the named provider has what it needs to run.
func (p Providers) Configured(name string) bool {
	return p.Missing(name) == ""
}

// Missing describes the settings the named provider still needs, or "" if
// it is ready.
func (p Providers) Missing(name string) string {
	reg, ok := search.Registered(name)
	pr := p[name]
	if !ok || pr == nil {
		return "configuration"
	}
	return reg.Missing(pr.Settings())
}

// applyDefaults gives every registered provider an entry.
func (p *Providers) applyDefaults() {
	if *p == nil {
		*p = Providers{}
	}
	for _, name := range search.ProviderNames() {
		if (*p)[name] == nil {
			(*p)[name] = &Provider{}
		}
	}
}

// applyEnv fills settings from the environment variables the providers
// registered, where the file left them empty. The file wins so that one
// host can serve several configurations.
func (p Providers) applyEnv(lookup func(string) (string, bool)) {
	get := func(k string) string { v, _ := lookup(k); return strings.TrimSpace(v) }
	for _, reg := range search.Registrations() {
		pr := p[reg.Name]
		if pr == nil {
			continue
		}
		s := pr.Settings()
		for _, st := range reg.Settings {
			if f := s.Field(st.Key); st.Env != "" && *f == "" {
				*f = get(st.Env)
			}
		}
		pr.APIKey, pr.BaseURL, pr.CX = s.APIKey, s.BaseURL, s.CX
	}
}

func (p Providers) defaultChain() []string {
	var chain []string
	for _, name := range search.ProviderNames() {
		if p.Configured(name) {
			chain = append(chain, name)
		}
	}
	return chain
}

func (p Providers) validate() []error {
	var errs []error
	known := search.ProviderNames()
	var unknown []string
	for name := range p {
		if !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		errs = append(errs, fmt.Errorf("providers.%s: unknown provider (known: %s)", name, strings.Join(known, ", ")))
	}
	for _, name := range known {
		pr := p[name]
		if pr == nil {
			continue
		}
		if pr.BaseURL != "" {
			u, err := url.Parse(pr.BaseURL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				errs = append(errs, fmt.Errorf("providers.%s.base_url: %q must be an absolute http(s) URL", name, pr.BaseURL))
			}
		}
		if pr.RPS < 0 {
			errs = append(errs, fmt.Errorf("providers.%s.rps: %g must not be negative", name, pr.RPS))
		}
		if pr.Burst < 0 {
			errs = append(errs, fmt.Errorf("providers.%s.burst: %d must not be negative", name, pr.Burst))
		}
		if pr.Timeout < 0 {
			errs = append(errs, fmt.Errorf("providers.%s.timeout: %s must not be negative", name, pr.Timeout))
		}
	}
	return errs
}
