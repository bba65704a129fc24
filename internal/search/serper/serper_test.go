package serper_test

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
	"github.com/webgate/webgate/internal/search/serper"
)

const key = "serper-test-key"

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        serper.Name,
		Config:      search.Settings{APIKey: key},
		RequiresKey: true,
		Credential:  func(r *http.Request, _ []byte) string { return r.Header.Get("X-API-KEY") },
		QueryText: func(_ *http.Request, body []byte) string {
			var m struct{ Q string }
			json.Unmarshal(body, &m)
			return m.Q
		},
		Method:  http.MethodPost,
		Path:    "/search",
		Success: providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:    "Tutorial: Getting started with generics",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any ...",
				Provider: "serper", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				PageAge:   "Mar 22, 2022",
				Provider:  "serper", Rank: 2,
			},
			{
				Title:    "Generics in Go & when to use them",
				URL:      "https://example.dev/go-generics",
				Snippet:  "Type parameters arrived in Go 1.18 — here is when they pay off.",
				PageAge:  "3 days ago",
				Provider: "serper", Rank: 3,
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
			want: map[string]any{"q": "golang generics", "num": 10.0},
		},
		{
			name: "everything",
			q: search.Query{
				Text: "release notes", MaxResults: 1000, AllowedDomains: []string{"go.dev/blog"},
				Location: search.Location{Country: "FR"}, Language: "fr-CA", Freshness: search.FreshnessDay,
				SafeSearch: search.SafeSearchStrict,
			},
			want: map[string]any{"q": "release notes site:go.dev", "num": 100.0, "gl": "fr", "hl": "fr", "tbs": "qdr:d"},
		},
		{
			name: "blocked",
			q:    search.Query{Text: "x", MaxResults: 7, BlockedDomains: []string{"a.com", "*.b.org"}, Freshness: search.FreshnessYear},
			want: map[string]any{"q": "x -site:a.com -site:b.org", "num": 7.0, "tbs": "qdr:y"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := serper.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
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
		{name: "not enough credits", status: 400, body: "no_credits.json", kind: search.ErrQuota},
		{name: "unauthorized 403", status: 403, body: "unauthorized.json", kind: search.ErrAuth},
		{name: "200 that is not a SERP", status: 200, body: "no_credits.json", kind: search.ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := serper.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}
