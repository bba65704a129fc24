package exa_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/exa"
	"github.com/webgate/webgate/internal/search/providertest"
)

const key = "exa-test-key"

func TestContract(t *testing.T) {
	providertest.Run(t, providertest.Harness{
		Name:        exa.Name,
		Config:      search.Settings{APIKey: key},
		RequiresKey: true,
		Credential:  func(r *http.Request, _ []byte) string { return r.Header.Get("x-api-key") },
		QueryText: func(_ *http.Request, body []byte) string {
			var m struct{ Query string }
			json.Unmarshal(body, &m)
			return m.Query
		},
		Method:  http.MethodPost,
		Path:    "/search",
		Success: providertest.Fixture(t, "success.json"),
		Want: []search.Result{
			{
				Title:     "An Introduction To Generics - The Go Programming Language",
				URL:       "https://go.dev/blog/intro-generics",
				Snippet:   "The Go 1.18 release adds support for generics. Generics are the biggest change we’ve made to Go since the first open source release.",
				Published: time.Date(2022, 3, 22, 0, 0, 0, 0, time.UTC),
				Provider:  "exa", Rank: 1,
			},
			{
				Title:    "Tutorial: Getting started with generics",
				URL:      "https://go.dev/doc/tutorial/generics",
				Snippet:  "In this tutorial, you’ll declare two simple non-generic functions, then capture the same logic in a single generic function. … You’ll progress through the following sections: Create a folder for your code.",
				Provider: "exa", Rank: 2,
			},
			{
				Title:     "https://bitfieldconsulting.com/posts/generics",
				URL:       "https://bitfieldconsulting.com/posts/generics",
				Snippet:   "A practical guide to type parameters and constraints in Go.",
				Published: time.Date(2023, 11, 15, 9, 30, 0, 0, time.UTC),
				Provider:  "exa", Rank: 3,
			},
		},
		Empty:     providertest.Fixture(t, "empty.json"),
		Malformed: providertest.Fixture(t, "malformed.json"),
	})
}

func TestPushDown(t *testing.T) {
	highlights := map[string]any{"highlights": map[string]any{"maxCharacters": 400.0}}
	tests := []struct {
		name   string
		q      search.Query
		want   map[string]any
		window time.Duration // expected look-back of startPublishedDate; 0 for none
	}{
		{
			name: "defaults",
			q:    search.Query{Text: "golang generics"},
			want: map[string]any{"query": "golang generics", "type": "auto", "numResults": 10.0, "contents": highlights},
		},
		{
			name: "domains country strict clamp",
			q: search.Query{
				Text: "x", MaxResults: 500, AllowedDomains: []string{"https://go.dev/blog/", "*.github.io"},
				Location: search.Location{Country: "us"}, SafeSearch: search.SafeSearchStrict, Language: "de",
			},
			want: map[string]any{
				"query": "x", "type": "auto", "numResults": 100.0, "contents": highlights,
				"includeDomains": []any{"go.dev", "github.io"}, "userLocation": "US", "moderation": true,
			},
		},
		{
			name: "blocked and week",
			q:    search.Query{Text: "x", MaxResults: 4, BlockedDomains: []string{"medium.com"}, Freshness: search.FreshnessWeek},
			want: map[string]any{
				"query": "x", "type": "auto", "numResults": 4.0, "contents": highlights,
				"excludeDomains": []any{"medium.com"},
			},
			window: 7 * 24 * time.Hour,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "empty.json"))
			p, err := exa.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			before := time.Now().UTC().Truncate(time.Millisecond)
			if _, err := p.Search(context.Background(), tc.q); err != nil {
				t.Fatal(err)
			}
			after := time.Now().UTC()
			_, body := f.Last(t)
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			start, _ := got["startPublishedDate"].(string)
			delete(got, "startPublishedDate")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("request body mismatch (-want +got):\n%s", diff)
			}
			switch {
			case tc.window == 0 && start != "":
				t.Errorf("startPublishedDate = %q, want none", start)
			case tc.window != 0:
				// The date must be the window before the moment of the
				// request, which lies between before and after.
				ts, err := time.Parse(time.RFC3339, start)
				if err != nil {
					t.Fatalf("startPublishedDate %q: %v", start, err)
				}
				if ts.Before(before.Add(-tc.window)) || ts.After(after.Add(-tc.window)) {
					t.Errorf("startPublishedDate = %s, want within [%s, %s]", ts, before.Add(-tc.window), after.Add(-tc.window))
				}
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
		{name: "out of credits 402", status: 402, body: "no_credits.json", kind: search.ErrQuota},
		{name: "out of credits 403", status: 403, body: "no_credits.json", kind: search.ErrQuota},
		{name: "200 without results", status: 200, body: "no_credits.json", kind: search.ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := providertest.NewFake(t, "application/json", tc.status, providertest.Fixture(t, tc.body))
			p, err := exa.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Search(context.Background(), search.Query{Text: "x"}); !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %v", err, tc.kind)
			}
		})
	}
}

func TestSnippetFallbacks(t *testing.T) {
	f := providertest.NewFake(t, "application/json", http.StatusOK, providertest.Fixture(t, "success.json"))
	p, err := exa.New(search.Settings{APIKey: key, BaseURL: f.URL()}, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Search(context.Background(), search.Query{Text: "golang generics"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 5 {
		t.Fatalf("got %d results, want 5 (the one without a URL dropped)", len(res))
	}
	// Only full text: a word-bounded excerpt of at most 300 runes.
	got := res[4].Snippet
	want := "Type parameters let functions and types work over a set of types. Type parameters let functions and types work over a set of types. Type parameters let functions and types work over a set of types. Type parameters let functions and types work over a set of types. Type parameters let functions and…"
	if got != want {
		t.Errorf("text fallback snippet = %q, want %q", got, want)
	}
}
