package guard

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
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

// FuzzStripHidden: any HTML parses and strips without panicking, and a
// second pass finds nothing more.
func FuzzStripHidden(f *testing.F) {
	f.Add(`<p style="display:none">x</p><!-- c --><div class="sr-only hidden md:block">y</div>`)
	f.Add(`<div style="position:absolute;left:-9999px;clip:rect(0 0 0 0)"><template>t</template></div>`)
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := html.Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		StripHidden(doc)
		if n := StripHidden(doc); n != 0 {
			t.Fatalf("second pass removed %d more nodes from %q", n, s)
		}
	})
}

// FuzzParseStyle: any style attribute parses without panicking or
// looping, the same way twice, and every colour read from it has
// channels within 0 to 1.
func FuzzParseStyle(f *testing.F) {
	for _, s := range []string{
		"display:none", "display:/**/none", `display:\6e one`, "background:#fff url(a.png) no-repeat;color:WHITE",
		"color: rgb(255 255 255 / 50%); background: hsla(120, 100%, 50%, .5)", "font: 0/0 a", "opacity:.01 !important;opacity:1",
		"transform: scale3d(0, 1, 1)", "clip: rect(0,0,0,0)", "color:", ";;;", "a:b:c", "--x: {a}", "color: rgb(", `\`, "@media x { }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b := parseStyle(s), parseStyle(s)
		if len(a) != len(b) {
			t.Fatalf("not deterministic: %v / %v", a, b)
		}
		_ = hiddenStyle(a)
		for _, d := range a {
			for i := range d.v {
				if c, ok := colorOf(d.v[i:]); ok {
					for _, x := range []float64{c.r, c.g, c.b, c.a} {
						if x < 0 || x > 1 || x != x {
							t.Fatalf("colour %+v out of range from %q", c, s)
						}
					}
				}
			}
		}
		doc, err := html.Parse(strings.NewReader(`<div style="` + html.EscapeString(s) + `"><p style="` + html.EscapeString(s) + `">x</p>y</div>`))
		if err == nil {
			StripHidden(doc)
			if n := StripHidden(doc); n != 0 {
				t.Fatalf("second pass removed %d more nodes for %q", n, s)
			}
		}
	})
}
