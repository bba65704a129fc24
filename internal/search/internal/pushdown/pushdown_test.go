package pushdown

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
)

func TestHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"example.com", "example.com"},
		{"Example.COM.", "example.com"},
		{"example.com/blog/2024", "example.com"},
		{"https://docs.example.com:8443/x?y=z", "docs.example.com"},
		{"*.example.com", "example.com"},
		{"*.*.example.com/path", "example.com"},
		{".example.com", "example.com"},
		{"user@example.com", "example.com"},
		{"example.*", ""},
		{"*", ""},
		{"", ""},
		{"   ", ""},
		{"localhost", "localhost"},
		{"intranet", ""},
		{"exa mple.com", ""},
	}
	for _, tc := range tests {
		if got := Host(tc.in); got != tc.want {
			t.Errorf("Host(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHostsDedupes(t *testing.T) {
	got := Hosts([]string{"a.com/x", "A.com", "*", "b.org", "*.a.com", "b.org/y"})
	if diff := cmp.Diff([]string{"a.com", "b.org"}, got); diff != "" {
		t.Errorf("Hosts mismatch (-want +got):\n%s", diff)
	}
}

func TestSiteQuery(t *testing.T) {
	tests := []struct {
		name             string
		text             string
		allowed, blocked []string
		want             string
	}{
		{name: "none", text: " golang ", want: "golang"},
		{name: "one allowed", text: "q", allowed: []string{"go.dev/blog"}, want: "q site:go.dev"},
		{name: "several allowed", text: "q", allowed: []string{"a.com", "b.com", "c.com"}, want: "q (site:a.com OR site:b.com OR site:c.com)"},
		{name: "blocked", text: "q", blocked: []string{"a.com", "*.b.com"}, want: "q -site:a.com -site:b.com"},
		{name: "only wildcards", text: "q", allowed: []string{"*", "x.*"}, want: "q"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SiteQuery(tc.text, tc.allowed, tc.blocked); got != tc.want {
				t.Errorf("SiteQuery = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	tests := []struct{ max, def, limit, want int }{
		{0, 10, 20, 10},
		{-3, 10, 20, 10},
		{5, 10, 20, 5},
		{50, 10, 20, 20},
		{0, 10, 5, 5},
	}
	for _, tc := range tests {
		if got := Count(search.Query{MaxResults: tc.max}, tc.def, tc.limit); got != tc.want {
			t.Errorf("Count(%d, def %d, limit %d) = %d, want %d", tc.max, tc.def, tc.limit, got, tc.want)
		}
	}
}

func TestLangAndCountry(t *testing.T) {
	for in, want := range map[string]string{"pt-BR": "pt", "EN": "en", "zh_Hant_TW": "zh", "": "", " de ": "de"} {
		if got := Lang(in); got != want {
			t.Errorf("Lang(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"us": "US", " De ": "DE", "USA": "", "": ""} {
		if got := Country(search.Query{Location: search.Location{Country: in}}); got != want {
			t.Errorf("Country(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckText(t *testing.T) {
	if err := CheckText("p", search.Query{Text: "ok"}); err != nil {
		t.Errorf("CheckText(ok) = %v", err)
	}
	if err := CheckText("p", search.Query{Text: " \t"}); !errors.Is(err, search.ErrInvalidQuery) {
		t.Errorf("CheckText(blank) = %v, want ErrInvalidQuery", err)
	}
}
