package jina_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/jina"
	"github.com/webgate/webgate/internal/search/providertest"
)

const key = "jina_test_key"

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        jina.Name,
		Config:      search.Settings{APIKey: key},
		RequiresKey: true,
		Credential: func(r *http.Request, _ []byte) string {
			return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		},
		QueryText: func(r *http.Request, _ []byte) string { return r.URL.Query().Get("q") },
		Method:    http.MethodGet,
		Path:      "/",
		Success:   providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:    "Tutorial: Getting started with generics - The Go Programming Language",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types ...",
				Provider: "jina", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics - The Go Programming Language",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				PageAge:   "Mar 22, 2022",
				Provider:  "jina", Rank: 2,
			},
		},
		Empty:     providertest.Fixture(t, "empty.json"),
		Malformed: providertest.Fixture(t, "malformed.json"),
	})
}

func TestPushDown(t *testing.T) {
	tests := []struct {
		name  string
		q     search.Query
		want  url.Values
		xSite string
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics"},
			want: url.Values{"q": {"golang generics"}, "num": {"10"}},
		},
		{
			name:  "single site uses X-Site",
			q:     search.Query{Text: "x", MaxResults: 99, AllowedDomains: []string{"go.dev/blog"}, Location: search.Location{Country: "IN"}, Language: "hi-IN"},
			want:  url.Values{"q": {"x"}, "num": {"20"}, "gl": {"in"}, "hl": {"hi"}},
			xSite: "go.dev",
		},
		{
			name: "several sites use operators",
			q:    search.Query{Text: "x", MaxResults: 4, AllowedDomains: []string{"a.com", "b.com"}},
			want: url.Values{"q": {"x (site:a.com OR site:b.com)"}, "num": {"4"}},
		},
		{
			name: "blocked",
			q:    search.Query{Text: "x", BlockedDomains: []string{"a.com"}, Freshness: search.FreshnessDay},
			want: url.Values{"q": {"x -site:a.com"}, "num": {"10"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := jina.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), tc.q); err != nil {
				t.Fatal(err)
			}
			r, _ := f.Last(t)
			if diff := cmp.Diff(tc.want, r.URL.Query()); diff != "" {
				t.Errorf("query params mismatch (-want +got):\n%s", diff)
			}
			if got := r.Header.Get("X-Site"); got != tc.xSite {
				t.Errorf("X-Site = %q, want %q", got, tc.xSite)
			}
			if got := r.Header.Get("X-Respond-With"); got != "no-content" {
				t.Errorf("X-Respond-With = %q, want no-content", got)
			}
			if got := r.Header.Get("Accept"); got != "application/json" {
				t.Errorf("Accept = %q, want application/json", got)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		kind   error // nil: an empty answer
	}{
		{name: "no results is a 422", status: 422, body: "no_results_422.json"},
		{name: "insufficient balance", status: 402, body: "insufficient_balance.json", kind: search.ErrQuota},
		{name: "auth failed", status: 401, body: "auth_failed.json", kind: search.ErrAuth},
		{name: "other 422 is an invalid query", status: 422, body: "auth_failed.json", kind: search.ErrInvalidQuery},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := jina.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Search(context.Background(), search.Query{Text: "x"})
			if tc.kind == nil {
				if err != nil || len(res) != 0 {
					t.Fatalf("got %v, %v; want no results and no error", res, err)
				}
				return
			}
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}
