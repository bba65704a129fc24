package brave_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/brave"
	"github.com/webgate/webgate/internal/search/providertest"
)

const key = "BSA-test-key"

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        brave.Name,
		Config:      search.Settings{APIKey: key},
		RequiresKey: true,
		Credential:  func(r *http.Request, _ []byte) string { return r.Header.Get("X-Subscription-Token") },
		QueryText:   func(r *http.Request, _ []byte) string { return r.URL.Query().Get("q") },
		Method:      http.MethodGet,
		Path:        "/res/v1/web/search",
		Success:     providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:     "Tutorial: Getting started with generics - The Go Programming Language",
				URL:       "https://go.dev/doc/tutorial/generics",
				Snippet:   "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code.",
				Published: time.Date(2024, 2, 6, 0, 0, 0, 0, time.UTC),
				PageAge:   "February 6, 2024",
				Provider:  "brave", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics - The Go Programming Language",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				PageAge:   "March 22, 2022",
				Provider:  "brave", Rank: 2,
			},
			{
				Title:    "Go generics in practice: a field guide",
				URL:      "https://example.dev/posts/go-generics-field-guide",
				Snippet:  "Type parameters, constraints & type inference explained with runnable examples.",
				PageAge:  "3 days ago",
				Provider: "brave", Rank: 3,
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
		want url.Values
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics"},
			want: url.Values{"q": {"golang generics"}, "count": {"10"}, "result_filter": {"web"}, "text_decorations": {"false"}},
		},
		{
			name: "everything",
			q: search.Query{
				Text: "release notes", MaxResults: 50,
				AllowedDomains: []string{"go.dev/blog", "*.golang.org"},
				Location:       search.Location{Country: "de", City: "Berlin"},
				Language:       "pt-BR", Freshness: search.FreshnessWeek, SafeSearch: search.SafeSearchStrict,
			},
			want: url.Values{
				"q": {"release notes (site:go.dev OR site:golang.org)"}, "count": {"20"}, "result_filter": {"web"},
				"text_decorations": {"false"}, "country": {"DE"}, "search_lang": {"pt-br"}, "freshness": {"pw"}, "safesearch": {"strict"},
			},
		},
		{
			name: "blocked domains and year",
			q:    search.Query{Text: "x", MaxResults: 3, BlockedDomains: []string{"pinterest.com", "https://www.quora.com/topic"}, Freshness: search.FreshnessYear, Language: "en", SafeSearch: search.SafeSearchOff},
			want: url.Values{
				"q": {"x -site:pinterest.com -site:www.quora.com"}, "count": {"3"}, "result_filter": {"web"},
				"text_decorations": {"false"}, "search_lang": {"en"}, "freshness": {"py"}, "safesearch": {"off"},
			},
		},
		{
			name: "day and zh-TW",
			q:    search.Query{Text: "x", Freshness: search.FreshnessDay, Language: "zh-TW", SafeSearch: search.SafeSearchModerate},
			want: url.Values{
				"q": {"x"}, "count": {"10"}, "result_filter": {"web"}, "text_decorations": {"false"},
				"search_lang": {"zh-hant"}, "freshness": {"pd"}, "safesearch": {"moderate"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := brave.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
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
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		body       string
		header     []string
		kind       error
		retryAfter time.Duration
	}{
		{name: "quota exhausted", status: 429, body: "quota.json", kind: search.ErrQuota},
		{name: "quota used up, rate limit code", status: 429, body: "quota_used_up.json", header: []string{"Retry-After", "3"}, kind: search.ErrQuota},
		{name: "rate limited with X-RateLimit-Reset", status: 429, body: "ratelimited.json", header: []string{"X-RateLimit-Reset", "1, 1419704"}, kind: search.ErrRateLimited, retryAfter: time.Second},
		{name: "invalid token", status: 422, body: "token_invalid.json", kind: search.ErrAuth},
		{name: "error object in a 200", status: 200, body: "token_invalid.json", kind: search.ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body), tc.header...)
			p, err := brave.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Search(context.Background(), search.Query{Text: "x"})
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
			if got := search.RetryAfterOf(err); got != tc.retryAfter {
				t.Errorf("RetryAfter = %s, want %s", got, tc.retryAfter)
			}
		})
	}
}

func TestNewRejectsBadBaseURL(t *testing.T) {
	if _, err := brave.New(search.Settings{APIKey: key, BaseURL: "ftp://x"}, nil); err == nil {
		t.Error("New accepted a non-http base URL")
	}
}
