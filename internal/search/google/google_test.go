package google_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/google"
	"github.com/webgate/webgate/internal/search/providertest"
)

const (
	key = "AIza-test-key"
	cx  = "017576662512468239146:omuauf_lfve"
)

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        google.Name,
		Config:      search.Settings{APIKey: key, CX: cx},
		RequiresKey: true,
		Credential:  func(r *http.Request, _ []byte) string { return r.URL.Query().Get("key") },
		QueryText:   func(r *http.Request, _ []byte) string { return r.URL.Query().Get("q") },
		Method:      http.MethodGet,
		Path:        "/customsearch/v1",
		Success:     providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:    "Tutorial: Getting started with generics - The Go Programming ...",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of ...",
				Provider: "google", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics - The Go Programming Language",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 17, 0, 0, 0, time.UTC),
				PageAge:   "Mar 22, 2022",
				Provider:  "google", Rank: 2,
			},
			{
				Title:     "Go by Example: Generics",
				URL:       "https://gobyexample.com/generics",
				Snippet:   "Starting with version 1.18, Go has added support for generics, also known as type parameters.",
				Published: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
				PageAge:   "Jan 2, 2024",
				Provider:  "google", Rank: 3,
			},
		},
		Empty:     providertest.Fixture(t, "empty.json"),
		Malformed: providertest.Fixture(t, "malformed.json"),
	})
}

func TestNewRequiresCX(t *testing.T) {
	if _, err := google.New(search.Settings{APIKey: key}, nil); err == nil {
		t.Error("New without cx succeeded")
	}
}

func TestPushDown(t *testing.T) {
	base := func(extra url.Values) url.Values {
		v := url.Values{"key": {key}, "cx": {cx}}
		for k, vs := range extra {
			v[k] = vs
		}
		return v
	}
	tests := []struct {
		name string
		q    search.Query
		want url.Values
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics"},
			want: base(url.Values{"q": {"golang generics"}, "num": {"10"}}),
		},
		{
			name: "single allowed domain uses siteSearch",
			q: search.Query{
				Text: "x", MaxResults: 50, AllowedDomains: []string{"go.dev/blog"},
				Location: search.Location{Country: "BR"}, Language: "pt-BR", Freshness: search.FreshnessDay, SafeSearch: search.SafeSearchStrict,
			},
			want: base(url.Values{
				"q": {"x"}, "num": {"10"}, "siteSearch": {"go.dev"}, "siteSearchFilter": {"i"},
				"gl": {"br"}, "lr": {"lang_pt"}, "dateRestrict": {"d1"}, "safe": {"active"},
			}),
		},
		{
			name: "single blocked domain uses siteSearch exclude",
			q:    search.Query{Text: "x", MaxResults: 3, BlockedDomains: []string{"*.pinterest.com"}, Language: "zh-Hant", Freshness: search.FreshnessYear, SafeSearch: search.SafeSearchOff},
			want: base(url.Values{
				"q": {"x"}, "num": {"3"}, "siteSearch": {"pinterest.com"}, "siteSearchFilter": {"e"},
				"lr": {"lang_zh-TW"}, "dateRestrict": {"y1"}, "safe": {"off"},
			}),
		},
		{
			name: "several domains use operators",
			q:    search.Query{Text: "x", AllowedDomains: []string{"a.com", "b.com"}, Freshness: search.FreshnessWeek, Language: "zh"},
			want: base(url.Values{"q": {"x (site:a.com OR site:b.com)"}, "num": {"10"}, "dateRestrict": {"w1"}, "lr": {"lang_zh-CN"}}),
		},
		{
			name: "several blocked use operators",
			q:    search.Query{Text: "x", BlockedDomains: []string{"a.com", "b.com"}, Freshness: search.FreshnessMonth},
			want: base(url.Values{"q": {"x -site:a.com -site:b.com"}, "num": {"10"}, "dateRestrict": {"m1"}}),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := google.New(search.Settings{APIKey: key, CX: cx, BaseURL: f.URL()}, f.Client())
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
		name   string
		status int
		body   string
		kind   error
	}{
		{name: "invalid key is a 400", status: 400, body: "key_invalid.json", kind: search.ErrAuth},
		{name: "daily quota", status: 429, body: "daily_quota.json", kind: search.ErrQuota},
		{name: "per-minute quota", status: 429, body: "minute_quota.json", kind: search.ErrRateLimited},
		{name: "200 that is not a search", status: 200, body: "daily_quota.json", kind: search.ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := google.New(search.Settings{APIKey: key, CX: cx, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}
