package searxng_test

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
	"github.com/webgate/webgate/internal/search/searxng"
)

const token = "proxy-token"

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name: searxng.Name,
		// The optional bearer token for instances behind a proxy.
		Config: search.Settings{APIKey: token},
		Credential: func(r *http.Request, _ []byte) string {
			return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		},
		QueryText: func(r *http.Request, _ []byte) string { return r.URL.Query().Get("q") },
		Method:    http.MethodGet,
		Path:      "/search",
		Success:   providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:    "Tutorial: Getting started with generics - The Go Programming Language",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code.",
				Provider: "searxng", Rank: 1,
			},
			{
				Title:     "An Introduction To Generics - The Go Programming Language",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				Provider:  "searxng", Rank: 2,
			},
		},
		Empty:     providertest.Fixture(t, "empty.json"),
		Malformed: providertest.Fixture(t, "malformed.json"),
	})
}

func TestNew(t *testing.T) {
	if _, err := searxng.New(search.Settings{}, nil); err == nil {
		t.Error("New without a base URL succeeded")
	}
	if _, err := searxng.New(search.Settings{BaseURL: "https://searx.example.org/"}, nil); err != nil {
		t.Errorf("New without an api key: %v", err)
	}
}

func TestNoTokenNoHeader(t *testing.T) {
	f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
	p, err := searxng.New(search.Settings{BaseURL: f.URL()}, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Search(context.Background(), search.Query{Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if r, _ := f.Last(t); r.Header.Get("Authorization") != "" {
		t.Errorf("Authorization = %q, want none", r.Header.Get("Authorization"))
	}
}

func TestPushDown(t *testing.T) {
	tests := []struct {
		name string
		q    search.Query
		want url.Values
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics", MaxResults: 3},
			want: url.Values{"q": {"golang generics"}, "format": {"json"}, "pageno": {"1"}},
		},
		{
			name: "language with country, week, strict, allowed",
			q: search.Query{
				Text: "x", Language: "en", Location: search.Location{Country: "us"}, Freshness: search.FreshnessWeek,
				SafeSearch: search.SafeSearchStrict, AllowedDomains: []string{"go.dev", "pkg.go.dev/std"},
			},
			want: url.Values{
				"q": {"x (site:go.dev OR site:pkg.go.dev)"}, "format": {"json"}, "pageno": {"1"},
				"language": {"en-US"}, "time_range": {"week"}, "safesearch": {"2"},
			},
		},
		{
			name: "regional tag kept, off, blocked",
			q:    search.Query{Text: "x", Language: "pt_BR", SafeSearch: search.SafeSearchOff, BlockedDomains: []string{"a.com"}, Freshness: search.FreshnessYear},
			want: url.Values{
				"q": {"x -site:a.com"}, "format": {"json"}, "pageno": {"1"},
				"language": {"pt-BR"}, "time_range": {"year"}, "safesearch": {"0"},
			},
		},
		{
			name: "moderate, day",
			q:    search.Query{Text: "x", SafeSearch: search.SafeSearchModerate, Freshness: search.FreshnessDay, Location: search.Location{Country: "DE"}},
			want: url.Values{"q": {"x"}, "format": {"json"}, "pageno": {"1"}, "time_range": {"day"}, "safesearch": {"1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := searxng.New(search.Settings{BaseURL: f.URL()}, f.Client())
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

func TestBaseURLPrefix(t *testing.T) {
	f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
	p, err := searxng.New(search.Settings{BaseURL: f.URL() + "/searx/"}, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Search(context.Background(), search.Query{Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if r, _ := f.Last(t); r.URL.Path != "/searx/search" {
		t.Errorf("path = %q, want /searx/search", r.URL.Path)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		kind   error
	}{
		{name: "every engine blocked", status: 200, body: "all_blocked.json", kind: search.ErrBlocked},
		{name: "every engine failed", status: 200, body: "all_failed.json", kind: search.ErrUnavailable},
		{name: "json format disabled", status: 403, body: "malformed.json", kind: search.ErrAuth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := searxng.New(search.Settings{BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}

func TestUnexpectedUnresponsiveShape(t *testing.T) {
	body := []byte(`{"query":"x","results":[],"unresponsive_engines":[{"engine":"google"},["bing","CAPTCHA"]]}`)
	f := providertest.NewFake(t, "application/json", http.StatusOK, body)
	p, err := searxng.New(search.Settings{BaseURL: f.URL()}, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Search(context.Background(), search.Query{Text: "x"})
	if !errors.Is(err, search.ErrBlocked) || !strings.Contains(err.Error(), `{"engine":"google"}`) {
		t.Errorf("err = %v, want ErrBlocked mentioning both engines", err)
	}
}
