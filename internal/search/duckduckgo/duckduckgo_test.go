package duckduckgo_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/duckduckgo"
	"github.com/webgate/webgate/internal/search/providertest"
)

const html = "text/html; charset=UTF-8"

func formValue(r *http.Request, body []byte, key string) string {
	v, err := url.ParseQuery(string(body))
	if err != nil {
		return ""
	}
	return v.Get(key)
}

var wantResults = []search.Result{
	{
		Title:     "Tutorial: Getting started with generics - The Go Programming Language",
		URL:       "https://go.dev/doc/tutorial/generics",
		Snippet:   "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code.",
		Published: time.Date(2024, 2, 6, 0, 0, 0, 0, time.UTC),
		PageAge:   "2024-02-06T00:00:00.0000000",
		Provider:  "duckduckgo", Rank: 1,
	},
	{
		Title:    "An Introduction To Generics - The Go Programming Language",
		URL:      "https://go.dev/blog/intro-generics?utm_source=ddg&x=1",
		Snippet:  "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.",
		Provider: "duckduckgo", Rank: 2,
	},
	{
		Title:    "Go by Example: Generics",
		URL:      "https://gobyexample.com/generics",
		Snippet:  "Starting with version 1.18, Go has added support for generics, also known as type parameters. package main <- imports",
		Provider: "duckduckgo", Rank: 3,
	},
	// The duplicate of result 1 and the javascript: link are dropped.
	{
		Title:     "How To Use Generics in Go | DigitalOcean",
		URL:       "https://www.digitalocean.com/community/tutorials/how-to-use-generics-in-go",
		Snippet:   "In Go 1.18, the language introduced a new feature called generic types (commonly known by the shorter term, generics).",
		Published: time.Date(2022, 1, 14, 0, 0, 0, 0, time.UTC),
		PageAge:   "2022-01-14T00:00:00.0000000",
		Provider:  "duckduckgo", Rank: 4,
	},
	{
		Title:    "Generics in Go — Bitfield Consulting",
		URL:      "https://bitfieldconsulting.com/posts/generics",
		Snippet:  "A practical guide to type parameters and constraints.",
		Provider: "duckduckgo", Rank: 5,
	},
}

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        duckduckgo.Name,
		QueryText:   func(r *http.Request, body []byte) string { return formValue(r, body, "q") },
		Method:      http.MethodPost,
		Path:        "/html/",
		ContentType: html,
		Success:     providertest.Fixture(t, "results.html"),
		// The first result on the page is an ad; it must not appear.
		Want:      wantResults,
		Empty:     providertest.Fixture(t, "empty.html"),
		Malformed: providertest.Fixture(t, "malformed.html"),
	})
}

func TestAllResults(t *testing.T) {
	f := providertest.NewFake(t, html, http.StatusOK, providertest.Fixture(t, "results.html"))
	p, err := duckduckgo.New(search.Settings{BaseURL: f.URL()}, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Search(context.Background(), search.Query{Text: "golang generics", MaxResults: 30})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantResults, res); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	r, _ := f.Last(t)
	if got := r.Header.Get("Content-Type"); got != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type = %q", got)
	}
	if got := r.Header.Get("User-Agent"); got == "" {
		t.Error("no User-Agent")
	}
}

func TestBlocked(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{name: "anomaly page with 202", status: http.StatusAccepted, body: "anomaly.html"},
		{name: "anomaly page with 200", status: http.StatusOK, body: "anomaly.html"},
		{name: "bare 202", status: http.StatusAccepted, body: "malformed.html"},
		{name: "403", status: http.StatusForbidden, body: "malformed.html"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, html, tc.status, providertest.Fixture(t, tc.body))
			p, err := duckduckgo.New(search.Settings{BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Search(context.Background(), search.Query{Text: "golang generics"})
			if !errors.Is(err, search.ErrBlocked) {
				t.Fatalf("Search = %v, %v; want ErrBlocked", res, err)
			}
			if search.Retryable(err) {
				t.Error("a bot challenge must not be retried against the same provider")
			}
		})
	}
}

func TestPushDown(t *testing.T) {
	tests := []struct {
		name           string
		q              search.Query
		want           url.Values
		acceptLanguage string
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics"},
			want: url.Values{"q": {"golang generics"}, "b": {""}},
		},
		{
			name: "region, week, strict, allowed",
			q: search.Query{
				Text: "x", Location: search.Location{Country: "gb"}, Language: "en-GB", Freshness: search.FreshnessWeek,
				SafeSearch: search.SafeSearchStrict, AllowedDomains: []string{"bbc.co.uk/news", "*.gov.uk"},
			},
			want:           url.Values{"q": {"x (site:bbc.co.uk OR site:gov.uk)"}, "b": {""}, "kl": {"uk-en"}, "df": {"w"}, "kp": {"1"}},
			acceptLanguage: "en-GB",
		},
		{
			name:           "language picks the region variant",
			q:              search.Query{Text: "x", Location: search.Location{Country: "CA"}, Language: "fr", Freshness: search.FreshnessDay, SafeSearch: search.SafeSearchModerate},
			want:           url.Values{"q": {"x"}, "b": {""}, "kl": {"ca-fr"}, "df": {"d"}, "kp": {"-1"}},
			acceptLanguage: "fr",
		},
		{
			name: "unknown country, blocked, off, month",
			q:    search.Query{Text: "x", Location: search.Location{Country: "AQ"}, BlockedDomains: []string{"a.com", "b.com"}, SafeSearch: search.SafeSearchOff, Freshness: search.FreshnessMonth},
			want: url.Values{"q": {"x -site:a.com -site:b.com"}, "b": {""}, "kp": {"-2"}, "df": {"m"}},
		},
		{
			name:           "year, us spanish",
			q:              search.Query{Text: "x", Location: search.Location{Country: "US"}, Language: "es", Freshness: search.FreshnessYear},
			want:           url.Values{"q": {"x"}, "b": {""}, "kl": {"ue-es"}, "df": {"y"}},
			acceptLanguage: "es",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, html, http.StatusOK, providertest.Fixture(t, "empty.html"))
			p, err := duckduckgo.New(search.Settings{BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), tc.q); err != nil {
				t.Fatal(err)
			}
			r, body := f.Last(t)
			got, err := url.ParseQuery(string(body))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("form mismatch (-want +got):\n%s", diff)
			}
			if got := r.Header.Get("Accept-Language"); got != tc.acceptLanguage {
				t.Errorf("Accept-Language = %q, want %q", got, tc.acceptLanguage)
			}
		})
	}
}

func TestOnlyAds(t *testing.T) {
	page := []byte(`<html><body><div id="links" class="results">
<div class="result results_links results_links_deep result--ad"><div class="links_main links_deep result__body">
<h2 class="result__title"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=x.example">Ad</a></h2>
<a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=x.example">Buy now</a></div></div>
</div></body></html>`)
	f := providertest.NewFake(t, html, http.StatusOK, page)
	p, err := duckduckgo.New(search.Settings{BaseURL: f.URL()}, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Search(context.Background(), search.Query{Text: "x"})
	if err != nil || len(res) != 0 {
		t.Errorf("Search = %v, %v; want no results and no error", res, err)
	}
}

// Pages without results that are not DuckDuckGo's explicit "No results."
// page must not pass for an empty answer.
func TestUnrecognisedPages(t *testing.T) {
	tests := []struct {
		name string
		page string
	}{
		{name: "results container without results or marker", page: `<html><body><div id="links" class="results"><div class="clear"></div></div></body></html>`},
		{name: "result blocks in an unknown layout", page: `<html><body><div id="links"><div class="result"><h2><a class="new-title" href="https://go.dev/">Go</a></h2></div></div></body></html>`},
		{name: "result blocks without usable links", page: `<html><body><div class="result"><a class="result__a" href="javascript:void(0)">x</a></div></body></html>`},
		{name: "not html at all", page: `{"error":"maintenance"}`},
		{name: "empty body", page: ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, html, http.StatusOK, []byte(tc.page))
			p, err := duckduckgo.New(search.Settings{BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Search(context.Background(), search.Query{Text: "x"})
			if !errors.Is(err, search.ErrUnavailable) {
				t.Errorf("Search = %v, %v; want ErrUnavailable", res, err)
			}
		})
	}
}
