package extract

import (
	"bytes"

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
