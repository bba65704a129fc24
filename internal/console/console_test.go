package console_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/console"
	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/metrics"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/setup"
)

// fakeSearcher answers every query with two results, or with err, and
// records the caller each search ran as.
type fakeSearcher struct {
	err     error
	mu      sync.Mutex
	callers []policy.Caller
	queries []search.Query
}

func (f *fakeSearcher) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	c, _ := policy.CallerFrom(ctx)
	f.mu.Lock()
	f.callers = append(f.callers, c)
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	return &search.Response{
		Query: q, Provider: "searxng",
		Results: []search.Result{
			{Title: "Generics tutorial", URL: "https://go.dev/doc/tutorial/generics", Snippet: "Learn generics.", Provider: "searxng", Published: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)},
			{Title: "Spec", URL: "https://go.dev/ref/spec", Snippet: "The spec.", Provider: "searxng"},
		},
		Attempts: []search.Attempt{{Provider: "brave", Took: 5 * time.Millisecond, Err: fmt.Errorf("brave: %w", search.ErrRateLimited)}, {Provider: "searxng", Took: 12 * time.Millisecond, Results: 2}},
	}, nil
}

// fakeFetcher serves pages by URL.
type fakeFetcher map[string]*fetch.Result

func (f fakeFetcher) Fetch(ctx context.Context, req fetch.Request) (*fetch.Result, error) {
	if res, ok := f[req.URL]; ok {
		return res, nil
	}
	if strings.Contains(req.URL, "denied") {
		return nil, &policy.Denial{Kind: policy.ErrDomain, Msg: "domain not allowed for this key"}
	}
	return nil, fmt.Errorf("%w: no such host", fetch.ErrUnreachable)
}

type fakeAudit []audit.Record

func (f fakeAudit) Recent(flt audit.Filter) []audit.Record {
	var out []audit.Record
	for _, r := range f {
		if flt.Match(&r) && (flt.Limit == 0 || len(out) < flt.Limit) {
			out = append(out, r)
		}
	}
	return out
}

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

var records = fakeAudit{
	{Time: t0, KeyID: "alice", Surface: "mcp", Kind: "search", Query: "golang [REDACTED:aws_key]", Provider: "searxng", Results: 3, Outcome: "ok"},
	{Time: t0, KeyID: "bob", Surface: "api", Kind: "fetch", URL: "https://example.com/", Outcome: "error", Error: "unreachable"},
	{Time: t0, KeyID: "alice", Surface: "console", Kind: "search", Query: "denied query", Outcome: "denied"},
}

const html = `<html><head><title>Page</title></head><body><p>héllo</p></body></html>`

func newConsole(t *testing.T, mod func(*console.Options)) (*console.Console, *fakeSearcher) {
	t.Helper()
	fs := &fakeSearcher{}
	big := bytes.Repeat([]byte("é"), 200) // 400 bytes of two-byte runes
	opts := console.Options{
		Searcher: fs,
		Fetcher: fakeFetcher{
			"https://example.com/a": {URL: "https://example.com/a", FinalURL: "https://example.com/a", Status: 200, ContentType: "text/html; charset=utf-8",
				Title: "Page", Content: "# Page\n\nhéllo", TotalLength: 13, Body: []byte(html),
				Metadata: extract.Metadata{Title: "Page", Author: "Ann", Language: "en", CanonicalURL: "https://example.com/a"}},
			"https://example.com/doc.pdf": {URL: "https://example.com/doc.pdf", FinalURL: "https://example.com/doc.pdf", Status: 200, ContentType: "application/pdf",
				Content: "pdf text", TotalLength: 8, Body: []byte("%PDF-1.7 \x00\x01")},
			"https://example.com/big": {URL: "https://example.com/big", FinalURL: "https://example.com/big", Status: 200, ContentType: "text/plain",
				Content: "big", TotalLength: 3, Body: big},
			"https://example.com/cached": {URL: "https://example.com/cached", FinalURL: "https://example.com/cached", Status: 200, ContentType: "text/html",
				Content: "c", TotalLength: 1, Cached: true},
		},
		Digest: func(_ context.Context, r *search.Response, content bool) string {
			return fmt.Sprintf("digest of %s (content %v)", r.Query.Text, content)
		},
		Snapshot: func() metrics.Snapshot {
			return metrics.Snapshot{Time: t0, Started: t0.Add(-time.Hour), ActiveStreams: 2, Providers: []metrics.ProviderStats{
				{Name: "brave", State: "open", OpenUntil: t0.Add(30 * time.Second), RetryAfter: 30 * time.Second, LastErrorKind: "rate_limited",
					Recent: metrics.Summary{Count: 4, Errors: 1, ErrorRate: 0.25, P50MS: 120, P95MS: 480}},
			}}
		},
		Audit:     records,
		Operators: []string{"root"},
		Setup:     setup.Options{Binary: "/usr/local/bin/webgate", Home: "/home/u", GOOS: "linux"},
		// 101 bytes cuts the 51st two-byte rune in half.
		MaxRawBytes: 101,
		Version:     "1.2.3",
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := console.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, fs
}

// call runs one request straight through the console's handler as caller.
func call(t *testing.T, h http.Handler, caller *policy.Caller, method, target, body string) (int, http.Header, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if caller != nil {
		req = req.WithContext(policy.WithCaller(req.Context(), *caller))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header(), rec.Body.String()
}

func TestPage(t *testing.T) {
	c, _ := newConsole(t, nil)
	code, hdr, page := call(t, c, nil, "GET", "/", "")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %s", code, hdr.Get("Content-Type"))
	}
	if got := hdr.Get("Content-Security-Policy"); got != console.CSP || !strings.Contains(got, "script-src 'self';") {
		t.Errorf("CSP = %q", got)
	}
	for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"} {
		if hdr.Get(h) != want {
			t.Errorf("%s = %q, want %q", h, hdr.Get(h), want)
		}
	}
	// Landmarks, labelled views and the sign-in form a person needs.
	for _, want := range []string{`<html lang="en">`, `<main id="main"`, `<nav aria-label="Views">`, `<header`, `<footer`,
		`<label for="signin-key">`, `id="status"`, `id="playground"`, `id="audit"`, `id="setup"`, `<label for="search-query">`,
		`<label for="search-provider">`, `<label for="search-country">`, `<label for="search-allow">`, `<label for="fetch-url">`,
		`<label for="audit-key">`, `<label for="audit-surface">`, `<label for="audit-outcome">`, "webgate 1.2.3"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Every input and select has a label.
	for _, m := range regexp.MustCompile(`<(?:input|select)[^>]* id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `<label for="`+m[1]+`">`) {
			t.Errorf("control #%s has no label", m[1])
		}
	}
	// Nothing inline (the CSP would block it) and nothing from elsewhere.
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`<script(?:[^>](?:[^s]|s[^r]|sr[^c]))*>`), regexp.MustCompile(` style=`), regexp.MustCompile(` on[a-z]+=`),
		regexp.MustCompile(`(?:src|href)="(?:https?:)?//`)} {
		if m := bad.FindString(page); m != "" {
			t.Errorf("page has %q", m)
		}
	}
	// Every asset it names is served, with its type.
	assets := regexp.MustCompile(`(?:src|href)="(/console/assets/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(assets) < 3 {
		t.Fatalf("assets linked: %v", assets)
	}
	for _, m := range assets {
		code, hdr, body := call(t, c, nil, "GET", m[1], "")
		if code != 200 || hdr.Get("Cache-Control") != "public, max-age=31536000, immutable" || body == "" || hdr.Get("ETag") == "" {
			t.Errorf("GET %s = %d, Cache-Control %q", m[1], code, hdr.Get("Cache-Control"))
		}
		if regexp.MustCompile(`https?://(?:[a-z0-9-]+\.)+[a-z]{2,}/`).MatchString(strings.ReplaceAll(body, "http://www.w3.org/2000/svg", "")) {
			t.Errorf("%s refers to another origin", m[1])
		}
		// A revalidation with the ETag costs no body.
		req := httptest.NewRequest("GET", m[1], nil)
		req.Header.Set("If-None-Match", hdr.Get("ETag"))
		rec := httptest.NewRecorder()
		c.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("revalidating %s = %d", m[1], rec.Code)
		}
	}
}

func TestGzip(t *testing.T) {
	c, _ := newConsole(t, nil)
	_, _, plain := call(t, c, nil, "GET", "/", "")
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec := httptest.NewRecorder()
	c.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("headers %v", rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	if string(got) != plain {
		t.Error("gzip body differs from the plain page")
	}
}

func TestAPI(t *testing.T) {
	anon := &policy.Caller{Surface: policy.SurfaceConsole}
	alice := &policy.Caller{KeyID: "alice", Surface: policy.SurfaceConsole}
	root := &policy.Caller{KeyID: "root", Surface: policy.SurfaceConsole}
	tests := []struct {
		name         string
		caller       *policy.Caller
		method, path string
		body         string
		status       int
		// want holds JSON paths (dot-separated) and their expected values.
		want map[string]any
	}{
		{"session anonymous", anon, "GET", "/console/api/session", "", 200, map[string]any{"auth": false, "operator": true, "version": "1.2.3"}},
		{"session key", alice, "GET", "/console/api/session", "", 200, map[string]any{"auth": true, "key_id": "alice", "operator": false}},
		{"session operator", root, "GET", "/console/api/session", "", 200, map[string]any{"operator": true}},
		{"status", anon, "GET", "/console/api/status", "", 200, map[string]any{"version": "1.2.3", "uptime_seconds": 3600.0, "active_streams": 2.0,
			"providers.0.state": "open", "providers.0.retry_after": 30e9, "providers.0.last_error_kind": "rate_limited", "providers.0.open_until": "2026-11-23T12:00:30Z",
			"providers.0.recent.error_rate": 0.25, "providers.0.recent.p95_ms": 480.0}},
		{"audit all", anon, "GET", "/console/api/audit", "", 200, map[string]any{"scope": "all", "records.#": 3.0}},
		{"audit filter", anon, "GET", "/console/api/audit?key=alice&outcome=ok", "", 200, map[string]any{"records.#": 1.0, "records.0.query": "golang [REDACTED:aws_key]"}},
		{"audit surface", root, "GET", "/console/api/audit?surface=api", "", 200, map[string]any{"scope": "all", "records.#": 1.0, "records.0.key_id": "bob"}},
		{"audit kind and limit", anon, "GET", "/console/api/audit?kind=search&limit=1", "", 200, map[string]any{"records.#": 1.0}},
		{"audit own only", alice, "GET", "/console/api/audit", "", 200, map[string]any{"scope": "own", "records.#": 2.0, "records.0.key_id": "alice", "records.1.key_id": "alice"}},
		{"audit other key refused quietly", alice, "GET", "/console/api/audit?key=bob", "", 200, map[string]any{"scope": "own", "records.#": 0.0}},
		{"audit bad limit", anon, "GET", "/console/api/audit?limit=0", "", 400, map[string]any{"error.type": "invalid_request"}},
		{"setup http", anon, "GET", "/console/api/setup?url=https://gw.example/mcp", "", 200, map[string]any{
			"transport": "http", "url": "https://gw.example/mcp", "clients.#": float64(len(setup.Clients)),
			"clients.0.client": "claude-code", "clients.0.cli": "webgate setup claude-code --http --url https://gw.example/mcp",
			"clients.0.command": "claude mcp add --scope user --transport http webgate https://gw.example/mcp",
			"clients.5.client":  "claude-desktop"}},
		{"setup http with key", alice, "GET", "/console/api/setup", "", 200, map[string]any{
			"url": "http://example.com/mcp", "token_env": "WEBGATE_TOKEN",
			"clients.0.cli": "webgate setup claude-code --http --url http://example.com/mcp --token-env WEBGATE_TOKEN"}},
		{"setup stdio", anon, "GET", "/console/api/setup?transport=stdio", "", 200, map[string]any{
			"transport": "stdio", "clients.0.command": "claude mcp add --scope user webgate -- /usr/local/bin/webgate mcp",
			"clients.4.files.0.path": "/home/u/.cursor/mcp.json", "clients.5.files.0.path": "/home/u/.config/Claude/claude_desktop_config.json"}},
		{"setup bad transport", anon, "GET", "/console/api/setup?transport=pigeon", "", 400, map[string]any{"error.type": "invalid_request"}},
		{"setup bad url", anon, "GET", "/console/api/setup?url=ftp://x", "", 400, map[string]any{"error.type": "invalid_request"}},
		{"search", anon, "POST", "/console/api/search", `{"query":"go generics","max_results":2,"allowed_domains":["go.dev"],"country":"us","provider":"searxng"}`, 200, map[string]any{
			"provider": "searxng", "cached": false, "digest": "digest of go generics (content false)", "json.results.#": 2.0, "json.results.0.published": "2025-06-01",
			"attempts.0.provider": "brave", "attempts.0.error": "brave: rate limited", "attempts.1.results": 2.0, "attempts.1.took_ms": 12.0}},
		{"search with content", anon, "POST", "/console/api/search", `{"query":"go generics","include_content":true}`, 200, map[string]any{
			"digest": "digest of go generics (content true)", "provider": "searxng"}},
		{"search empty", anon, "POST", "/console/api/search", `{"query":"  "}`, 400, map[string]any{"error.type": "invalid_request", "error.message": "query (q) is required"}},
		{"search bad country", anon, "POST", "/console/api/search", `{"query":"x","country":"USA"}`, 400, map[string]any{"error.type": "invalid_request"}},
		{"search unknown field", anon, "POST", "/console/api/search", `{"q":"x"}`, 400, map[string]any{"error.type": "invalid_request"}},
		{"search not json", anon, "POST", "/console/api/search", `{`, 400, map[string]any{"error.type": "invalid_request"}},
		{"search GET", anon, "GET", "/console/api/search", "", 404, map[string]any{"error.type": "not_found"}},
		{"fetch", anon, "POST", "/console/api/fetch", `{"url":"https://example.com/a"}`, 200, map[string]any{
			"result.title": "Page", "result.status": 200.0, "result.content": "# Page\n\nhéllo", "metadata.author": "Ann", "metadata.canonical_url": "https://example.com/a",
			"raw": html, "raw_bytes": float64(len(html)), "total_length": 13.0}},
		{"fetch binary", anon, "POST", "/console/api/fetch", `{"url":"https://example.com/doc.pdf"}`, 200, map[string]any{"raw_binary": true, "raw": "", "raw_bytes": 11.0}},
		{"fetch raw capped on a rune boundary", anon, "POST", "/console/api/fetch", `{"url":"https://example.com/big"}`, 200, map[string]any{
			"raw_truncated": true, "raw": strings.Repeat("é", 50), "raw_bytes": 400.0}},
		{"fetch cached without body", anon, "POST", "/console/api/fetch", `{"url":"https://example.com/cached"}`, 200, map[string]any{"cached": true, "raw_missing": true}},
		{"fetch failure is a result", anon, "POST", "/console/api/fetch", `{"url":"https://nowhere.example/"}`, 200, map[string]any{"result.error.type": "unreachable"}},
		{"fetch denial is the answer", alice, "POST", "/console/api/fetch", `{"url":"https://denied.example/"}`, 403, map[string]any{"error.type": "domain_not_allowed"}},
		{"fetch no url", anon, "POST", "/console/api/fetch", `{"url":""}`, 400, map[string]any{"error.type": "invalid_request"}},
		{"fetch bad format", anon, "POST", "/console/api/fetch", `{"url":"https://example.com/a","format":"pdf"}`, 400, map[string]any{"error.type": "invalid_request"}},
		{"unknown api path", anon, "GET", "/console/api/nope", "", 404, map[string]any{"error.type": "not_found"}},
	}
	c, _ := newConsole(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, hdr, body := call(t, c, tt.caller, tt.method, tt.path, tt.body)
			if code != tt.status {
				t.Fatalf("status %d, want %d: %s", code, tt.status, body)
			}
			if hdr.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type %q", hdr.Get("Content-Type"))
			}
			if code == 200 && hdr.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q", hdr.Get("Cache-Control"))
			}
			var doc any
			if err := json.Unmarshal([]byte(body), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, body)
			}
			got := map[string]any{}
			for path := range tt.want {
				got[path] = lookup(doc, path)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\n%s", diff, body)
			}
		})
	}
}

// lookup walks a decoded JSON document by a dotted path; "#" is an
// array's length.
func lookup(doc any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[part]
		case []any:
			if part == "#" {
				return float64(len(v))
			}
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}

func TestSearchPassesTheQueryThrough(t *testing.T) {
	c, fs := newConsole(t, nil)
	caller := &policy.Caller{KeyID: "alice", Surface: policy.SurfaceConsole}
	code, _, body := call(t, c, caller, "POST", "/console/api/search", `{"query":" rust async ","blocked_domains":["pinterest.com"],"country":"de","language":"de","freshness":"week"}`)
	if code != 200 {
		t.Fatal(body)
	}
	want := search.Query{Text: "rust async", BlockedDomains: []string{"pinterest.com"}, Location: search.Location{Country: "DE"}, Language: "de", Freshness: search.FreshnessWeek}
	if diff := cmp.Diff([]search.Query{want}, fs.queries); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]policy.Caller{*caller}, fs.callers); diff != "" {
		t.Errorf("caller (-want +got):\n%s", diff)
	}
}

func TestSearchErrors(t *testing.T) {
	tests := []struct {
		err    error
		status int
		typ    string
	}{
		{fmt.Errorf("all providers: %w", &search.ProviderError{Provider: "brave", Err: search.ErrRateLimited, RetryAfter: 30 * time.Second}), 429, "rate_limited"},
		{fmt.Errorf("engine: %w", search.ErrNoProviders), 503, "no_providers"},
		{&policy.Denial{Kind: policy.ErrBudget, Msg: "budget spent", RetryAfter: time.Hour}, 429, "budget_exhausted"},
		{fmt.Errorf("engine: %w", context.DeadlineExceeded), 504, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			c, fs := newConsole(t, nil)
			fs.err = tt.err
			code, hdr, body := call(t, c, nil, "POST", "/console/api/search", `{"query":"anything"}`)
			if code != tt.status || !strings.Contains(body, `"type":"`+tt.typ+`"`) {
				t.Errorf("got %d %s, want %d %s", code, body, tt.status, tt.typ)
			}
			if tt.status == 429 && hdr.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
		})
	}
}

func TestConsoleRedirect(t *testing.T) {
	c, _ := newConsole(t, nil)
	code, hdr, _ := call(t, c, nil, "GET", "/console/", "")
	if code != http.StatusMovedPermanently || hdr.Get("Location") != "/" {
		t.Errorf("GET /console/ = %d %q", code, hdr.Get("Location"))
	}
	if code, _, _ := call(t, c, nil, "GET", "/console/assets/missing.js", ""); code != 404 {
		t.Errorf("missing asset = %d", code)
	}
}

// endless streams a JSON body that never ends within n bytes: an object
// whose one string value runs on and on, sent chunked (no
// Content-Length).
type endless struct{ left int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), e.left)
	for i := range p[:n] {
		p[i] = 'a'
	}
	e.left -= n
	return int(n), nil
}

// TestOversizedBodyIs413 sends a 100 MB chunked body to the console's
// JSON endpoints: the answer is 413 request_too_large, not a 400 about
// the JSON being cut short (the console read at most 1 MiB and reported
// the truncation it caused as the client's "unexpected EOF").
func TestOversizedBodyIs413(t *testing.T) {
	c, _ := newConsole(t, nil)
	for _, path := range []string{"/console/api/fetch", "/console/api/search"} {
		t.Run(path, func(t *testing.T) {
			body := io.MultiReader(strings.NewReader(`{"url":"https://example.com/a","query":"`), &endless{left: 100 << 20})
			req := httptest.NewRequest("POST", path, body)
			req.ContentLength = -1 // chunked
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			c.ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), `"type":"request_too_large"`) {
				t.Errorf("got %d %s, want 413 request_too_large", rec.Code, rec.Body)
			}
		})
	}
}
