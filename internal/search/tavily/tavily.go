// Package tavily is the Tavily Search API provider (POST /search with a
// JSON body, Authorization: Bearer).
package tavily

import (
	"context"
	"fmt"
	"net/http"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "tavily"

// keyEnv is the environment variable that holds the API key when the
// configuration does not.
const keyEnv = "TAVILY_API_KEY"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 20,
		Settings: []search.Setting{{Key: search.SettingAPIKey, Env: keyEnv}},
		New:      search.NewFactory(New),
	})
}

const (
	defaultBase = "https://api.tavily.com"
	path        = "/search"
	// maxResults is the API's documented maximum for max_results.
	maxResults = 20
	// Tavily's own statuses for exhausted credits: 432 when the plan's
	// limit is reached, 433 when the pay-as-you-go cap is.
	statusPlanLimit = 432
	statusPAYGLimit = 433
)

// Provider queries Tavily.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds a Tavily provider; cfg.APIKey is required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

// request is the documented /search body; only what webgate uses.
type request struct {
	Query             string   `json:"query"`
	SearchDepth       string   `json:"search_depth"`
	Topic             string   `json:"topic"`
	MaxResults        int      `json:"max_results"`
	TimeRange         string   `json:"time_range,omitempty"`
	IncludeDomains    []string `json:"include_domains,omitempty"`
	ExcludeDomains    []string `json:"exclude_domains,omitempty"`
	Country           string   `json:"country,omitempty"`
	IncludeAnswer     bool     `json:"include_answer"`
	IncludeRawContent bool     `json:"include_raw_content"`
	IncludeImages     bool     `json:"include_images"`
}

func buildRequest(q search.Query, count int) request {
	r := request{
		Query:       q.Text,
		SearchDepth: "basic", // one credit; "advanced" costs two
		Topic:       "general",
		MaxResults:  count,
		// Domain lists are native; Tavily matches hosts, so paths are
		// widened to their host and the engine re-filters.
		IncludeDomains: pushdown.Hosts(q.AllowedDomains),
		ExcludeDomains: pushdown.Hosts(q.BlockedDomains),
		// country boosts results from a country and takes a lowercase
		// English country name; it is only honoured for topic "general".
		Country: countryNames[pushdown.Country(q)],
	}
	switch q.Freshness {
	case search.FreshnessDay, search.FreshnessWeek, search.FreshnessMonth, search.FreshnessYear:
		r.TimeRange = string(q.Freshness) // day, week, month, year: same words
	}
	return r
}

// Search implements search.Provider. Tavily has no language or safe-search
// parameter; those are left to the engine.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := httpx.JSONRequest(p.endpoint, buildRequest(q, count))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+p.key)

	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		e := p.c.StatusError(resp, "exceeds your plan", "usage limit", "pay-as-you-go")
		if resp.StatusCode == statusPlanLimit || resp.StatusCode == statusPAYGLimit {
			httpx.Reclassify(e, search.ErrQuota)
		}
		return nil, e
	}
	var body struct {
		Results *[]struct {
			Title         string `json:"title"`
			URL           string `json:"url"`
			Content       string `json:"content"`
			PublishedDate string `json:"published_date"`
		} `json:"results"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.Results == nil {
		// Every successful answer has a results array, even an empty one.
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("decode response: no results field"))
	}
	var out []search.Result
	for _, r := range *body.Results {
		if len(out) == count {
			break
		}
		if r.URL == "" {
			continue
		}
		out = append(out, search.Result{
			Title:     textx.Clean(r.Title),
			URL:       r.URL,
			Snippet:   textx.Clean(r.Content),
			Published: textx.ParseTime(r.PublishedDate),
			Provider:  Name,
			Rank:      len(out) + 1,
		})
	}
	return out, nil
}
