package websearch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// TestNew: the domain lists are validated by package domains, as
// Anthropic's documentation describes them. The fast path's own parser
// accepted "*.example.com", which the documented rules reject.
func TestNew(t *testing.T) {
	tests := []struct {
		allowed, blocked []string
		want             error
	}{
		{nil, nil, nil},
		{[]string{"go.dev", "example.com/blog"}, nil, nil},
		{nil, []string{"go.dev"}, nil},
		{[]string{"*.go.dev"}, nil, domains.ErrInvalidRule},
		{[]string{"https://go.dev"}, nil, domains.ErrInvalidRule},
		{[]string{""}, nil, domains.ErrInvalidRule},
		{[]string{"go.dev"}, []string{"example.com"}, domains.ErrConflict},
	}
	for _, tt := range tests {
		_, err := New(tt.allowed, tt.blocked, search.Location{})
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("New(%q, %q) = %v, want %v", tt.allowed, tt.blocked, err, tt.want)
		}
		if tt.want != nil && Code(err) != CodeInvalidToolInput {
			t.Errorf("Code(%v) = %s, want %s", err, Code(err), CodeInvalidToolInput)
		}
	}
}

// TestAllowed: the post-filter keeps exactly what the rules allow. A path
// rule ends on a segment boundary: the fast path's own filter let
// "example.com/blog" match "/blogger".
func TestAllowed(t *testing.T) {
	urls := []string{"https://go.dev/doc", "https://pkg.go.dev/x", "https://evil-go.dev/", "https://GO.DEV./blog/post",
		"https://example.com/blog/a", "https://example.com/blogger", "https://example.com/shop", "not a url"}
	tests := []struct {
		name             string
		allowed, blocked []string
		want             []string
	}{
		{"none", nil, nil, urls},
		{"allowed with subdomains", []string{"go.dev"}, nil, []string{"https://go.dev/doc", "https://pkg.go.dev/x", "https://GO.DEV./blog/post"}},
		{"allowed path prefix", []string{"example.com/blog"}, nil, []string{"https://example.com/blog/a"}},
		{"allowed path wildcard", []string{"example.com/blog*"}, nil, []string{"https://example.com/blog/a", "https://example.com/blogger"}},
		{"blocked", nil, []string{"go.dev"}, []string{"https://evil-go.dev/", "https://example.com/blog/a", "https://example.com/blogger", "https://example.com/shop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := New(tt.allowed, tt.blocked, search.Location{})
			if err != nil {
				t.Fatal(err)
			}
			in := make([]search.Result, len(urls))
			for i, u := range urls {
				in[i] = search.Result{URL: u}
			}
			out := tool.Allowed(in)
			var got []string
			for _, r := range out {
				got = append(got, r.URL)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if (len(tt.allowed)+len(tt.blocked) == 0) != (len(out) > 0 && &out[0] == &in[0]) {
				t.Error("without rules the results must be returned as they are, and with rules never changed in place")
			}
		})
	}
}

type fakeSearcher struct {
	got  search.Query
	resp *search.Response
	err  error
}

func (f *fakeSearcher) Search(_ context.Context, q search.Query) (*search.Response, error) {
	f.got = q
	return f.resp, f.err
}

// TestSearch: the engine is asked with the definition's lists as given
// and its results are post-filtered; its errors are wrapped for Code.
func TestSearch(t *testing.T) {
	tool, err := New([]string{"go.dev"}, nil, search.Location{Country: "DE"})
	if err != nil {
		t.Fatal(err)
	}
	fs := &fakeSearcher{resp: &search.Response{Provider: "p", Results: []search.Result{{URL: "https://go.dev/a"}, {URL: "https://other.test/"}}}}
	resp, results, err := tool.Search(t.Context(), fs, "q", 7)
	if err != nil || resp.Provider != "p" || len(results) != 1 || results[0].URL != "https://go.dev/a" {
		t.Fatalf("Search = %+v, %v, %v", resp, results, err)
	}
	want := search.Query{Text: "q", MaxResults: 7, AllowedDomains: []string{"go.dev"}, Location: search.Location{Country: "DE"}}
	if fmt.Sprint(fs.got) != fmt.Sprint(want) {
		t.Errorf("searched %+v, want %+v", fs.got, want)
	}
	fs.err = &search.ProviderError{Provider: "p", Kind: search.ErrRateLimited}
	if _, _, err := tool.Search(t.Context(), fs, "q", 7); Code(err) != CodeTooManyRequests {
		t.Errorf("Code(%v) = %s", err, Code(err))
	}
}

func TestCheck(t *testing.T) {
	zero, one := 0, 1
	tests := []struct {
		err  error
		code string
	}{
		{CheckMaxUses(nil), ""},
		{CheckMaxUses(&one), ""},
		{CheckMaxUses(&zero), CodeMaxUsesExceeded},
		{CheckQuery("go", 10), ""},
		{CheckQuery("", 10), CodeInvalidToolInput},
		{CheckQuery(strings.Repeat("a", 11), 10), CodeQueryTooLong},
	}
	for i, tt := range tests {
		if (tt.err == nil) != (tt.code == "") || tt.err != nil && Code(tt.err) != tt.code {
			t.Errorf("%d: %v (%s), want %q", i, tt.err, Code(tt.err), tt.code)
		}
	}
}

// TestCode: every failure maps to its documented code, with errors.Is
// only: a query too long is search.ErrQueryTooLong, whoever said so.
func TestCode(t *testing.T) {
	pe := func(kind error, msg string) error {
		return fmt.Errorf("search: %w", &search.ProviderError{Provider: "p", Kind: kind, Err: errors.New(msg)})
	}
	tests := []struct {
		err  error
		want string
	}{
		{CheckQuery(strings.Repeat("a", 600), 500), CodeQueryTooLong},
		{fmt.Errorf("x: %w", ErrMaxUsesExceeded), CodeMaxUsesExceeded},
		{fmt.Errorf("x: %w", ErrInvalidInput), CodeInvalidToolInput},
		{pe(search.ErrInvalidQuery, "unsupported operator"), CodeInvalidToolInput},
		{pe(search.ErrInvalidQuery, "Query too long (max 400)"), CodeQueryTooLong},
		{fmt.Errorf("search: %w: query too long", search.ErrInvalidQuery), CodeInvalidToolInput},
		{fmt.Errorf("search: %w: %w", search.ErrInvalidQuery, domains.ErrConflict), CodeInvalidToolInput},
		{pe(search.ErrRateLimited, ""), CodeTooManyRequests},
		{errors.Join(pe(search.ErrUnavailable, ""), pe(search.ErrRateLimited, "")), CodeTooManyRequests},
		{pe(search.ErrAuth, ""), CodeUnavailable},
		{pe(search.ErrQuota, ""), CodeUnavailable},
		{pe(search.ErrBlocked, ""), CodeUnavailable},
		{fmt.Errorf("search: %w", search.ErrNoProviders), CodeUnavailable},
		{context.DeadlineExceeded, CodeUnavailable},
	}
	for _, tt := range tests {
		if got := Code(tt.err); got != tt.want {
			t.Errorf("Code(%v) = %s, want %s", tt.err, got, tt.want)
		}
	}
}

// TestText: refusals by the key's policy and the query guard reach the
// model with their reason, and a blocked query is not repeated back;
// other failures read as their cause or code.
func TestText(t *testing.T) {
	zero := 0
	tests := []struct {
		err      error
		code     string
		want     string
		noRepeat bool
	}{
		{&policy.Denial{Kind: policy.ErrBudget, Msg: "API key \"ci\" has used its 10 searches for today (UTC)"}, CodeTooManyRequests, "has used its 10 searches", false},
		{&policy.Denial{Kind: policy.ErrDomain, Msg: "allowed_domains evil.example: outside the domains this API key may use"}, CodeInvalidToolInput, "outside the domains", false},
		{&policy.Denial{Kind: policy.ErrTool, Msg: "API key \"r\" may not use search"}, CodeUnavailable, "may not use search", false},
		{&guard.SecretError{What: "query", Kinds: []string{"a GitHub token"}}, CodeInvalidToolInput, "appears to contain a GitHub token", true},
		{CheckMaxUses(&zero), CodeMaxUsesExceeded, "max_uses allows no search", false},
		{CheckQuery("", 400), CodeInvalidToolInput, `{"query": "<non-empty search query>"}`, false},
		{CheckQuery(strings.Repeat("a", 401), 400), CodeQueryTooLong, "longer than 400 characters", false},
		{&search.ProviderError{Provider: "p", Kind: search.ErrInvalidQuery}, CodeInvalidToolInput, "domain filters were rejected", false},
	}
	for _, tt := range tests {
		if got := Code(tt.err); got != tt.code {
			t.Errorf("Code(%v) = %s, want %s", tt.err, got, tt.code)
		}
		text := Text("query-with-ghp_secret", errors.Join(errors.New("search"), tt.err), 400)
		if !strings.Contains(text, "("+tt.code+")") || !strings.Contains(text, tt.want) || tt.noRepeat && strings.Contains(text, "ghp_secret") {
			t.Errorf("Text(%v) = %q", tt.err, text)
		}
	}
	if got := CodeText("q", CodeMaxUsesExceeded, 400); !strings.Contains(got, "allows no more web searches") {
		t.Errorf("CodeText = %q", got)
	}
}

// TestPayload: what a result seals is what the model is shown, whichever
// surface answered: a title on one line (never empty), the snippet on one
// line, and the page's date, from the provider's age string or else its
// publication date.
func TestPayload(t *testing.T) {
	published := time.Date(2025, 5, 6, 12, 0, 0, 0, time.UTC)
	when := time.Date(2026, 11, 25, 10, 0, 0, 123, time.FixedZone("x", 3600))
	p := Payload(search.Result{URL: "https://a.test/p", Title: " A\n title ", Snippet: "one\n  two ", Published: published, Provider: "brave"},
		"q", []string{"passage"}, when)
	if p.Title != "A title" || p.Snippet != "one two" || p.PageAge != "May 6, 2025" || p.Query != "q" ||
		p.URL != "https://a.test/p" || p.Provider != "brave" || !slices.Equal(p.Passages, []string{"passage"}) ||
		!p.Retrieved.Equal(when.Truncate(time.Second)) || p.Retrieved.Location() != time.UTC {
		t.Errorf("Payload = %+v", p)
	}
	if p := Payload(search.Result{URL: "https://a.test/p", PageAge: "2 days ago", Published: published}, "q", nil, when); p.PageAge != "2 days ago" || p.Title != "a.test" {
		t.Errorf("Payload = %+v", p)
	}
	wr := ResultBlock(&p, "tok")
	if wr.Title != p.Title || wr.URL != p.URL || wr.EncryptedContent != "tok" || wr.PageAge == nil || *wr.PageAge != p.PageAge {
		t.Errorf("ResultBlock = %+v", wr)
	}
	if wr := ResultBlock(&seal.Result{URL: "u"}, "tok"); wr.PageAge != nil {
		t.Errorf("ResultBlock without a date = %+v", wr)
	}
}

// FuzzOneLine pins the allocation-free OneLine to its definition.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"", " ", "a  b", " a", "a ", "a\tb", "héllo wörld", "a\u00a0b", "\xff x", "x\v", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := OneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("OneLine(%q) = %q, want %q", s, got, want)
		}
	})
}
