package openai

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/webgate/webgate/internal/config"
)

// pairToolCalls makes the conversation obey the rule every Chat
// Completions server and chat template enforces: an assistant message's
// tool calls are answered by tool messages that directly follow it, one
// per call, in call order. Anthropic ties results to calls by id only, so
// results are put in call order here; a call without a result (Anthropic
// refuses those, but a client that broke off a turn can send one) gets a
// result saying so, and a result without its call becomes user text, so
// nothing it says is lost.
func (t *translator) pairToolCalls(msgs []ChatMessage) []ChatMessage {
	out := make([]ChatMessage, 0, len(msgs))
	for i := 0; i < len(msgs); {
		m := msgs[i]
		i++
		if m.Role == "tool" {
			out = append(out, t.orphanResult(m))
			continue
		}
		out = append(out, m)
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		results := make(map[string]ChatMessage, len(m.ToolCalls))
		var orphans []ChatMessage
		for ; i < len(msgs) && msgs[i].Role == "tool"; i++ {
			r := msgs[i]
			if _, dup := results[r.ToolCallID]; dup || !calls(m, r.ToolCallID) {
				orphans = append(orphans, t.orphanResult(r))
				continue
			}
			results[r.ToolCallID] = r
		}
		for _, c := range m.ToolCalls {
			r, ok := results[c.ID]
			if !ok {
				t.degrade("tool_call:unanswered")
				r = ChatMessage{Role: "tool", ToolCallID: c.ID, Content: "Error: this tool call was not answered."}
			}
			out = append(out, r)
		}
		out = append(out, orphans...)
	}
	return out
}

func calls(m ChatMessage, id string) bool {
	for _, c := range m.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// orphanResult turns a tool result whose call is not right before it into
// user text.
func (t *translator) orphanResult(m ChatMessage) ChatMessage {
	t.degrade("tool_result:orphan")
	text, _ := m.Content.(string)
	return ChatMessage{Role: "user", Content: "Result of tool call " + m.ToolCallID + ":\n" + text}
}

// mergeUsers joins adjacent user messages into one (they arise where a
// system message was taken out from between them), since several chat
// templates insist that user and assistant turns alternate.
func mergeUsers(msgs []ChatMessage) []ChatMessage {
	out := msgs[:0]
	for _, m := range msgs {
		if n := len(out); n > 0 && m.Role == "user" && out[n-1].Role == "user" {
			out[n-1].Content = joinContent(out[n-1].Content, m.Content)
			continue
		}
		out = append(out, m)
	}
	return out
}

// joinContent joins two user contents: strings with a blank line, else
// as one parts array.
func joinContent(a, b any) any {
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok && bok {
		return as + "\n\n" + bs
	}
	return append(toParts(a), toParts(b)...)
}

func toParts(c any) []ContentPart {
	switch c := c.(type) {
	case string:
		return []ContentPart{{Type: "text", Text: c}}
	case []ContentPart:
		return c
	}
	return nil
}

// shortenUser bounds the user identifier: one longer than max becomes
// "wg-" and a hash of it (stable, so a user's requests still share one
// identifier); max < 0 leaves it out.
func shortenUser(id string, max int) string {
	if max < 0 || id == "" {
		return ""
	}
	if len(id) <= max {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	h := "wg-" + hex.EncodeToString(sum[:16])
	if len(h) > max {
		h = h[:max]
	}
	return h
}

// reasoning maps the request's thinking and output_config.effort to the
// model's configured reasoning control (config.ModelRule.Reasoning), or
// drops them when none is configured. Anthropic's effort levels are low,
// medium, high and max; "max" (and anything above high) is sent as high,
// the top level every Chat Completions server accepts. Without an effort,
// a thinking budget picks one: below 4096 tokens low, below 16384 medium,
// else high.
func (t *translator) reasoning(out *ChatRequest, f map[string]json.RawMessage) error {
	var th struct {
		Type         string `json:"type"`
		BudgetTokens int    `json:"budget_tokens"`
	}
	var oc struct {
		Effort string `json:"effort"`
	}
	if err := field(f, "thinking", &th); err != nil {
		return err
	}
	if err := field(f, "output_config", &oc); err != nil {
		return err
	}
	hasThinking, hasEffort := th.Type != "", oc.Effort != ""
	on := th.Type == "enabled" || th.Type == "adaptive"
	effort := ""
	switch oc.Effort {
	case "low", "medium", "high":
		effort = oc.Effort
	case "":
	default:
		effort = "high"
	}
	if effort == "" && th.Type == "enabled" && th.BudgetTokens > 0 {
		switch {
		case th.BudgetTokens < 4096:
			effort = "low"
		case th.BudgetTokens < 16384:
			effort = "medium"
		default:
			effort = "high"
		}
	}
	usedThinking, usedEffort := false, false
	switch t.rule.Reasoning {
	case config.ReasoningEffort:
		if on && effort != "" {
			out.ReasoningEffort = effort
			usedThinking, usedEffort = true, hasEffort
		}
	case config.ReasoningOpenRouter:
		switch {
		case th.Type == "disabled":
			out.Reasoning = &ReasoningConfig{Enabled: new(false)}
			usedThinking = true
		case on && hasEffort:
			out.Reasoning = &ReasoningConfig{Effort: effort}
			usedThinking, usedEffort = true, true
		case th.Type == "enabled" && th.BudgetTokens > 0:
			out.Reasoning = &ReasoningConfig{MaxTokens: th.BudgetTokens}
			usedThinking = true
		case on:
			out.Reasoning = &ReasoningConfig{Enabled: new(true)}
			usedThinking = true
		}
	case config.ReasoningThinking:
		if hasThinking {
			out.Thinking = &ThinkingSwitch{Type: "disabled"}
			if on {
				out.Thinking.Type = "enabled"
			}
			usedThinking = true
		}
	case config.ReasoningChatTemplate:
		if hasThinking {
			out.ChatTemplateKwargs = map[string]any{"enable_thinking": on}
			usedThinking = true
		}
	}
	if hasThinking && !usedThinking {
		t.degrade("member:thinking")
	}
	if hasEffort && !usedEffort {
		t.degrade("member:output_config")
	}
	return nil
}
