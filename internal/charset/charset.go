// Package charset decodes fetched and local pages to UTF-8, the one
// encoding the extractors read.
package charset

import (
	"bytes"
	"mime"
	"regexp"
	"strings"
	"unicode/utf8"

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
//     else windows-1252, the web's de facto default for unlabelled legacy
//     text.
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
		// is the page's word (see lateMeta).
		if e, n := lateMeta(body); e != nil {
			enc, name = e, n
		}
	}
	if name == "utf-8" {
		return toValidUTF8(body), name
	}
	return decodeWith(enc, body), name
}

// lateMeta finds the charset of the first <meta> that names one in the
// first lateMetaWindow bytes. HTML's prescan reads only the first 1024
// bytes, and pages that open with long scripts or styles declare their
// charset further down; a browser's parser that meets such a <meta>
// changes the encoding and starts again
// (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing),
// so the page is read as its author saw it.
func lateMeta(body []byte) (encoding.Encoding, string) {
	m := metaCharset.FindSubmatch(body[:min(len(body), lateMetaWindow)])
	if m == nil {
		return nil, ""
	}
	return htmlcharset.Lookup(string(m[1]))
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
