// Package jina is the Jina AI Search provider (s.jina.ai), asked for JSON
// SERP entries without page contents.
package jina

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "jina"

// keyEnv is the environment variable that holds the API key when the
// configuration does not.
const keyEnv = "JINA_API_KEY"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 70,
		Settings: []search.Setting{{Key: search.SettingAPIKey, Env: keyEnv}},
		New:      search.NewFactory(New),
	})
}

const (
	defaultBase = "https://s.jina.ai"
	path        = "/"
	maxResults  = 20
)

// Provider queries Jina Search.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds a Jina provider; cfg.APIKey is required (s.jina.ai rejects
// anonymous requests).
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

// build returns the query parameters and the X-Site header value. A single
// allowed site goes to X-Site, Jina's native site filter; several sites
// and blocked sites become operators in the query text.
func build(q search.Query, count int) (url.Values, string) {
	v := url.Values{}
	allowed := pushdown.Hosts(q.AllowedDomains)
	site := ""
	text := q.Text
	if len(allowed) == 1 {
		site = allowed[0]
		text = pushdown.SiteQuery(text, nil, q.BlockedDomains)
	} else {
		text = pushdown.SiteQuery(text, allowed, q.BlockedDomains)
	}
	v.Set("q", text)
	v.Set("num", strconv.Itoa(count))
	if c := pushdown.Country(q); c != "" {
		v.Set("gl", strings.ToLower(c))
	}
	if l := pushdown.Lang(q.Language); l != "" {
		v.Set("hl", l)
	}
	return v, site
}

// Search implements search.Provider. Jina has no freshness or safe-search
// parameter.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	params, site := build(q, count)
	req, err := httpx.GetRequest(p.endpoint, params)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+p.key)
	// SERP entries only: without this Jina fetches and converts every
	// result page, which is slow and billed per token.
	req.Header.Set("X-Respond-With", "no-content")
	if site != "" {
		req.Header.Set("X-Site", site)
	}

	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		// Jina reports a query without hits as a 422 assertion failure;
		// that is an empty answer, not an invalid query.
		if resp.StatusCode == http.StatusUnprocessableEntity && httpx.ContainsFold(resp.Body, "no search results") {
			return nil, nil
		}
		return nil, p.c.StatusError(resp, "InsufficientBalance", "insufficient balance")
	}
	var body struct {
		Code *int `json:"code"`
		Data []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
			Date        string `json:"date"`
		} `json:"data"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.Code == nil {
		// Jina's envelope always carries code; without it this is not a
		// Jina answer.
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("decode response: no code field"))
	}
	var out []search.Result
	for _, r := range body.Data {
		if len(out) == count {
			break
		}
		if r.URL == "" {
			continue
		}
		out = append(out, search.Result{
			Title:     textx.Clean(r.Title),
			URL:       r.URL,
			Snippet:   textx.Clean(r.Description),
			Published: textx.ParseTime(r.Date),
			PageAge:   r.Date,
			Provider:  Name,
			Rank:      len(out) + 1,
		})
	}
	return out, nil
}
