// Package urlnorm reduces URLs to a key that is equal for URLs that almost
// certainly name the same page, so search results from several providers
// (or one provider's near-duplicates) can be de-duplicated.
//
// Key is deliberately a little aggressive, because a wrongly merged pair of
// results costs less than the same page listed twice:
//
//   - http and https are the same page, and so are "www.example.com" and
//     "example.com".
//   - Scheme and host are case-insensitive; hosts are IDNA-normalised to
//     ASCII and lose a trailing dot; default ports (80, 443) are dropped.
//   - Userinfo and the fragment are dropped.
//   - Percent-encoding is canonical: escapes of unreserved characters are
//     decoded ("%7E" → "~") and other escapes use upper-case hex.
//   - Dot segments are resolved and a trailing slash is ignored, so
//     "/docs/", "/docs" and "/a/../docs" are one page; an empty path is "/".
//   - Query parameters are sorted, empty ones dropped, and well-known
//     tracking parameters removed: every utm_* parameter and gclid, dclid,
//     gbraid, wbraid, fbclid, msclkid, mc_cid, mc_eid, yclid, igshid, twclid,
//     ttclid, li_fat_id, srsltid, _ga, _gl, _hsenc, _hsmi, mkt_tok, vero_id,
//     oly_anon_id, oly_enc_id, rb_clickid and ref_src. Parameters such as
//     "ref", "source" or "id" are kept: sites use them for content (GitHub's
//     ?ref=branch selects what the page shows).
//
// The key is for comparison only; it is not a URL to fetch.
package urlnorm

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/idna"
)

// trackingParams are removed from query strings (compared in lower case).
var trackingParams = map[string]bool{
	"gclid": true, "dclid": true, "gbraid": true, "wbraid": true,
	"fbclid": true, "msclkid": true, "mc_cid": true, "mc_eid": true,
	"yclid": true, "igshid": true, "twclid": true, "ttclid": true,
	"li_fat_id": true, "srsltid": true, "_ga": true, "_gl": true,
	"_hsenc": true, "_hsmi": true, "mkt_tok": true, "vero_id": true,
	"oly_anon_id": true, "oly_enc_id": true, "rb_clickid": true,
	"ref_src": true,
}

// IsTrackingParam reports whether the query parameter name is one Key
// strips.
func IsTrackingParam(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "utm_") || trackingParams[n]
}

// Key returns the de-duplication key of rawURL. Input that does not parse as
// an absolute URL with a host is returned trimmed, so it still compares
// equal to itself.
func Key(rawURL string) string {
	s := strings.TrimSpace(rawURL)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return s
	}
	return KeyURL(u)
}

// KeyURL is Key for an already parsed URL. A URL without a host (relative
// or opaque) is keyed by its String form.
func KeyURL(u *url.URL) string {
	if u.Host == "" || u.Opaque != "" {
		return u.String()
	}
	scheme := strings.ToLower(u.Scheme)
	var b strings.Builder
	b.Grow(len(u.Host) + len(u.Path) + len(u.RawQuery) + 2)
	if scheme != "http" && scheme != "https" {
		b.WriteString(scheme)
		b.WriteString("://")
	}
	b.WriteString(host(u))
	b.WriteString(cleanPath(canonicalEscapes(u.EscapedPath())))
	if q := query(u.RawQuery); q != "" {
		b.WriteByte('?')
		b.WriteString(q)
	}
	return b.String()
}

func host(u *url.URL) string {
	h := strings.TrimSuffix(u.Hostname(), ".")
	if plainASCII(h) {
		// IDNA lookup of letters, digits and hyphens is just lower-casing;
		// skipping it matters because Key runs for every result.
		h = strings.ToLower(h)
	} else if a, err := idna.Lookup.ToASCII(h); err == nil {
		h = a
	} else {
		h = strings.ToLower(h)
	}
	h = strings.TrimPrefix(h, "www.")
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if p := u.Port(); p != "" && p != "80" && p != "443" {
		h += ":" + p
	}
	return h
}

// plainASCII reports whether h holds only ASCII letters, digits, hyphens
// and dots and no punycode label (which IDNA must validate).
func plainASCII(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
		if (c == 'x' || c == 'X') && i+3 < len(h) && (h[i+1]|0x20) == 'n' && h[i+2] == '-' && h[i+3] == '-' && (i == 0 || h[i-1] == '.') {
			return false
		}
	}
	return true
}

// cleanPath resolves "." and ".." segments (RFC 3986, section 5.2.4) and
// drops a trailing slash; the result always starts with "/".
func cleanPath(p string) string {
	if clean, ok := cleanAlready(p); ok {
		return clean
	}
	return cleanSegments(p)
}

// cleanSegments is cleanPath the long way: split, drop, resolve, join.
func cleanSegments(p string) string {
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for _, s := range segs {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// cleanAlready returns cleanPath(p) without splitting and joining when p
// has no empty, "." or ".." segment (bar one trailing slash), as almost
// every result URL's path has: the key is built for every result of every
// search.
func cleanAlready(p string) (string, bool) {
	if p == "" || p == "/" {
		return "/", true
	}
	if p[0] != '/' {
		return "", false
	}
	q := strings.TrimSuffix(p, "/")
	for rest := q[1:]; ; {
		seg, tail, more := strings.Cut(rest, "/")
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
		if !more {
			return q, true
		}
		rest = tail
	}
}

// query drops empty and tracking parameters and sorts the rest, keeping each
// pair's own encoding (canonicalised).
func query(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.FieldsFunc(raw, func(r rune) bool { return r == '&' || r == ';' })
	kept := parts[:0]
	for _, p := range parts {
		name, _, _ := strings.Cut(p, "=")
		if name == "" {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil && IsTrackingParam(n) {
			continue
		}
		kept = append(kept, canonicalEscapes(p))
	}
	slices.Sort(kept)
	return strings.Join(kept, "&")
}

const upperHex = "0123456789ABCDEF"

// canonicalEscapes decodes escapes of unreserved characters and upper-cases
// the hex digits of the others. Malformed escapes are left alone.
func canonicalEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b.WriteByte(c)
			continue
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		if isUnreserved(v) {
			b.WriteByte(v)
		} else {
			b.WriteByte('%')
			b.WriteByte(upperHex[v>>4])
			b.WriteByte(upperHex[v&15])
		}
		i += 2
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
