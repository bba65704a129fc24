package domains

import (
	"errors"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"example.com", "example.com/blog", "*.example.com", "https://x.com", "bücher.example", "a..b", "example.com/*/x", "1.2.3.4", "[::1]", "x.com:80", "", " "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		fl, err := Parse([]string{entry}, nil)
		if err != nil {
			if !errors.Is(err, ErrInvalidRule) {
				t.Fatalf("error %v does not wrap ErrInvalidRule", err)
			}
			return
		}
		rules := fl.Rules()
		if len(rules) != 1 {
			t.Fatalf("got %d rules", len(rules))
		}
		r := rules[0]
		if strings.ContainsAny(r.Host, "*:/@ ") || r.Host != strings.ToLower(r.Host) {
			t.Fatalf("bad canonical host %q from %q", r.Host, entry)
		}
		if strings.Count(r.Path, "*") > 1 {
			t.Fatalf("path %q has several wildcards", r.Path)
		}
		// The canonical form must parse back to itself.
		again, err := Parse([]string{r.String()}, nil)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", r.String(), entry, err)
		}
		if got := again.Strings()[0]; got != r.String() {
			t.Fatalf("canonical form is not stable: %q -> %q", r.String(), got)
		}
	})
}

func FuzzAllow(f *testing.F) {
	for _, s := range []string{"https://example.com/blog/x", "https://ex\u0430mple.com", "https://a@b.com", "http://[::1]:80/", "javascript:x", "https://example.com./../a", "https://%65xample.com"} {
		f.Add(s)
	}
	allow, err := Parse([]string{"example.com/blog", "example.org/*/docs"}, nil)
	if err != nil {
		f.Fatal(err)
	}
	block, err := Parse(nil, []string{"example.com/blog", "example.org/*/docs"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, u string) {
		a, b := allow.Allow(u), block.Allow(u)
		// The same rules as an allowlist and a blocklist can never both admit
		// a URL: that would mean it both matches and does not match.
		if a && b {
			t.Fatalf("%q passes both the allowlist and the blocklist", u)
		}
		if a {
			host, _, ok := splitURL(u)
			if !ok || !(host == "example.com" || strings.HasSuffix(host, ".example.com") || host == "example.org" || strings.HasSuffix(host, ".example.org")) {
				t.Fatalf("%q allowed with host %q", u, host)
			}
		}
	})
}
