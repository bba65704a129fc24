package config

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/domains"
)

// Auth configures gateway API keys and the policy attached to each.
//
// When at least one key is configured (or the older server.auth_tokens is
// set), every request to the JSON API, MCP over HTTP and the Anthropic
// Messages endpoint of `webgate serve` must carry a key, as
// "Authorization: Bearer <key>" or "x-api-key: <key>". Only hashes of the
// keys are stored here; `webgate keys new --id NAME` generates a key and
// prints the entry to paste.
type Auth struct {
	// Keys are the accepted gateway API keys. Each has an id, which names
	// it in audit records and logs, the SHA-256 hash of the secret, and
	// optionally the name of a policy. Example:
	// [{id: ci-bot, hash: "sha256:9f86d0...", policy: ci}].
	Keys []Key `yaml:"keys"`
	// Policies are named policies, shared by the keys that name them. A
	// policy called "default" applies to every key that names none; keys
	// without a policy when there is no "default" may use everything.
	Policies map[string]Policy `yaml:"policies"`
}

// Key is one gateway API key.
type Key struct {
	// ID names the key in audit records, logs and metrics. It is not a
	// secret. It must be 1 to 64 letters, digits, '.', '_' or '-', and
	// unique.
	ID string `yaml:"id"`
	// Hash is "sha256:" followed by the 64 hexadecimal digits of the
	// SHA-256 digest of the key. The key itself is never stored. Generate
	// a key with `webgate keys new --id NAME`, or hash an existing one with
	// `webgate keys hash` (reads the key on standard input).
	Hash string `yaml:"hash"`
	// Policy names an entry of auth.policies. When empty, the "default"
	// policy applies if there is one; otherwise the key is unrestricted.
	Policy string `yaml:"policy"`
	// Disabled keeps the entry (and its id in old audit records) but
	// refuses the key, which is how a key is revoked without losing track
	// of it.
	Disabled bool `yaml:"disabled"`
}

// Policy is what a key may do.
type Policy struct {
	// Tools lists the tools the key may use: "search" and "fetch". Empty
	// allows both.
	Tools []string `yaml:"tools"`
	// Surfaces lists where the key may be used: "api" (the JSON API),
	// "mcp" (MCP over HTTP), "messages" (the Anthropic-compatible
	// /v1/messages) and "console" (the web console). Empty allows all.
	Surfaces []string `yaml:"surfaces"`
	// AllowedDomains, when set, limits the key's searches to results on
	// these domains and its fetches to these domains, with the same entry
	// syntax as Anthropic's allowed_domains ("example.com" covers its
	// subdomains; "example.com/docs" limits the path). It acts like
	// Anthropic's organization-level setting: a request may narrow it with
	// its own allowed_domains (each entry must lie inside this list) or
	// drop more with blocked_domains, but never widen it. It cannot be
	// combined with BlockedDomains.
	AllowedDomains []string `yaml:"allowed_domains"`
	// BlockedDomains drops search results on these domains and refuses
	// fetches of them, whatever the request asks. A request's own
	// blocked_domains are added to it; a request's allowed_domains entry
	// that lies entirely inside a blocked domain is refused.
	BlockedDomains []string `yaml:"blocked_domains"`
	// RateLimit caps the key's searches and page fetches per time window.
	// Every search and every fetched URL counts once.
	RateLimit RateLimit `yaml:"rate_limit"`
	// DailySearches caps the key's searches per UTC day; 0 (the default)
	// means no cap. A refused search answers with the time left until
	// midnight UTC as Retry-After.
	DailySearches int `yaml:"daily_searches"`
}

// RateLimit is a number of operations per fixed time window.
type RateLimit struct {
	// Requests is how many searches and fetches the window admits; 0 (the
	// default) means no limit.
	Requests int `yaml:"requests"`
	// Per is the window length, aligned to the clock (a 1m window resets
	// at the start of each minute). The default is 1m; it must be at least
	// 1s and at most 24h.
	Per time.Duration `yaml:"per"`
}

// Tools and surfaces a policy can name.
var (
	PolicyTools    = []string{"search", "fetch"}
	PolicySurfaces = []string{"api", "mcp", "messages", "console"}
)

// HashPrefix starts every auth.keys[].hash value.
const HashPrefix = "sha256:"

var keyIDRe = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// AuthEnabled reports whether any credential (a key or a legacy token) is
// configured, that is whether `webgate serve` requires authentication.
func (c *Config) AuthEnabled() bool {
	return len(c.Auth.Keys) > 0 || len(c.Server.AuthTokens) > 0
}

// PolicyFor returns the policy that applies to k and its name ("" for an
// unrestricted key). Validate guarantees that named policies exist.
func (a *Auth) PolicyFor(k Key) (Policy, string, bool) {
	name := k.Policy
	if name == "" {
		name = "default"
	}
	p, ok := a.Policies[name]
	if !ok {
		return Policy{}, "", false
	}
	return p, name, true
}

func (a *Auth) applyDefaults() {
	for name, p := range a.Policies {
		if p.RateLimit.Requests > 0 && p.RateLimit.Per == 0 {
			p.RateLimit.Per = time.Minute
			a.Policies[name] = p
		}
	}
}

func (a *Auth) validate() []error {
	var errs []error
	ids := map[string]int{}
	hashes := map[string]int{}
	for i, k := range a.Keys {
		at := fmt.Sprintf("auth.keys[%d]", i)
		if !keyIDRe.MatchString(k.ID) {
			errs = append(errs, fmt.Errorf("%s.id: %q must be 1 to 64 letters, digits, '.', '_' or '-'", at, k.ID))
		} else if j, dup := ids[k.ID]; dup {
			errs = append(errs, fmt.Errorf("%s.id: %q is already the id of auth.keys[%d]", at, k.ID, j))
		} else {
			ids[k.ID] = i
		}
		if _, err := ParseKeyHash(k.Hash); err != nil {
			errs = append(errs, fmt.Errorf("%s.hash: %w", at, err))
		} else if j, dup := hashes[strings.ToLower(k.Hash)]; dup {
			errs = append(errs, fmt.Errorf("%s.hash: same key as auth.keys[%d]; every key must be distinct", at, j))
		} else {
			hashes[strings.ToLower(k.Hash)] = i
		}
		if k.Policy != "" {
			if _, ok := a.Policies[k.Policy]; !ok {
				errs = append(errs, fmt.Errorf("%s.policy: %q is not defined under auth.policies (defined: %s)", at, k.Policy, policyNames(a.Policies)))
			}
		}
	}
	names := make([]string, 0, len(a.Policies))
	for n := range a.Policies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		errs = append(errs, a.Policies[name].validate("auth.policies."+name)...)
	}
	return errs
}

func (p Policy) validate(at string) []error {
	var errs []error
	for i, t := range p.Tools {
		if !slices.Contains(PolicyTools, t) {
			errs = append(errs, fmt.Errorf("%s.tools[%d]: %q must be one of %s", at, i, t, strings.Join(PolicyTools, ", ")))
		}
	}
	for i, s := range p.Surfaces {
		if !slices.Contains(PolicySurfaces, s) {
			errs = append(errs, fmt.Errorf("%s.surfaces[%d]: %q must be one of %s", at, i, s, strings.Join(PolicySurfaces, ", ")))
		}
	}
	if _, err := domains.Parse(p.AllowedDomains, p.BlockedDomains); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", at, err))
	}
	if p.RateLimit.Requests < 0 {
		errs = append(errs, fmt.Errorf("%s.rate_limit.requests: %d must not be negative", at, p.RateLimit.Requests))
	}
	if p.RateLimit.Requests > 0 && (p.RateLimit.Per < time.Second || p.RateLimit.Per > 24*time.Hour) {
		errs = append(errs, fmt.Errorf("%s.rate_limit.per: %s must be between 1s and 24h", at, p.RateLimit.Per))
	}
	if p.DailySearches < 0 {
		errs = append(errs, fmt.Errorf("%s.daily_searches: %d must not be negative", at, p.DailySearches))
	}
	return errs
}

// ParseKeyHash decodes an auth.keys[].hash value.
func ParseKeyHash(s string) ([32]byte, error) {
	var d [32]byte
	rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(s)), HashPrefix)
	if !ok {
		return d, fmt.Errorf("must start with %q (generate an entry with: webgate keys new --id NAME)", HashPrefix)
	}
	b, err := hex.DecodeString(rest)
	if err != nil || len(b) != len(d) {
		return d, fmt.Errorf("must be %s followed by 64 hexadecimal digits", HashPrefix)
	}
	copy(d[:], b)
	return d, nil
}

func policyNames(m map[string]Policy) string {
	if len(m) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
