package guard

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzScan: findings lie inside the text, in order, without overlap, and
// redacting them removes every one.
func FuzzScan(f *testing.F) {
	f.Add("why does ghp_aB3dE5gH7jaB3dE5gH7jaB3dE5gH7jaB3dE5gH fail", false)
	f.Add("postgres://app:S3cr3tP4ssw0rd@db.corp.acme.com/x password=Tr0ub4dor&3", false)
	f.Add("https://x.example/?token=aB3dE5gH7jK9mN2pQ4rS&sig=", true)
	f.Add("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV", false)
	f.Add("-----BEGIN OPENSSH PRIVATE KEY----- AKIAABCDEFGHIJKLMNOP", false)
	d := corpusDetector()
	f.Fuzz(func(t *testing.T, text string, isURL bool) {
		var fs []Finding
		if isURL {
			fs = d.ScanURL(text)
		} else {
			fs = d.Scan(text)
		}
		end := 0
		for _, x := range fs {
			if x.Start < end || x.End <= x.Start || x.End > len(text) || x.Rule == "" {
				t.Fatalf("bad finding %+v in %q (previous end %d)", x, text, end)
			}
			end = x.End
		}
		red := Redact(text, fs, func(Finding) string { return "#" })
		for _, x := range fs {
			if s := text[x.Start:x.End]; len(s) > 8 && strings.Contains(red, s) {
				t.Fatalf("redacted text still holds %q: %q", s, red)
			}
		}
	})
}

// FuzzCleanText: the result is stable (cleaning twice changes nothing),
// never longer, holds no tag or bidi control characters, and keeps valid
// UTF-8 valid.
func FuzzCleanText(f *testing.F) {
	f.Add("a\u200d\u200db \U000e0041\U000e0042 ❤\ufe0f \u202eabc\u202c 👨\u200d👩")
	f.Add("x\ufe00\ufe01\U000e0100y\u200c")
	f.Fuzz(func(t *testing.T, s string) {
		out, n := CleanText(s)
		again, m := CleanText(out)
		if again != out || m != 0 {
			t.Fatalf("not idempotent: %+q -> %+q -> %+q", s, out, again)
		}
		if utf8.ValidString(s) && (len(out) > len(s) || (n == 0) != (out == s)) {
			t.Fatalf("CleanText(%+q) = %+q, %d", s, out, n)
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("broke UTF-8: %+q", out)
		}
		for _, r := range out {
			if r >= 0xE0000 && r <= 0xE007F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200B {
				t.Fatalf("invisible %U left in %+q", r, out)
			}
		}
	})
}
