package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/webgate/webgate/anthropic"
)

// ErrUnsupported wraps every request feature that has no Chat Completions
// equivalent; the proxy answers it with invalid_request_error.
var ErrUnsupported = errors.New("not supported by chat completions upstreams")

// inBlock is an input content block decoded in full.
type inBlock struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
		URL       string `json:"url"`
	} `json:"source"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// toolDef is a tool definition decoded in full.
type toolDef struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// ToChat translates a Messages request into a Chat Completions request.
// See the package documentation for the mapping.
func ToChat(req *anthropic.Request, opts Options) (ChatRequest, error) {
	out := ChatRequest{Model: opts.Models.Map(req.Model), Stream: req.Stream, Messages: []ChatMessage{}}
	if req.Stream {
		out.StreamOptions = &StreamOptions{IncludeUsage: true}
	}
	if req.MaxTokens > 0 {
		n := req.MaxTokens
		if opts.MaxCompletionTokens {
			out.MaxCompletionTokens = &n
		} else {
			out.MaxTokens = &n
		}
	}
	f := req.Fields
	if err := field(f, "temperature", &out.Temperature); err != nil {
		return ChatRequest{}, err
	}
	if err := field(f, "top_p", &out.TopP); err != nil {
		return ChatRequest{}, err
	}
	if err := field(f, "stop_sequences", &out.Stop); err != nil {
		return ChatRequest{}, err
	}
	var meta struct {
		UserID string `json:"user_id"`
	}
	if err := field(f, "metadata", &meta); err != nil {
		return ChatRequest{}, err
	}
	out.User = meta.UserID

	system, err := systemText(req.System)
	if err != nil {
		return ChatRequest{}, err
	}
	if system != "" {
		out.Messages = append(out.Messages, ChatMessage{Role: "system", Content: system})
	}
	for i, m := range req.Messages {
		msgs, err := convertMessage(m)
		if err != nil {
			return ChatRequest{}, fmt.Errorf("messages[%d]: %w", i, err)
		}
		out.Messages = append(out.Messages, msgs...)
	}

	for i, t := range req.Tools {
		var d toolDef
		if err := json.Unmarshal(t.Raw, &d); err != nil {
			return ChatRequest{}, fmt.Errorf("%w: tools[%d]: %v", anthropic.ErrInvalidRequest, i, err)
		}
		if d.Type != "" && d.Type != "custom" {
			return ChatRequest{}, fmt.Errorf("tools[%d]: server tool %q: %w", i, d.Type, ErrUnsupported)
		}
		schema := d.InputSchema
		if len(bytes.TrimSpace(schema)) == 0 || bytes.Equal(bytes.TrimSpace(schema), []byte("null")) {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, ChatTool{Type: "function", Function: ChatFunction{Name: d.Name, Description: d.Description, Parameters: schema}})
	}
	if err := toolChoice(&out, f); err != nil {
		return ChatRequest{}, err
	}
	return out, nil
}

func field(f map[string]json.RawMessage, name string, v any) error {
	raw, ok := f[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%w: %s: %v", anthropic.ErrInvalidRequest, name, err)
	}
	return nil
}

func toolChoice(out *ChatRequest, f map[string]json.RawMessage) error {
	var tc struct {
		Type                   string `json:"type"`
		Name                   string `json:"name"`
		DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
	}
	if err := field(f, "tool_choice", &tc); err != nil {
		return err
	}
	switch tc.Type {
	case "":
	case "auto":
		out.ToolChoice = "auto"
	case "any":
		out.ToolChoice = "required"
	case "none":
		out.ToolChoice = "none"
	case "tool":
		if tc.Name == "" {
			return fmt.Errorf("%w: tool_choice: type tool needs a name", anthropic.ErrInvalidRequest)
		}
		n := NamedToolChoice{Type: "function"}
		n.Function.Name = tc.Name
		out.ToolChoice = n
	default:
		return fmt.Errorf("tool_choice type %q: %w", tc.Type, ErrUnsupported)
	}
	if tc.DisableParallelToolUse && len(out.Tools) > 0 {
		f := false
		out.ParallelToolCalls = &f
	}
	return nil
}

// systemText joins a string or text-block system prompt.
func systemText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("%w: system: %v", anthropic.ErrInvalidRequest, err)
		}
		return s, nil
	}
	var blocks []inBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("%w: system: %v", anthropic.ErrInvalidRequest, err)
	}
	parts := make([]string, 0, len(blocks))
	for i, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Errorf("system[%d]: block type %q: %w", i, b.Type, ErrUnsupported)
		}
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n"), nil
}

func decodeBlocks(m anthropic.MessageParam) ([]inBlock, error) {
	if m.ContentIsString {
		return []inBlock{{Type: "text", Text: m.Text}}, nil
	}
	out := make([]inBlock, len(m.Blocks))
	for i, b := range m.Blocks {
		if err := json.Unmarshal(b.Raw, &out[i]); err != nil {
			return nil, fmt.Errorf("%w: content[%d]: %v", anthropic.ErrInvalidRequest, i, err)
		}
	}
	return out, nil
}

func convertMessage(m anthropic.MessageParam) ([]ChatMessage, error) {
	blocks, err := decodeBlocks(m)
	if err != nil {
		return nil, err
	}
	switch m.Role {
	case "user":
		return convertUser(blocks)
	case "assistant":
		return convertAssistant(blocks)
	default:
		return nil, fmt.Errorf("%w: role %q", anthropic.ErrInvalidRequest, m.Role)
	}
}

// convertUser emits one role "tool" message per tool_result, first and in
// order (they must directly follow the assistant's tool_calls), then one
// user message with the remaining text and images, if any.
func convertUser(blocks []inBlock) ([]ChatMessage, error) {
	var out []ChatMessage
	var parts []ContentPart
	for i, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, ContentPart{Type: "text", Text: b.Text})
		case "image":
			p, err := imagePart(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			parts = append(parts, p)
		case "tool_result":
			text, images, err := toolResultContent(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			out = append(out, ChatMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text})
			parts = append(parts, images...)
		case "thinking", "redacted_thinking":
			// Never valid in user turns; drop like assistant thinking.
		default:
			return nil, fmt.Errorf("content[%d]: block type %q: %w", i, b.Type, ErrUnsupported)
		}
	}
	if len(parts) > 0 {
		out = append(out, ChatMessage{Role: "user", Content: userContent(parts, "\n\n")})
	}
	return out, nil
}

// userContent is a plain string when every part is text (the form every
// compatible server accepts), else the parts array.
func userContent(parts []ContentPart, sep string) any {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.Type != "text" {
			return parts
		}
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, sep)
}

func imagePart(b inBlock) (ContentPart, error) {
	if b.Source == nil {
		return ContentPart{}, fmt.Errorf("%w: image without source", anthropic.ErrInvalidRequest)
	}
	var u string
	switch b.Source.Type {
	case "base64":
		u = "data:" + b.Source.MediaType + ";base64," + b.Source.Data
	case "url":
		u = b.Source.URL
	default:
		return ContentPart{}, fmt.Errorf("image source %q: %w", b.Source.Type, ErrUnsupported)
	}
	return ContentPart{Type: "image_url", ImageURL: &ImageURL{URL: u}}, nil
}

// toolResultContent flattens a tool_result's content to text; images in
// it are returned separately, to travel in the user message that follows.
func toolResultContent(b inBlock) (string, []ContentPart, error) {
	var text string
	var images []ContentPart
	c := bytes.TrimSpace(b.Content)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
	case c[0] == '"':
		if err := json.Unmarshal(c, &text); err != nil {
			return "", nil, fmt.Errorf("%w: tool_result content: %v", anthropic.ErrInvalidRequest, err)
		}
	default:
		var inner []inBlock
		if err := json.Unmarshal(c, &inner); err != nil {
			return "", nil, fmt.Errorf("%w: tool_result content: %v", anthropic.ErrInvalidRequest, err)
		}
		var texts []string
		for j, ib := range inner {
			switch ib.Type {
			case "text":
				texts = append(texts, ib.Text)
			case "image":
				p, err := imagePart(ib)
				if err != nil {
					return "", nil, fmt.Errorf("tool_result content[%d]: %w", j, err)
				}
				images = append(images, p)
			default:
				return "", nil, fmt.Errorf("tool_result content[%d]: block type %q: %w", j, ib.Type, ErrUnsupported)
			}
		}
		text = strings.Join(texts, "\n\n")
	}
	if b.IsError {
		text = "Error: " + text
	}
	return text, images, nil
}

// convertAssistant joins text blocks (directly: they are one reply split
// for citations) and turns tool_use blocks into tool_calls. Thinking is
// dropped: upstream reasoning cannot be replayed, and DeepSeek rejects
// reasoning_content in input messages.
func convertAssistant(blocks []inBlock) ([]ChatMessage, error) {
	var text strings.Builder
	var calls []ToolCall
	for i, b := range blocks {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args, err := compactJSON(b.Input)
			if err != nil {
				return nil, fmt.Errorf("%w: content[%d]: tool_use input: %v", anthropic.ErrInvalidRequest, i, err)
			}
			calls = append(calls, ToolCall{ID: b.ID, Type: "function", Function: FunctionCall{Name: b.Name, Arguments: args}})
		case "thinking", "redacted_thinking":
		default:
			return nil, fmt.Errorf("content[%d]: block type %q: %w", i, b.Type, ErrUnsupported)
		}
	}
	if text.Len() == 0 && len(calls) == 0 {
		return nil, nil
	}
	m := ChatMessage{Role: "assistant", ToolCalls: calls}
	if text.Len() > 0 {
		m.Content = text.String()
	}
	return []ChatMessage{m}, nil
}

func compactJSON(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "{}", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", err
	}
	return b.String(), nil
}
