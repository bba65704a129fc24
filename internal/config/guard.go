package config

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/webgate/webgate/internal/domains"
)

// Guard configures the query guard (secrets must not leave in search
// queries or fetched URLs) and the content guard (fetched pages are
// untrusted input for a model).
type Guard struct {
	// Query configures the secret detector run on every search query and
	// fetch URL before it leaves webgate.
	Query QueryGuard `yaml:"query"`
	// Content configures what webgate removes from and adds to fetched
	// content before a model reads it.
	Content ContentGuard `yaml:"content"`
}

// QueryGuard configures secret detection on outgoing queries and URLs.
type QueryGuard struct {
	// Mode is what happens when a search query looks like it contains a
	// secret (a vendor API key, a JWT, a private key, a long random token
	// or an internal host name): "block" (the default) refuses the search
	// with an error that names the kind of secret found, never the secret;
	// "redact" replaces each secret with [REDACTED] and searches for the
	// rest; "off" disables the check. A fetch URL containing a secret is
	// refused in both block and redact mode, because a redacted URL would
	// be a different page.
	Mode string `yaml:"mode"`
	// InternalHosts are domain names that must never appear in a query or
	// a fetched URL, such as corp.example.com or internal.example.net.
	// Each covers its subdomains. Host names ending in .internal, .corp,
	// .lan, .intranet and .home.arpa are always treated as internal.
	InternalHosts []string `yaml:"internal_hosts"`
	// HighEntropy turns on the generic rule that treats long random-looking
	// tokens (24 or more characters mixing letters and digits with high
	// character entropy) as secrets, on top of the vendor-specific rules.
	// The default is true. UUIDs, hexadecimal hashes such as git commit ids
	// and ordinary words are never matched by it.
	HighEntropy *bool `yaml:"high_entropy"`
	// Allow lists regular expressions (Go RE2 syntax) for text that must
	// never count as a secret, for example a public test key your team
	// searches for. A finding is dropped when an Allow pattern matches the
	// whole finding.
	Allow []string `yaml:"allow"`
}

// HighEntropyEnabled reports whether the generic high-entropy rule is on.
func (q QueryGuard) HighEntropyEnabled() bool { return q.HighEntropy == nil || *q.HighEntropy }

// ContentGuard configures the treatment of fetched content.
type ContentGuard struct {
	// StripHidden removes what a reader of the page would never see before
	// extraction: HTML comments, elements hidden with the hidden attribute,
	// aria-hidden or inline styles (display:none, visibility:hidden,
	// zero opacity or size, off-screen positioning, clipping), and
	// invisible Unicode (zero-width and bidirectional control characters,
	// tag characters, variation-selector runs) from extracted text,
	// titles and search snippets. Panels the page discloses with a control
	// beside them (tabs, accordion sections, FAQ answers) stay, as every
	// reader can open them. The default is true.
	StripHidden *bool `yaml:"strip_hidden"`
	// MarkUntrusted wraps fetched page content, in what the MCP tools and
	// the Anthropic-compatible endpoint return to a model, between
	// boundary lines carrying a random nonce, with a note that the text is
	// untrusted data and not instructions. The default is true.
	MarkUntrusted *bool `yaml:"mark_untrusted"`
	// FlagInjection looks for passages that read like instructions to an
	// AI model ("ignore previous instructions", fake system or assistant
	// turns, requests to send data to a URL) and lists them in the fetch
	// result's "injection" metadata and in the MCP tool output. Nothing is
	// removed. The default is true.
	FlagInjection *bool `yaml:"flag_injection"`
}

// StripHiddenEnabled reports whether hidden content is removed.
func (c ContentGuard) StripHiddenEnabled() bool { return c.StripHidden == nil || *c.StripHidden }

// MarkUntrustedEnabled reports whether fetched content is marked untrusted.
func (c ContentGuard) MarkUntrustedEnabled() bool { return c.MarkUntrusted == nil || *c.MarkUntrusted }

// FlagInjectionEnabled reports whether likely prompt injections are flagged.
func (c ContentGuard) FlagInjectionEnabled() bool { return c.FlagInjection == nil || *c.FlagInjection }

func (g *Guard) applyDefaults() {
	if g.Query.Mode == "" {
		g.Query.Mode = "block"
	}
}

func (g *Guard) validate() []error {
	var errs []error
	switch g.Query.Mode {
	case "block", "redact", "off":
	default:
		errs = append(errs, fmt.Errorf("guard.query.mode: %q must be one of block, redact, off", g.Query.Mode))
	}
	for i, h := range g.Query.InternalHosts {
		if _, err := domains.NormalizeHost(strings.TrimPrefix(strings.TrimSpace(h), "*.")); err != nil || strings.ContainsAny(h, "/:@ ") {
			errs = append(errs, fmt.Errorf("guard.query.internal_hosts[%d]: %q must be a domain name such as corp.example.com", i, h))
		}
	}
	for i, p := range g.Query.Allow {
		if _, err := regexp.Compile(p); err != nil {
			errs = append(errs, fmt.Errorf("guard.query.allow[%d]: %w", i, err))
		}
	}
	return errs
}
