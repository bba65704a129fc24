package fetch

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"code.dny.dev/ssrf"
	"golang.org/x/net/idna"
)

// guardian is the network policy shared by the early URL check and the
// dialer. Any port is allowed: public sites on 8080 or 8443 are common, and
// the address check is what keeps internal services out of reach.
var guardian = ssrf.New(ssrf.WithAnyPort())

// checkURL parses raw and enforces everything that can be decided without
// the network: length, scheme, host syntax, credentials and, for IP-literal
// hosts, the address policy. It returns the URL normalised for fetching and
// caching (lower-case scheme and host, RFC 3986 section 6.2.2.1,
// https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.1; canonical IPv4;
// no fragment, which is never sent to the server).
//
// The dialer re-checks every address it connects to, so this is a fast,
// clear-message first line, not the guard itself: a hostname that resolves
// to a private address is only caught at connect time.
func checkURL(raw string, maxLen int, allowPrivate bool) (*url.URL, error) {
	return checkURLWith(raw, maxLen, allowPrivate, nil)
}

// checkURLWith is checkURL where allow, when set, admits an IP-literal
// host and port the address policy would refuse (Options.AllowAddr).
func checkURLWith(raw string, maxLen int, allowPrivate bool, allow func(netip.AddrPort) bool) (*url.URL, error) {
	if len(raw) > maxLen {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrURLTooLong, len(raw), maxLen)
	}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidURL, strings.TrimPrefix(unwrapURLError(err).Error(), "parse "))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		if u.Scheme == "" {
			return nil, fmt.Errorf("%w: %q is not absolute (want http:// or https://)", ErrInvalidURL, truncateForMessage(raw))
		}
		return nil, fmt.Errorf("%w: scheme %q is not allowed (only http and https)", ErrInvalidURL, u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, fmt.Errorf("%w: %q has no host", ErrInvalidURL, truncateForMessage(raw))
	}
	// Credentials in a URL written by a model are either a mistake or an
	// attempt to make us send them somewhere; neither should be honoured.
	if u.User != nil {
		return nil, fmt.Errorf("%w: credentials in the url are not allowed", ErrInvalidURL)
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if host == "" {
		return nil, fmt.Errorf("%w: %q has no host", ErrInvalidURL, truncateForMessage(raw))
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%w: bad port %q", ErrInvalidURL, port)
		}
	}
	var ip netip.Addr
	if strings.Contains(host, ":") {
		// IPv6 literal (url.Hostname strips the brackets). Zones name a
		// local interface and have no meaning for a web fetch.
		a, err := netip.ParseAddr(host)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%w: bad IPv6 host %q", ErrInvalidURL, host)
		}
		ip = a
	} else {
		host = strings.TrimSuffix(host, ".")
		if host == "" {
			return nil, fmt.Errorf("%w: %q has no host", ErrInvalidURL, truncateForMessage(raw))
		}
		a, isIP, err := parseIPv4Host(host)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidURL, err)
		}
		if isIP {
			ip = a
			host = a.String()
		} else if host, err = asciiHost(host); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidURL, err)
		} else if !validHostname(host) {
			return nil, fmt.Errorf("%w: bad host name %q", ErrInvalidURL, truncateForMessage(host))
		}
	}
	if ip.IsValid() {
		if !allowPrivate && allow != nil {
			n, _ := strconv.Atoi(port)
			if port == "" {
				n = map[string]int{"http": 80, "https": 443}[u.Scheme]
			}
			allowPrivate = allow(netip.AddrPortFrom(ip, uint16(n)))
		}
		if !allowPrivate {
			if err := guardian.SafeAddr(ip); err != nil {
				return nil, fmt.Errorf("%w: %s is not a public address (set fetch.allow_private_networks to reach it)", ErrBlockedAddress, ip)
			}
		}
		if ip.Is6() {
			host = "[" + ip.String() + "]"
		}
	}
	if port != "" {
		// Drop default ports so http://a:80/ and http://a/ share a cache
		// entry and a robots.txt.
		if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
			port = ""
		}
	}
	u.Host = host
	if port != "" {
		u.Host = host + ":" + port
	}
	u.Fragment = ""
	u.RawFragment = ""
	if u.Path == "" {
		u.Path = "/"
		u.RawPath = ""
	}
	if s := u.String(); len(s) > maxLen {
		return nil, fmt.Errorf("%w: %d bytes after normalisation, the limit is %d", ErrURLTooLong, len(s), maxLen)
	}
	return u, nil
}

// parseIPv4Host applies the WHATWG URL host parser's IPv4 rules
// (https://url.spec.whatwg.org/#concept-ipv4-parser), which
// browsers and C resolvers (inet_aton) share: a host whose last label is a
// number is an IPv4 address in decimal, octal (leading 0) or hex (0x) parts,
// so http://2130706433/, http://0177.1/ and http://0x7f.1/ all mean
// 127.0.0.1. Go's net.ParseIP rejects these forms and would hand them to
// DNS, where some resolvers turn them into addresses anyway; resolving them
// here gives one canonical meaning and a clear policy decision.
func parseIPv4Host(host string) (netip.Addr, bool, error) {
	parts := strings.Split(host, ".")
	last := parts[len(parts)-1]
	if !isNumericLabel(last) {
		return netip.Addr{}, false, nil
	}
	if len(parts) > 4 {
		return netip.Addr{}, false, fmt.Errorf("bad IPv4 host %q", truncateForMessage(host))
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := parseIPv4Part(p)
		if err != nil {
			return netip.Addr{}, false, fmt.Errorf("bad IPv4 host %q", truncateForMessage(host))
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false, fmt.Errorf("bad IPv4 host %q", truncateForMessage(host))
		}
	}
	lastMax := uint64(1) << (8 * (5 - len(nums)))
	if nums[len(nums)-1] >= lastMax {
		return netip.Addr{}, false, fmt.Errorf("bad IPv4 host %q", truncateForMessage(host))
	}
	v := nums[len(nums)-1]
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// isNumericLabel reports whether the WHATWG "ends in a number" rule
// (https://url.spec.whatwg.org/#ends-in-a-number-checker) applies to the
// label.
func isNumericLabel(s string) bool {
	if s == "" {
		return false
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		for _, c := range s[2:] {
			if !isHex(c) {
				return false
			}
		}
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func parseIPv4Part(s string) (uint64, error) {
	if s == "" {
		return 0, fmt.Errorf("empty part")
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	// 32 bits is the most any part may hold; ParseUint's bit size rejects
	// absurdly long digit strings without overflow.
	return strconv.ParseUint(s, base, 32)
}

func isHex(c rune) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// asciiHost converts an internationalised host name to its IDNA (punycode)
// form (UTS #46 processing, https://www.unicode.org/reports/tr46/), so the
// cache key, robots.txt origin and request Host are one canonical spelling.
func asciiHost(h string) (string, error) {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			a, err := idna.Lookup.ToASCII(h)
			if err != nil {
				return "", fmt.Errorf("bad host name %q", truncateForMessage(h))
			}
			return a, nil
		}
	}
	return h, nil
}

// validHostname accepts ASCII DNS names (including IDNA "xn--" labels and
// underscores, which exist in the wild) and rejects characters that have no
// place in a host and only serve to confuse parsers downstream.
func validHostname(h string) bool {
	if len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			default:
				return false
			}
		}
	}
	return true
}

// rewriteURL maps code-hosting "blob" pages to their raw files, which are
// the document the agent wants, without the site chrome around it.
func rewriteURL(u *url.URL) *url.URL {
	switch {
	case u.Hostname() == "github.com" || u.Hostname() == "www.github.com":
		// /owner/repo/blob/ref/path...
		parts := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 5)
		if len(parts) == 5 && parts[2] == "blob" && parts[0] != "" && parts[1] != "" && parts[3] != "" && parts[4] != "" {
			r := *u
			r.Host = "raw.githubusercontent.com"
			if p := u.Port(); p != "" {
				r.Host += ":" + p
			}
			r.Path = "/" + parts[0] + "/" + parts[1] + "/" + parts[3] + "/" + parts[4]
			r.RawPath = ""
			r.RawQuery = ""
			return &r
		}
	case strings.Contains(u.Path, "/-/blob/"):
		// GitLab, hosted or self-managed: /group/project/-/blob/ref/path.
		r := *u
		r.Path = strings.Replace(u.Path, "/-/blob/", "/-/raw/", 1)
		r.RawPath = ""
		r.RawQuery = ""
		return &r
	}
	return u
}

func truncateForMessage(s string) string {
	const limit = 120
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// redactedURL is a URL for messages and logs: query strings can carry
// tokens, so they are elided.
func redactedURL(u *url.URL) string {
	c := *u
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	return truncateForMessage(c.String())
}
