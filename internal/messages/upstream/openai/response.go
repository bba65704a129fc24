package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webgate/webgate/internal/messages/wire"
)

// StopReason maps a finish_reason
// (https://platform.openai.com/docs/api-reference/chat/object) to an
// Anthropic stop_reason
// (https://docs.anthropic.com/en/api/handling-stop-reasons). hasTools
// turns "stop" into tool_use for servers that finish tool calls with it
// (Ollama, some OpenAI models when streaming). content_filter and GLM's
// "sensitive" map to refusal, Anthropic's reason for a reply its safety
// systems cut short.
func StopReason(finish string, hasTools bool) string {
	switch finish {
	case "length", "max_tokens":
		return "max_tokens"
	case "model_context_window_exceeded":
		return "model_context_window_exceeded"
	case "tool_calls", "function_call", "tool_use":
		return "tool_use"
	case "content_filter", "sensitive":
		return "refusal"
	}
	if hasTools {
		return "tool_use"
	}
	return "end_turn"
}

// ConvertUsage maps token counts. Anthropic's input_tokens excludes cache
// reads and writes, so those are subtracted from prompt_tokens.
func ConvertUsage(u *ChatUsage) wire.Usage {
	if u == nil {
		return wire.Usage{}
	}
	cached, written := u.PromptCacheHitTokens, 0
	if d := u.PromptTokensDetails; d != nil {
		if d.CachedTokens > 0 {
			cached = d.CachedTokens
		}
		written = d.CacheWriteTokens
	}
	prompt := max(u.PromptTokens, 0)
	cached = min(max(cached, 0), prompt)
	written = min(max(written, 0), prompt-cached)
	return wire.Usage{
		InputTokens:              prompt - cached - written,
		CacheReadInputTokens:     cached,
		CacheCreationInputTokens: written,
		OutputTokens:             max(u.CompletionTokens, 0),
	}
}

// err returns the response's error, in whichever shape it came.
func (r *ChatResponse) err() *ChatError {
	if r.Error != nil {
		return r.Error
	}
	if r.Object == "error" {
		return &ChatError{Message: r.Message}
	}
	return nil
}

// FromChat translates a non-streaming response into a Messages response.
// Every choice belongs to the reply (webgate never asks for n > 1, and
// GitHub Copilot splits a Claude model's text and tool calls across
// choices). A tool call whose arguments are not a JSON object is an
// error: the client could not use it.
func FromChat(resp *ChatResponse, opts Options) (*wire.Message, error) {
	if e := resp.err(); e != nil {
		return nil, fmt.Errorf("%w: %s", ErrUpstream, errorMessage(e))
	}
	if len(resp.Choices) == 0 {
		return nil, fmt.Errorf("%w: response has no choices", ErrUpstream)
	}
	m := &wire.Message{
		ID:      messageID(resp.ID, &opts),
		Type:    "message",
		Role:    "assistant",
		Model:   cmpOr(opts.Model, resp.Model),
		Content: []wire.ContentBlock{},
	}
	var (
		thinking, text strings.Builder
		sig            string
		sigSet         bool
		tools          []wire.ContentBlock
		finish, seq    string
		refused        bool
		usage          = resp.Usage
		think          thinkSplitter
	)
	if opts.KeepThinkTags {
		think.state = thinkPlain
	}
	addThinking := func(s, field string) {
		if s == "" {
			return
		}
		if !sigSet {
			sig, sigSet = ReasoningSignature(field), true
		}
		thinking.WriteString(s)
	}
	for _, ch := range resp.Choices {
		msg := ch.Message
		if finishIsError(ch.FinishReason) {
			return nil, fmt.Errorf("%w: upstream ended the reply with finish_reason %q", ErrUpstream, ch.FinishReason)
		}
		if finishRank(ch.FinishReason) > finishRank(finish) {
			finish = ch.FinishReason
		}
		if s := matchedStop(opts.StopSequences, ch.StopReason, ch.MatchedStop); s != "" {
			seq = s
		}
		if ch.Usage != nil {
			usage = ch.Usage
		}
		addThinking(msg.ReasoningContent, fieldReasoningContent)
		addThinking(msg.Reasoning, fieldReasoning)
		addThinking(msg.Content.Thinking, "")
		th, tx := think.split(msg.Content.Text)
		addThinking(th, "")
		text.WriteString(tx)
		text.WriteString(msg.Refusal)
		refused = refused || msg.Refusal != ""
		for i, tc := range msg.ToolCalls {
			input, err := toolInput(string(tc.Function.Arguments))
			if err != nil {
				return nil, fmt.Errorf("%w: tool_calls[%d] (%s) arguments: %v", ErrUpstream, i, tc.Function.Name, err)
			}
			if tc.Function.Name == "" {
				return nil, fmt.Errorf("%w: tool_calls[%d] has no function name", ErrUpstream, i)
			}
			id := tc.ID
			if id == "" {
				id = opts.newID("toolu_")
			}
			tools = append(tools, ToolUseBlock{ID: id, Name: opts.toolName(tc.Function.Name), Input: input})
		}
	}
	th, tx := think.flush()
	addThinking(th, "")
	text.WriteString(tx)
	if thinking.Len() > 0 {
		m.Content = append(m.Content, ThinkingBlock{Thinking: thinking.String(), Signature: sig})
	}
	if text.Len() > 0 && (len(tools) == 0 || strings.TrimSpace(text.String()) != "") {
		m.Content = append(m.Content, wire.TextBlock{Text: text.String()})
	}
	m.Content = append(m.Content, tools...)
	stop := StopReason(finish, len(tools) > 0)
	switch {
	case refused && !cutOff(finish):
		stop = "refusal"
	case seq != "" && stop == "end_turn":
		stop = "stop_sequence"
		m.StopSequence = &seq
	}
	m.StopReason = &stop
	m.Usage = ConvertUsage(usage)
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
		if strings.HasPrefix(upstream, "msg_") {
			return upstream
		}
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
