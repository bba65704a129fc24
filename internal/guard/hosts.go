package guard

import "strings"

// builtinInternal are suffixes reserved or conventional for private
// networks; no public site lives under them. ".local" (multicast DNS) is
// not among them: its names are device defaults such as printer.local
// that say nothing about a network, and people search for them often.
var builtinInternal = []string{"internal", "corp", "lan", "intranet", "home.arpa"}

// genericInternal are internal names that are the same everywhere (Docker,
// Kubernetes, cloud metadata) and reveal nothing about anyone's network;
// people search for them to read documentation.
var genericInternal = []string{"host.docker.internal", "gateway.docker.internal", "kubernetes.docker.internal",
	"metadata.google.internal", "localhost.localdomain", "cluster.local"}

// internalHosts finds host names under the configured and builtin
// internal suffixes: runs of letters, digits, '-' and '.' with at least
// two labels and a top-level label starting with a letter.
func (d *Detector) internalHosts(text string) []Finding {
	var out []Finding
	for i := 0; i < len(text); {
		if !isHostByte(text[i]) {
			i++
			continue
		}
		s, e := i, i
		for e < len(text) && isHostByte(text[e]) {
			e++
		}
		i = e
		if text[s] == '.' || s > 0 && text[s-1] == '_' || e < len(text) && text[e] == '_' {
			// ".env.local" is a file name; a run glued to '_' is an
			// identifier.
			continue
		}
		for e > s && (text[e-1] == '.' || text[e-1] == '-') {
			e-- // the full stop ending a sentence
		}
		if !hostShaped(text[s:e]) {
			continue
		}
		h := text[s:e]
		if underAny(h, genericInternal) {
			continue
		}
		if underAny(h, d.internal) {
			out = append(out, Finding{Rule: "internal_host", Desc: "an internal host name", Start: s, End: e})
		}
	}
	return out
}

// underAny reports whether host is one of suffixes (lower case) or below
// one, ignoring ASCII case, with at least one label of its own for the
// builtin one-label suffixes.
func underAny(host string, suffixes []string) bool {
	for _, suf := range suffixes {
		n := len(host) - len(suf)
		if n < 0 || !strings.EqualFold(host[n:], suf) {
			continue
		}
		if n > 0 && host[n-1] == '.' || n == 0 && strings.Contains(suf, ".") {
			return true
		}
	}
	return false
}

func isHostByte(b byte) bool { return isAlnum(b) || b == '-' || b == '.' }

// hostShaped reports whether h has two or more non-empty labels of at
// most 63 bytes, none starting or ending with '-', and a top-level label
// starting with a letter.
func hostShaped(h string) bool {
	if len(h) > 253 || strings.IndexByte(h, '.') < 0 {
		return false
	}
	tld := byte(0)
	for rest := h; ; {
		l, more, found := strings.Cut(rest, ".")
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		if !found {
			tld = l[0]
			break
		}
		rest = more
	}
	return tld >= 'a' && tld <= 'z' || tld >= 'A' && tld <= 'Z'
}
