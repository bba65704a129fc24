package emulatetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// ChatPath is where the OpenAI-compatible fake answers; configure the
// upstream's base_url as URL + "/v1".
const ChatPath = "/v1/chat/completions"

// NewOpenAI starts a fake Chat Completions server (upstream kind openai)
// that plays the same scripts as New. Each step sees the request as a
// Messages API view (see Request.Body) and its reply, written as Messages
// API events, is streamed the way OpenAI-compatible servers stream: text
// as content deltas, thinking as reasoning_content deltas, each tool call
// opened with its id and name and its arguments sent in Chunk-sized
// fragments, finish_reason in a chunk of its own, usage in a final chunk
// with no choices, then [DONE]. An error event becomes an OpenAI error
// chunk, an error status an OpenAI error body.
func NewOpenAI(t testing.TB, steps ...Step) *Upstream {
	u := New(t, steps...)
	u.openai = true
	return u
}

// chatRequest is the part of a Chat Completions request the view reads.
type chatRequest struct {
	Model     string          `json:"model"`
	Messages  []chatMessage   `json:"messages"`
	Tools     []chatTool      `json:"tools"`
	Stream    bool            `json:"stream"`
	MaxTokens json.RawMessage `json:"max_tokens"`
}

type chatMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent *string         `json:"reasoning_content"`
	Reasoning        *string         `json:"reasoning"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

type chatTool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// messagesView rewrites a Chat Completions request as the Messages API
// request it stands for, so one script can inspect what either kind of
// upstream was sent: system messages become "system" (a string), tool
// messages and the user message after them one user message of
// tool_result blocks (is_error when the content starts "Error: ")
// followed by its other blocks, assistant tool_calls tool_use blocks with
// the arguments parsed, replayed reasoning a thinking block whose
// signature names the field it came in.
func messagesView(raw []byte) ([]byte, error) {
	var req chatRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("chat request: %w", err)
	}
	type message struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	var system []string
	var msgs []message
	var pending []any // tool_result blocks waiting for their user message
	flush := func() {
		if len(pending) > 0 {
			msgs = append(msgs, message{Role: "user", Content: pending})
			pending = nil
		}
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			system = append(system, contentText(m.Content))
		case "tool":
			text := contentText(m.Content)
			b := map[string]any{"type": "tool_result", "tool_use_id": m.ToolCallID, "content": strings.TrimPrefix(text, "Error: ")}
			if strings.HasPrefix(text, "Error: ") {
				b["is_error"] = true
			}
			pending = append(pending, b)
		case "user":
			var s string
			if json.Unmarshal(m.Content, &s) == nil && len(pending) == 0 {
				msgs = append(msgs, message{Role: "user", Content: s})
				continue
			}
			blocks := append(pending, contentBlocks(m.Content)...)
			pending = nil
			msgs = append(msgs, message{Role: "user", Content: blocks})
		case "assistant":
			flush()
			var blocks []any
			switch {
			case m.ReasoningContent != nil:
				blocks = append(blocks, map[string]any{"type": "thinking", "thinking": *m.ReasoningContent, "signature": "reasoning_content"})
			case m.Reasoning != nil:
				blocks = append(blocks, map[string]any{"type": "thinking", "thinking": *m.Reasoning, "signature": "reasoning"})
			}
			if text := contentText(m.Content); text != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": text})
			}
			for _, c := range m.ToolCalls {
				var in any
				if err := json.Unmarshal([]byte(c.Function.Arguments), &in); err != nil {
					return nil, fmt.Errorf("messages[%d]: tool call %s arguments: %w", i, c.ID, err)
				}
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Function.Name, "input": in})
			}
			msgs = append(msgs, message{Role: "assistant", Content: blocks})
		default:
			return nil, fmt.Errorf("messages[%d]: role %q", i, m.Role)
		}
	}
	flush()
	view := map[string]any{"model": req.Model, "stream": req.Stream, "messages": msgs}
	if len(system) > 0 {
		view["system"] = strings.Join(system, "\n\n")
	}
	if req.MaxTokens != nil {
		view["max_tokens"] = req.MaxTokens
	}
	if len(req.Tools) > 0 {
		tools := make([]any, len(req.Tools))
		for i, t := range req.Tools {
			tools[i] = map[string]any{"name": t.Function.Name, "description": t.Function.Description, "input_schema": t.Function.Parameters}
		}
		view["tools"] = tools
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(view); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// contentText is a message's content as text: the string, or its text
// parts joined.
func contentText(c json.RawMessage) string {
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(c, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// contentBlocks is a user message's content as Messages API blocks: text
// parts as text blocks, other parts by their type alone.
func contentBlocks(c json.RawMessage) []any {
	var s string
	if json.Unmarshal(c, &s) == nil {
		return []any{map[string]any{"type": "text", "text": s}}
	}
	var parts []map[string]any
	_ = json.Unmarshal(c, &parts)
	out := make([]any, len(parts))
	for i, p := range parts {
		if p["type"] == "text" {
			out[i] = map[string]any{"type": "text", "text": p["text"]}
		} else {
			out[i] = map[string]any{"type": p["type"]}
		}
	}
	return out
}

// chatErrorBody rewrites an Anthropic error body in OpenAI's shape; other
// bodies are sent as they are.
func chatErrorBody(body string) string {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) != nil || e.Error.Type == "" {
		return body
	}
	return mustJSON(map[string]any{"error": map[string]any{"message": e.Error.Message, "type": e.Error.Type, "code": nil}})
}

// chunker turns scripted Messages API events into Chat Completions
// stream lines.
type chunker struct {
	input, output int
	blocks        map[int]string // block index -> type
	calls         map[int]int    // tool_use block index -> tool call index
}

func (c *chunker) chunk(delta map[string]any, finish any) string {
	return "data: " + mustJSON(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1767225600,
		"model": "upstream-model", "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}) + "\n\n"
}

func (c *chunker) convert(ev Event) []string {
	var d struct {
		Message struct {
			Usage struct {
				InputTokens int `json:"input_tokens"`
			} `json:"usage"`
		} `json:"message"`
		Index        int `json:"index"`
		ContentBlock struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"content_block"`
		Delta struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			Thinking    string `json:"thinking"`
			PartialJSON string `json:"partial_json"`
			StopReason  string `json:"stop_reason"`
		} `json:"delta"`
		Usage struct {
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
		panic(fmt.Sprintf("emulatetest: scripted %s event: %v", ev.Name, err))
	}
	switch ev.Name {
	case "message_start":
		c.input = d.Message.Usage.InputTokens
		c.blocks, c.calls = map[int]string{}, map[int]int{}
		return []string{c.chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	case "ping":
		return []string{": keep-alive\n\n"}
	case "content_block_start":
		c.blocks[d.Index] = d.ContentBlock.Type
		if d.ContentBlock.Type != "tool_use" {
			return nil
		}
		n := len(c.calls)
		c.calls[d.Index] = n
		return []string{c.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": n, "id": d.ContentBlock.ID, "type": "function",
			"function": map[string]any{"name": d.ContentBlock.Name, "arguments": ""}}}}, nil)}
	case "content_block_delta":
		switch d.Delta.Type {
		case "text_delta":
			return []string{c.chunk(map[string]any{"content": d.Delta.Text}, nil)}
		case "thinking_delta":
			return []string{c.chunk(map[string]any{"reasoning_content": d.Delta.Thinking}, nil)}
		case "input_json_delta":
			return []string{c.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": c.calls[d.Index],
				"function": map[string]any{"arguments": d.Delta.PartialJSON}}}}, nil)}
		}
		return nil // signature_delta has no Chat Completions form
	case "message_delta":
		c.output = d.Usage.OutputTokens
		finish := map[string]string{"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}[d.Delta.StopReason]
		if finish == "" {
			finish = "stop"
		}
		usage := "data: " + mustJSON(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1767225600,
			"model": "upstream-model", "choices": []any{},
			"usage": map[string]any{"prompt_tokens": c.input, "completion_tokens": c.output, "total_tokens": c.input + c.output}}) + "\n\n"
		return []string{c.chunk(map[string]any{}, finish), usage}
	case "message_stop":
		return []string{"data: [DONE]\n\n"}
	case "error":
		return []string{"data: " + mustJSON(map[string]any{"error": map[string]any{"message": d.Error.Message, "type": d.Error.Type, "code": nil}}) + "\n\n"}
	}
	return nil
}

func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSpace(b.String())
}
