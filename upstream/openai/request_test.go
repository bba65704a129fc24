package openai

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webgate/webgate/anthropic"
)

// toChatJSON decodes an Anthropic body, translates it and returns the Chat
// Completions body as a generic value.
func toChatJSON(t *testing.T, body string, opts Options) (any, error) {
	t.Helper()
	req, err := anthropic.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	out, err := ToChat(req, opts)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v, nil
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad want JSON %s: %v", s, err)
	}
	return v
}

func TestToChat(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   string
		want string
	}{{
		name: "string system and content",
		in:   `{"model":"m","max_tokens":100,"system":"Be brief.","messages":[{"role":"user","content":"Hi"}]}`,
		want: `{"model":"m","max_tokens":100,"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`,
	}, {
		name: "system blocks joined, cache_control ignored",
		in:   `{"model":"m","system":[{"type":"text","text":"A"},{"type":"text","text":"B","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":[{"type":"text","text":"x"},{"type":"text","text":"y"}]}]}`,
		want: `{"model":"m","messages":[{"role":"system","content":"A\n\nB"},{"role":"user","content":"x\n\ny"}]}`,
	}, {
		name: "images base64 and url",
		in:   `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"what?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}},{"type":"image","source":{"type":"url","url":"https://x/y.jpg"}}]}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"what?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}},{"type":"image_url","image_url":{"url":"https://x/y.jpg"}}]}]}`,
	}, {
		name: "tool use and results ordering",
		in: `{"model":"m","messages":[
			{"role":"user","content":"go"},
			{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"text","text":"Calling."},{"type":"tool_use","id":"toolu_1","name":"read","input":{ "path" : "a" }},{"type":"tool_use","id":"toolu_2","name":"ls","input":{}}]},
			{"role":"user","content":[{"type":"text","text":"also this"},{"type":"tool_result","tool_use_id":"toolu_1","content":"file body"},{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"denied"},{"type":"text","text":"twice"}]}]}]}`,
		want: `{"model":"m","messages":[
			{"role":"user","content":"go"},
			{"role":"assistant","content":"Calling.","tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}},{"id":"toolu_2","type":"function","function":{"name":"ls","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"toolu_1","content":"file body"},
			{"role":"tool","tool_call_id":"toolu_2","content":"Error: denied\n\ntwice"},
			{"role":"user","content":"also this"}]}`,
	}, {
		name: "assistant tool call only has null content, empty result",
		in:   `{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":null}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}]}`,
		want: `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"t","content":""}]}`,
	}, {
		name: "thinking-only assistant turn dropped",
		in:   `{"model":"m","messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"redacted_thinking","data":"x"}]},{"role":"user","content":"b"}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`,
	}, {
		name: "tool result image moves to user message",
		in:   `{"model":"m","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"shot"},{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"AA"}}]}]}]}`,
		want: `{"model":"m","messages":[{"role":"tool","tool_call_id":"t","content":"shot"},{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,AA"}}]}]}`,
	}, {
		name: "tools and tool_choice any",
		in:   `{"model":"m","tools":[{"name":"f","description":"does f","input_schema":{"type":"object","properties":{"a":{"type":"string"}}}},{"name":"g","input_schema":null}],"tool_choice":{"type":"any","disable_parallel_tool_use":true},"messages":[]}`,
		want: `{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"f","description":"does f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}},{"type":"function","function":{"name":"g","parameters":{"type":"object","properties":{}}}}],"tool_choice":"required","parallel_tool_calls":false}`,
	}, {
		name: "tool_choice tool",
		in:   `{"model":"m","tools":[{"name":"f","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"f"},"messages":[]}`,
		want: `{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"f"}}}`,
	}, {
		name: "tool_choice none",
		in:   `{"model":"m","tool_choice":{"type":"none"},"messages":[]}`,
		want: `{"model":"m","messages":[],"tool_choice":"none"}`,
	}, {
		name: "tool_choice auto, parallel flag needs tools",
		in:   `{"model":"m","tool_choice":{"type":"auto","disable_parallel_tool_use":true},"messages":[]}`,
		want: `{"model":"m","messages":[],"tool_choice":"auto"}`,
	}, {
		name: "sampling, stop, metadata, stream",
		in:   `{"model":"m","max_tokens":5,"temperature":0.5,"top_p":0.9,"top_k":3,"stop_sequences":["END","\n\n"],"metadata":{"user_id":"u1"},"stream":true,"messages":[]}`,
		want: `{"model":"m","max_tokens":5,"temperature":0.5,"top_p":0.9,"stop":["END","\n\n"],"user":"u1","stream":true,"stream_options":{"include_usage":true},"messages":[]}`,
	}, {
		name: "max_completion_tokens",
		opts: Options{MaxCompletionTokens: true},
		in:   `{"model":"m","max_tokens":7,"messages":[]}`,
		want: `{"model":"m","max_completion_tokens":7,"messages":[]}`,
	}, {
		name: "model map first match wins",
		opts: Options{Models: ModelMap{{Pattern: "claude-*-haiku*", Model: "small"}, {Pattern: "claude-*", Model: "qwen3-coder"}, {Pattern: "*", Model: "never"}}},
		in:   `{"model":"claude-3-5-haiku-latest","messages":[]}`,
		want: `{"model":"small","messages":[]}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toChatJSON(t, tt.in, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mustJSON(t, tt.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestToChatErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		unsupported    bool
	}{
		{"server tool", `{"model":"m","tools":[{"type":"web_search_20250305","name":"web_search"}],"messages":[]}`, "web_search_20250305", true},
		{"url document", `{"model":"m","messages":[{"role":"user","content":[{"type":"document","source":{"type":"url","url":"https://x/a.pdf"}}]}]}`, `document source "url"`, true},
		{"unknown block", `{"model":"m","messages":[{"role":"user","content":[{"type":"container_upload_x"}]}]}`, `"container_upload_x"`, true},
		{"server_tool_use in history", `{"model":"m","messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}}]}]}`, "messages[0]", true},
		{"image file source", `{"model":"m","messages":[{"role":"user","content":[{"type":"image","source":{"type":"file","file_id":"f"}}]}]}`, `"file"`, true},
		{"image no source", `{"model":"m","messages":[{"role":"user","content":[{"type":"image"}]}]}`, "without source", false},
		{"non-text system", `{"model":"m","system":[{"type":"image"}],"messages":[]}`, "system[0]", true},
		{"bad role", `{"model":"m","messages":[{"role":"system","content":"x"}]}`, "role", false},
		{"tool_choice tool without name", `{"model":"m","tool_choice":{"type":"tool"},"messages":[]}`, "needs a name", false},
		{"bad temperature", `{"model":"m","temperature":"hot","messages":[]}`, "temperature", false},
		{"bad tool input", `{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"a":}}]}]}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := anthropic.DecodeRequest([]byte(tt.in))
			if err != nil {
				if tt.want == "" {
					return // rejected even earlier, by the decoder
				}
				t.Fatalf("decode: %v", err)
			}
			_, err = ToChat(req, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if got := errors.Is(err, ErrUnsupported); got != tt.unsupported {
				t.Errorf("errors.Is(ErrUnsupported) = %v, want %v (%v)", got, tt.unsupported, err)
			}
			if !tt.unsupported && !errors.Is(err, anthropic.ErrInvalidRequest) {
				t.Errorf("error %v does not wrap ErrInvalidRequest", err)
			}
		})
	}
}

func TestModelMap(t *testing.T) {
	m := ModelMap{{Pattern: "claude-*", Model: "q"}, {Pattern: "gpt-?", Model: "g"}}
	for in, want := range map[string]string{"claude-opus-4": "q", "gpt-4": "g", "gpt-40": "gpt-40", "other": "other", "": ""} {
		if got := m.Map(in); got != want {
			t.Errorf("Map(%q) = %q, want %q", in, got, want)
		}
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	if err := (ModelMap{{Pattern: "[", Model: "x"}}).Validate(); err == nil {
		t.Error("bad pattern accepted")
	}
	if err := (ModelMap{{Pattern: "a", Model: ""}}).Validate(); err == nil {
		t.Error("empty model accepted")
	}
}
