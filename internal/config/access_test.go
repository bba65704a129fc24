package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const hashA = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
const hashB = "sha256:60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"

// TestAccessSections checks the auth, guard and audit sections: defaults,
// a full valid file, and one clear error per mistake.
func TestAccessSections(t *testing.T) {
	c, err := Parse(strings.NewReader(""), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.AuthEnabled() || c.Guard.Query.Mode != "block" || !c.Guard.Query.HighEntropyEnabled() ||
		!c.Guard.Content.StripHiddenEnabled() || !c.Guard.Content.MarkUntrustedEnabled() || !c.Guard.Content.FlagInjectionEnabled() {
		t.Errorf("unsafe guard or auth defaults: auth=%v guard=%+v", c.AuthEnabled(), c.Guard)
	}
	want := Audit{Queries: "redact", QueueSize: 4096, Recent: 1000, File: AuditFile{MaxSizeMB: 100, MaxBackups: 10}}
	if diff := cmp.Diff(want, c.Audit); diff != "" {
		t.Errorf("audit defaults (-want +got):\n%s", diff)
	}

	c, err = Parse(strings.NewReader(`
auth:
  keys:
    - {id: ci-bot, hash: "`+hashA+`", policy: ci}
    - {id: alice, hash: "`+strings.ToUpper(hashB[7:])+`"}
  policies:
    ci:
      tools: [search]
      surfaces: [api, mcp]
      allowed_domains: [go.dev, pkg.go.dev/std]
      rate_limit: {requests: 60}
      daily_searches: 500
guard:
  query: {mode: redact, internal_hosts: [corp.example.com], high_entropy: false, allow: ["^AKIAIOSFODNN7EXAMPLE$"]}
  content: {strip_hidden: false}
audit:
  file: {path: /var/log/webgate/audit.jsonl, max_backups: -1, compress: true}
  queries: hash
`), env(nil))
	if err == nil {
		t.Fatal("a hash without the sha256: prefix was accepted")
	}
	if !strings.Contains(err.Error(), `auth.keys[1].hash: must start with "sha256:"`) {
		t.Errorf("error = %v", err)
	}

	// The whole value is case-insensitive, as hex digests often are.
	c, err = Parse(strings.NewReader(`
auth:
  keys:
    - {id: ci-bot, hash: "`+hashA+`", policy: ci}
    - {id: alice, hash: "`+strings.ToUpper(hashB)+`"}
  policies:
    ci:
      tools: [search]
      surfaces: [api, mcp]
      allowed_domains: [go.dev, pkg.go.dev/std]
      rate_limit: {requests: 60}
      daily_searches: 500
guard:
  query: {mode: redact, internal_hosts: [corp.example.com], high_entropy: false, allow: ["^AKIAIOSFODNN7EXAMPLE$"]}
  content: {strip_hidden: false}
audit:
  file: {path: /var/log/webgate/audit.jsonl, max_backups: -1, compress: true}
  queries: hash
`), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Guard.Query.Mode != "redact" || c.Guard.Query.HighEntropyEnabled() || c.Guard.Content.StripHiddenEnabled() || !c.Guard.Content.MarkUntrustedEnabled() {
		t.Errorf("guard = %+v", c.Guard)
	}
	if c.Audit.Queries != "hash" || c.Audit.File.MaxBackups != -1 || !c.Audit.File.Compress || c.Audit.File.MaxSizeMB != 100 {
		t.Errorf("audit = %+v", c.Audit)
	}
	if !c.AuthEnabled() {
		t.Error("keys configured but AuthEnabled is false")
	}
	p, name, ok := c.Auth.PolicyFor(c.Auth.Keys[0])
	if !ok || name != "ci" || p.RateLimit.Per != time.Minute {
		t.Errorf("PolicyFor(ci-bot) = %+v %q %v; want ci with the 1m default window", p, name, ok)
	}
	if _, _, ok := c.Auth.PolicyFor(c.Auth.Keys[1]); ok {
		t.Error("a key without policy and no default policy must be unrestricted")
	}
	if d, err := ParseKeyHash(c.Auth.Keys[1].Hash); err != nil || d[0] != 0x60 {
		t.Errorf("ParseKeyHash = %x, %v", d, err)
	}

	bad := []struct{ yaml, want string }{
		{`auth: {keys: [{id: "a b", hash: "` + hashA + `"}]}`, `auth.keys[0].id: "a b" must be`},
		{`auth: {keys: [{id: a, hash: "` + hashA + `"}, {id: a, hash: "` + hashB + `"}]}`, `auth.keys[1].id: "a" is already the id of auth.keys[0]`},
		{`auth: {keys: [{id: a, hash: "` + hashA + `"}, {id: b, hash: "` + hashA + `"}]}`, `auth.keys[1].hash: same key as auth.keys[0]`},
		{`auth: {keys: [{id: a, hash: "sha256:abc"}]}`, `auth.keys[0].hash: must be sha256: followed by 64 hexadecimal digits`},
		{`auth: {keys: [{id: a, hash: "` + hashA + `", policy: nope}]}`, `auth.keys[0].policy: "nope" is not defined under auth.policies (defined: none)`},
		{`auth: {policies: {p: {tools: [browse]}}}`, `auth.policies.p.tools[0]: "browse" must be one of search, fetch`},
		{`auth: {policies: {p: {surfaces: [cli]}}}`, `auth.policies.p.surfaces[0]: "cli" must be one of api, mcp, messages, console`},
		{`auth: {policies: {p: {allowed_domains: [a.com], blocked_domains: [b.com]}}}`, `auth.policies.p: allowed_domains and blocked_domains cannot be used together`},
		{`auth: {policies: {p: {blocked_domains: ["https://b.com"]}}}`, `must not include a scheme`},
		{`auth: {policies: {p: {rate_limit: {requests: 5, per: 10ms}}}}`, `auth.policies.p.rate_limit.per: 10ms must be between 1s and 24h`},
		{`auth: {policies: {p: {rate_limit: {requests: -1}}}}`, `auth.policies.p.rate_limit.requests: -1 must not be negative`},
		{`auth: {policies: {p: {daily_searches: -5}}}`, `auth.policies.p.daily_searches: -5 must not be negative`},
		{`guard: {query: {mode: warn}}`, `guard.query.mode: "warn" must be one of block, redact, off`},
		{`guard: {query: {internal_hosts: ["https://corp.example.com"]}}`, `guard.query.internal_hosts[0]: "https://corp.example.com" must be a domain name`},
		{`guard: {query: {allow: ["("]}}`, `guard.query.allow[0]: error parsing regexp`},
		{`audit: {queries: everything}`, `audit.queries: "everything" must be one of redact, full, hash, omit`},
		{`audit: {queue_size: -1}`, `audit.queue_size: -1 must be between 1 and 1048576`},
		{`audit: {file: {max_backups: -2}}`, `audit.file.max_backups: -2 must be -1 (keep all) or more`},
		{`audit: {file: {max_age_days: -2}}`, `audit.file.max_age_days: -2 must not be negative`},
		{`server: {auth_tokens: [short]}`, `server.auth_tokens[0]: must be at least 16 characters (better: move to auth.keys`},
	}
	for _, tt := range bad {
		_, err := Parse(strings.NewReader(tt.yaml), env(nil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s\n  error = %v\n  want it to contain %q", tt.yaml, err, tt.want)
		}
	}
}
