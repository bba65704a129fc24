package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// searxngFake serves SearXNG's JSON API with two results, one of them on a
// domain the tests block.
func searxngFake(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"query":"go generics","number_of_results":2,"results":[
			{"url":"https://go.dev/doc/tutorial/generics","title":"Tutorial: Getting started with generics","content":"This tutorial introduces the basics of generics in Go.","engine":"duckduckgo","publishedDate":"2022-03-15T00:00:00"},
			{"url":"https://spam.example/generics?utm_source=x","title":"Generics cheat sheet","content":"Ten tricks.","engine":"bing"}
		],"answers":[],"suggestions":[],"unresponsive_engines":[]}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestSearchTranscript(t *testing.T) {
	srv, calls := searxngFake(t)
	cfg := writeConfig(t, "search: {providers: [searxng]}\nproviders:\n  searxng: {base_url: \""+srv.URL+"\"}\n")

	code, stdout, stderr := run(t, nil, "--config", cfg, "search", "go", "generics")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	want := `# Results for "go generics" (searxng)

1. **Tutorial: Getting started with generics**
   https://go.dev/doc/tutorial/generics
   Published: 2022-03-15
   This tutorial introduces the basics of generics in Go.

2. **Generics cheat sheet**
   https://spam.example/generics?utm_source=x
   Ten tricks.

`
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("markdown output (-want +got):\n%s", diff)
	}

	code, stdout, stderr = run(t, nil, "--config", cfg, "search", "--json", "--block", "spam.example", "go generics")
	if code != 0 {
		t.Fatalf("json: code %d, stderr %q", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("invalid JSON %q: %v", stdout, err)
	}
	wantJSON := map[string]any{
		"query":    "go generics",
		"provider": "searxng",
		"results": []any{map[string]any{
			"title":     "Tutorial: Getting started with generics",
			"url":       "https://go.dev/doc/tutorial/generics",
			"snippet":   "This tutorial introduces the basics of generics in Go.",
			"published": "2022-03-15",
			"provider":  "searxng",
		}},
	}
	if diff := cmp.Diff(wantJSON, got); diff != "" {
		t.Errorf("json output (-want +got):\n%s", diff)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("provider calls = %d, want 2 (different filters must not share a cache entry)", n)
	}
}

func TestSearchErrors(t *testing.T) {
	srv, _ := searxngFake(t)
	cfg := writeConfig(t, "search: {providers: [searxng]}\nproviders:\n  searxng: {base_url: \""+srv.URL+"\"}\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"allow and block together", []string{"search", "--allow", "a.com", "--block", "b.com", "go"}, "--block cannot be combined"},
		{"scheme in domain rule", []string{"search", "--allow", "https://go.dev", "go"}, "https://go.dev"},
		{"unknown provider", []string{"search", "--provider", "bing", "go"}, `"bing"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, nil, append([]string{"--config", cfg}, tt.args...)...)
			if code == 0 || stdout != "" {
				t.Fatalf("code %d stdout %q", code, stdout)
			}
			if !strings.HasPrefix(stderr, "webgate: ") || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr = %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

func TestSearchProviderDown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	cfg := writeConfig(t, "search: {providers: [searxng], retries: -1}\nproviders:\n  searxng: {base_url: \""+srv.URL+"\"}\n")
	code, _, stderr := run(t, nil, "--config", cfg, "search", "go")
	if code != 1 || !strings.Contains(stderr, "rate limited") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
}
