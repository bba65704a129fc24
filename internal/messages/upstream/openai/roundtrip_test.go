package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webgate/webgate/internal/messages/wire"
)

// TestRoundTrip sends an upstream reply back as conversation history: the
// assistant message ToChat rebuilds from FromChat's output must carry the
// same text and tool calls (ids kept, arguments compact), with the
// reasoning replayed in the field it came in (DeepSeek and Kimi require it
// on tool-calling turns), and the client's tool results must answer those
// ids.
func TestRoundTrip(t *testing.T) {
	var resp ChatResponse
	const in = `{"id":"c","model":"up","choices":[{"message":{"content":"Let me look.","reasoning_content":"plan","tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\": \"a.go\", \"n\": [1, 2]}"}},
		{"id":"call_2","type":"function","function":{"name":"ls","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`
	if err := json.Unmarshal([]byte(in), &resp); err != nil {
		t.Fatal(err)
	}
	msg, err := FromChat(&resp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	content, err := wire.Marshal(msg.Content)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"model":"claude-x","messages":[{"role":"user","content":"go"},{"role":"assistant","content":` + string(content) + `},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"package a"},{"type":"tool_result","tool_use_id":"call_2","content":"a.go"}]}]}`
	req, err := wire.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	chat, err := ToChat(context.Background(), req, Options{Models: ModelMap{{Pattern: "claude-*", Model: "up"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []ChatMessage{
		{Role: "user", Content: "go"},
		{Role: "assistant", Content: "Let me look.", ReasoningContent: ptr("plan"), ToolCalls: []ToolCall{
			{ID: "call_1", Type: "function", Function: FunctionCall{Name: "read", Arguments: `{"path":"a.go","n":[1,2]}`}},
			{ID: "call_2", Type: "function", Function: FunctionCall{Name: "ls", Arguments: `{}`}},
		}},
		{Role: "tool", ToolCallID: "call_1", Content: "package a"},
		{Role: "tool", ToolCallID: "call_2", Content: "a.go"},
	}
	if diff := cmp.Diff(want, chat.Messages); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if chat.Model != "up" {
		t.Errorf("model %q", chat.Model)
	}
}

func ptr[T any](v T) *T { return &v }
