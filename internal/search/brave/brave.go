// Package brave is the Brave Search API provider
// (GET /res/v1/web/search, header X-Subscription-Token).
package brave

import (
	"context"
	"encoding/json"
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
const Name = "brave"

// keyEnv is the environment variable that holds the API key when the
// configuration does not.
const keyEnv = "BRAVE_API_KEY"

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 10,
		Settings: []search.Setting{{Key: search.SettingAPIKey, Env: keyEnv}},
		New:      search.NewFactory(New),
	})
}

const (
	defaultBase = "https://api.search.brave.com"
	path        = "/res/v1/web/search"
	// maxCount is the web search endpoint's documented maximum for count.
	maxCount = 20
)

// Provider queries Brave Search.
type Provider struct {
	key      string
	endpoint string
	c        *httpx.Client
}

// New builds a Brave provider; cfg.APIKey is required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	return &Provider{key: cfg.APIKey, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

// Search implements search.Provider.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxCount)
	req, err := httpx.GetRequest(p.endpoint, params(q, count))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Subscription-Token", p.key)

	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		return nil, p.statusError(resp)
	}
	var body response
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.Type == "ErrorResponse" {
		// A 2xx carrying an error object is not an answer.
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("error response: %s", body.Error.Detail))
	}
	var out []search.Result
	for _, r := range body.Web.Results {
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
			Published: textx.ParseTime(r.PageAge),
			PageAge:   r.Age,
			Provider:  Name,
			Rank:      len(out) + 1,
		})
	}
	return out, nil
}

// params maps q onto the endpoint's query parameters.
func params(q search.Query, count int) url.Values {
	v := url.Values{}
	v.Set("q", pushdown.SiteQuery(q.Text, q.AllowedDomains, q.BlockedDomains))
	v.Set("count", strconv.Itoa(count))
	v.Set("result_filter", "web")
	// Plain text snippets; textx.Clean still guards against markup.
	v.Set("text_decorations", "false")
	if c := pushdown.Country(q); c != "" {
		v.Set("country", c)
	}
	if l := searchLang(q.Language); l != "" {
		v.Set("search_lang", l)
	}
	switch q.Freshness {
	case search.FreshnessDay:
		v.Set("freshness", "pd")
	case search.FreshnessWeek:
		v.Set("freshness", "pw")
	case search.FreshnessMonth:
		v.Set("freshness", "pm")
	case search.FreshnessYear:
		v.Set("freshness", "py")
	}
	if q.SafeSearch != search.SafeSearchDefault {
		v.Set("safesearch", string(q.SafeSearch)) // off, moderate, strict: same words
	}
	return v
}

// searchLang maps a BCP 47 tag to Brave's search_lang codes, which are ISO
// 639-1 except for a few regional variants.
func searchLang(tag string) string {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(tag), "_", "-"))
	switch t {
	case "pt-br", "pt-pt", "en-gb":
		return t
	case "zh-hans", "zh-cn", "zh-sg":
		return "zh-hans"
	case "zh-hant", "zh-tw", "zh-hk":
		return "zh-hant"
	}
	return pushdown.Lang(t)
}

// statusError maps Brave's error object onto error kinds. Brave answers
// both a per-second rate limit and an exhausted monthly quota with 429;
// only the first is worth waiting for, so the quota case (code
// QUOTA_LIMITED, or meta.quota_current at meta.quota_limit) is ErrQuota.
// A bad token may come back as 422 SUBSCRIPTION_TOKEN_INVALID.
func (p *Provider) statusError(resp *httpx.Response) error {
	e := p.c.StatusError(resp)
	var body response
	if json.Unmarshal(resp.Body, &body) != nil {
		return e
	}
	meta := body.Error.Meta
	switch {
	case body.Error.Code == "QUOTA_LIMITED" || meta.QuotaLimit > 0 && meta.QuotaCurrent >= meta.QuotaLimit:
		httpx.Reclassify(e, search.ErrQuota)
	case body.Error.Code == "SUBSCRIPTION_TOKEN_INVALID":
		httpx.Reclassify(e, search.ErrAuth)
	}
	return e
}

type response struct {
	Type string `json:"type"`
	Web  struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
			Age         string `json:"age"`
			PageAge     string `json:"page_age"`
		} `json:"results"`
	} `json:"web"`
	Error struct {
		Code   string `json:"code"`
		Detail string `json:"detail"`
		Meta   struct {
			QuotaLimit   int64 `json:"quota_limit"`
			QuotaCurrent int64 `json:"quota_current"`
		} `json:"meta"`
	} `json:"error"`
}
