package tavily_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/providertest"
	"github.com/webgate/webgate/internal/search/tavily"
)

const key = "tvly-test-key"

func bodyField(body []byte, field string) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	s, _ := m[field].(string)
	return s
}

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        tavily.Name,
		Config:      search.Settings{APIKey: key},
		RequiresKey: true,
		Credential: func(r *http.Request, _ []byte) string {
			a := r.Header.Get("Authorization")
			if len(a) < 7 || a[:7] != "Bearer " {
				return ""
			}
			return a[7:]
		},
		QueryText: func(_ *http.Request, body []byte) string { return bodyField(body, "query") },
		Method:    http.MethodPost,
		Path:      "/search",
		Success:   providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:    "Tutorial: Getting started with generics - The Go Programming Language",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code.",
				Provider: "tavily", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics - The Go Programming Language",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "Ian Lance Taylor and Robert Griesemer 22 March 2022. Introduction. This blog post is based on our talk at GopherCon 2021. The Go 1.18 release adds support for generics.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				Provider:  "tavily", Rank: 2,
			},
		},
		Empty:     providertest.Fixture(t, "empty.json"),
		Malformed: providertest.Fixture(t, "malformed.json"),
	})
}

func TestPushDown(t *testing.T) {
	tests := []struct {
		name string
		q    search.Query
		want map[string]any
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics"},
			want: map[string]any{
				"query": "golang generics", "search_depth": "basic", "topic": "general", "max_results": 10.0,
				"include_answer": false, "include_raw_content": false, "include_images": false,
			},
		},
		{
			name: "domains country freshness clamp",
			q: search.Query{
				Text: "x", MaxResults: 99,
				AllowedDomains: []string{"go.dev/blog", "*.golang.org", "example.*"},
				Location:       search.Location{Country: "gb"}, Freshness: search.FreshnessMonth,
				Language: "en", SafeSearch: search.SafeSearchStrict,
			},
			want: map[string]any{
				"query": "x", "search_depth": "basic", "topic": "general", "max_results": 20.0,
				"include_answer": false, "include_raw_content": false, "include_images": false,
				"include_domains": []any{"go.dev", "golang.org"}, "country": "united kingdom", "time_range": "month",
			},
		},
		{
			name: "blocked domains, unknown country",
			q:    search.Query{Text: "x", MaxResults: 3, BlockedDomains: []string{"pinterest.com"}, Location: search.Location{Country: "XX"}},
			want: map[string]any{
				"query": "x", "search_depth": "basic", "topic": "general", "max_results": 3.0,
				"include_answer": false, "include_raw_content": false, "include_images": false,
				"exclude_domains": []any{"pinterest.com"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := tavily.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), tc.q); err != nil {
				t.Fatal(err)
			}
			_, body := f.Last(t)
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("request body mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		kind   error
	}{
		{name: "plan limit 432", status: 432, body: "plan_limit.json", kind: search.ErrQuota},
		{name: "pay-as-you-go limit 433", status: 433, body: "plan_limit.json", kind: search.ErrQuota},
		{name: "invalid key", status: 401, body: "invalid_key.json", kind: search.ErrAuth},
		{name: "200 without results", status: 200, body: "invalid_key.json", kind: search.ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := tavily.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}
