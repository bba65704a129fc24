package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/search"
)

type fakeSearcher struct {
	err error
	got []search.Query
}

func (f *fakeSearcher) Search(_ context.Context, q search.Query) (*search.Response, error) {
	f.got = append(f.got, q)
	if f.err != nil {
		return nil, f.err
	}
	return &search.Response{Query: q, Provider: "fake", Results: []search.Result{
		{Title: "Go", URL: "https://go.dev/", Snippet: "The Go language", Provider: "fake", Rank: 1, PageAge: "2 days ago"},
	}}, nil
}

type fakeGetter struct{}

func (fakeGetter) Fetch(_ context.Context, req fetch.Request) (*fetch.Result, error) {
	if strings.Contains(req.URL, "missing") {
		return nil, &fetch.StatusError{URL: req.URL, Code: 404}
	}
	if req.Format != "markdown" && req.Format != "text" {
		return nil, fmt.Errorf("unexpected format %q", req.Format)
	}
	return &fetch.Result{URL: req.URL, FinalURL: req.URL + "#final", Status: 200, ContentType: "text/html; charset=utf-8",
		Title: "T", Content: "body", Truncated: req.MaxLength > 0, NextStartIndex: req.StartIndex + req.MaxLength}, nil
}

func do(t *testing.T, h http.Handler, method, target, body string, hdr ...string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.String()
}

func TestSearch(t *testing.T) {
	wantBody := `{"query":"golang","provider":"fake","results":[{"title":"Go","url":"https://go.dev/","snippet":"The Go language","published":"2 days ago","provider":"fake"}]}` + "\n"
	tests := []struct {
		name   string
		method string
		target string
		body   string
		want   search.Query
	}{
		{name: "get minimal", method: "GET", target: "/v1/search?q=golang", want: search.Query{Text: "golang"}},
		{
			name: "get everything", method: "GET",
			target: "/v1/search?q=golang&n=5&allow=go.dev,github.com&allow=pkg.go.dev&provider=brave&country=us&language=en&freshness=week&safe_search=strict",
			want: search.Query{Text: "golang", MaxResults: 5, AllowedDomains: []string{"go.dev", "github.com", "pkg.go.dev"}, Provider: "brave",
				Location: search.Location{Country: "US"}, Language: "en", Freshness: search.FreshnessWeek, SafeSearch: search.SafeSearchStrict},
		},
		{
			name: "post", method: "POST", target: "/v1/search",
			body: `{"query":"golang","max_results":3,"blocked_domains":["w3schools.com"],"freshness":"any"}`,
			want: search.Query{Text: "golang", MaxResults: 3, BlockedDomains: []string{"w3schools.com"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeSearcher{}
			resp, body := do(t, New(Options{Searcher: s, Fetcher: fakeGetter{}}), tt.method, tt.target, tt.body)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("status %d, content type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			if diff := cmp.Diff(wantBody, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]search.Query{tt.want}, s.got); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		target     string
		body       string
		searchErr  error
		status     int
		typ        string
		msg        string
		retryAfter string
		allow      string
	}{
		{name: "missing q", method: "GET", target: "/v1/search", status: 400, typ: "invalid_request", msg: "query (q) is required"},
		{name: "one-character q", method: "GET", target: "/v1/search?q=a", status: 400, typ: "invalid_request", msg: "query (q) must be at least 2 characters (got 1)"},
		{name: "several problems at once", method: "POST", target: "/v1/search", body: `{"query":"a","max_results":99}`, status: 400, typ: "invalid_request", msg: "query (q) must be at least 2 characters (got 1); max_results (n) must be between 1 and 50 (got 99)"},
		{name: "bad n", method: "GET", target: "/v1/search?q=go&n=ten", status: 400, typ: "invalid_request", msg: `n: "ten" is not a number`},
		{name: "n zero", method: "GET", target: "/v1/search?q=go&n=0", status: 400, typ: "invalid_request", msg: "between 1 and 50"},
		{name: "n too big", method: "GET", target: "/v1/search?q=go&n=51", status: 400, typ: "invalid_request", msg: "between 1 and 50"},
		{name: "allow and block", method: "GET", target: "/v1/search?q=go&allow=a.com&block=b.com", status: 400, typ: "invalid_request", msg: "cannot be combined"},
		{name: "bad freshness", method: "GET", target: "/v1/search?q=go&freshness=hour", status: 400, typ: "invalid_request", msg: `freshness "hour"`},
		{name: "bad country", method: "GET", target: "/v1/search?q=go&country=USA", status: 400, typ: "invalid_request", msg: "two-letter"},
		{name: "bad safe search", method: "GET", target: "/v1/search?q=go&safe_search=max", status: 400, typ: "invalid_request", msg: "safe_search"},
		{name: "unknown field", method: "POST", target: "/v1/search", body: `{"query":"go","max_result":3}`, status: 400, typ: "invalid_request", msg: `unknown field "max_result"`},
		{name: "malformed body", method: "POST", target: "/v1/search", body: `{"query":`, status: 400, typ: "invalid_request", msg: "invalid JSON body"},
		{name: "empty body", method: "POST", target: "/v1/search", status: 400, typ: "invalid_request", msg: "request body is empty"},
		{name: "trailing data", method: "POST", target: "/v1/search", body: `{"query":"go"} {}`, status: 400, typ: "invalid_request", msg: "unexpected data"},
		{name: "body too large", method: "POST", target: "/v1/search", body: `{"query":"` + strings.Repeat("a", 5000) + `"}`, status: 413, typ: "request_too_large"},
		{name: "provider rejected", method: "GET", target: "/v1/search?q=go", searchErr: fmt.Errorf("search: %w", &search.ProviderError{Provider: "brave", Kind: search.ErrInvalidQuery, Status: 422}), status: 400, typ: "invalid_request", msg: "brave: invalid query (HTTP 422)"},
		{name: "rate limited", method: "GET", target: "/v1/search?q=go", searchErr: fmt.Errorf("search: %w", &search.ProviderError{Provider: "brave", Kind: search.ErrRateLimited, RetryAfter: 2500 * time.Millisecond}), status: 429, typ: "rate_limited", retryAfter: "3"},
		{name: "rate limited no hint", method: "GET", target: "/v1/search?q=go", searchErr: fmt.Errorf("search: %w", &search.ProviderError{Provider: "brave", Kind: search.ErrRateLimited}), status: 429, typ: "rate_limited", retryAfter: "1"},
		{name: "providers failed", method: "GET", target: "/v1/search?q=go", searchErr: fmt.Errorf("search: %w", errors.Join(&search.ProviderError{Provider: "brave", Kind: search.ErrRateLimited}, &search.ProviderError{Provider: "exa", Kind: search.ErrAuth, Status: 401})), status: 502, typ: "provider_error", msg: "exa: authentication failed"},
		{name: "no providers", method: "GET", target: "/v1/search?q=go&provider=nope", searchErr: fmt.Errorf("search: provider %q: %w", "nope", search.ErrNoProviders), status: 503, typ: "no_providers", msg: "no search provider available"},
		{name: "timeout", method: "GET", target: "/v1/search?q=go", searchErr: fmt.Errorf("search: %w", context.DeadlineExceeded), status: 504, typ: "timeout"},
		{name: "wrong method", method: "DELETE", target: "/v1/search", status: 405, typ: "method_not_allowed", allow: "GET, POST"},
		{name: "fetch wrong method", method: "GET", target: "/v1/fetch", status: 405, typ: "method_not_allowed", allow: "POST"},
		{name: "unknown endpoint", method: "GET", target: "/v1/nope", status: 404, typ: "not_found"},
		{name: "fetch no urls", method: "POST", target: "/v1/fetch", body: `{"urls":[]}`, status: 400, typ: "invalid_request", msg: "at least one URL"},
		{name: "fetch too many", method: "POST", target: "/v1/fetch", body: `{"urls":[` + strings.Repeat(`"https://a.test/",`, 20) + `"https://a.test/"]}`, status: 400, typ: "invalid_request", msg: "at most 20"},
		{name: "fetch bad format", method: "POST", target: "/v1/fetch", body: `{"urls":["https://a.test/"],"format":"pdf"}`, status: 400, typ: "invalid_request", msg: "format must be one of"},
		{name: "fetch negative", method: "POST", target: "/v1/fetch", body: `{"urls":["https://a.test/"],"start_index":-5}`, status: 400, typ: "invalid_request", msg: "must not be negative"},
		{name: "fetch wrong content type", method: "POST", target: "/v1/fetch", body: `urls=x`, status: 400, typ: "invalid_request", msg: "Content-Type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := New(Options{Searcher: &fakeSearcher{err: tt.searchErr}, Fetcher: fakeGetter{}, MaxBodyBytes: 4096})
			var hdr []string
			if tt.name == "fetch wrong content type" {
				hdr = []string{"Content-Type", "application/x-www-form-urlencoded"}
			}
			resp, body := do(t, api, tt.method, tt.target, tt.body, hdr...)
			if resp.StatusCode != tt.status {
				t.Errorf("status = %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			var eb ErrorBody
			if err := json.Unmarshal([]byte(body), &eb); err != nil {
				t.Fatalf("body is not an error object: %v: %s", err, body)
			}
			if eb.Error.Type != tt.typ || !strings.Contains(eb.Error.Message, tt.msg) {
				t.Errorf("error = %+v, want type %q containing %q", eb.Error, tt.typ, tt.msg)
			}
			if got := resp.Header.Get("Retry-After"); got != tt.retryAfter {
				t.Errorf("Retry-After = %q, want %q", got, tt.retryAfter)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
}

func TestFetch(t *testing.T) {
	api := New(Options{Searcher: &fakeSearcher{}, Fetcher: fakeGetter{}})
	resp, body := do(t, api, "POST", "/v1/fetch", `{"url":"https://a.test/x","urls":["https://a.test/missing"],"max_length":100,"start_index":50}`, "Content-Type", "application/json")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	want := `{"results":[` +
		`{"url":"https://a.test/x","final_url":"https://a.test/x#final","status":200,"content_type":"text/html; charset=utf-8","title":"T","content":"body","truncated":true,"next_start_index":150},` +
		`{"url":"https://a.test/missing","error":{"type":"http_status","message":"https://a.test/missing: 404 Not Found"}}]}` + "\n"
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}

// TestClientGone: a cancelled request writes nothing rather than a
// misleading error.
func TestClientGone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	api := New(Options{Searcher: &fakeSearcher{err: fmt.Errorf("search: %w", context.Canceled)}, Fetcher: fakeGetter{}})
	req := httptest.NewRequestWithContext(ctx, "GET", "/v1/search?q=go", nil)
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, req)
	if rec.Body.Len() != 0 {
		t.Errorf("wrote %q for a gone client", rec.Body.String())
	}
}

// TestOpenAPI checks that the document is OpenAPI 3.1 and describes
// exactly the routes the API serves, with every status the API can return.
func TestOpenAPI(t *testing.T) {
	resp, body := do(t, New(Options{}), "GET", "/openapi.json", "")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
		Comps   struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	got := map[string][]string{}
	for p, ops := range doc.Paths {
		for m := range ops {
			got[p] = append(got[p], m)
		}
	}
	for _, ms := range got {
		slices.Sort(ms)
	}
	want := map[string][]string{"/v1/search": {"get", "post"}, "/v1/fetch": {"post"}, "/openapi.json": {"get"}, "/healthz": {"get"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	// Every $ref resolves.
	for _, ref := range refs(body) {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if name == ref {
			continue
		}
		if _, ok := doc.Comps.Schemas[name]; !ok {
			t.Errorf("dangling $ref %s", ref)
		}
	}
}

// TestOpenAPILimits: the document's bounds on a search are the search
// package's contract, which the API enforces (search.DefaultLimits).
func TestOpenAPILimits(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"schema"`
			} `json:"parameters"`
		} `json:"paths"`
		Comps struct {
			Schemas struct {
				SearchRequest struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"SearchRequest"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	params := map[string]json.RawMessage{}
	for _, p := range doc.Paths["/v1/search"]["get"].Parameters {
		params[p.Name] = p.Schema
	}
	body := doc.Comps.Schemas.SearchRequest.Properties
	type bounds struct {
		MinLength, MaxLength, Minimum, Maximum, MaxItems int
	}
	for _, c := range []struct {
		name   string
		schema json.RawMessage
		want   bounds
	}{
		{"q", params["q"], bounds{MinLength: search.MinQueryLen, MaxLength: search.MaxQueryLen}},
		{"n", params["n"], bounds{Minimum: 1, Maximum: search.MaxResultsLimit}},
		{"query", body["query"], bounds{MinLength: search.MinQueryLen, MaxLength: search.MaxQueryLen}},
		{"max_results", body["max_results"], bounds{Minimum: 1, Maximum: search.MaxResultsLimit}},
		{"allowed_domains", body["allowed_domains"], bounds{MaxItems: search.MaxDomainFilter}},
		{"blocked_domains", body["blocked_domains"], bounds{MaxItems: search.MaxDomainFilter}},
	} {
		var got bounds
		if err := json.Unmarshal(c.schema, &got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s: bounds %+v, want %+v", c.name, got, c.want)
		}
	}
}

func refs(s string) []string {
	var out []string
	for _, part := range strings.Split(s, `"$ref": "`)[1:] {
		out = append(out, part[:strings.IndexByte(part, '"')])
	}
	return out
}

// renderGetter records the render mode of each request.
type renderGetter struct {
	fakeGetter
	mu  sync.Mutex
	got []fetch.RenderMode
}

func (g *renderGetter) Fetch(ctx context.Context, req fetch.Request) (*fetch.Result, error) {
	g.mu.Lock()
	g.got = append(g.got, req.Render)
	g.mu.Unlock()
	return g.fakeGetter.Fetch(ctx, req)
}

// TestFetchRender: "render" reaches the fetcher; a bad value is a 400.
func TestFetchRender(t *testing.T) {
	g := &renderGetter{}
	api := New(Options{Searcher: &fakeSearcher{}, Fetcher: g})
	resp, body := do(t, api, "POST", "/v1/fetch", `{"url":"https://a.test/x","render":"always"}`, "Content-Type", "application/json")
	if resp.StatusCode != 200 || len(g.got) != 1 || g.got[0] != fetch.RenderAlways {
		t.Errorf("status %d, modes %v: %s", resp.StatusCode, g.got, body)
	}
	resp, body = do(t, api, "POST", "/v1/fetch", `{"url":"https://a.test/x","render":"sometimes"}`, "Content-Type", "application/json")
	if resp.StatusCode != 400 || !strings.Contains(body, "render must be one of") {
		t.Errorf("bad render: status %d: %s", resp.StatusCode, body)
	}
}
