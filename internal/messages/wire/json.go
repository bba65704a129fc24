package wire

import (
	"bytes"
	"encoding/json"
)

// marshalNoEscape encodes v without HTML escaping: Anthropic leaves <, >
// and & literal, and page titles and snippets are full of them.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Marshal encodes v as Anthropic would: compact, without HTML escaping.
func Marshal(v any) ([]byte, error) { return marshalNoEscape(v) }

func appendJSONString(dst []byte, s string) []byte { return appendString(dst, s) }
