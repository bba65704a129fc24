package config

import (
	"strings"
	"testing"
	"time"
)

func TestUpstreamDefaultsAndValidation(t *testing.T) {
	u := Upstream{}.WithDefaults()
	if err := u.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	if !u.WebSearch.FastPathEnabled() || !u.WebSearch.EnrichEnabled() || u.WebSearch.EnrichTimeout != 2*time.Second || u.MaxBodyBytes != 32<<20 {
		t.Errorf("defaults: %+v", u)
	}
	off := false
	u.WebSearch.Enrich = &off
	if u.WebSearch.EnrichEnabled() {
		t.Error("enrich: false not honoured")
	}
	key := "k1:" + strings.Repeat("A", 43) + "="
	tests := []struct {
		name string
		edit func(u *Upstream)
		want string // substring of the error; "" means valid
	}{
		{"seal key ok", func(u *Upstream) { u.SealKeys = []string{key} }, ""},
		{"seal key malformed", func(u *Upstream) { u.SealKeys = []string{"nope"} }, "upstream.seal_keys[0]"},
		{"seal key duplicate id", func(u *Upstream) { u.SealKeys = []string{key, key} }, "used twice"},
		{"enrich pages", func(u *Upstream) { u.WebSearch.EnrichPages = 11 }, "upstream.web_search.enrich_pages"},
		{"max results", func(u *Upstream) { u.WebSearch.MaxResults = -1 }, "upstream.web_search.max_results"},
		{"body limit", func(u *Upstream) { u.MaxBodyBytes = 10 }, "upstream.max_body_bytes"},
		{"base url", func(u *Upstream) { u.BaseURL = "api.anthropic.com" }, "upstream.base_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := Upstream{}.WithDefaults()
			tt.edit(&u)
			err := u.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := Parse(strings.NewReader("upstream:\n  web_search:\n    enrich: false\n    enrich_pages: 5\n"), func(string) (string, bool) { return "", false }); err != nil {
		t.Fatalf("yaml keys: %v", err)
	}
}
