// Package exa is the Exa search API provider (POST /search with a JSON
// body, header x-api-key).
package exa

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "exa"

// keyEnv is the environment variable that holds the API key when the
// configuration does not.
const keyEnv = "EXA_API_KEY"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 30,
		Settings: []search.Setting{{Key: search.SettingAPIKey, Env: keyEnv}},
		New:      search.NewFactory(New),
	})
}

const (
	defaultBase = "https://api.exa.ai"
	path        = "/search"
	// maxResults is the numResults ceiling Exa documents for search.
	maxResults = 100
)

// Provider queries Exa.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds an Exa provider; cfg.APIKey is required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

// highlights sizes the query-relevant excerpt used as the snippet by a
// character budget (Exa deprecated numSentences/highlightsPerUrl in
// favour of maxCharacters in February 2026).
type highlights struct {
	MaxCharacters int `json:"maxCharacters"`
}

type request struct {
	Query              string   `json:"query"`
	Type               string   `json:"type"`
	NumResults         int      `json:"numResults"`
	IncludeDomains     []string `json:"includeDomains,omitempty"`
	ExcludeDomains     []string `json:"excludeDomains,omitempty"`
	StartPublishedDate string   `json:"startPublishedDate,omitempty"`
	UserLocation       string   `json:"userLocation,omitempty"`
	Moderation         bool     `json:"moderation,omitempty"`
	// Contents asks for short query-relevant highlights, which serve as
	// the snippet; full text would be slower and costlier.
	Contents struct {
		Highlights highlights `json:"highlights"`
	} `json:"contents"`
}

// windows are the freshness look-backs; Exa filters on an absolute
// publication date, so the window is turned into one at request time.
var windows = map[search.Freshness]time.Duration{
	search.FreshnessDay:   24 * time.Hour,
	search.FreshnessWeek:  7 * 24 * time.Hour,
	search.FreshnessMonth: 31 * 24 * time.Hour,
	search.FreshnessYear:  366 * 24 * time.Hour,
}

func buildRequest(q search.Query, count int, now time.Time) request {
	r := request{
		Query:          q.Text,
		Type:           "auto",
		NumResults:     count,
		IncludeDomains: pushdown.Hosts(q.AllowedDomains),
		ExcludeDomains: pushdown.Hosts(q.BlockedDomains),
		UserLocation:   pushdown.Country(q),
		// Exa has no graded safe search; moderation filters unsafe
		// content, so only "strict" asks for it.
		Moderation: q.SafeSearch == search.SafeSearchStrict,
	}
	if w, ok := windows[q.Freshness]; ok {
		r.StartPublishedDate = now.Add(-w).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	r.Contents.Highlights = highlights{MaxCharacters: 400}
	return r
}

// Search implements search.Provider. Exa has no language parameter.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := httpx.JSONRequest(p.endpoint, buildRequest(q, count, time.Now()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", p.key)

	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		// 402 carries NO_MORE_CREDITS or API_KEY_BUDGET_EXCEEDED; the tags
		// are matched too in case they arrive with another status.
		return nil, p.c.StatusError(resp, "NO_MORE_CREDITS", "API_KEY_BUDGET_EXCEEDED", "out of credits")
	}
	var body struct {
		Results *[]struct {
			Title         string   `json:"title"`
			URL           string   `json:"url"`
			PublishedDate string   `json:"publishedDate"`
			Highlights    []string `json:"highlights"`
			Summary       string   `json:"summary"`
			Text          string   `json:"text"`
		} `json:"results"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.Results == nil {
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
		snippet := strings.Join(r.Highlights, " … ")
		if snippet == "" {
			snippet = r.Summary
		}
		if snippet == "" {
			snippet = truncate(r.Text, 300)
		}
		title := textx.Clean(r.Title)
		if title == "" {
			// Exa returns an empty title for some pages; the URL is the
			// most honest stand-in.
			title = r.URL
		}
		out = append(out, search.Result{
			Title:     title,
			URL:       r.URL,
			Snippet:   textx.Clean(snippet),
			Published: textx.ParseTime(r.PublishedDate),
			Provider:  Name,
			Rank:      len(out) + 1,
		})
	}
	return out, nil
}

// truncate cuts s to at most n runes on a word boundary.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
