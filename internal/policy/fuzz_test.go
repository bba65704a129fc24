package policy

import (
	"strings"
	"testing"
)

// FuzzMerge: whatever a request asks, the merged rules never let through
// a URL the key's own rules refuse, and never let through a URL the
// request's own rules refuse.
func FuzzMerge(f *testing.F) {
	f.Add("go.dev,example.com/docs", "", "tip.go.dev,example.com/docs/api", "", "https://tip.go.dev/x")
	f.Add("", "spam.example", "", "ads.example", "https://ads.example/")
	f.Add("", "example.com/private", "example.com", "", "https://example.com/private/x")
	f.Add("example.com/docs", "", "example.com/docs*", "", "https://example.com/docsx")
	f.Fuzz(func(t *testing.T, keyAllow, keyBlock, reqAllow, reqBlock, rawURL string) {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, ",")
		}
		key, err := NewDomains(split(keyAllow), split(keyBlock))
		if err != nil {
			return
		}
		eff, err := key.Merge(split(reqAllow), split(reqBlock))
		if err != nil {
			return
		}
		if !eff.Permits(rawURL) {
			return
		}
		own, _ := key.Merge(nil, nil)
		if !own.Permits(rawURL) {
			t.Fatalf("key allow %q block %q, request allow %q block %q: %q passes the merge but not the key's rules", keyAllow, keyBlock, reqAllow, reqBlock, rawURL)
		}
		req, err := NewDomains(split(reqAllow), split(reqBlock))
		if err != nil {
			t.Fatalf("merge accepted request rules that do not parse: %v", err)
		}
		reqOnly, _ := req.Merge(nil, nil)
		if !reqOnly.Permits(rawURL) {
			t.Fatalf("request allow %q block %q: %q passes the merge but not the request's own rules", reqAllow, reqBlock, rawURL)
		}
	})
}
