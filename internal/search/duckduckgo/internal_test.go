package duckduckgo

import "testing"

func TestDestination(t *testing.T) {
	tests := []struct {
		href   string
		want   string
		wantOK bool
	}{
		{href: "//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2Fdoc%2F&rut=abc", want: "https://go.dev/doc/", wantOK: true},
		{href: "https://duckduckgo.com/l/?uddg=http%3A%2F%2Fexample.com%2Fa%3Fb%3Dc%26d%3De&rut=abc", want: "http://example.com/a?b=c&d=e", wantOK: true},
		{href: "/l/?uddg=https%3A%2F%2Fexample.org%2F", want: "https://example.org/", wantOK: true},
		{href: "https://example.net/page#frag", want: "https://example.net/page#frag", wantOK: true},
		{href: "https://duckduckgo.com/y.js?ad_domain=x.example&u3=https%3A%2F%2Fbing.com", wantOK: false},
		{href: "//duckduckgo.com/l/?rut=abc", wantOK: false},
		{href: "//duckduckgo.com/l/?uddg=javascript%3Aalert(1)", wantOK: false},
		{href: "//duckduckgo.com/l/?uddg=%2Frelative", wantOK: false},
		{href: "https://duckduckgo.com/?q=more", wantOK: false},
		{href: "mailto:a@b.c", wantOK: false},
		{href: "", wantOK: false},
	}
	for _, tc := range tests {
		got, ok := destination(tc.href)
		if ok != tc.wantOK || got != tc.want {
			t.Errorf("destination(%q) = %q, %v; want %q, %v", tc.href, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestRegion(t *testing.T) {
	tests := []struct{ country, lang, want string }{
		{"US", "", "us-en"},
		{"US", "es", "ue-es"},
		{"GB", "en", "uk-en"},
		{"CH", "it", "ch-it"},
		{"CH", "rm", "ch-de"},
		{"JP", "ja", "jp-jp"},
		{"", "en", ""},
		{"AQ", "en", ""},
	}
	for _, tc := range tests {
		if got := region(tc.country, tc.lang); got != tc.want {
			t.Errorf("region(%q, %q) = %q, want %q", tc.country, tc.lang, got, tc.want)
		}
	}
}
