package serpapi_test

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
	"github.com/webgate/webgate/internal/search/providertest"
	"github.com/webgate/webgate/internal/search/serpapi"
)

const key = "serpapi-test-key"

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        serpapi.Name,
		Config:      search.Settings{APIKey: key},
		RequiresKey: true,
		Credential:  func(r *http.Request, _ []byte) string { return r.URL.Query().Get("api_key") },
		QueryText:   func(r *http.Request, _ []byte) string { return r.URL.Query().Get("q") },
		Method:      http.MethodGet,
		Path:        "/search.json",
		Success:     providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:    "Tutorial: Getting started with generics",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any ...",
				Provider: "serpapi", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				PageAge:   "Mar 22, 2022",
				Provider:  "serpapi", Rank: 2,
			},
		},
		Empty:     providertest.Fixture(t, "empty.json"),
		Malformed: providertest.Fixture(t, "malformed.json"),
	})
}

func TestPushDown(t *testing.T) {
	base := func(extra url.Values) url.Values {
		v := url.Values{"engine": {"google"}, "api_key": {key}}
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
			name: "everything",
			q: search.Query{
				Text: "x", MaxResults: 300, AllowedDomains: []string{"a.com", "b.com/docs"},
				Location: search.Location{Country: "JP"}, Language: "ja", Freshness: search.FreshnessMonth,
				SafeSearch: search.SafeSearchStrict,
			},
			want: base(url.Values{"q": {"x (site:a.com OR site:b.com)"}, "num": {"100"}, "gl": {"jp"}, "hl": {"ja"}, "tbs": {"qdr:m"}, "safe": {"active"}}),
		},
		{
			name: "blocked, safe off, moderate ignored",
			q:    search.Query{Text: "x", MaxResults: 2, BlockedDomains: []string{"c.com"}, SafeSearch: search.SafeSearchOff},
			want: base(url.Values{"q": {"x -site:c.com"}, "num": {"2"}, "safe": {"off"}}),
		},
		{
			name: "moderate keeps google default",
			q:    search.Query{Text: "x", SafeSearch: search.SafeSearchModerate, Freshness: search.FreshnessWeek},
			want: base(url.Values{"q": {"x"}, "num": {"10"}, "tbs": {"qdr:w"}}),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := serpapi.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
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
		{name: "out of searches 429", status: 429, body: "out_of_searches.json", kind: search.ErrQuota},
		{name: "out of searches in a 200", status: 200, body: "out_of_searches.json", kind: search.ErrQuota},
		{name: "invalid key 401", status: 401, body: "invalid_key.json", kind: search.ErrAuth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := serpapi.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}

// The API key travels in the URL, so transport errors must not quote it.
func TestTransportErrorHidesKey(t *testing.T) {
	p, err := serpapi.New(search.Settings{APIKey: key, BaseURL: "http://127.0.0.1:1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Search(context.Background(), search.Query{Text: "x"})
	if !errors.Is(err, search.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error leaks the API key: %v", err)
	}
}
