package policy

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/search"
)

func TestGenerateAndAuthenticate(t *testing.T) {
	k1, h1 := GenerateKey()
	k2, h2 := GenerateKey()
	if k1 == k2 || h1 == h2 {
		t.Fatal("two generated keys are equal")
	}
	if !strings.HasPrefix(k1, KeyPrefix) || len(k1) != len(KeyPrefix)+keyLen {
		t.Fatalf("key %q: want %s followed by %d base62 characters", k1, KeyPrefix, keyLen)
	}
	if HashKey(k1) != h1 {
		t.Fatal("HashKey disagrees with GenerateKey")
	}
	cfg, err := config.Parse(strings.NewReader(`
auth:
  keys:
    - {id: alice, hash: "`+h1+`", policy: ci}
    - {id: bob, hash: "`+h2+`", disabled: true}
  policies:
    ci: {tools: [search]}
server:
  auth_tokens: [legacy-token-0123456789]
`), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	ring, err := KeyringFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ring.Len() != 3 {
		t.Fatalf("Len = %d, want 3 (two keys and a legacy token)", ring.Len())
	}
	tests := []struct {
		presented string
		id        string
		kind      error
	}{
		{k1, "alice", nil},
		{"  " + k1 + "\n", "alice", nil},
		{"legacy-token-0123456789", "auth_tokens[0]", nil},
		{k2, "", ErrBadKey},
		{k1 + "x", "", ErrBadKey},
		{"", "", ErrNoKey},
	}
	for _, tt := range tests {
		key, err := ring.Authenticate(tt.presented)
		if tt.kind != nil {
			if !errors.Is(err, tt.kind) || !errors.Is(err, ErrDenied) {
				t.Errorf("Authenticate(%q) err = %v, want %v", tt.presented, err, tt.kind)
			}
			if err != nil && strings.Contains(err.Error(), strings.TrimSpace(tt.presented)) && tt.presented != "" {
				t.Errorf("error message repeats the presented key: %v", err)
			}
			continue
		}
		if err != nil || key.ID != tt.id {
			t.Errorf("Authenticate(%q) = %v, %v; want %s", tt.presented, key, err, tt.id)
		}
	}
	alice, _ := ring.Authenticate(k1)
	if alice.Policy == nil || alice.Policy.Name != "ci" || alice.Policy.AllowsTool(ToolFetch) {
		t.Errorf("alice's policy = %+v", alice.Policy)
	}
	legacy, _ := ring.Authenticate("legacy-token-0123456789")
	if legacy.Policy != nil {
		t.Error("legacy tokens must be unrestricted")
	}
	none, _ := KeyringFromConfig(config.Default())
	if none.Len() != 0 {
		t.Error("keyring without keys")
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name             string
		keyAllow, keyBlk []string
		reqAllow, reqBlk []string
		wantAllow        []string
		wantBlock        []string
		wantErr          error
	}{
		{name: "no rules"},
		{name: "request only", reqAllow: []string{"go.dev"}, wantAllow: []string{"go.dev"}},
		{name: "key allow", keyAllow: []string{"go.dev", "pkg.go.dev"}, wantAllow: []string{"go.dev", "pkg.go.dev"}},
		{name: "key allow narrowed", keyAllow: []string{"go.dev"}, reqAllow: []string{"tip.go.dev", "go.dev/doc"}, wantAllow: []string{"tip.go.dev", "go.dev/doc"}},
		{name: "key allow widened", keyAllow: []string{"go.dev"}, reqAllow: []string{"go.dev", "evil.example"}, wantErr: ErrDomain},
		{name: "key path allow, request whole host", keyAllow: []string{"example.com/docs"}, reqAllow: []string{"example.com"}, wantErr: ErrDomain},
		{name: "key path allow, request sub-path", keyAllow: []string{"example.com/docs"}, reqAllow: []string{"www.example.com/docs/api"}, wantAllow: []string{"www.example.com/docs/api"}},
		{name: "key path allow, request sibling path", keyAllow: []string{"example.com/docs"}, reqAllow: []string{"example.com/docsx"}, wantErr: ErrDomain},
		{name: "key path allow, wildcard request", keyAllow: []string{"example.com/docs"}, reqAllow: []string{"example.com/docs*"}, wantErr: ErrDomain},
		{name: "key allow, request block", keyAllow: []string{"go.dev"}, reqBlk: []string{"blog.go.dev"}, wantAllow: []string{"go.dev"}, wantBlock: []string{"blog.go.dev"}},
		{name: "key block", keyBlk: []string{"spam.example"}, wantBlock: []string{"spam.example"}},
		{name: "key block union", keyBlk: []string{"spam.example"}, reqBlk: []string{"ads.example", "spam.example"}, wantBlock: []string{"spam.example", "ads.example"}},
		{name: "key block, request allow", keyBlk: []string{"spam.example"}, reqAllow: []string{"go.dev"}, wantAllow: []string{"go.dev"}, wantBlock: []string{"spam.example"}},
		{name: "key block, request allows blocked subdomain", keyBlk: []string{"spam.example"}, reqAllow: []string{"www.spam.example"}, wantErr: ErrDomain},
		{name: "key blocks a path, request allows the host", keyBlk: []string{"example.com/private"}, reqAllow: []string{"example.com"}, wantAllow: []string{"example.com"}, wantBlock: []string{"example.com/private"}},
		{name: "invalid request entry", keyAllow: []string{"go.dev"}, reqAllow: []string{"https://go.dev"}, wantErr: domains.ErrInvalidRule},
		{name: "request conflict", reqAllow: []string{"a.com"}, reqBlk: []string{"b.com"}, wantErr: domains.ErrConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDomains(tt.keyAllow, tt.keyBlk)
			if err != nil {
				t.Fatal(err)
			}
			eff, err := d.Merge(tt.reqAllow, tt.reqBlk)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantAllow, eff.Allow.Strings()); diff != "" {
				t.Errorf("allow (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantBlock, eff.Block.Strings()); diff != "" {
				t.Errorf("block (-want +got):\n%s", diff)
			}
		})
	}
}

// fakeEngine returns fixed results and records the queries it got.
type fakeEngine struct {
	mu      sync.Mutex
	queries []search.Query
	results []search.Result
}

func (f *fakeEngine) Search(_ context.Context, q search.Query) (*search.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	return &search.Response{Query: q, Provider: "fake", Results: f.results}, nil
}

type fakeFetcher struct{ redirect string }

func (f fakeFetcher) Fetch(_ context.Context, req fetch.Request) (*fetch.Result, error) {
	final := req.URL
	if f.redirect != "" {
		final = f.redirect
	}
	return &fetch.Result{URL: req.URL, FinalURL: final, Status: 200, Content: "page"}, nil
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func TestEnforcer(t *testing.T) {
	clk := &clock{t: time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)}
	enf := NewEnforcer(ratelimit.NewLocalCounter(clk.now), nil)
	eng := &fakeEngine{results: []search.Result{
		{Title: "Go", URL: "https://go.dev/doc"},
		{Title: "Blog", URL: "https://blog.go.dev/x"},
		{Title: "Other", URL: "https://other.example/"},
	}}
	s := enf.Searcher(eng)
	g := enf.Getter(fakeFetcher{})
	dom, _ := NewDomains([]string{"go.dev"}, nil)
	p := &Policy{Name: "ci", Tools: []string{ToolSearch}, Surfaces: []string{SurfaceAPI}, Domains: dom,
		RateLimit: Rate{Requests: 3, Per: time.Minute}, DailySearches: 2}
	ctx := WithCaller(context.Background(), Caller{KeyID: "ci-bot", Surface: SurfaceAPI, Policy: p})

	resp, err := s.Search(ctx, search.Query{Text: "go", BlockedDomains: []string{"blog.go.dev"}})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, r := range resp.Results {
		urls = append(urls, r.URL)
	}
	if diff := cmp.Diff([]string{"https://go.dev/doc"}, urls); diff != "" {
		t.Errorf("results through the merged rules (-want +got):\n%s", diff)
	}
	if q := eng.queries[0]; !cmp.Equal(q.AllowedDomains, []string{"go.dev"}) || q.BlockedDomains != nil {
		t.Errorf("pushed-down query = allow %v block %v, want allow [go.dev]", q.AllowedDomains, q.BlockedDomains)
	}
	if len(eng.results) != 3 {
		t.Fatal("the engine's (possibly cached) results were modified")
	}

	// Domain widening is refused before anything is counted.
	if _, err := s.Search(ctx, search.Query{Text: "x", AllowedDomains: []string{"evil.example"}}); !errors.Is(err, ErrDomain) {
		t.Errorf("widening err = %v", err)
	}
	if _, err := s.Search(ctx, search.Query{Text: "x", AllowedDomains: []string{"https://x"}}); !errors.Is(err, search.ErrInvalidQuery) {
		t.Errorf("malformed request domains err = %v, want ErrInvalidQuery", err)
	}
	// Second search: within budget. Third: over the daily budget of 2,
	// refused until midnight UTC.
	if _, err := s.Search(ctx, search.Query{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Search(ctx, search.Query{Text: "go"})
	if !errors.Is(err, ErrBudget) || RetryAfterOf(err) != 2*time.Hour {
		t.Errorf("over budget: err = %v, retry after %s; want ErrBudget until midnight (2h)", err, RetryAfterOf(err))
	}
	// That refused search took the third rate-limit slot; a fourth
	// operation is over the rate limit.
	_, err = s.Search(ctx, search.Query{Text: "go"})
	if !errors.Is(err, ErrRateLimited) || RetryAfterOf(err) != time.Minute {
		t.Errorf("over rate: err = %v, retry after %s", err, RetryAfterOf(err))
	}

	// Tool and surface.
	if _, err := g.Fetch(ctx, fetch.Request{URL: "https://go.dev/"}); !errors.Is(err, ErrTool) {
		t.Errorf("fetch without the fetch tool: %v", err)
	}
	mcpCtx := WithCaller(context.Background(), Caller{KeyID: "ci-bot", Surface: SurfaceMCP, Policy: p})
	if _, err := s.Search(mcpCtx, search.Query{Text: "go"}); !errors.Is(err, ErrSurface) || !strings.Contains(err.Error(), `"ci-bot" may not be used on the mcp surface`) {
		t.Errorf("wrong surface: %v", err)
	}

	// Fetch domains, including a redirect out of them.
	fp := &Policy{Domains: dom}
	fctx := WithCaller(context.Background(), Caller{KeyID: "reader", Surface: SurfaceMCP, Policy: fp})
	if _, err := g.Fetch(fctx, fetch.Request{URL: "https://tip.go.dev/doc"}); err != nil {
		t.Errorf("allowed fetch: %v", err)
	}
	if _, err := g.Fetch(fctx, fetch.Request{URL: "https://evil.example/"}); !errors.Is(err, ErrDomain) {
		t.Errorf("fetch outside the domains: %v", err)
	}
	redir := enf.Getter(fakeFetcher{redirect: "https://evil.example/landing"})
	if _, err := redir.Fetch(fctx, fetch.Request{URL: "https://go.dev/r"}); !errors.Is(err, ErrDomain) || !strings.Contains(err.Error(), "redirected to https://evil.example/landing") {
		t.Errorf("redirect outside the domains: %v", err)
	}

	// No caller, or no policy: untouched.
	if _, err := s.Search(context.Background(), search.Query{Text: "go", AllowedDomains: []string{"evil.example"}}); err != nil {
		t.Errorf("anonymous caller: %v", err)
	}
}
