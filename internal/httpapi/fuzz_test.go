package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	pathpkg "path"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/search"
)

// checkingSearcher fails the fuzz run when the API lets an invalid query
// through to the engine.
type checkingSearcher struct {
	mu  sync.Mutex
	bad string
}

func (c *checkingSearcher) Search(_ context.Context, q search.Query) (*search.Response, error) {
	switch n := utf8.RuneCountInString(q.Text); {
	case n < search.MinQueryLen || n > search.MaxQueryLen || q.Text != strings.TrimSpace(q.Text):
		c.fail("query text %q", q.Text)
	case q.MaxResults < 0 || q.MaxResults > search.MaxResultsLimit:
		c.fail("max_results %d", q.MaxResults)
	case len(q.AllowedDomains) > 0 && len(q.BlockedDomains) > 0:
		c.fail("both domain lists")
	case !q.Freshness.Valid() || !q.SafeSearch.Valid():
		c.fail("options %+v", q)
	}
	return &search.Response{Query: q, Provider: "fake"}, nil
}

func (c *checkingSearcher) fail(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bad == "" {
		c.bad = fmt.Sprintf(format, args...)
	}
}

type okGetter struct{}

func (okGetter) Fetch(_ context.Context, req fetch.Request) (*fetch.Result, error) {
	if req.URL == "" || req.MaxLength < 0 || req.StartIndex < 0 {
		return nil, fetch.ErrInvalidRequest
	}
	return &fetch.Result{URL: req.URL, FinalURL: req.URL, Status: 200, Content: "x"}, nil
}

// FuzzRequests drives the JSON API's decoders (POST bodies, GET query
// strings) through the real handler: nothing panics, every answer is JSON
// with a status from the documented set, and no invalid query reaches
// the engine.
func FuzzRequests(f *testing.F) {
	f.Add("POST", "/v1/search", `{"query":"golang","max_results":3,"allowed_domains":["go.dev"],"freshness":"week"}`, "")
	f.Add("GET", "/v1/search", "", "q=golang&n=5&allow=go.dev,pkg.go.dev&country=de&safe_search=strict")
	f.Add("POST", "/v1/fetch", `{"urls":["https://a.test/","https://b.test/"],"format":"text","max_length":100}`, "")
	f.Add("POST", "/v1/search", `{"query":"x","max_result":3}`, "")
	f.Add("POST", "/v1/fetch", `{"url":""}{}`, "")
	f.Add("GET", "/v1/search", "", "q=%zz&n=-1")
	allowed := map[int]bool{200: true, 400: true, 404: true, 405: true, 413: true}
	f.Fuzz(func(t *testing.T, method, path, body, query string) {
		if method != "GET" && method != "POST" || !strings.HasPrefix(path, "/v1/") || strings.ContainsAny(path, "?# \t\r\n") {
			return
		}
		if _, err := url.ParseRequestURI(path); err != nil || pathpkg.Clean(path) != path {
			return // the mux redirects unclean paths before any decoder runs
		}
		s := &checkingSearcher{}
		api := New(Options{Searcher: s, Fetcher: okGetter{}, MaxBodyBytes: 64 << 10})
		req := httptest.NewRequest(method, "http://x"+path, strings.NewReader(body))
		req.URL.RawQuery = query
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		if s.bad != "" {
			t.Fatalf("invalid query reached the engine: %s", s.bad)
		}
		if !allowed[rec.Code] {
			t.Fatalf("status %d for %s %s?%s %q: %s", rec.Code, method, path, query, body, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("non-JSON answer %d: %q", rec.Code, rec.Body)
		}
		if rec.Code != http.StatusOK && !strings.Contains(rec.Body.String(), `"error":{"type":`) {
			t.Fatalf("error without the error object: %s", rec.Body)
		}
	})
}
