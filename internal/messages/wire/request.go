// Package wire holds webgate's own wire types for Anthropic's Messages
// API (https://docs.anthropic.com/en/api/messages): the parts of a request
// the proxy inspects, the content blocks and messages it produces, an SSE
// event writer and a bounded SSE reader.
//
// The types are deliberately ours rather than an SDK's: the proxy forwards
// request bodies byte for byte, so it only ever decodes what it needs to
// look at and keeps everything else as json.RawMessage, and the response
// types marshal to exactly the JSON Anthropic's servers send.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Request is a Messages API request body decoded only as far as webgate
// needs to classify it. Fields is every top-level member exactly as
// received, so nothing the client sent is lost when a request is inspected
// and then forwarded.
type Request struct {
	Model      string
	Stream     bool
	MaxTokens  int
	Messages   []MessageParam
	System     json.RawMessage
	Tools      []Tool
	ToolChoice *ToolChoice
	// Fields holds every top-level member as received, including the
	// decoded ones above and any the proxy does not know.
	Fields map[string]json.RawMessage
}

// MessageParam is one input message. Content is either a JSON string or an
// array of blocks on the wire; Text and Blocks hold whichever was sent.
type MessageParam struct {
	Role string
	// ContentIsString reports whether content was a bare JSON string, in
	// which case Text holds it and Blocks is nil.
	ContentIsString bool
	Text            string
	Blocks          []BlockParam
	Raw             json.RawMessage
}

// BlockParam is an input content block; only text blocks are decoded.
type BlockParam struct {
	Type string
	// Text is set for text blocks.
	Text string
	Raw  json.RawMessage
}

// Tool is a tool definition. Server tools (web_search_*) are decoded in
// full; for client tools only Type and Name are meaningful.
type Tool struct {
	Type           string        `json:"type,omitempty"`
	Name           string        `json:"name"`
	MaxUses        *int          `json:"max_uses,omitempty"`
	AllowedDomains []string      `json:"allowed_domains,omitempty"`
	BlockedDomains []string      `json:"blocked_domains,omitempty"`
	UserLocation   *UserLocation `json:"user_location,omitempty"`
	// Raw is the definition as received.
	Raw json.RawMessage `json:"-"`
}

// UserLocation is the web search tool's approximate location
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#localization).
type UserLocation struct {
	Type     string `json:"type,omitempty"`
	City     string `json:"city,omitempty"`
	Region   string `json:"region,omitempty"`
	Country  string `json:"country,omitempty"`
	Timezone string `json:"timezone,omitempty"`
}

// ToolChoice is the request's tool_choice.
type ToolChoice struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
}

// ErrInvalidRequest wraps every decoding failure so the proxy can answer
// with invalid_request_error.
var ErrInvalidRequest = errors.New("invalid request")

// DecodeRequest decodes body. It fails only when body is not a JSON object
// or a member webgate inspects has the wrong type; unknown members are
// kept in Fields untouched.
func DecodeRequest(body []byte) (*Request, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, fmt.Errorf("%w: body is not a JSON object: %v", ErrInvalidRequest, err)
	}
	if fields == nil {
		return nil, fmt.Errorf("%w: body is null", ErrInvalidRequest)
	}
	r := &Request{Fields: fields, System: fields["system"]}
	if err := decodeField(fields, "model", &r.Model); err != nil {
		return nil, err
	}
	if err := decodeField(fields, "stream", &r.Stream); err != nil {
		return nil, err
	}
	if err := decodeField(fields, "max_tokens", &r.MaxTokens); err != nil {
		return nil, err
	}
	if err := decodeField(fields, "tool_choice", &r.ToolChoice); err != nil {
		return nil, err
	}
	var tools []json.RawMessage
	if err := decodeField(fields, "tools", &tools); err != nil {
		return nil, err
	}
	for i, raw := range tools {
		var t Tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("%w: tools[%d]: %v", ErrInvalidRequest, i, err)
		}
		t.Raw = raw
		r.Tools = append(r.Tools, t)
	}
	var msgs []json.RawMessage
	if err := decodeField(fields, "messages", &msgs); err != nil {
		return nil, err
	}
	for i, raw := range msgs {
		m, err := decodeMessage(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: messages[%d]: %v", ErrInvalidRequest, i, err)
		}
		r.Messages = append(r.Messages, m)
	}
	return r, nil
}

func decodeField(fields map[string]json.RawMessage, name string, v any) error {
	raw, ok := fields[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalidRequest, name, err)
	}
	return nil
}

func decodeMessage(raw json.RawMessage) (MessageParam, error) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return MessageParam{}, err
	}
	out := MessageParam{Role: m.Role, Raw: raw}
	c := bytes.TrimSpace(m.Content)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
	case c[0] == '"':
		out.ContentIsString = true
		if err := json.Unmarshal(c, &out.Text); err != nil {
			return MessageParam{}, fmt.Errorf("content: %v", err)
		}
	default:
		var blocks []json.RawMessage
		if err := json.Unmarshal(c, &blocks); err != nil {
			return MessageParam{}, fmt.Errorf("content: %v", err)
		}
		for j, b := range blocks {
			var bp struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if err := json.Unmarshal(b, &bp); err != nil {
				return MessageParam{}, fmt.Errorf("content[%d]: %v", j, err)
			}
			out.Blocks = append(out.Blocks, BlockParam{Type: bp.Type, Text: bp.Text, Raw: b})
		}
	}
	return out, nil
}
