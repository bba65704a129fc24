// Package searxng is the provider for a self-hosted SearXNG metasearch
// instance, using its JSON API (GET /search?format=json).
//
// The instance must allow the json format (search.formats in its
// settings.yml); SearXNG answers 403 otherwise. An api_key, when set, is
// sent as a bearer token for instances behind an authenticating proxy;
// SearXNG itself has no API keys.
package searxng

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "searxng"

// urlEnv is the environment variable that holds the instance's URL when
// the configuration does not.
const urlEnv = "SEARXNG_URL"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 80,
		Settings: []search.Setting{
			{Key: search.SettingBaseURL, Env: urlEnv},
			{Key: search.SettingAPIKey, Optional: true},
		},
		New: search.NewFactory(New),
	})
}

const (
	path = "/search"
	// maxResults caps what is returned; SearXNG has no count parameter and
	// its first page merges roughly 10-40 results from its engines.
	maxResults = 50
)

// Provider queries a SearXNG instance.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds a SearXNG provider; cfg.BaseURL (the instance root, e.g.
// https://searx.example.org) is required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("searxng: base url is required (%s)", urlEnv)
	}
	// No default endpoint and no required key: SearXNG is self-hosted.
	ep, c, err := httpx.Setup(Name, cfg, hc, "", path, "")
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

func params(q search.Query) url.Values {
	v := url.Values{}
	// SearXNG hands the query to its engines, most of which (Google,
	// Bing, DuckDuckGo, Brave) understand site: operators.
	v.Set("q", pushdown.SiteQuery(q.Text, q.AllowedDomains, q.BlockedDomains))
	v.Set("format", "json")
	v.Set("pageno", "1")
	if l := language(q); l != "" {
		v.Set("language", l)
	}
	switch q.Freshness {
	case search.FreshnessDay, search.FreshnessWeek, search.FreshnessMonth, search.FreshnessYear:
		v.Set("time_range", string(q.Freshness)) // same words
	}
	switch q.SafeSearch {
	case search.SafeSearchOff:
		v.Set("safesearch", "0")
	case search.SafeSearchModerate:
		v.Set("safesearch", "1")
	case search.SafeSearchStrict:
		v.Set("safesearch", "2")
	}
	return v
}

// language builds SearXNG's locale: the tag as given when it has a region,
// else the language with the query's country ("en" + US → "en-US"). With
// only a country there is no locale SearXNG could use.
func language(q search.Query) string {
	tag := strings.TrimSpace(q.Language)
	if tag == "" {
		return ""
	}
	if strings.ContainsAny(tag, "-_") {
		return strings.ReplaceAll(tag, "_", "-")
	}
	if c := pushdown.Country(q); c != "" {
		return strings.ToLower(tag) + "-" + c
	}
	return strings.ToLower(tag)
}

// Search implements search.Provider.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := httpx.GetRequest(p.endpoint, params(q))
	if err != nil {
		return nil, err
	}
	if p.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		e := p.c.StatusError(resp)
		if resp.StatusCode == http.StatusForbidden {
			e.Err = fmt.Errorf("forbidden; is the json format enabled in the instance's search.formats? (%v)", e.Err)
		}
		return nil, e
	}
	var body struct {
		Results *[]struct {
			URL           string  `json:"url"`
			Title         string  `json:"title"`
			Content       string  `json:"content"`
			PublishedDate *string `json:"publishedDate"`
		} `json:"results"`
		// Each entry is [engine, reason]; kept raw so that an unexpected
		// shape costs us the diagnostics, not the results.
		UnresponsiveEngines []json.RawMessage `json:"unresponsive_engines"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.Results == nil {
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("decode response: no results field"))
	}
	if len(*body.Results) == 0 && len(body.UnresponsiveEngines) > 0 {
		// No results because every engine failed is not "no results":
		// report it so the engine falls back.
		return nil, unresponsive(resp.StatusCode, body.UnresponsiveEngines)
	}
	var out []search.Result
	for _, r := range *body.Results {
		if len(out) == count {
			break
		}
		if r.URL == "" {
			continue
		}
		res := search.Result{
			Title:    textx.Clean(r.Title),
			URL:      r.URL,
			Snippet:  textx.Clean(r.Content),
			Provider: Name,
			Rank:     len(out) + 1,
		}
		if res.Title == "" {
			res.Title = r.URL
		}
		if r.PublishedDate != nil {
			res.Published = textx.ParseTime(*r.PublishedDate)
		}
		out = append(out, res)
	}
	return out, nil
}

// unresponsive reports engines that all failed. CAPTCHAs and access
// denials mean the upstream engines refused the instance (ErrBlocked);
// anything else (timeouts, errors) is ErrUnavailable.
func unresponsive(status int, engines []json.RawMessage) error {
	kind := search.ErrUnavailable
	var parts []string
	for _, raw := range engines {
		var e []string
		if json.Unmarshal(raw, &e) != nil {
			e = []string{string(raw)}
		}
		parts = append(parts, strings.Join(e, ": "))
		if len(e) > 1 {
			r := strings.ToLower(e[1])
			if strings.Contains(r, "captcha") || strings.Contains(r, "access denied") || strings.Contains(r, "suspended") {
				kind = search.ErrBlocked
			}
		}
	}
	return &search.ProviderError{Provider: Name, Kind: kind, Status: status,
		Err: fmt.Errorf("no results and every engine failed: %s", strings.Join(parts, "; "))}
}
