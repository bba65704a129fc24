package urlnorm

import (
	"net/url"
	"strings"
	"testing"
)

func TestKeySame(t *testing.T) {
	// Each group lists URLs that must share one key.
	groups := [][]string{
		{"https://example.com/docs", "http://example.com/docs", "https://www.example.com/docs", "HTTPS://EXAMPLE.COM/docs", "https://example.com/docs/", "https://example.com:443/docs", "http://example.com:80/docs", "https://example.com./docs", "https://example.com/docs#intro", "https://user:pw@example.com/docs", "https://example.com/a/../docs", "https://example.com/./docs"},
		{"https://example.com", "https://example.com/", "http://www.example.com"},
		{"https://example.com/p?b=2&a=1", "https://example.com/p?a=1&b=2", "https://example.com/p?a=1&utm_source=x&b=2&utm_medium=y", "https://example.com/p?gclid=1&a=1&b=2&fbclid=2&", "https://example.com/p?a=1&b=2&UTM_Campaign=z&msclkid=4&mc_cid=5&mc_eid=6&srsltid=7"},
		{"https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9", "https://example.com/café"},
		{"https://example.com/%7Euser", "https://example.com/~user"},
		{"https://bücher.example/x", "https://xn--bcher-kva.example/x", "https://BÜCHER.example/x"},
		{"https://example.com/x?ref_src=twsrc", "https://example.com/x"},
	}
	for _, g := range groups {
		want := Key(g[0])
		for _, u := range g[1:] {
			if got := Key(u); got != want {
				t.Errorf("Key(%q) = %q, want %q (same as %q)", u, got, want, g[0])
			}
		}
	}
}

func TestKeyDifferent(t *testing.T) {
	pairs := [][2]string{
		{"https://example.com/a", "https://example.org/a"},
		{"https://example.com/a", "https://example.com/b"},
		{"https://example.com/A", "https://example.com/a"},
		{"https://example.com/?ref=main", "https://example.com/?ref=dev"},
		{"https://example.com/?id=1", "https://example.com/?id=2"},
		{"https://example.com:8080/", "https://example.com/"},
		{"https://docs.example.com/", "https://example.com/"},
		{"https://ex\u0430mple.com/", "https://example.com/"},
		{"ftp://example.com/a", "https://example.com/a"},
		{"https://example.com/a%2Fb", "https://example.com/a/b"},
	}
	for _, p := range pairs {
		if Key(p[0]) == Key(p[1]) {
			t.Errorf("Key(%q) == Key(%q) = %q; want different", p[0], p[1], Key(p[0]))
		}
	}
}

func TestKeyExact(t *testing.T) {
	tests := map[string]string{
		"https://www.Example.com/Docs/?b=1&utm_x=2&a=%2f#top": "example.com/Docs?a=%2F&b=1",
		"not a url":                   "not a url",
		"  https://example.com  ":     "example.com/",
		"http://[2001:DB8::1]:80/x":   "[2001:db8::1]/x",
		"https://example.com/a;b?x=1": "example.com/a;b?x=1",
		"mailto:a@b.com":              "mailto:a@b.com",
	}
	for in, want := range tests {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeyURL(t *testing.T) {
	for _, raw := range []string{"https://www.example.com/a/?utm_source=x", "http://EXAMPLE.com:80/a", "/relative/path", "mailto:a@b.com"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := KeyURL(u), Key(raw); got != want {
			t.Errorf("KeyURL(%q) = %q, Key = %q", raw, got, want)
		}
	}
}

func TestIsTrackingParam(t *testing.T) {
	for _, n := range []string{"utm_source", "UTM_MEDIUM", "gclid", "fbclid", "msclkid", "mc_cid", "mc_eid"} {
		if !IsTrackingParam(n) {
			t.Errorf("IsTrackingParam(%q) = false", n)
		}
	}
	for _, n := range []string{"ref", "source", "id", "q", "utm"} {
		if IsTrackingParam(n) {
			t.Errorf("IsTrackingParam(%q) = true", n)
		}
	}
}

func FuzzKey(f *testing.F) {
	for _, s := range []string{"https://www.example.com/a/../b/?utm_source=x&b=1&a=2#f", "http://[::1]:80/", "https://bücher.example/%7e", "x", "https://a.com/%zz?%=&&", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		k := Key(u)
		if Key(u) != k {
			t.Fatalf("Key(%q) is not deterministic", u)
		}
		// http and https must always give the same key.
		if rest, ok := strings.CutPrefix(u, "https://"); ok && k != strings.TrimSpace(u) {
			if k2 := Key("http://" + rest); k2 != k {
				t.Fatalf("Key(%q) = %q but the http variant gives %q", u, k, k2)
			}
		}
		// A fragment never reaches the key of a parsed URL.
		if p, err := url.Parse(strings.TrimSpace(u)); err == nil && p.Host != "" && p.Opaque == "" && p.Fragment != "" && strings.Contains(k, "#"+p.EscapedFragment()) && !strings.Contains(p.EscapedPath()+p.RawQuery, "#") {
			t.Fatalf("Key(%q) = %q keeps the fragment", u, k)
		}
	})
}

// FuzzCleanPath: the shortcut for already-clean paths gives exactly what
// splitting and joining gives.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"", "/", "//", "/a", "/a/", "/a//b", "/./a", "/a/..", "/a/.b/..c", "a/b", "/%2e/", "/a/b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, ok := cleanAlready(p)
		if !ok {
			return
		}
		if want := cleanSegments(p); got != want {
			t.Fatalf("cleanAlready(%q) = %q, want %q", p, got, want)
		}
	})
}
