// Package serpapi is the SerpApi provider using its Google engine
// (GET /search.json?engine=google, api_key query parameter).
package serpapi

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
const Name = "serpapi"

// keyEnv is the environment variable that holds the API key when the
// configuration does not.
const keyEnv = "SERPAPI_API_KEY"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 50,
		Settings: []search.Setting{{Key: search.SettingAPIKey, Env: keyEnv}},
		New:      search.NewFactory(New),
	})
}

const (
	defaultBase = "https://serpapi.com"
	path        = "/search.json"
	maxResults  = 100
)

// quotaPhrases are SerpApi's messages for an exhausted plan; they arrive
// with a 429 (or in a 200's "error" field), and waiting will not help.
var quotaPhrases = []string{"run out of searches", "plan searches", "searches per month"}

// Provider queries SerpApi.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds a SerpApi provider; cfg.APIKey is required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

var tbs = map[search.Freshness]string{
	search.FreshnessDay: "qdr:d", search.FreshnessWeek: "qdr:w",
	search.FreshnessMonth: "qdr:m", search.FreshnessYear: "qdr:y",
}

func params(q search.Query, count int, key string) url.Values {
	v := url.Values{}
	v.Set("engine", "google")
	v.Set("q", pushdown.SiteQuery(q.Text, q.AllowedDomains, q.BlockedDomains))
	v.Set("num", strconv.Itoa(count))
	v.Set("api_key", key)
	if c := pushdown.Country(q); c != "" {
		v.Set("gl", strings.ToLower(c))
	}
	if l := pushdown.Lang(q.Language); l != "" {
		v.Set("hl", l)
	}
	if t := tbs[q.Freshness]; t != "" {
		v.Set("tbs", t)
	}
	// Google's safe search is on/off; "moderate" keeps Google's default.
	switch q.SafeSearch {
	case search.SafeSearchStrict:
		v.Set("safe", "active")
	case search.SafeSearchOff:
		v.Set("safe", "off")
	}
	return v
}

// Search implements search.Provider.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := httpx.GetRequest(p.endpoint, params(q, count, p.key))
	if err != nil {
		return nil, err
	}
	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		return nil, p.c.StatusError(resp, quotaPhrases...)
	}
	var body struct {
		SearchMetadata *struct {
			Status string `json:"status"`
		} `json:"search_metadata"`
		SearchInformation struct {
			OrganicResultsState string `json:"organic_results_state"`
		} `json:"search_information"`
		Error          string `json:"error"`
		OrganicResults []struct {
			Position int    `json:"position"`
			Title    string `json:"title"`
			Link     string `json:"link"`
			Snippet  string `json:"snippet"`
			Date     string `json:"date"`
		} `json:"organic_results"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.SearchMetadata == nil && body.Error == "" {
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("decode response: no search_metadata field"))
	}
	if body.Error != "" && len(body.OrganicResults) == 0 {
		// SerpApi reports a search without hits as a 200 with an error
		// string and organic_results_state "Fully empty"; that is a real
		// empty answer, not a failure.
		if body.SearchInformation.OrganicResultsState == "Fully empty" ||
			strings.Contains(body.Error, "hasn't returned any results") {
			return nil, nil
		}
		kind := search.ErrUnavailable
		if httpx.ContainsFold([]byte(body.Error), quotaPhrases...) {
			kind = search.ErrQuota
		}
		return nil, &search.ProviderError{Provider: Name, Kind: kind, Status: resp.StatusCode, Err: fmt.Errorf("%s", body.Error)}
	}
	var out []search.Result
	for _, r := range body.OrganicResults {
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
