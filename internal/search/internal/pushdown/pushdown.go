// Package pushdown translates the provider-neutral parts of a search.Query
// (domain rules, language, result count) into the forms search APIs accept.
//
// Push-down is an optimisation: the Engine filters every result against the
// domain rules afterwards, so these helpers may widen (never narrow) what a
// provider is asked for. That is why a path such as example.com/blog is
// pushed down as the host example.com when a provider only understands
// hosts, and why wildcard labels are dropped rather than guessed at.
package pushdown

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/webgate/webgate/internal/search"
)

// CheckText rejects a query with no text before any request is made.
func CheckText(provider string, q search.Query) error {
	if strings.TrimSpace(q.Text) == "" {
		return &search.ProviderError{Provider: provider, Kind: search.ErrInvalidQuery, Err: fmt.Errorf("empty query")}
	}
	return nil
}

// Count returns how many results to ask for: q.MaxResults, or def when it
// is unset, clamped to [1, limit].
func Count(q search.Query, def, limit int) int {
	n := q.MaxResults
	if n <= 0 {
		n = def
	}
	return min(max(n, 1), limit)
}

// Host reduces a domain rule to the bare host a search operator or a
// domain filter accepts: scheme, path, query, port and userinfo go, and so
// do leading wildcard labels ("*.example.com" → "example.com"). It returns
// "" when nothing usable is left (e.g. "example.*" or "*").
func Host(rule string) string {
	s := strings.TrimSpace(strings.ToLower(rule))
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	h := strings.TrimSuffix(u.Hostname(), ".")
	for strings.HasPrefix(h, "*.") {
		h = h[2:]
	}
	h = strings.TrimPrefix(h, ".")
	if h == "" || strings.Contains(h, "*") || !strings.Contains(h, ".") && h != "localhost" {
		return ""
	}
	return h
}

// Hosts maps Host over rules, dropping empties and duplicates, in order.
func Hosts(rules []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rules {
		if h := Host(r); h != "" && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// SiteQuery appends site: operators for allowed hosts and -site: operators
// for blocked hosts to text. Several allowed hosts are OR-ed in
// parentheses, the syntax Google, Bing (and so DuckDuckGo), Brave and the
// SERP APIs share.
func SiteQuery(text string, allowed, blocked []string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(text))
	switch a := Hosts(allowed); len(a) {
	case 0:
	case 1:
		b.WriteString(" site:" + a[0])
	default:
		b.WriteString(" (")
		for i, h := range a {
			if i > 0 {
				b.WriteString(" OR ")
			}
			b.WriteString("site:" + h)
		}
		b.WriteString(")")
	}
	for _, h := range Hosts(blocked) {
		b.WriteString(" -site:" + h)
	}
	return b.String()
}

// Lang returns the primary language subtag of a BCP 47 tag, lowercased
// ("pt-BR" → "pt"), or "" when tag is empty.
func Lang(tag string) string {
	p, _, _ := strings.Cut(strings.TrimSpace(tag), "-")
	p, _, _ = strings.Cut(p, "_")
	return strings.ToLower(p)
}

// Country returns the ISO 3166-1 alpha-2 code of q in upper case, or "".
func Country(q search.Query) string {
	c := strings.ToUpper(strings.TrimSpace(q.Location.Country))
	if len(c) != 2 {
		return ""
	}
	return c
}
