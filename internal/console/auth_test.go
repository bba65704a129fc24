package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/console"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/server"
)

// authEnv is the whole server with the console mounted, over the real
// service chain (audit, policy, guard, engine, fetcher) with a SearXNG
// fake, and gateway keys: root (an operator), alice, and api-only (whose
// policy keeps it off the console surface).
type authEnv struct {
	ts   *httptest.Server
	keys map[string]string
}

func newAuthEnv(t *testing.T, withConsole bool) *authEnv {
	t.Helper()
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":%q,"results":[{"url":"https://go.dev/doc","title":"Go docs","content":"Docs."}]}`, r.URL.Query().Get("q"))
	}))
	t.Cleanup(provider.Close)
	e := &authEnv{keys: map[string]string{}}
	var entries strings.Builder
	for _, k := range []struct{ id, pol string }{{"root", ""}, {"alice", ""}, {"api-only", "apionly"}} {
		key, hash := policy.GenerateKey()
		e.keys[k.id] = key
		fmt.Fprintf(&entries, "    - {id: %s, hash: %q, policy: %q}\n", k.id, hash, k.pol)
	}
	cfg, err := config.Parse(strings.NewReader(`
search: {providers: [searxng], cache_ttl: -1s}
providers: {searxng: {base_url: `+provider.URL+`}}
console: {operators: [root]}
auth:
  policies:
    apionly: {surfaces: [api]}
  keys:
`+entries.String()), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	keys, err := policy.KeyringFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts := server.Options{
		API:  httpapi.New(httpapi.Options{Searcher: svc.Searcher, Fetcher: svc.Getter}),
		MCP:  mcpserver.HTTPHandler(mcpserver.New(mcpserver.Options{Searcher: svc.Searcher, Fetcher: svc.Getter}), 1<<20, nil),
		Keys: keys,
	}
	if withConsole {
		c, err := console.New(console.Options{Searcher: svc.Searcher, Fetcher: svc.Getter, Snapshot: svc.Metrics.Snapshot, Audit: svc.Audit, Operators: cfg.Console.Operators})
		if err != nil {
			t.Fatal(err)
		}
		opts.Console = c
	}
	e.ts = httptest.NewServer(server.Handler(opts))
	t.Cleanup(e.ts.Close)
	return e
}

// do sends a request as key id who ("" for none, "bad" for a wrong key)
// with extra headers, and returns status, body and headers.
func (e *authEnv) do(t *testing.T, who, method, path, body string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.ts.URL+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch who {
	case "":
	case "bad":
		req.Header.Set("Authorization", "Bearer wg_not-a-key")
	default:
		req.Header.Set("Authorization", "Bearer "+e.keys[who])
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestConsoleBehindKeys(t *testing.T) {
	e := newAuthEnv(t, true)
	tests := []struct {
		name, who, method, path, body string
		hdr                           []string
		status                        int
		contains                      string
	}{
		// The page and its assets hold no data: a browser must load them
		// to show the sign-in form.
		{name: "page without key", method: "GET", path: "/", status: 200, contains: `id="signin-form"`},
		{name: "api without key", method: "GET", path: "/console/api/session", status: 401, contains: "authentication_error"},
		{name: "api with a bad key", who: "bad", method: "GET", path: "/console/api/status", status: 401, contains: "authentication_error"},
		{name: "api with a key", who: "alice", method: "GET", path: "/console/api/session", status: 200, contains: `"key_id":"alice"`},
		{name: "key kept off the console", who: "api-only", method: "GET", path: "/console/api/session", status: 403, contains: "surface_not_allowed"},
		{name: "the same key on the API", who: "api-only", method: "GET", path: "/v1/search?q=go", status: 200, contains: "go.dev"},
		{name: "search without key", method: "POST", path: "/console/api/search", body: `{"query":"go"}`, status: 401},
		{name: "key in the query string is not a key", method: "GET", path: "/console/api/session?key=" + e.keys["alice"], status: 401},
		// Origin and Host checks still hold in front of the console.
		{name: "foreign origin", who: "alice", method: "POST", path: "/console/api/search", body: `{"query":"go"}`, hdr: []string{"Origin", "https://evil.example"}, status: 403, contains: "forbidden_origin"},
		{name: "loopback origin", who: "alice", method: "POST", path: "/console/api/search", body: `{"query":"go"}`, hdr: []string{"Origin", e.ts.URL}, status: 200, contains: `"provider":"searxng"`},
		{name: "rebound host", method: "GET", path: "/", hdr: []string{"Host", "evil.example"}, status: 403, contains: "forbidden_origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, hdr := e.do(t, tt.who, tt.method, tt.path, tt.body, tt.hdr...)
			if code != tt.status || !strings.Contains(body, tt.contains) {
				t.Errorf("%s %s = %d, want %d with %q:\n%.400s", tt.method, tt.path, code, tt.status, tt.contains, body)
			}
			if code == 401 && hdr.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
}

// TestConsoleAuditScope runs searches through the console as two keys,
// one with a secret in it, and reads the Audit view as each: a key sees
// its own records, an operator everyone's, and the secret never shows.
func TestConsoleAuditScope(t *testing.T) {
	e := newAuthEnv(t, true)
	const secret = "AKIA" + "ABCDEFGHIJKLMNOP"
	if code, body, _ := e.do(t, "alice", "POST", "/console/api/search", `{"query":"golang generics"}`); code != 200 {
		t.Fatalf("search: %d %s", code, body)
	}
	if code, body, _ := e.do(t, "alice", "POST", "/console/api/search", `{"query":"deploy with key `+secret+`"}`); code != 400 || !strings.Contains(body, "secret_detected") {
		t.Fatalf("search with a secret: %d %s", code, body)
	}
	if code, body, _ := e.do(t, "root", "GET", "/v1/search?q=rust", ""); code != 200 {
		t.Fatalf("API search: %d %s", code, body)
	}
	type page struct {
		Scope   string `json:"scope"`
		Records []struct {
			KeyID   string `json:"key_id"`
			Surface string `json:"surface"`
			Query   string `json:"query"`
			Outcome string `json:"outcome"`
		} `json:"records"`
	}
	read := func(who, q string) (page, string) {
		t.Helper()
		code, body, _ := e.do(t, who, "GET", "/console/api/audit"+q, "")
		if code != 200 {
			t.Fatalf("audit as %s: %d %s", who, code, body)
		}
		var p page
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatal(err)
		}
		return p, body
	}
	own, body := read("alice", "")
	if own.Scope != "own" || len(own.Records) != 2 {
		t.Fatalf("alice sees %s", body)
	}
	for _, r := range own.Records {
		if r.KeyID != "alice" || r.Surface != policy.SurfaceConsole {
			t.Errorf("alice sees %+v", r)
		}
	}
	if strings.Contains(body, secret) {
		t.Errorf("the audit view shows the secret: %s", body)
	}
	if own.Records[0].Outcome != "blocked" || !strings.Contains(own.Records[0].Query, "[REDACTED:") {
		t.Errorf("blocked record = %+v", own.Records[0])
	}
	if p, body := read("alice", "?key=root"); len(p.Records) != 0 {
		t.Errorf("alice reads root's records: %s", body)
	}
	all, body := read("root", "")
	if all.Scope != "all" || len(all.Records) != 3 || all.Records[0].KeyID != "root" || all.Records[0].Surface != policy.SurfaceAPI {
		t.Errorf("root sees %s", body)
	}
	if p, body := read("root", "?surface=console&outcome=ok"); len(p.Records) != 1 || p.Records[0].Query != "golang generics" {
		t.Errorf("filtered: %s", body)
	}
}

func TestConsoleOff(t *testing.T) {
	e := newAuthEnv(t, false)
	for _, path := range []string{"/", "/console/api/session", "/console/assets/console.js"} {
		if code, body, _ := e.do(t, "root", "GET", path, ""); code != 404 {
			t.Errorf("GET %s with the console off = %d %s", path, code, body)
		}
	}
}
