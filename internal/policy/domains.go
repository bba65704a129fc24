package policy

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/webgate/webgate/internal/domains"
)

// Domains are a key's domain rules, which play the part of Anthropic's
// organization-level domain settings: requests must be compatible with
// them and can only narrow them. Concretely, for a request's own
// allowed_domains (A_r) and blocked_domains (B_r):
//
//	key rules          request        effective
//	none               anything       the request's rules
//	allow A_k          none           allow A_k
//	allow A_k          allow A_r      allow A_r; every entry of A_r must lie inside A_k, else ErrDomain
//	allow A_k          block B_r      allow A_k, then drop B_r
//	block B_k          none           block B_k
//	block B_k          block B_r      block B_k ∪ B_r
//	block B_k          allow A_r      allow A_r, then drop B_k; an entry of A_r that lies wholly inside B_k is ErrDomain
//
// An entry lies inside a rule when its host is the rule's host or a
// subdomain of it and, if the rule has a path, its path is under the
// rule's path.
type Domains struct {
	f *domains.Filter
}

// NewDomains parses a key's allowed or blocked list (not both).
func NewDomains(allowed, blocked []string) (Domains, error) {
	f, err := domains.Parse(allowed, blocked)
	if err != nil {
		return Domains{}, err
	}
	return Domains{f: f}, nil
}

// Mode reports whether the key's rules allow, block or do nothing.
func (d Domains) Mode() domains.Mode { return d.f.Mode() }

// Effective is the outcome of merging a request's domain rules into a
// key's: results and fetches must pass both filters. Either may be nil.
type Effective struct {
	Allow *domains.Filter
	Block *domains.Filter
}

// Permits reports whether rawURL passes both filters.
func (e Effective) Permits(rawURL string) bool {
	return e.Allow.Allow(rawURL) && e.Block.Allow(rawURL)
}

// PermitsURL is Permits for a parsed URL.
func (e Effective) PermitsURL(u *url.URL) bool {
	return e.Allow.AllowURL(u) && e.Block.AllowURL(u)
}

// IsZero reports whether nothing is filtered.
func (e Effective) IsZero() bool { return e.Allow == nil && e.Block == nil }

// Merge combines the request's allowed and blocked lists with the key's
// rules, as the table on Domains says. Malformed request entries return
// the domains package's error (ErrInvalidRule, ErrConflict); a request
// that would widen the key's rules returns a *Denial wrapping ErrDomain.
func (d Domains) Merge(reqAllowed, reqBlocked []string) (Effective, error) {
	req, err := domains.Parse(reqAllowed, reqBlocked)
	if err != nil {
		return Effective{}, err
	}
	switch d.f.Mode() {
	case domains.ModeNone:
		return single(req), nil
	case domains.ModeAllow:
		switch req.Mode() {
		case domains.ModeNone:
			return Effective{Allow: d.f}, nil
		case domains.ModeBlock:
			return Effective{Allow: d.f, Block: req}, nil
		}
		var outside []string
		for _, r := range req.Rules() {
			if !insideAny(r, d.f.Rules()) {
				outside = append(outside, r.String())
			}
		}
		if len(outside) > 0 {
			return Effective{}, deny(ErrDomain, "allowed_domains %s: outside the domains this API key may use (%s); a request can narrow its key's allowed domains but not widen them",
				strings.Join(outside, ", "), strings.Join(d.f.Strings(), ", "))
		}
		return Effective{Allow: req}, nil
	}
	// The key blocks.
	switch req.Mode() {
	case domains.ModeNone:
		return Effective{Block: d.f}, nil
	case domains.ModeBlock:
		union, err := domains.Parse(nil, append(d.f.Strings(), req.Strings()...))
		if err != nil {
			// Both lists parsed on their own and together stay under
			// MaxRules twice over; this is a programming error.
			return Effective{}, fmt.Errorf("merge blocked domains: %w", err)
		}
		return Effective{Block: union}, nil
	}
	var blocked []string
	for _, r := range req.Rules() {
		if insideAny(r, d.f.Rules()) {
			blocked = append(blocked, r.String())
		}
	}
	if len(blocked) > 0 {
		return Effective{}, deny(ErrDomain, "allowed_domains %s: blocked for this API key", strings.Join(blocked, ", "))
	}
	return Effective{Allow: req, Block: d.f}, nil
}

func single(f *domains.Filter) Effective {
	switch f.Mode() {
	case domains.ModeAllow:
		return Effective{Allow: f}
	case domains.ModeBlock:
		return Effective{Block: f}
	}
	return Effective{}
}

// insideAny reports whether every URL r can match is also matched by one
// of rules.
func insideAny(r domains.Rule, rules []domains.Rule) bool {
	for _, o := range rules {
		if !o.MatchHost(r.Host) {
			continue
		}
		if o.Path == "" {
			return true
		}
		// A rule without a path covers the whole host, which a path rule
		// does not; a wildcard in r could reach outside o's path.
		if r.Path != "" && !strings.Contains(r.Path, "*") && o.MatchPath(r.Path) {
			return true
		}
	}
	return false
}
