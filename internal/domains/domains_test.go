package domains

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		allowed []string
		blocked []string
		want    error
		msg     string // substring of the error message
	}{
		{"both lists", []string{"a.com"}, []string{"b.com"}, ErrConflict, "cannot be used together"},
		{"scheme", []string{"https://example.com"}, nil, ErrInvalidRule, "must not include a scheme"},
		{"scheme http", nil, []string{"http://example.com/blog"}, ErrInvalidRule, "must not include a scheme"},
		{"empty", []string{""}, nil, ErrInvalidRule, "is empty"},
		{"blank", []string{"   "}, nil, ErrInvalidRule, "is empty"},
		{"inner space", []string{"exa mple.com"}, nil, ErrInvalidRule, "whitespace"},
		{"wildcard host", []string{"*.example.com"}, nil, ErrInvalidRule, "wildcards are only allowed in the path"},
		{"wildcard label", []string{"ex*.com"}, nil, ErrInvalidRule, "wildcards are only allowed in the path"},
		{"two wildcards", []string{"example.com/*/a/*"}, nil, ErrInvalidRule, "at most one"},
		{"encoded wildcards", []string{"example.com/*/a/%2A"}, nil, ErrInvalidRule, "at most one"},
		{"port", []string{"example.com:8080"}, nil, ErrInvalidRule, "port"},
		{"userinfo", []string{"user@example.com"}, nil, ErrInvalidRule, "userinfo"},
		{"ipv6", []string{"[::1]"}, nil, ErrInvalidRule, "IPv6"},
		{"query", []string{"example.com/?q=1"}, nil, ErrInvalidRule, "query string"},
		{"fragment", []string{"example.com#x"}, nil, ErrInvalidRule, "fragment"},
		{"leading dot", []string{".example.com"}, nil, ErrInvalidRule, "empty label"},
		{"double dot", []string{"example..com"}, nil, ErrInvalidRule, "empty label"},
		{"path only", []string{"/blog"}, nil, ErrInvalidRule, "must start with a domain"},
		{"hyphen label", []string{"-example.com"}, nil, ErrInvalidRule, "hyphen"},
		{"long label", []string{strings.Repeat("a", 64) + ".com"}, nil, ErrInvalidRule, "63"},
		{"bad escape", []string{"example.com/%zz"}, nil, ErrInvalidRule, "percent-encoding"},
		{"bad idna", []string{"exa\u200dmple.com"}, nil, ErrInvalidRule, "not a valid domain name"},
		{"too many", make([]string, MaxRules+1), nil, ErrInvalidRule, "exceed the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.allowed, tt.blocked)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse() = %v, %v; want error %v", f, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
}

func TestParseReportsEveryBadEntry(t *testing.T) {
	_, err := Parse([]string{"ok.com", "https://a.com", "*.b.com"}, nil)
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want *RuleError", err)
	}
	for _, want := range []string{`allowed_domains[1] "https://a.com"`, `allowed_domains[2] "*.b.com"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestParseCanonical(t *testing.T) {
	f, err := Parse([]string{" Example.COM. ", "bücher.example/Blog/", "example.com", "docs.example.com/", "a.com/x/../y"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com", "xn--bcher-kva.example/Blog/", "docs.example.com", "a.com/y"}
	if diff := cmp.Diff(want, f.Strings()); diff != "" {
		t.Errorf("Strings() mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"example.com", "xn--bcher-kva.example", "docs.example.com", "a.com"}, f.Hosts()); diff != "" {
		t.Errorf("Hosts() mismatch (-want +got):\n%s", diff)
	}
	if f.Mode() != ModeAllow {
		t.Errorf("Mode() = %v", f.Mode())
	}
}

func TestNilFilter(t *testing.T) {
	f, err := Parse(nil, []string{})
	if err != nil || f != nil {
		t.Fatalf("Parse(nil, empty) = %v, %v; want nil, nil", f, err)
	}
	if !f.Allow("not a url") || !f.AllowDomain("x") || f.MatchDomain("x") || f.Mode() != ModeNone {
		t.Error("nil filter must allow everything and match nothing")
	}
	if f.Hosts() != nil || f.Rules() != nil || f.Strings() != nil {
		t.Error("nil filter accessors must return nil")
	}
}

func TestAllow(t *testing.T) {
	tests := []struct {
		name    string
		allowed []string
		blocked []string
		url     string
		want    bool
	}{
		// Subdomains.
		{"exact", []string{"example.com"}, nil, "https://example.com/", true},
		{"subdomain", []string{"example.com"}, nil, "https://docs.example.com/x", true},
		{"deep subdomain", []string{"example.com"}, nil, "https://a.b.example.com", true},
		{"suffix not label", []string{"example.com"}, nil, "https://notexample.com/", false},
		{"parent of subdomain rule", []string{"docs.example.com"}, nil, "https://example.com/", false},
		{"sibling of subdomain rule", []string{"docs.example.com"}, nil, "https://api.example.com/", false},
		{"other domain", []string{"example.com"}, nil, "https://example.org/", false},
		{"rule suffix of host label", []string{"ample.com"}, nil, "https://example.com/", false},
		// Case, dots, ports.
		{"host case", []string{"example.com"}, nil, "HTTPS://EXAMPLE.COM/A", true},
		{"rule case", []string{"EXAMPLE.com"}, nil, "https://example.com/", true},
		{"trailing dot url", []string{"example.com"}, nil, "https://example.com./", true},
		{"trailing dot rule", []string{"example.com."}, nil, "https://www.example.com/", true},
		{"port in url", []string{"example.com"}, nil, "https://example.com:8443/x", true},
		// Userinfo tricks: the host is what follows "@".
		{"userinfo trick allow", []string{"example.com"}, nil, "https://example.com@evil.com/", false},
		{"userinfo trick block", nil, []string{"evil.com"}, "https://example.com@evil.com/", false},
		{"userinfo benign", []string{"example.com"}, nil, "https://evil.com@example.com/", true},
		{"backslash trick", []string{"example.com"}, nil, "https://evil.com\\@example.com/", false},
		// IDNA.
		{"cyrillic lookalike vs ascii rule", []string{"example.com"}, nil, "https://ex\u0430mple.com/", false},
		{"cyrillic lookalike blocked rule passes", nil, []string{"example.com"}, "https://ex\u0430mple.com/", true},
		{"cyrillic rule vs ascii url", []string{"ex\u0430mple.com"}, nil, "https://example.com/", false},
		{"unicode rule vs punycode url", []string{"bücher.example"}, nil, "https://xn--bcher-kva.example/", true},
		{"punycode rule vs unicode url", []string{"xn--bcher-kva.example"}, nil, "https://BÜCHER.example/", true},
		{"fullwidth maps to ascii", []string{"example.com"}, nil, "https://\uff45xample.com/", true},
		{"percent-encoded host fails closed", []string{"example.com"}, nil, "https://%65xample.com/", false},
		{"percent-encoded host blocklist fails closed", nil, []string{"example.com"}, "https://%65xample.com/", false},
		// Paths.
		{"path prefix", []string{"example.com/blog"}, nil, "https://example.com/blog/post-1", true},
		{"path exact", []string{"example.com/blog"}, nil, "https://example.com/blog", true},
		{"path boundary", []string{"example.com/blog"}, nil, "https://example.com/blogger", false},
		{"path other", []string{"example.com/blog"}, nil, "https://example.com/shop", false},
		{"path on subdomain", []string{"example.com/blog"}, nil, "https://www.example.com/blog/x", true},
		{"path case sensitive", []string{"example.com/Blog"}, nil, "https://example.com/blog", false},
		{"path dot segments", []string{"example.com/blog"}, nil, "https://example.com/blog/../admin", false},
		{"path dot segments blocked", nil, []string{"example.com/admin"}, "https://example.com/blog/../admin", false},
		{"path encoded", []string{"example.com/caf\u00e9"}, nil, "https://example.com/caf%C3%A9/menu", true},
		{"trailing slash rule", []string{"example.com/blog/"}, nil, "https://example.com/blog/x", true},
		{"path query ignored", []string{"example.com/blog"}, nil, "https://example.com/blog?x=1#y", true},
		{"blocked path only", nil, []string{"example.com/private"}, "https://example.com/public", true},
		{"blocked path hit", nil, []string{"example.com/private"}, "https://example.com/private/x", false},
		// Wildcards.
		{"wildcard segment", []string{"example.com/*/docs"}, nil, "https://example.com/v1/docs/intro", true},
		{"wildcard multi segment", []string{"example.com/*/docs"}, nil, "https://example.com/a/b/docs", true},
		{"wildcard boundary", []string{"example.com/*/docs"}, nil, "https://example.com/v1/docsx", false},
		{"wildcard second occurrence", []string{"example.com/*/docs"}, nil, "https://example.com/docsx/docs", true},
		{"wildcard trailing", []string{"example.com/blog*"}, nil, "https://example.com/blogger", true},
		{"wildcard all", []string{"example.com/*"}, nil, "https://example.com/", true},
		{"wildcard miss", []string{"example.com/*/docs"}, nil, "https://example.com/v1/api", false},
		// IP literals.
		{"ip exact", []string{"192.0.2.1"}, nil, "http://192.0.2.1/x", true},
		{"ip no subdomain", []string{"0.2.1"}, nil, "http://192.0.2.1/x", false},
		{"ipv6 url allowlist", []string{"example.com"}, nil, "http://[::1]/", false},
		{"ipv6 url blocklist", nil, []string{"example.com"}, "http://[2001:db8::1]:8080/", true},
		// Bad URLs fail closed.
		{"relative", nil, []string{"example.com"}, "/just/a/path", false},
		{"mailto", nil, []string{"example.com"}, "mailto:a@b.com", false},
		{"javascript", nil, []string{"example.com"}, "javascript:alert(1)", false},
		{"garbage", nil, []string{"example.com"}, "http://[::1", false},
		{"underscore host", nil, []string{"example.com"}, "https://my_host.example.org/", true},
		{"underscore host blocked", nil, []string{"example.org"}, "https://my_host.example.org/", false},
		{"blocked subdomain", nil, []string{"example.com"}, "https://ads.example.com/", false},
		{"blocked other", nil, []string{"example.com"}, "https://example.org/", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.allowed, tt.blocked)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Allow(tt.url); got != tt.want {
				t.Errorf("Allow(%q) with allowed=%q blocked=%q = %v, want %v", tt.url, tt.allowed, tt.blocked, got, tt.want)
			}
		})
	}
}

func TestDomainOnly(t *testing.T) {
	allow, err := Parse([]string{"example.com/blog"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	block, err := Parse(nil, []string{"example.com/private"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		f     *Filter
		host  string
		match bool
		allow bool
	}{
		{allow, "example.com", true, true},
		{allow, "Docs.Example.com:443", true, true},
		{allow, "example.org", false, false},
		{allow, "ex\u0430mple.com", false, false},
		{allow, "", false, false},
		{block, "example.com", true, false},
		{block, "www.example.com", true, false},
		{block, "example.org", false, true},
		{block, "[::1]:80", false, true},
		{block, "", false, false},
	}
	for _, tt := range tests {
		if got := tt.f.MatchDomain(tt.host); got != tt.match {
			t.Errorf("%v MatchDomain(%q) = %v, want %v", tt.f.Mode(), tt.host, got, tt.match)
		}
		if got := tt.f.AllowDomain(tt.host); got != tt.allow {
			t.Errorf("%v AllowDomain(%q) = %v, want %v", tt.f.Mode(), tt.host, got, tt.allow)
		}
	}
}

func TestAllowURLMatchesAllow(t *testing.T) {
	f, err := Parse([]string{"example.com/blog"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"https://example.com/blog/x", "https://example.com/shop", "/relative", "mailto:x@example.com"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if f.AllowURL(u) != f.Allow(raw) {
			t.Errorf("AllowURL and Allow disagree on %q", raw)
		}
	}
	if f.AllowURL(nil) {
		t.Error("nil URL allowed")
	}
	var none *Filter
	if !none.AllowURL(nil) {
		t.Error("nil filter must allow")
	}
}
