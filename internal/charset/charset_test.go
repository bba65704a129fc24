package charset

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// Sentences of a few hundred bytes, in the legacy encodings of their
// scripts, as pages that name no charset carry them.
var (
	ruUTF8 = strings.Repeat("В субботу в городе после реконструкции открылся парк на набережной. Работы продолжались почти два года, и жители довольны. ", 3)
	ru1251 = mustEncode(charmap.Windows1251, ruUTF8)
	// ru1251As1252 is what reading those bytes as windows-1252 gives.
	ru1251As1252 = mustDecode(charmap.Windows1252, ru1251)
	zhUTF8       = strings.Repeat("记者从市教育局获悉，今年我市新建的三所中小学已完成建设和验收，将于新学期开学时正式投入使用。", 3)
	zhGB         = mustEncode(simplifiedchinese.GB18030, zhUTF8)
	jaUTF8       = strings.Repeat("週末、久しぶりに京都へ行ってきました。紅葉にはまだ少し早いかなと思っていたのですが、東山のあたりはもうかなり色づいていました。", 3)
	jaSJIS       = mustEncode(japanese.ShiftJIS, jaUTF8)
	frUTF8       = "La métropole a annoncé jeudi que la future ligne ne sera pas mise en service avant 2028, en raison du surcoût des travaux."
	frLatin1     = mustEncode(charmap.Windows1252, frUTF8)
)

func mustEncode(e encoding.Encoding, s string) string {
	b, err := e.NewEncoder().String(s)
	if err != nil {
		panic(err)
	}
	return b
}

func mustDecode(e encoding.Encoding, s string) string {
	b, err := e.NewDecoder().String(s)
	if err != nil {
		panic(err)
	}
	return b
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name        string
		body        string
		contentType string
		want        string
		wantName    string
	}{
		{"utf-8 unlabelled", "café", "text/html", "café", "utf-8"},
		{"utf-8 with stale meta", `<meta charset="iso-8859-1"><p>café – naïve</p>`, "text/html", `<meta charset="iso-8859-1"><p>café – naïve</p>`, "utf-8"},
		{"utf-8 with stale header", "café", "text/html; charset=iso-8859-1", "café", "utf-8"},
		{"utf-8 bom stripped", "\xEF\xBB\xBFhello", "text/plain", "hello", "utf-8"},
		{"latin-1 from header", "caf\xe9", "text/plain; charset=ISO-8859-1", "café", "windows-1252"},
		{"windows-1252 quotes from header", "\x93hi\x94", "text/html; charset=windows-1252", "\u201chi\u201d", "windows-1252"},
		{"latin-1 from meta", "<meta charset=\"iso-8859-1\"><p>caf\xe9</p>", "text/html", "<meta charset=\"iso-8859-1\"><p>café</p>", "windows-1252"},
		{"shift_jis from header", "\x93\xfa\x96\x7b", "text/html; charset=shift_jis", "日本", "shift_jis"},
		{"koi8-r from meta", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">\xf0\xd2\xc9\xd7\xc5\xd4", "text/html", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\">Привет", "koi8-r"},
		{"unknown charset falls back to sniffing", "caf\xe9", "text/plain; charset=x-made-up", "café", "windows-1252"},
		{"unlabelled legacy defaults to windows-1252", "caf\xe9", "", "café", "windows-1252"},
		{"declared utf-8 with bad bytes is repaired", "caf\xe9 ok", "text/html; charset=utf-8", "caf\uFFFD ok", "utf-8"},
		{"utf-16le bom", "\xFF\xFEh\x00i\x00", "text/plain", "hi", "utf-16le"},
		{"utf-16be bom", "\xFE\xFF\x00h\x00i", "text/plain", "hi", "utf-16be"},
		{"malformed content type", "caf\xe9", "text/html; charset", "café", "windows-1252"},
		{"late meta past the prescan", "<script>" + strings.Repeat("var x = 1;\n", 200) + "</script><meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\"><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>", "",
			"<script>" + strings.Repeat("var x = 1;\n", 200) + "</script><meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-r\"><p>Привет</p>", "koi8-r"},
		{"header outranks a late meta", strings.Repeat(" ", 1100) + "<meta charset=koi8-r>caf\xe9", "text/html; charset=iso-8859-1", strings.Repeat(" ", 1100) + "<meta charset=koi8-r>café", "windows-1252"},
		// A page that names no charset: its bytes decide, for scripts
		// other than Latin.
		{"unlabelled windows-1251 detected", "<html><body><p>" + ru1251 + "</p></body></html>", "", "<html><body><p>" + ruUTF8 + "</p></body></html>", "windows-1251"},
		{"unlabelled gb18030 detected", "<p>" + zhGB + "</p>", "", "<p>" + zhUTF8 + "</p>", "gb18030"},
		{"unlabelled shift_jis detected", "<p>" + jaSJIS + "</p>", "", "<p>" + jaUTF8 + "</p>", "shift_jis"},
		{"unlabelled latin stays windows-1252", "<p>" + frLatin1 + "</p>", "", "<p>" + frUTF8 + "</p>", "windows-1252"},
		{"a declared charset is not second-guessed", "<meta charset=\"windows-1252\"><p>" + ru1251 + "</p>", "", "<meta charset=\"windows-1252\"><p>" + ru1251As1252 + "</p>", "windows-1252"},
		{"late meta with an unknown label", strings.Repeat(" ", 1100) + "<meta charset=x-made-up>caf\xe9", "", strings.Repeat(" ", 1100) + "<meta charset=x-made-up>café", "windows-1252"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, name := Decode([]byte(tt.body), tt.contentType)
			if string(got) != tt.want || name != tt.wantName {
				t.Errorf("Decode() = %q (%s), want %q (%s)", got, name, tt.want, tt.wantName)
			}
			if !utf8.Valid(got) {
				t.Errorf("Decode() returned invalid UTF-8")
			}
		})
	}
}

// FuzzDecode checks the charset invariants on any bytes and any declared
// type: the output is always valid UTF-8, and valid UTF-8 input (without
// a byte-order mark) comes back unchanged whatever the label claims.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("café"), "text/html; charset=iso-8859-1")
	f.Add([]byte("<meta charset=koi8-r>\xf0\xd2"), "text/html")
	f.Add([]byte("\xff\xfeh\x00"), "text/plain")
	f.Add([]byte("\x93\xfa"), "text/plain; charset=shift_jis")
	f.Add([]byte("caf\xe9"), "text/plain; charset=utf-8")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		got, _ := Decode(body, contentType)
		if !utf8.Valid(got) {
			t.Fatalf("invalid UTF-8 out: %q", got)
		}
		bom := len(body) >= 2 && ((body[0] == 0xFF && body[1] == 0xFE) || (body[0] == 0xFE && body[1] == 0xFF) ||
			(len(body) >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF))
		if utf8.Valid(body) && !bom && string(got) != string(body) {
			t.Fatalf("valid UTF-8 changed: %q -> %q", body, got)
		}
	})
}
