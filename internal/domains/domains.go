// Package domains implements allowed/blocked domain rules with the
// semantics of Anthropic's web search tool (allowed_domains and
// blocked_domains of web_search_20250305):
//
//   - An entry is a domain with no scheme: "example.com", never
//     "https://example.com".
//   - A domain covers its subdomains: "example.com" matches
//     "docs.example.com" but not "notexample.com". A subdomain entry such as
//     "docs.example.com" covers only that subdomain (and its own subdomains).
//   - An entry may carry a path, "example.com/blog", which restricts it to
//     that path prefix. The prefix ends on a segment boundary, so "/blog"
//     matches "/blog" and "/blog/post" but not "/blogger"; one "*" in the
//     path matches any run of characters ("example.com/blog*" does match
//     "/blogger", "example.com/*/docs" matches "/v1/docs/intro").
//   - "*" is never allowed in the host: "*.example.com" is rejected because
//     "example.com" already covers every subdomain.
//   - A request gives allowed domains or blocked domains, never both.
//
// webgate adds strictness where Anthropic's documentation is silent, always
// failing closed:
//
//   - Hosts are IDNA-normalised with the lookup profile of
//     golang.org/x/net/idna, on rules and on result URLs alike, and compared
//     in their ASCII (punycode) form. A look-alike such as "exаmple.com" with
//     a Cyrillic "а" therefore becomes "xn--exmple-4nf.com" and never matches
//     the ASCII rule "example.com". Hosts are case-insensitive and one
//     trailing dot is ignored ("example.com." is "example.com").
//   - Ports, userinfo ("user@host"), query strings, fragments, IPv6 literals,
//     empty labels and whitespace inside an entry are rejected: they have no
//     meaning for a domain rule and usually signal a mistake. Leading and
//     trailing whitespace around an entry is trimmed.
//   - IPv4 literals are accepted and match only themselves (no "subdomain"
//     of an address exists).
//   - A result URL that is not absolute http(s), or whose host cannot be
//     normalised, is never allowed, under either list.
package domains

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Sentinel errors. Every error Parse returns wraps one of them.
var (
	// ErrInvalidRule means one entry is malformed; the *RuleError says which
	// and why.
	ErrInvalidRule = errors.New("invalid domain rule")
	// ErrConflict means both allowed and blocked domains were given.
	ErrConflict = errors.New("allowed_domains and blocked_domains cannot be used together")
)

// MaxRules bounds how many entries one list may hold, so a hostile request
// cannot make every result check walk an enormous list.
const MaxRules = 1000

// maxEntryLen bounds a single entry (a 253-byte host plus a generous path).
const maxEntryLen = 2048

// RuleError describes one rejected entry.
type RuleError struct {
	// List is "allowed_domains" or "blocked_domains".
	List string
	// Index is the entry's position in its list.
	Index int
	// Entry is the entry as given.
	Entry string
	// Reason says what is wrong, in words meant for the caller.
	Reason string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("%s[%d] %q: %s", e.List, e.Index, e.Entry, e.Reason)
}

// Unwrap makes errors.Is(err, ErrInvalidRule) true.
func (e *RuleError) Unwrap() error { return ErrInvalidRule }

// Mode says how a Filter treats its rules.
type Mode int

// Modes.
const (
	// ModeNone has no rules: everything is allowed.
	ModeNone Mode = iota
	// ModeAllow keeps only URLs matching a rule.
	ModeAllow
	// ModeBlock drops URLs matching a rule.
	ModeBlock
)

func (m Mode) String() string {
	switch m {
	case ModeAllow:
		return "allow"
	case ModeBlock:
		return "block"
	}
	return "none"
}

// Rule is one parsed entry.
type Rule struct {
	// Host is the ASCII (punycode), lower-case host with no trailing dot.
	Host string
	// Path is "" (the whole host) or a decoded path beginning with "/",
	// possibly containing one "*".
	Path string
	ip   bool
}

// String renders the canonical entry, e.g. "xn--bcher-kva.example/blog".
func (r Rule) String() string { return r.Host + r.Path }

// MatchHost reports whether host (already normalised) is r.Host or one of
// its subdomains. IP rules match only the same address.
func (r Rule) MatchHost(host string) bool {
	if host == r.Host {
		return true
	}
	if r.ip || numericTLD(host) {
		// Addresses have no subdomains: "0.2.1" must not cover 192.0.2.1.
		return false
	}
	return len(host) > len(r.Host) && strings.HasSuffix(host, r.Host) && host[len(host)-len(r.Host)-1] == '.'
}

// numericTLD reports whether the last label of host is all digits, which
// no real top-level domain is, so host is an IPv4 address (in some form).
func numericTLD(host string) bool {
	i := strings.LastIndexByte(host, '.')
	last := host[i+1:]
	if last == "" {
		return false
	}
	for j := 0; j < len(last); j++ {
		if last[j] < '0' || last[j] > '9' {
			return false
		}
	}
	return true
}

// MatchPath reports whether the cleaned, decoded URL path p satisfies r.Path.
func (r Rule) MatchPath(p string) bool {
	if r.Path == "" {
		return true
	}
	before, after, wild := strings.Cut(r.Path, "*")
	if !wild {
		return prefixOnBoundary(p, r.Path)
	}
	if !strings.HasPrefix(p, before) {
		return false
	}
	rest := p[len(before):]
	if after == "" {
		return true
	}
	// "*" may swallow any run of characters, so try every place where the
	// remainder of the pattern could start.
	for i := 0; i <= len(rest); {
		j := strings.Index(rest[i:], after)
		if j < 0 {
			return false
		}
		if prefixOnBoundary(rest[i+j:], after) {
			return true
		}
		i += j + 1
	}
	return false
}

// prefixOnBoundary reports whether p starts with prefix and the prefix ends
// at a path-segment boundary, so "/blog" covers "/blog/x" but not
// "/blogger". A prefix ending in "/" is a boundary by itself.
func prefixOnBoundary(p, prefix string) bool {
	if !strings.HasPrefix(p, prefix) {
		return false
	}
	if len(p) == len(prefix) || strings.HasSuffix(prefix, "/") {
		return true
	}
	return p[len(prefix)] == '/'
}

// Filter applies one list of rules. The zero value and a nil *Filter allow
// everything.
type Filter struct {
	mode  Mode
	rules []Rule
}

// Parse builds a Filter from Anthropic-style allowed and blocked lists. Both
// empty yields a nil Filter, which allows everything. Errors wrap
// ErrInvalidRule (as a *RuleError) or ErrConflict; several bad entries are
// reported together.
func Parse(allowed, blocked []string) (*Filter, error) {
	switch {
	case len(allowed) > 0 && len(blocked) > 0:
		return nil, ErrConflict
	case len(allowed) > 0:
		return parseList("allowed_domains", ModeAllow, allowed)
	case len(blocked) > 0:
		return parseList("blocked_domains", ModeBlock, blocked)
	}
	return nil, nil
}

func parseList(list string, mode Mode, entries []string) (*Filter, error) {
	if len(entries) > MaxRules {
		return nil, fmt.Errorf("%s: %d entries exceed the limit of %d: %w", list, len(entries), MaxRules, ErrInvalidRule)
	}
	f := &Filter{mode: mode, rules: make([]Rule, 0, len(entries))}
	var errs []error
	seen := make(map[string]bool, len(entries))
	for i, entry := range entries {
		r, reason := ParseRule(entry)
		if reason != "" {
			errs = append(errs, &RuleError{List: list, Index: i, Entry: entry, Reason: reason})
			continue
		}
		if k := r.String(); !seen[k] {
			seen[k] = true
			f.rules = append(f.rules, r)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return f, nil
}

// ParseRule parses one entry. It returns the rule, or a non-empty reason
// explaining why the entry is rejected.
func ParseRule(entry string) (Rule, string) {
	s := strings.TrimSpace(entry)
	switch {
	case s == "":
		return Rule{}, "is empty"
	case len(s) > maxEntryLen:
		return Rule{}, fmt.Sprintf("is longer than %d bytes", maxEntryLen)
	case !utf8.ValidString(s):
		return Rule{}, "is not valid UTF-8"
	case strings.Contains(s, "://"):
		return Rule{}, "must not include a scheme: write example.com, not https://example.com"
	case strings.HasPrefix(s, "/"):
		return Rule{}, "must start with a domain, e.g. example.com or example.com/blog"
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return Rule{}, "must not contain whitespace or control characters"
		}
	}
	if strings.ContainsAny(s, "?#") {
		return Rule{}, "must not contain a query string or fragment; use a domain with an optional path"
	}
	host, p, hasPath := strings.Cut(s, "/")
	if strings.Contains(host, "*") {
		return Rule{}, "wildcards are only allowed in the path; a domain already covers all of its subdomains, so write example.com instead of *.example.com"
	}
	if strings.Contains(host, "@") {
		return Rule{}, "must not contain userinfo (user@host)"
	}
	if strings.HasPrefix(host, "[") || strings.Count(host, ":") > 1 {
		return Rule{}, "IPv6 literals are not supported"
	}
	if strings.Contains(host, ":") {
		return Rule{}, "must not contain a port; a domain rule covers every port"
	}
	h, err := NormalizeHost(host)
	if err != nil {
		return Rule{}, err.Error()
	}
	r := Rule{Host: h}
	if addr, err := netip.ParseAddr(h); err == nil && addr.Is4() {
		r.ip = true
	}
	if hasPath {
		rp, reason := parsePath("/" + p)
		if reason != "" {
			return Rule{}, reason
		}
		r.Path = rp
	}
	return r, ""
}

func parsePath(p string) (string, string) {
	dec, err := url.PathUnescape(p)
	if err != nil {
		return "", "has an invalid percent-encoding in its path"
	}
	// Counted after decoding: "%2A" is a "*" once decoded, and the matcher
	// sees decoded paths.
	if strings.Count(dec, "*") > 1 {
		return "", "may contain at most one * wildcard"
	}
	dec = cleanPath(dec)
	if dec == "/" {
		// "example.com/" is the whole site.
		return "", ""
	}
	return dec, ""
}

// cleanPath resolves dot segments and duplicate slashes, keeping a trailing
// slash, so "/a/../b/" and "/b/" compare equal. Rules and URLs go through the
// same cleaning, which is what stops "/blog/../admin" from passing as
// "/blog".
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	c := path.Clean(p)
	if c != "/" && strings.HasSuffix(p, "/") {
		c += "/"
	}
	return c
}

// NormalizeHost returns the canonical form of a host name: IDNA lookup
// mapping to ASCII punycode, lower case, one trailing dot removed. It
// rejects empty labels, labels over 63 bytes and names over 253 bytes.
func NormalizeHost(host string) (string, error) {
	h := strings.TrimSuffix(host, ".")
	if h == "" {
		return "", errors.New("has an empty host")
	}
	if isPlainASCIIHost(h) {
		// Fast path for the common case; still needs the label checks below.
		h = strings.ToLower(h)
	} else {
		a, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return "", fmt.Errorf("is not a valid domain name: %v", err)
		}
		h = a
	}
	if len(h) > 253 {
		return "", errors.New("has a host longer than 253 bytes")
	}
	for label := range strings.SplitSeq(h, ".") {
		switch {
		case label == "":
			return "", errors.New("has an empty label (two dots in a row, or a leading dot)")
		case len(label) > 63:
			return "", errors.New("has a label longer than 63 bytes")
		case label[0] == '-' || label[len(label)-1] == '-':
			return "", errors.New("has a label that starts or ends with a hyphen")
		}
	}
	return h, nil
}

// isPlainASCIIHost reports whether h has only letters, digits, hyphens and
// dots, for which IDNA lookup is a plain lower-casing, except for labels
// that are already punycode: those go through IDNA so it can validate them.
func isPlainASCIIHost(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	for i := 0; i+3 < len(h); i++ {
		if (h[i]|0x20) == 'x' && (h[i+1]|0x20) == 'n' && h[i+2] == '-' && h[i+3] == '-' && (i == 0 || h[i-1] == '.') {
			return false
		}
	}
	return true
}

// Mode reports whether f allows, blocks or does nothing.
func (f *Filter) Mode() Mode {
	if f == nil {
		return ModeNone
	}
	return f.mode
}

// Rules returns a copy of the parsed rules, de-duplicated, in input order.
func (f *Filter) Rules() []Rule {
	if f == nil {
		return nil
	}
	return append([]Rule(nil), f.rules...)
}

// Strings returns the canonical entries (see Rule.String), in input order.
// Passing them on to providers gives them ASCII hosts they can push down.
func (f *Filter) Strings() []string {
	if f == nil {
		return nil
	}
	out := make([]string, len(f.rules))
	for i, r := range f.rules {
		out[i] = r.String()
	}
	return out
}

// Hosts returns the distinct hosts of the rules (paths dropped), in input
// order, for providers that can push a host filter down.
func (f *Filter) Hosts() []string {
	if f == nil {
		return nil
	}
	out := make([]string, 0, len(f.rules))
	for _, r := range f.rules {
		dup := false
		for _, h := range out {
			if h == r.Host {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, r.Host)
		}
	}
	return out
}

// Allow reports whether a result URL passes the filter. A nil Filter allows
// every URL without looking at it. Otherwise the URL must be absolute http
// or https with a host that normalises; in allow mode it must match a rule
// (host and path), in block mode it must match none.
func (f *Filter) Allow(rawURL string) bool {
	if f == nil || f.mode == ModeNone {
		return true
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return false
	}
	return f.AllowURL(u)
}

// AllowURL is Allow for an already parsed URL, for callers that parse
// anyway.
func (f *Filter) AllowURL(u *url.URL) bool {
	if f == nil || f.mode == ModeNone {
		return true
	}
	host, p, ok := splitParsed(u)
	if !ok {
		return false
	}
	matched := false
	for _, r := range f.rules {
		if r.MatchHost(host) && r.MatchPath(p) {
			matched = true
			break
		}
	}
	if f.mode == ModeAllow {
		return matched
	}
	return !matched
}

// MatchDomain reports whether host (a bare host name, optionally with a
// port) is covered by the domain of any rule, ignoring rule paths. It is
// false for a nil Filter and for hosts that do not normalise.
func (f *Filter) MatchDomain(host string) bool {
	if f == nil {
		return false
	}
	h, ok := hostOnly(host)
	if !ok {
		return false
	}
	for _, r := range f.rules {
		if r.MatchHost(h) {
			return true
		}
	}
	return false
}

// AllowDomain is the domain-only decision used where "domain rules match on
// the domain only" (web fetch): in allow mode the host must be covered by a
// rule, in block mode it must be covered by none. Rule paths are ignored,
// which fails closed: a blocked "example.com/private" blocks all of
// example.com here. A nil Filter allows every host.
func (f *Filter) AllowDomain(host string) bool {
	switch f.Mode() {
	case ModeAllow:
		return f.MatchDomain(host)
	case ModeBlock:
		if _, ok := hostOnly(host); !ok {
			return false
		}
		return !f.MatchDomain(host)
	}
	return true
}

// hostOnly normalises a bare host, accepting and dropping a port and IPv6
// brackets.
func hostOnly(host string) (string, bool) {
	if host == "" {
		return "", false
	}
	u := url.URL{Host: host}
	h := u.Hostname()
	if h == "" {
		return "", false
	}
	return normalizeURLHost(h)
}

// splitURL extracts the normalised host and the cleaned, decoded path from
// an absolute http(s) URL.
func splitURL(rawURL string) (host, p string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", "", false
	}
	return splitParsed(u)
}

func splitParsed(u *url.URL) (host, p string, ok bool) {
	if u == nil || u.Host == "" || u.Opaque != "" {
		return "", "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return "", "", false
	}
	host, ok = normalizeURLHost(u.Hostname())
	if !ok {
		return "", "", false
	}
	return host, cleanPath(u.Path), true
}

// normalizeURLHost normalises a host taken from a result URL. IPv6
// addresses are kept as is (no rule can name one). Hosts that fail strict
// IDNA validation only because of characters such as "_", which appear in
// real host names, fall back to lower-casing as long as they are plain
// ASCII; anything else fails closed.
func normalizeURLHost(h string) (string, bool) {
	if strings.Contains(h, ":") {
		if _, err := netip.ParseAddr(h); err != nil {
			return "", false
		}
		return strings.ToLower(h), true
	}
	n, err := NormalizeHost(h)
	if err == nil {
		return n, true
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" || strings.Contains(h, "..") {
		return "", false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c >= utf8.RuneSelf || !(c == '_' || c == '-' || c == '.' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))) {
			return "", false
		}
	}
	return strings.ToLower(h), true
}
