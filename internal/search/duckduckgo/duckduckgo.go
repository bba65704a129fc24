// Package duckduckgo is webgate's keyless, zero-configuration provider: it
// posts the query to DuckDuckGo's HTML endpoint (html.duckduckgo.com/html/)
// and parses the result page.
//
// Scraping is inherently fragile, so the parser is defensive in both
// directions: it only trusts pages it recognises (a results container, a
// result, or the explicit "No results." marker), reports DuckDuckGo's bot
// challenge ("anomaly" page, usually an HTTP 202) as search.ErrBlocked
// rather than as an empty answer, skips ads, and unwraps DuckDuckGo's
// //duckduckgo.com/l/?uddg=… redirect links to the real destination.
package duckduckgo

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
	"github.com/webgate/webgate/internal/search/internal/pushdown"
	"github.com/webgate/webgate/internal/search/internal/textx"
)

// Name is the provider's configuration name.
const Name = "duckduckgo"

// init registers the provider (see search.Registration). It needs no key,
// so it ranks last in the default chain, and it blocks clients that send
// bursts, so it is limited to 1 request per second with a burst of 2
// unless providers.duckduckgo.rps says otherwise.
func init() {
	search.Register(search.Registration{
		Name: Name, Rank: 90,
		RPS: 1, Burst: 2,
		New: search.NewFactory(New),
	})
}

const (
	defaultBase = "https://html.duckduckgo.com"
	path        = "/html/"
	// maxResults is what one HTML result page holds at most; webgate does
	// not page through DuckDuckGo (each page is another scrape).
	maxResults = 30
	// userAgent is a mainstream desktop browser's: the HTML endpoint
	// serves its bot challenge far more often to library user agents.
	userAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
)

// Provider scrapes DuckDuckGo's HTML endpoint.
type Provider struct {
	endpoint string
	origin   string
	c        *httpx.Client
}

// New builds a DuckDuckGo provider. It needs no key; cfg.BaseURL may point
// at a proxy or a test server.
func New(cfg search.Settings, hc *http.Client) (*Provider, error) {
	ep, c, err := httpx.Setup(Name, cfg, hc, defaultBase, path, "")
	if err != nil {
		return nil, err
	}
	return &Provider{endpoint: ep, origin: strings.TrimSuffix(ep, path), c: c}, nil
}

// Name implements search.Provider.
func (p *Provider) Name() string { return Name }

// form builds the POST form the HTML page's own search box submits.
func form(q search.Query) url.Values {
	v := url.Values{}
	v.Set("q", pushdown.SiteQuery(q.Text, q.AllowedDomains, q.BlockedDomains))
	v.Set("b", "")
	if kl := region(pushdown.Country(q), pushdown.Lang(q.Language)); kl != "" {
		v.Set("kl", kl)
	}
	switch q.Freshness {
	case search.FreshnessDay:
		v.Set("df", "d")
	case search.FreshnessWeek:
		v.Set("df", "w")
	case search.FreshnessMonth:
		v.Set("df", "m")
	case search.FreshnessYear:
		v.Set("df", "y")
	}
	switch q.SafeSearch {
	case search.SafeSearchStrict:
		v.Set("kp", "1")
	case search.SafeSearchModerate:
		v.Set("kp", "-1")
	case search.SafeSearchOff:
		v.Set("kp", "-2")
	}
	return v
}

// Search implements search.Provider.
func (p *Provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := pushdown.CheckText(Name, q); err != nil {
		return nil, err
	}
	count := pushdown.Count(q, 10, maxResults)
	req, err := http.NewRequest(http.MethodPost, p.endpoint, strings.NewReader(form(q).Encode()))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Referer", p.origin+"/")
	if l := strings.TrimSpace(q.Language); l != "" {
		req.Header.Set("Accept-Language", l)
	}

	resp, err := p.c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
		// 202 is how the HTML endpoint serves its bot challenge.
		return nil, p.blocked(resp.StatusCode, "bot challenge (HTTP 202)")
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTeapot:
		// There is no credential to be wrong: a refusal means we are
		// blocked.
		return nil, p.blocked(resp.StatusCode, "request refused")
	case !resp.OK():
		return nil, p.c.StatusError(resp)
	}
	page, err := parse(resp.Body)
	if err != nil {
		return nil, p.c.Unavailable(resp.StatusCode, err)
	}
	switch {
	case page.challenge:
		return nil, p.blocked(resp.StatusCode, "bot challenge (anomaly page)")
	case len(page.results) > 0:
	case page.empty || (page.ads > 0 && page.organic == 0):
		// The explicit "No results." page, or a page of nothing but ads:
		// a real answer with no hits.
		return nil, nil
	case page.organic > 0:
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("parse response: %d results but none with a usable link; has the page layout changed?", page.organic))
	default:
		// No results and no "No results." marker: an error page, a
		// changed layout or a challenge we do not know. Reporting it as
		// empty would hide the failure from the engine.
		return nil, p.c.Unavailable(resp.StatusCode, fmt.Errorf("parse response: not a DuckDuckGo result page"))
	}
	var out []search.Result
	for _, r := range page.results {
		if len(out) == count {
			break
		}
		r.Provider = Name
		r.Rank = len(out) + 1
		out = append(out, r)
	}
	return out, nil
}

func (p *Provider) blocked(status int, why string) error {
	return &search.ProviderError{Provider: Name, Kind: search.ErrBlocked, Status: status, Err: fmt.Errorf("%s", why)}
}

// page is what parse found.
type page struct {
	results []search.Result
	// organic and ads count the result blocks seen, parsed or not.
	organic, ads int
	// empty is set for DuckDuckGo's explicit "No results." page.
	empty bool
	// challenge is set for the bot-challenge ("anomaly") page.
	challenge bool
}

func parse(body []byte) (*page, error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("parse response: %w", err)
	}
	pg := &page{}
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case isChallenge(n):
				pg.challenge = true
			case hasClass(n, "no-results") || hasClass(n, "result--no-result"):
				pg.empty = true
				return
			case hasClass(n, "result"):
				if hasClass(n, "result--ad") {
					pg.ads++
					return
				}
				pg.organic++
				if r, ok := result(n); ok && !seen[r.URL] {
					seen[r.URL] = true
					pg.results = append(pg.results, r)
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return pg, nil
}

// isChallenge recognises the anomaly page: its modal, its challenge form,
// or a form posting to anomaly.js.
func isChallenge(n *html.Node) bool {
	if attr(n, "id") == "challenge-form" || strings.Contains(attr(n, "action"), "anomaly.js") {
		return true
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if strings.HasPrefix(c, "anomaly-modal") {
			return true
		}
	}
	return false
}

// result extracts one organic result from its div.result.
func result(n *html.Node) (search.Result, bool) {
	var r search.Result
	title := find(n, func(m *html.Node) bool { return m.Data == "a" && hasClass(m, "result__a") })
	if title == nil {
		return r, false
	}
	u, ok := destination(attr(title, "href"))
	if !ok {
		return r, false
	}
	r.URL = u
	r.Title = textx.Clean(text(title))
	if r.Title == "" {
		r.Title = u
	}
	if s := find(n, func(m *html.Node) bool { return hasClass(m, "result__snippet") }); s != nil {
		r.Snippet = textx.Clean(text(s))
	}
	// Some results carry an ISO timestamp in an unclassed span next to the
	// display URL.
	if x := find(n, func(m *html.Node) bool { return hasClass(m, "result__extras__url") }); x != nil {
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "span" && attr(c, "class") == "" {
				s := textx.Clean(text(c))
				if t := textx.ParseTime(s); !t.IsZero() {
					r.Published = t
					r.PageAge = s
				}
			}
		}
	}
	return r, true
}

// destination turns a result link into the page it leads to: redirect
// links (//duckduckgo.com/l/?uddg=<escaped URL>&rut=…) are unwrapped, ad
// click-through links (duckduckgo.com/y.js) rejected, and only absolute
// http(s) URLs accepted.
func destination(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if strings.HasPrefix(href, "//") {
		href = "https:" + href
	} else if strings.HasPrefix(href, "/") {
		href = "https://duckduckgo.com" + href
	}
	u, err := url.Parse(href)
	if err != nil {
		return "", false
	}
	if isDDG(u.Hostname()) {
		switch u.Path {
		case "/l/", "/l":
			target := u.Query().Get("uddg")
			if target == "" {
				return "", false
			}
			if u, err = url.Parse(target); err != nil {
				return "", false
			}
		default:
			return "", false // y.js ads and internal links
		}
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	return u.String(), true
}

func isDDG(host string) bool {
	host = strings.ToLower(host)
	return host == "duckduckgo.com" || strings.HasSuffix(host, ".duckduckgo.com")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

// find returns the first element below n (depth first) matching ok.
func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && ok(c) {
			return c
		}
		if m := find(c, ok); m != nil {
			return m
		}
	}
	return nil
}

// text is the concatenated text content of n. Parsed text is already
// entity-decoded; html.EscapeString keeps it safe for textx.Clean, which
// decodes again.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(html.EscapeString(n.Data))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
