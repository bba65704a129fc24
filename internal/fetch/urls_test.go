package fetch

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckURL(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // normalised URL when err is nil
		wantErr error
	}{
		{"plain", "https://example.com/a?b=c", "https://example.com/a?b=c", nil},
		{"adds path", "http://example.com", "http://example.com/", nil},
		{"lower-cases scheme and host", "HTTPS://Example.COM/Path", "https://example.com/Path", nil},
		{"drops fragment", "https://example.com/a#frag", "https://example.com/a", nil},
		{"drops default port", "https://example.com:443/", "https://example.com/", nil},
		{"keeps other port", "http://example.com:8080/", "http://example.com:8080/", nil},
		{"trailing dot", "https://example.com./x", "https://example.com/x", nil},
		{"public ipv4", "http://93.184.215.14/", "http://93.184.215.14/", nil},
		{"public decimal ipv4 canonicalised", "http://1572394766/", "http://93.184.215.14/", nil},
		{"public ipv6", "http://[2606:4700::1]/", "http://[2606:4700::1]/", nil},
		{"unicode host", "https://bücher.example/", "https://xn--bcher-kva.example/", nil},
		{"surrounding space", "  https://example.com/  ", "https://example.com/", nil},

		{"empty", "", "", ErrInvalidURL},
		{"relative", "/just/a/path", "", ErrInvalidURL},
		{"no scheme", "example.com/page", "", ErrInvalidURL},
		{"ftp", "ftp://example.com/file", "", ErrInvalidURL},
		{"file", "file:///etc/passwd", "", ErrInvalidURL},
		{"javascript", "javascript:alert(1)", "", ErrInvalidURL},
		{"gopher", "gopher://example.com:70/", "", ErrInvalidURL},
		{"no host", "http:///path", "", ErrInvalidURL},
		{"credentials", "https://user:pass@example.com/", "", ErrInvalidURL},
		{"bad port", "http://example.com:99999/", "", ErrInvalidURL},
		{"control char", "http://exa\x00mple.com/", "", ErrInvalidURL},
		{"bad host chars", "http://exa$mple.com/", "", ErrInvalidURL},
		{"bad numeric host", "http://1.2.3.4.5/", "", ErrInvalidURL},
		{"numeric part overflow", "http://256.1.1.1/", "", ErrInvalidURL},
		{"ipv6 zone", "http://[fe80::1%25eth0]/", "", ErrInvalidURL},
		{"too long", "https://example.com/" + strings.Repeat("a", 9000), "", ErrURLTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := checkURL(tt.in, 8192, false)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("checkURL(%q) error = %v, want %v", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("checkURL(%q) error = %v", tt.in, err)
			}
			if got.String() != tt.want {
				t.Errorf("checkURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestCheckURLBlocksNonPublic is the SSRF table for IP-literal hosts,
// including the numeric forms Go's parsers do not recognise.
func TestCheckURLBlocksNonPublic(t *testing.T) {
	hosts := []string{
		"127.0.0.1", "127.1.2.3", "0.0.0.0",
		"10.0.0.1", "10.255.255.255",
		"172.16.0.1", "172.31.255.254",
		"192.168.0.1", "192.168.255.255",
		"169.254.169.254", "169.254.0.1",
		"100.64.0.1", "100.127.255.254",
		"224.0.0.1", "255.255.255.255",
		"[::1]", "[::]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]",
		"[::ffff:127.0.0.1]", "[::ffff:169.254.169.254]", "[::ffff:7f00:1]",
		"[64:ff9b::127.0.0.1]", "[2001:db8::1]",
		// Decimal, octal, hex and short forms of 127.0.0.1 and metadata.
		"2130706433", "017700000001", "0x7f000001", "0x7f.1", "0177.0.0.1",
		"127.1", "0x7F.0x0.0x0.0x1", "0x7f.0.1", "2852039166", "0xa9fea9fe",
		"0", "0x0", "10.1", "3232235521",
	}
	for _, h := range hosts {
		t.Run(h, func(t *testing.T) {
			_, err := checkURL("http://"+h+"/latest/meta-data/", 8192, false)
			if !errors.Is(err, ErrBlockedAddress) {
				t.Fatalf("checkURL(%s) error = %v, want ErrBlockedAddress", h, err)
			}
			if !strings.Contains(err.Error(), "allow_private_networks") {
				t.Errorf("message %q does not say how to allow it", err)
			}
			// The same URL is fine when private networks are allowed.
			if _, err := checkURL("http://"+h+"/", 8192, true); err != nil {
				t.Errorf("checkURL(%s, allowPrivate) error = %v", h, err)
			}
		})
	}
}

func TestParseIPv4Host(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		isIP   bool
		hasErr bool
	}{
		{"example.com", "", false, false},
		{"1.2.3.4", "1.2.3.4", true, false},
		{"2130706433", "127.0.0.1", true, false},
		{"0x7f.1", "127.0.0.1", true, false},
		{"0177.0.0.01", "127.0.0.1", true, false},
		{"1.65535", "1.0.255.255", true, false},
		{"1.2.65535", "1.2.255.255", true, false},
		{"0x", "0.0.0.0", true, false},
		{"4294967295", "255.255.255.255", true, false},
		{"4294967296", "", false, true},
		{"1.2.3.256", "", false, true},
		{"08.1.1.1", "", false, true}, // 8 is not an octal digit
		{"a.1", "", false, true},      // ends in a number, so it must be an address
		{"1.a", "", false, false},     // ordinary name
		{"1..1", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, isIP, err := parseIPv4Host(tt.in)
			if (err != nil) != tt.hasErr || isIP != tt.isIP {
				t.Fatalf("parseIPv4Host(%q) = %v, %v, %v", tt.in, got, isIP, err)
			}
			if isIP && got.String() != tt.want {
				t.Errorf("parseIPv4Host(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestRewriteURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://github.com/o/r/blob/main/README.md", "https://raw.githubusercontent.com/o/r/main/README.md"},
		{"https://github.com/o/r/blob/v1.2/dir/sub/file.go?plain=1", "https://raw.githubusercontent.com/o/r/v1.2/dir/sub/file.go"},
		{"https://github.com/o/r/tree/main/dir", "https://github.com/o/r/tree/main/dir"},
		{"https://github.com/o/r", "https://github.com/o/r"},
		{"https://github.com/o/r/blob/main", "https://github.com/o/r/blob/main"},
		{"https://gitlab.com/g/sub/p/-/blob/main/doc/x.md", "https://gitlab.com/g/sub/p/-/raw/main/doc/x.md"},
		{"https://git.example.org/g/p/-/blob/dev/a.txt?ref_type=heads", "https://git.example.org/g/p/-/raw/dev/a.txt"},
		{"https://example.com/blob/x", "https://example.com/blob/x"},
		{"https://www.github.com/o/r/blob/main/a.go", "https://raw.githubusercontent.com/o/r/main/a.go"},
		{"https://github.com:8443/o/r/blob/main/a.go", "https://raw.githubusercontent.com:8443/o/r/main/a.go"},
		{"https://github.com/o/r/raw/main/a.go", "https://github.com/o/r/raw/main/a.go"},
		{"https://notgithub.com/o/r/blob/main/a.go", "https://notgithub.com/o/r/blob/main/a.go"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := rewriteURL(u).String(); got != tt.want {
			t.Errorf("rewriteURL(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzCheckURL checks the URL gate's invariants on arbitrary input: it never
// panics, every error wraps exactly one sentinel, and an accepted URL is
// http(s), within the length limit, stable under a second check, and never
// an IP literal in a blocked range.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/", "http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/",
		"http://[fe80::1%25eth0]/", "https://a:b@c/", "HTTP://EXAMPLE.COM:80", "http://1.2.3.4.5/",
		"http://example.com./%zz", "javascript:alert(1)", "http://xn--bcher-kva.example/?q=1#f",
		"http://0177.0.0.1/", "http://127.1/", "http://[64:ff9b::7f00:1]/", "http://169.254.43518/", "http://0xa9fea9fe/",
		"http://[::ffff:a9fe:a9fe]:80/", "http://1.1.1.1/", "http://[2606:4700::1]/",
	} {
		f.Add(s)
	}
	sentinels := []error{ErrInvalidURL, ErrURLTooLong, ErrBlockedAddress}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := checkURL(raw, 256, false)
		if err != nil {
			n := 0
			for _, s := range sentinels {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("error %q wraps %d sentinels", err, n)
			}
			if !utf8.ValidString(err.Error()) && utf8.ValidString(raw) {
				t.Fatalf("error message is not valid UTF-8: %q", err)
			}
			return
		}
		s := u.String()
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("accepted scheme %q", u.Scheme)
		}
		if len(s) > 256 {
			t.Fatalf("accepted %d bytes", len(s))
		}
		again, err := checkURL(s, 256, false)
		if err != nil {
			t.Fatalf("normalised %q rejected on a second check: %v", s, err)
		}
		if again.String() != s {
			t.Fatalf("not idempotent: %q -> %q", s, again)
		}
		if rw := rewriteURL(u); rw.Scheme != u.Scheme {
			t.Fatalf("rewrite changed scheme")
		}
		// No accepted host is an address in a blocked range, however it
		// was spelled: numeric forms come out canonical, so a dotted quad
		// or bracketed IPv6 here is the address the dialer would use.
		if a, err := netip.ParseAddr(u.Hostname()); err == nil {
			if guardian.SafeAddr(a) != nil {
				t.Fatalf("accepted blocked address %s from %q", a, raw)
			}
		} else if _, isIP, _ := parseIPv4Host(u.Hostname()); isIP {
			t.Fatalf("accepted a non-canonical numeric host %q", u.Hostname())
		}
	})
}
