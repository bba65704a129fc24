package guard

import (
	"regexp"
	"strings"
)

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

var hostRe = regexp.MustCompile(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?\b`)

// internalHosts finds host names under the configured and builtin
// internal suffixes.
func (d *Detector) internalHosts(text string) []Finding {
	var out []Finding
	for _, loc := range hostRe.FindAllStringIndex(text, -1) {
		s, e := loc[0], loc[1]
		if s > 0 && text[s-1] == '.' || e < len(text) && text[e] == '.' && e+1 < len(text) && isAlnum(text[e+1]) {
			// ".env.local" is a file name; a match cut short by the
			// regexp's label rules is not a whole host.
			continue
		}
		h := strings.ToLower(text[s:e])
		if underAny(h, genericInternal) {
			continue
		}
		if underAny(h, d.internal) {
			out = append(out, Finding{Rule: "internal_host", Desc: "an internal host name", Start: s, End: e})
		}
	}
	return out
}

// underAny reports whether host is one of suffixes or below one, with at
// least one label of its own for the builtin one-label suffixes.
func underAny(host string, suffixes []string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(host, "."+suf) || host == suf && strings.Contains(suf, ".") {
			return true
		}
	}
	return false
}
