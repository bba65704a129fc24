package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/webgate/webgate/anthropic"
)

// ErrUpstream wraps errors the upstream reported or malformed replies.
var ErrUpstream = errors.New("openai upstream")

// StopReason maps a finish_reason to an Anthropic stop_reason. hasTools
// turns "stop" into tool_use for servers that finish tool calls with it.
// content_filter maps to refusal, Anthropic's reason for a reply its
// safety systems cut short.
func StopReason(finish string, hasTools bool) string {
	switch finish {
	case "length":
		return "max_tokens"
	case "tool_calls", "function_call":
		return "tool_use"
	case "content_filter":
		return "refusal"
	}
	if hasTools {
		return "tool_use"
	}
	return "end_turn"
}

// ConvertUsage maps token counts. Anthropic's input_tokens excludes cache
// reads, so cached tokens are subtracted from prompt_tokens.
func ConvertUsage(u *ChatUsage) anthropic.Usage {
	if u == nil {
		return anthropic.Usage{}
	}
	cached := u.PromptCacheHitTokens
	if d := u.PromptTokensDetails; d != nil && d.CachedTokens > 0 {
		cached = d.CachedTokens
	}
	cached = min(max(cached, 0), max(u.PromptTokens, 0))
	return anthropic.Usage{
		InputTokens:          u.PromptTokens - cached,
		CacheReadInputTokens: cached,
		OutputTokens:         u.CompletionTokens,
	}
}

// FromChat translates a non-streaming response into a Messages response.
// A tool call whose arguments are not a JSON object is an error: the
// client could not use it.
func FromChat(resp *ChatResponse, opts Options) (*anthropic.Message, error) {
	if resp.Error != nil {
		return nil, fmt.Errorf("%w: %s", ErrUpstream, resp.Error.Message)
	}
	if len(resp.Choices) == 0 {
		return nil, fmt.Errorf("%w: response has no choices", ErrUpstream)
	}
	ch := resp.Choices[0]
	m := &anthropic.Message{
		ID:      messageID(resp.ID, &opts),
		Type:    "message",
		Role:    "assistant",
		Model:   cmpOr(opts.Model, resp.Model),
		Content: []anthropic.ContentBlock{},
		Usage:   ConvertUsage(resp.Usage),
	}
	msg := ch.Message
	if r := cmpOr(msg.ReasoningContent, msg.Reasoning); r != "" {
		m.Content = append(m.Content, ThinkingBlock{Thinking: r})
	}
	text := ""
	if msg.Content != nil {
		text = *msg.Content
	}
	if text == "" {
		text = msg.Refusal
	}
	if text != "" {
		m.Content = append(m.Content, anthropic.TextBlock{Text: text})
	}
	for i, tc := range msg.ToolCalls {
		input, err := toolInput(tc.Function.Arguments)
		if err != nil {
			return nil, fmt.Errorf("%w: tool_calls[%d] (%s) arguments: %v", ErrUpstream, i, tc.Function.Name, err)
		}
		id := tc.ID
		if id == "" {
			id = opts.newID("toolu_")
		}
		m.Content = append(m.Content, ToolUseBlock{ID: id, Name: tc.Function.Name, Input: input})
	}
	stop := StopReason(ch.FinishReason, len(msg.ToolCalls) > 0)
	if msg.Refusal != "" && ch.FinishReason != "length" {
		stop = "refusal"
	}
	m.StopReason = &stop
	return m, nil
}

// toolInput validates arguments as a JSON object and compacts it.
func toolInput(args string) (json.RawMessage, error) {
	b := bytes.TrimSpace([]byte(args))
	if len(b) == 0 {
		return json.RawMessage(`{}`), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return json.RawMessage(`{}`), nil
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func messageID(upstream string, opts *Options) string {
	if upstream != "" && len(upstream) <= 128 {
		return "msg_" + upstream
	}
	return opts.newID("msg_")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
