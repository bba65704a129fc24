package emulate

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/webgate/webgate/internal/messages/wire"
)

// member is one member of a JSON object.
type member struct {
	key string
	val json.RawMessage
}

// members decodes a JSON object into its members, in order.
func members(obj []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key, v})
	}
	return out, nil
}

// setMembers returns obj with each given member replaced in place, or
// appended when absent; a nil value deletes the member. Other members keep
// their order and bytes.
func setMembers(obj []byte, set ...member) (json.RawMessage, error) {
	ms, err := members(obj)
	if err != nil {
		return nil, err
	}
	for _, s := range set {
		found := false
		for i := range ms {
			if ms[i].key == s.key {
				ms[i].val, found = s.val, true
				break
			}
		}
		if !found {
			ms = append(ms, s)
		}
	}
	b := []byte{'{'}
	first := true
	for _, m := range ms {
		if m.val == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = wire.AppendString(b, m.key, false)
		b = append(b, ':')
		b = append(b, m.val...)
	}
	return append(b, '}'), nil
}

// jsonString encodes s as a JSON string the way Anthropic does (no HTML
// escaping).
func jsonString(s string) json.RawMessage { return wire.AppendString(nil, s, false) }

// delta is a content_block_delta's delta member.
type delta struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	PartialJSON string          `json:"partial_json"`
	Thinking    string          `json:"thinking"`
	Signature   string          `json:"signature"`
	Citation    json.RawMessage `json:"citation"`
}

// blockAcc rebuilds one content block from its content_block_start and
// deltas, the way Anthropic's SDK accumulators do: for the upstream
// conversation the next iteration sends, and for the JSON answer of a
// non-streaming client.
type blockAcc struct {
	start     json.RawMessage
	typ       string
	text      strings.Builder
	input     []byte
	hasInput  bool
	thinking  strings.Builder
	signature strings.Builder
	citations []json.RawMessage
	touched   bool
}

func newBlockAcc(start json.RawMessage) *blockAcc {
	var t struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(start, &t)
	return &blockAcc{start: start, typ: t.Type}
}

// apply adds one delta.
func (b *blockAcc) apply(d *delta) {
	b.touched = true
	switch d.Type {
	case "text_delta":
		b.text.WriteString(d.Text)
	case "input_json_delta":
		b.hasInput = true
		b.input = append(b.input, d.PartialJSON...)
	case "thinking_delta":
		b.thinking.WriteString(d.Thinking)
	case "signature_delta":
		b.signature.WriteString(d.Signature)
	case "citations_delta":
		b.citations = append(b.citations, d.Citation)
	}
}

// final returns the complete block.
func (b *blockAcc) final() (json.RawMessage, error) {
	if !b.touched {
		return b.start, nil
	}
	var set []member
	switch b.typ {
	case "text":
		set = append(set, member{"text", jsonString(b.text.String())})
		if len(b.citations) > 0 {
			set = append(set, member{"citations", joinArray(b.citations)})
		}
	case "thinking":
		set = append(set, member{"thinking", jsonString(b.thinking.String())}, member{"signature", jsonString(b.signature.String())})
	default:
		if b.hasInput {
			in := bytes.TrimSpace(b.input)
			if len(in) == 0 {
				in = []byte("{}")
			}
			if !json.Valid(in) {
				return nil, fmt.Errorf("%s block input is not valid JSON", b.typ)
			}
			set = append(set, member{"input", in})
		}
		if b.text.Len() > 0 {
			set = append(set, member{"text", jsonString(b.text.String())})
		}
	}
	return setMembers(b.start, set...)
}

func joinArray(items []json.RawMessage) json.RawMessage {
	b := []byte{'['}
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}

// idAlphabet is base62, which Anthropic's ids use.
const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewID returns prefix followed by 24 random base62 characters, the shape
// of Anthropic's msg_, toolu_ and srvtoolu_ ids.
func NewID(prefix string) string {
	var b [24]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	out := make([]byte, len(prefix), len(prefix)+len(b))
	copy(out, prefix)
	for _, x := range b {
		// The slight modulo bias is harmless: ids must be unique, not secret.
		out = append(out, idAlphabet[int(x)%len(idAlphabet)])
	}
	return string(out)
}
