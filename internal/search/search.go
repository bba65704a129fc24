// Package search defines webgate's search domain: the Query a caller asks,
// the Result a provider returns, the Provider interface every backend
// implements, and the typed errors that let the engine decide between
// retrying, falling back and giving up.
//
// Concrete providers live in one package each under internal/search/
// (internal/search/brave, internal/search/duckduckgo, ...) and register
// themselves with Register (see Registration); package
// internal/search/providers links them all in. The Engine in this package
// composes them into a fallback chain with caching, rate limits, circuit
// breakers, hedging and an optional rank-fusion fan-out.
package search

import (
	"context"
	"time"
)

// Provider is a web search backend.
//
// Search must honour ctx for cancellation and deadlines, must not retry on
// its own (the Engine owns retries), and must return errors that wrap one of
// the sentinel kinds in this package (ErrAuth, ErrRateLimited, ...) so the
// Engine can classify them. Providers push down what their API supports
// (domain filters, country, language, freshness); the Engine still enforces
// domain rules on every result afterwards.
type Provider interface {
	// Name is the stable configuration name, e.g. "brave" or "duckduckgo".
	Name() string
	// Search runs q and returns results in the provider's rank order.
	Search(ctx context.Context, q Query) ([]Result, error)
}

// Freshness restricts results to pages published within a recent window.
type Freshness string

// Freshness values. The zero value means no restriction.
const (
	FreshnessAny   Freshness = ""
	FreshnessDay   Freshness = "day"
	FreshnessWeek  Freshness = "week"
	FreshnessMonth Freshness = "month"
	FreshnessYear  Freshness = "year"
)

// Valid reports whether f is one of the known values.
func (f Freshness) Valid() bool {
	switch f {
	case FreshnessAny, FreshnessDay, FreshnessWeek, FreshnessMonth, FreshnessYear:
		return true
	}
	return false
}

// SafeSearch is the adult-content filtering level.
type SafeSearch string

// SafeSearch values. The zero value leaves the provider's default in place.
const (
	SafeSearchDefault  SafeSearch = ""
	SafeSearchOff      SafeSearch = "off"
	SafeSearchModerate SafeSearch = "moderate"
	SafeSearchStrict   SafeSearch = "strict"
)

// Valid reports whether s is one of the known values.
func (s SafeSearch) Valid() bool {
	switch s {
	case SafeSearchDefault, SafeSearchOff, SafeSearchModerate, SafeSearchStrict:
		return true
	}
	return false
}

// Location approximates where the user is, to localise results. It mirrors
// the user_location object of Anthropic's web search tool.
type Location struct {
	// Country is an ISO 3166-1 alpha-2 code such as "US" or "DE".
	Country string `json:"country,omitempty"`
	// Region is a free-form region or state name.
	Region string `json:"region,omitempty"`
	// City is a free-form city name.
	City string `json:"city,omitempty"`
	// Timezone is an IANA time zone such as "America/New_York".
	Timezone string `json:"timezone,omitempty"`
}

// IsZero reports whether no field is set.
func (l Location) IsZero() bool { return l == Location{} }

// Query is one search request.
type Query struct {
	// Text is the query as the user or model wrote it.
	Text string `json:"query"`
	// MaxResults caps the number of results; 0 means the engine default.
	MaxResults int `json:"max_results,omitempty"`
	// AllowedDomains, when set, keeps only results on these domains (and
	// their subdomains, and path prefixes when given). See package domains.
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	// BlockedDomains drops results on these domains. It cannot be combined
	// with AllowedDomains.
	BlockedDomains []string `json:"blocked_domains,omitempty"`
	// Location localises results.
	Location Location `json:"user_location,omitzero"`
	// Language is a BCP 47 language tag such as "en" or "pt-BR".
	Language string `json:"language,omitempty"`
	// Freshness restricts results by publication age.
	Freshness Freshness `json:"freshness,omitempty"`
	// SafeSearch selects the adult-content filter.
	SafeSearch SafeSearch `json:"safe_search,omitempty"`
	// Provider, when set, asks only the named provider instead of the
	// configured chain.
	Provider string `json:"provider,omitempty"`
}

// Response is what the Engine returns for a Query.
type Response struct {
	// Query is the query as executed, after defaults were applied.
	Query Query `json:"-"`
	// Provider names the provider that answered; in fan-out mode it lists
	// the contributing providers joined by "+".
	Provider string `json:"provider"`
	// Results are the ranked, filtered, de-duplicated hits.
	Results []Result `json:"results"`
	// Cached reports whether the response came from the cache.
	Cached bool `json:"-"`
	// Attempts records each provider call made (empty on a cache hit), for
	// logs, metrics and the audit trail.
	Attempts []Attempt `json:"-"`
}

// Attempt records one call to one provider.
type Attempt struct {
	Provider string
	Took     time.Duration
	Results  int
	// Err is nil on success.
	Err error
}

// Searcher is what the surfaces (CLI, MCP, HTTP API, Anthropic proxy)
// depend on. *Engine implements it; tests substitute fakes.
type Searcher interface {
	Search(ctx context.Context, q Query) (*Response, error)
}

// Result is one search hit.
type Result struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
	// Published is the publication time when the provider knows it.
	Published time.Time `json:"published,omitzero"`
	// PageAge is the provider's own age string (e.g. "2 days ago" or an ISO
	// date) when it gives one; it is what Anthropic's page_age carries.
	PageAge string `json:"page_age,omitempty"`
	// Provider names the provider that returned the hit.
	Provider string `json:"provider"`
	// Rank is the 1-based position in the provider's (or fused) ranking.
	Rank int `json:"rank"`
}

// Age is what Anthropic's page_age shows for r: the provider's own age
// string, else the publication date, else nothing.
func (r Result) Age() string {
	if r.PageAge != "" {
		return r.PageAge
	}
	if !r.Published.IsZero() {
		return r.Published.UTC().Format("January 2, 2006")
	}
	return ""
}
