package emulate

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// deltaPrefix starts a content_block_delta event in the compact form
// Anthropic's API and webgate's own translators write.
const deltaPrefix = `{"type":"content_block_delta","index":`

// fastDeltaForms are the delta types fastDelta decodes, with the member
// holding their string.
var fastDeltaForms = []struct {
	prefix []byte
	set    func(d *delta, s string)
}{
	{[]byte(`{"type":"text_delta","text":`), func(d *delta, s string) { d.Type, d.Text = "text_delta", s }},
	{[]byte(`{"type":"input_json_delta","partial_json":`), func(d *delta, s string) { d.Type, d.PartialJSON = "input_json_delta", s }},
	{[]byte(`{"type":"thinking_delta","thinking":`), func(d *delta, s string) { d.Type, d.Thinking = "thinking_delta", s }},
}

var (
	deltaPrefixBytes = []byte(deltaPrefix)
	deltaMember      = []byte(`,"delta":`)
	closeTwo         = []byte("}}")
)

// fastDelta decodes, in one pass and without reflection, the events that
// make up almost all of a stream: text, tool input and thinking deltas in
// compact form, {"type":"content_block_delta","index":N,"delta":{"type":
// T,"<member>":"<string>"}}. raw is the delta object (a sub-slice of
// data). ok false means "not this exact form", and the caller decodes the
// event with encoding/json; whenever ok is true the result equals what
// encoding/json would produce (FuzzFastDelta checks this).
func fastDelta(data []byte) (index int, raw []byte, d delta, ok bool) {
	rest, found := bytes.CutPrefix(data, deltaPrefixBytes)
	if !found {
		return 0, nil, d, false
	}
	n := 0
	for n < len(rest) && n < 9 && rest[n] >= '0' && rest[n] <= '9' {
		index = index*10 + int(rest[n]-'0')
		n++
	}
	if n == 0 || (n > 1 && rest[0] == '0') {
		return 0, nil, d, false
	}
	body, found := bytes.CutPrefix(rest[n:], deltaMember)
	if !found || !bytes.HasSuffix(body, closeTwo) {
		return 0, nil, d, false
	}
	raw = body[:len(body)-1]
	for _, f := range fastDeltaForms {
		str, found := bytes.CutPrefix(raw, f.prefix)
		if !found {
			continue
		}
		str = str[:len(str)-1] // the delta object's closing brace
		s, ok := jsonStringValue(str)
		if !ok {
			return 0, nil, d, false
		}
		f.set(&d, s)
		return index, raw, d, true
	}
	return 0, nil, d, false
}

// jsonStringValue decodes b, which must be exactly one JSON string.
func jsonStringValue(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' {
		return "", false
	}
	escaped := false
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\':
			escaped = true
			i++
		case c == '"':
			if i != len(b)-1 {
				return "", false
			}
			if !escaped && utf8.Valid(b[1:i]) {
				return string(b[1:i]), true
			}
			var s string
			if json.Unmarshal(b, &s) != nil {
				return "", false
			}
			return s, true
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}
