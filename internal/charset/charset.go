// Package charset decodes fetched and local pages to UTF-8, the one
// encoding the extractors read.
package charset

import (
	"bytes"
	"mime"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/saintfish/chardet"
	htmlcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// Decode decodes body to UTF-8 and returns the name of the encoding used.
// contentType is the HTTP Content-Type, or "" for a local file.
//
// Order of evidence:
//  1. A byte-order mark, which is unambiguous (and UTF-16 text can be valid
//     UTF-8 byte-wise, so it must come first).
//  2. Bytes that are valid UTF-8 are kept as they are. Real pages often carry
//     a stale <meta charset=iso-8859-1> or header after being converted to
//     UTF-8; honouring it would turn every accented letter into mojibake,
//     whereas legacy-encoded text is almost never valid UTF-8 by accident.
//  3. The Content-Type header's charset.
//  4. Sniffing: <meta> prescan for HTML (HTML's encoding sniffing,
//     https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding),
//     then, for a page that names no charset at all, the statistics of its
//     bytes when they clearly say a non-Latin script (detect; browsers
//     do the same, the spec's step 9 "autodetection"), else windows-1252,
//     the web's de facto default for unlabelled legacy text.
//
// Decoding never fails: undecodable bytes become U+FFFD, because a page
// with a few bad bytes is still worth reading.
func Decode(body []byte, contentType string) ([]byte, string) {
	switch {
	case bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}):
		return toValidUTF8(body[3:]), "utf-8"
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		return decodeWith(unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), body), "utf-16le"
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		return decodeWith(unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), body), "utf-16be"
	}
	if utf8.Valid(body) {
		return body, "utf-8"
	}
	if label := headerCharset(contentType); label != "" {
		if enc, name := htmlcharset.Lookup(label); enc != nil {
			if name == "utf-8" {
				// Declared UTF-8 with a few bad bytes: repair, don't guess.
				return toValidUTF8(body), name
			}
			return decodeWith(enc, body), name
		}
	}
	enc, name, _ := htmlcharset.DetermineEncoding(body, contentType)
	if name == "windows-1252" {
		// The prescan's default, or its finding: a <meta> further down
		// is the page's word (see lateMeta); a page that names no
		// charset anywhere is judged by its bytes (detect).
		if e, n, declared := lateMeta(body); e != nil {
			enc, name = e, n
		} else if !declared {
			if e, n := detect(body); e != nil {
				enc, name = e, n
			}
		}
	}
	if name == "utf-8" {
		return toValidUTF8(body), name
	}
	return decodeWith(enc, body), name
}

// detect guesses the encoding of a page that names none from its text
// (ICU's detector, which weighs byte n-grams per language after dropping
// the markup), and returns it only for the encodings of scripts other
// than Latin, whose text windows-1252 would turn wholly into mojibake
// and whose statistics the detector tells apart reliably: the multi-byte
// Chinese, Japanese and Korean encodings, and the single-byte Cyrillic,
// Greek, Hebrew and Arabic ones. For Latin text it tells windows-1252
// from windows-1250 or ISO-8859-2 by a few letters, often wrongly, and
// the default stands. Only the first detectWindow bytes are read.
func detect(body []byte) (encoding.Encoding, string) {
	r, err := chardet.NewHtmlDetector().DetectBest(body[:min(len(body), detectWindow)])
	if err != nil {
		return nil, ""
	}
	d, ok := detectable[r.Charset]
	if !ok || r.Confidence < d.confidence {
		return nil, ""
	}
	return htmlcharset.Lookup(d.label)
}

// detectWindow bounds what detect reads: a page's head and its first
// screens of text are plenty to tell a script.
const detectWindow = 64 << 10

// detectable maps the detector's names for the encodings detect trusts to
// their WHATWG label and the confidence (0-100) the detector must report.
// Multi-byte encodings are told by their byte structure and come with
// high confidence; a Russian page in windows-1251 scores about 45. The
// detector's ISO-2022-KR and ISO-2022-CN are left out: HTML maps them to
// the replacement encoding, which would blank the page.
var detectable = map[string]struct {
	label      string
	confidence int
}{
	"Shift_JIS": {"shift_jis", 50}, "EUC-JP": {"euc-jp", 50}, "ISO-2022-JP": {"iso-2022-jp", 50},
	"GB-18030": {"gb18030", 50}, "Big5": {"big5", 50}, "EUC-KR": {"euc-kr", 50},
	"windows-1251": {"windows-1251", 30}, "KOI8-R": {"koi8-r", 30}, "ISO-8859-5": {"iso-8859-5", 30},
	"ISO-8859-7": {"iso-8859-7", 30}, "windows-1253": {"windows-1253", 30},
	"ISO-8859-8": {"iso-8859-8", 30}, "windows-1255": {"windows-1255", 30},
	"ISO-8859-6": {"iso-8859-6", 30}, "windows-1256": {"windows-1256", 30},
}

// lateMeta finds the charset of the first <meta> that names one in the
// first lateMetaWindow bytes. HTML's prescan reads only the first 1024
// bytes, and pages that open with long scripts or styles declare their
// charset further down; a browser's parser that meets such a <meta>
// changes the encoding and starts again
// (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing),
// so the page is read as its author saw it. declared reports a <meta>
// that names a charset, known or not: a page that names one is not
// second-guessed by its bytes (detect).
func lateMeta(body []byte) (enc encoding.Encoding, name string, declared bool) {
	m := metaCharset.FindSubmatch(body[:min(len(body), lateMetaWindow)])
	if m == nil {
		return nil, "", false
	}
	enc, name = htmlcharset.Lookup(string(m[1]))
	return enc, name, true
}

// lateMetaWindow bounds the search for a late <meta> charset: the head of
// a page, however many scripts it opens with.
const lateMetaWindow = 64 << 10

// metaCharset matches <meta charset="x"> and <meta http-equiv=...
// content="text/html; charset=x">.
var metaCharset = regexp.MustCompile(`(?i)<meta\s[^>]*?charset\s*=\s*["']?\s*([a-z0-9_.:-]+)`)

func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(params["charset"])
}

func decodeWith(enc encoding.Encoding, body []byte) []byte {
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		// x/text decoders replace rather than fail; this is belt and braces
		// for a decoder that does not.
		return toValidUTF8(body)
	}
	return toValidUTF8(out)
}

func toValidUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}
