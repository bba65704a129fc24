// Package serper is the Serper.dev Google SERP API provider (POST /search
// with a JSON body, header X-API-KEY).
package serper

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "serper"

// keyEnv is the environment variable that holds the API key when the
// configuration does not.
const keyEnv = "SERPER_API_KEY"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 40,
		Settings: []search.Setting{{Key: search.SettingAPIKey, Env: keyEnv}},
		New:      search.NewFactory(New),
	})
}

const (
	defaultBase = "https://google.serper.dev"
	path        = "/search"
	// maxResults is the largest num Serper accepts (Google's page size
	// limit of 100).
	maxResults = 100
)

// Provider queries Serper.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds a Serper provider; cfg.APIKey is required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

type request struct {
	Q   string `json:"q"`
	Num int    `json:"num"`
	GL  string `json:"gl,omitempty"`
	HL  string `json:"hl,omitempty"`
	TBS string `json:"tbs,omitempty"`
}

// tbs are Google's "past day/week/month/year" time filters.
var tbs = map[search.Freshness]string{
	search.FreshnessDay: "qdr:d", search.FreshnessWeek: "qdr:w",
	search.FreshnessMonth: "qdr:m", search.FreshnessYear: "qdr:y",
}

func buildRequest(q search.Query, count int) request {
	return request{
		// Serper forwards the query to Google, which understands site:
		// operators but has no include/exclude lists.
		Q:   pushdown.SiteQuery(q.Text, q.AllowedDomains, q.BlockedDomains),
		Num: count,
		GL:  strings.ToLower(pushdown.Country(q)),
		HL:  pushdown.Lang(q.Language),
		TBS: tbs[q.Freshness],
	}
}

// Search implements search.Provider. Serper has no safe-search parameter.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := httpx.JSONRequest(p.endpoint, buildRequest(q, count))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-KEY", p.key)

	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		// Exhausted credits come back as {"message":"Not enough
		// credits","statusCode":400}; without the phrase check that
		// would read as an invalid query.
		return nil, p.c.StatusError(resp, "not enough credits", "insufficient credits", "out of credits")
	}
	var body struct {
		SearchParameters *struct {
			Q string `json:"q"`
		} `json:"searchParameters"`
		Organic []struct {
			Title    string `json:"title"`
			Link     string `json:"link"`
			Snippet  string `json:"snippet"`
			Date     string `json:"date"`
			Position int    `json:"position"`
		} `json:"organic"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.SearchParameters == nil {
		// Every real answer echoes its parameters, even with no hits;
		// without them this is not a Serper response.
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("decode response: no searchParameters field"))
	}
	var out []search.Result
	for _, r := range body.Organic {
		if len(out) == count {
			break
		}
		if r.Link == "" {
			continue
		}
		out = append(out, search.Result{
			Title:     textx.Clean(r.Title),
			URL:       r.Link,
			Snippet:   textx.Clean(r.Snippet),
			Published: textx.ParseTime(r.Date),
			PageAge:   r.Date,
			Provider:  Name,
			Rank:      len(out) + 1,
		})
	}
	return out, nil
}
