// Package google is the Google Programmable Search Engine provider, using
// the Custom Search JSON API (GET /customsearch/v1 with key and cx).
package google

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "google"

// keyEnv and cxEnv are the environment variables that hold the API key and
// the Programmable Search Engine ID when the configuration does not.
const (
	keyEnv = "GOOGLE_API_KEY"
	cxEnv  = "GOOGLE_CSE_ID"
)

// init registers the provider (see search.Registration).
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 60,
		Settings: []search.Setting{
			{Key: search.SettingAPIKey, Env: keyEnv},
			{Key: search.SettingCX, Env: cxEnv},
		},
		New: search.NewFactory(New),
	})
}

const (
	defaultBase = "https://www.googleapis.com"
	path        = "/customsearch/v1"
	// maxResults is the API's hard limit for num: one request returns at
	// most 10 items (more would need paging with start, costing a query
	// each).
	maxResults = 10
)

// Provider queries a Programmable Search Engine.
type Provider struct {
	key, cx  string
	endpoint string
	c        *httpx.Client
}

// New builds a Google provider; cfg.APIKey and cfg.CX are required.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, keyEnv)
	if err != nil {
		return nil, err
	}
	if cfg.CX == "" {
		return nil, fmt.Errorf("google: search engine id cx is required (%s)", cxEnv)
	}
	return &Provider{key: cfg.APIKey, cx: cfg.CX, endpoint: ep, c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

var dateRestrict = map[search.Freshness]string{
	search.FreshnessDay: "d1", search.FreshnessWeek: "w1",
	search.FreshnessMonth: "m1", search.FreshnessYear: "y1",
}

func (p *Provider) params(q search.Query, count int) url.Values {
	v := url.Values{}
	v.Set("key", p.key)
	v.Set("cx", p.cx)
	v.Set("num", strconv.Itoa(count))
	// siteSearch takes exactly one site, so it is used natively when
	// there is a single rule and operators otherwise. Allowed and blocked
	// rules never come together (search.Query forbids it).
	allowed, blocked := pushdown.Hosts(q.AllowedDomains), pushdown.Hosts(q.BlockedDomains)
	text := q.Text
	switch {
	case len(allowed) == 1:
		v.Set("siteSearch", allowed[0])
		v.Set("siteSearchFilter", "i")
	case len(allowed) == 0 && len(blocked) == 1:
		v.Set("siteSearch", blocked[0])
		v.Set("siteSearchFilter", "e")
	default:
		text = pushdown.SiteQuery(text, allowed, blocked)
	}
	v.Set("q", text)
	if c := pushdown.Country(q); c != "" {
		v.Set("gl", strings.ToLower(c))
	}
	if l := lr(q.Language); l != "" {
		v.Set("lr", l)
	}
	if d := dateRestrict[q.Freshness]; d != "" {
		v.Set("dateRestrict", d)
	}
	switch q.SafeSearch {
	case search.SafeSearchStrict:
		v.Set("safe", "active")
	case search.SafeSearchOff:
		v.Set("safe", "off")
	}
	return v
}

// lr maps a BCP 47 tag to the API's language restrict value; Chinese is
// the one language split by script/region.
func lr(tag string) string {
	l := pushdown.Lang(tag)
	if l == "" {
		return ""
	}
	if l == "zh" {
		t := strings.ToLower(tag)
		if strings.Contains(t, "hant") || strings.HasSuffix(t, "-tw") || strings.HasSuffix(t, "-hk") {
			return "lang_zh-TW"
		}
		return "lang_zh-CN"
	}
	return "lang_" + l
}

// Search implements search.Provider.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := httpx.GetRequest(p.endpoint, p.params(q, count))
	if err != nil {
		return nil, err
	}
	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	if !resp.OK() {
		return nil, p.statusError(resp)
	}
	var body struct {
		Kind  string `json:"kind"`
		Items []struct {
			Title   string `json:"title"`
			Link    string `json:"link"`
			Snippet string `json:"snippet"`
			Pagemap struct {
				Metatags []map[string]any `json:"metatags"`
			} `json:"pagemap"`
		} `json:"items"`
	}
	if err := p.c.DecodeJSON(resp, &body); err != nil {
		return nil, err
	}
	if body.Kind != "customsearch#search" {
		// Every answer, empty or not, carries this kind; anything else is
		// not a Custom Search response.
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("decode response: unexpected kind %q", body.Kind))
	}
	var out []search.Result
	for _, it := range body.Items {
		if len(out) == count {
			break
		}
		if it.Link == "" {
			continue
		}
		snippet, age := splitDate(textx.Clean(it.Snippet))
		pub := published(it.Pagemap.Metatags)
		if pub.IsZero() {
			pub = textx.ParseTime(age)
		}
		out = append(out, search.Result{
			Title:     textx.Clean(it.Title),
			URL:       it.Link,
			Snippet:   snippet,
			Published: pub,
			PageAge:   age,
			Provider:  Name,
			Rank:      len(out) + 1,
		})
	}
	return out, nil
}

// datePrefix matches the date Google prepends to dated snippets, e.g.
// "Mar 22, 2022 ... The Go 1.18 release" or "3 days ago ... text".
var datePrefix = regexp.MustCompile(`^((?:[A-Z][a-z]{2} \d{1,2}, \d{4})|(?:\d+ (?:second|minute|hour|day|week)s? ago)) \.\.\. `)

// splitDate separates Google's date prefix from a snippet.
func splitDate(s string) (snippet, age string) {
	m := datePrefix.FindStringSubmatchIndex(s)
	if m == nil {
		return s, ""
	}
	return s[m[1]:], s[m[2]:m[3]]
}

// publishedKeys are the page metadata that carry a publication time, in
// order of trust.
var publishedKeys = []string{"article:published_time", "og:article:published_time", "datepublished", "date", "dc.date"}

func published(metatags []map[string]any) time.Time {
	for _, m := range metatags {
		for _, k := range publishedKeys {
			if s, ok := m[k].(string); ok {
				if t := textx.ParseTime(s); !t.IsZero() {
					return t
				}
			}
		}
	}
	return time.Time{}
}

// statusError refines the generic mapping with Google's error bodies: an
// invalid key is a 400 (API_KEY_INVALID), and an exhausted daily quota is
// a 429 or 403 that waiting minutes will not cure.
func (p *Provider) statusError(resp *httpx.Response) error {
	e := p.c.StatusError(resp, "queries per day", "dailyLimitExceeded", "billing")
	if httpx.ContainsFold(resp.Body, "API_KEY_INVALID", "API key not valid", "API key expired") {
		httpx.Reclassify(e, search.ErrAuth)
	}
	return e
}
