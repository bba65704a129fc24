package extract

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// parseHTML parses body as a browser would with scripting off: <noscript>
// is parsed as markup, not as raw text, because forum software (Discourse)
// and many shops serve their crawler-readable content there (prepareDoc
// decides what to keep). A page
// nested deeper than html.Parse accepts (machine-generated markup, or
// markup built to break parsers) is parsed again with its excess nesting
// flattened, so what it says is still extracted.
func parseHTML(body []byte) (*html.Node, error) {
	body = closeNoscriptFrames(body)
	doc, err := html.ParseWithOptions(bytes.NewReader(body), html.ParseOptionEnableScripting(false))
	// html.Parse fails on nothing but a stack of open elements deeper than
	// 512 (a byte slice has no read errors). The parser can open more
	// elements than the tags it is given (implied <tbody> and <tr> in
	// nested tables, reopened formatting elements), so the flattening
	// limit tightens until the page parses.
	for limit := 256; err != nil && limit >= 32; limit /= 2 {
		doc, err = html.ParseWithOptions(bytes.NewReader(flattenDeep(body, limit)), html.ParseOptionEnableScripting(false))
	}
	return doc, err
}

// flattenDeep drops the start and end tags of elements opened deeper than
// limit, keeping their text and everything else byte for byte. Depth is
// counted from explicit tags (void and self-closing ones excepted), which
// over-counts elements the parser closes implicitly (<p>, <li>).
func flattenDeep(body []byte, limit int) []byte {
	z := html.NewTokenizer(bytes.NewReader(body))
	out := bytes.NewBuffer(make([]byte, 0, len(body)))
	depth := 0
	dropped := map[string]int{}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out.Bytes()
		case html.StartTagToken:
			name, _ := z.TagName()
			if voidElements[string(name)] {
				break
			}
			if depth >= limit {
				dropped[string(name)]++
				continue
			}
			depth++
		case html.EndTagToken:
			name, _ := z.TagName()
			if dropped[string(name)] > 0 {
				dropped[string(name)]--
				continue
			}
			if !voidElements[string(name)] && depth > 0 {
				depth--
			}
		}
		out.Write(z.Raw())
	}
}

// voidElements never have content or an end tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// closeNoscriptFrames gives every <iframe .../> inside a <noscript> block
// an end tag. Parsed with scripting off (as parseHTML must), a
// <noscript>'s content is markup, and an <iframe>'s content is raw text
// up to "</iframe>": the self-closing slash means nothing in HTML, so the
// tag manager snippet many sites paste as
// <noscript><iframe src="…" height="0" width="0" /></noscript> swallowed
// the rest of the page as the frame's text. A browser never sees it so:
// with scripting on, the <noscript> block is itself raw text ending at
// "</noscript>". body is returned as it is when nothing needs closing.
func closeNoscriptFrames(body []byte) []byte {
	var out []byte
	done := 0 // body[:done] is in out
	for i := 0; i < len(body); {
		start := indexFold(body[i:], "<noscript")
		if start < 0 {
			break
		}
		start += i
		end := indexFold(body[start:], "</noscript")
		if end < 0 {
			end = len(body)
		} else {
			end += start
		}
		for j := start; j < end; {
			f := indexFold(body[j:end], "<iframe")
			if f < 0 {
				break
			}
			f += j
			gt := bytes.IndexByte(body[f:end], '>')
			if gt < 0 {
				break
			}
			gt += f
			if body[gt-1] == '/' && !hasPrefixFold(body[gt+1:], "</iframe") {
				out = append(out, body[done:gt+1]...)
				out = append(out, "</iframe>"...)
				done = gt + 1
			}
			j = gt + 1
		}
		i = end + 1
	}
	if out == nil {
		return body
	}
	return append(out, body[done:]...)
}

// hasPrefixFold reports whether b starts with the ASCII lower-case
// prefix, in any letter case.
func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && indexFold(b[:len(prefix)], prefix) == 0
}

// indexFold is strings.Index or bytes.Index for an ASCII lower-case
// needle, ignoring the letter case of b, without allocating.
func indexFold[T string | []byte](b T, needle string) int {
	// A needle that starts with a byte no letter case changes ("<noscript")
	// has its candidates found by that byte, with IndexByte's fast scan:
	// the byte-by-byte comparison over a whole page was 3% of extraction's
	// CPU.
	first := needle[0]
	jump := first < 'a' || first > 'z'
	for i := 0; i+len(needle) <= len(b); i++ {
		if jump {
			k := indexByte(b[i:], first)
			if k < 0 {
				return -1
			}
			if i += k; i+len(needle) > len(b) {
				return -1
			}
		}
		j := 0
		for ; j < len(needle); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != needle[j] {
				break
			}
		}
		if j == len(needle) {
			return i
		}
	}
	return -1
}

// indexByte is strings.IndexByte or bytes.IndexByte, as b is.
func indexByte[T string | []byte](b T, c byte) int {
	switch v := any(b).(type) {
	case string:
		return strings.IndexByte(v, c)
	case []byte:
		return bytes.IndexByte(v, c)
	}
	return -1
}
