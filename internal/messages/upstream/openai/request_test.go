package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webgate/webgate/internal/messages/wire"
)

// toChatJSON decodes an Anthropic body, translates it and returns the Chat
// Completions body as a generic value.
func toChatJSON(t *testing.T, body string, opts Options) (any, error) {
	t.Helper()
	req, err := wire.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	out, err := ToChat(context.Background(), req, opts)
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
		want: `{"model":"m","messages":[{"role":"user","content":"a\n\nb"}]}`,
	}, {
		name: "tool result image moves to user message",
		in:   `{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"shot"},{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"AA"}}]}]}]}`,
		want: `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"t","type":"function","function":{"name":"Read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"t","content":"shot"},{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,AA"}}]}]}`,
	}, {
		name: "tool result without its call becomes user text",
		in:   `{"model":"m","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"late"},{"type":"text","text":"next"}]}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":"Result of tool call t:\nlate\n\nnext"}]}`,
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
		name: "tool_choice and the parallel flag need tools",
		in:   `{"model":"m","tool_choice":{"type":"auto","disable_parallel_tool_use":true},"messages":[]}`,
		want: `{"model":"m","messages":[]}`,
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
	}, {
		name: "system messages inside messages merge into the leading one, in order",
		in:   `{"model":"m","system":"S","messages":[{"role":"user","content":"a"},{"role":"system","content":"env"},{"role":"user","content":"b"},{"role":"system","content":[{"type":"text","text":"late"}]}]}`,
		want: `{"model":"m","messages":[{"role":"system","content":"S\n\nenv\n\nlate"},{"role":"user","content":"a\n\nb"}]}`,
	}, {
		name: "tool_addition adds a tool, tool_removal removes one",
		in:   `{"model":"m","tools":[{"name":"keep","input_schema":{"type":"object"}},{"name":"gone","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"a"},{"role":"system","content":[{"type":"tool_addition","tool":{"type":"tool_definition","definition":{"name":"added","description":"new","input_schema":{"type":"object"}}}},{"type":"tool_removal","tool":{"type":"tool_reference","name":"gone"}}]}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":"a"}],"tools":[{"type":"function","function":{"name":"keep","parameters":{"type":"object"}}},{"type":"function","function":{"name":"added","description":"new","parameters":{"type":"object"}}}]}`,
	}, {
		name: "deferred tools wait for a tool_reference",
		in:   `{"model":"m","tools":[{"name":"ToolSearch","input_schema":{"type":"object"}},{"name":"WebSearch","input_schema":{"type":"object"},"defer_loading":true},{"name":"Other","input_schema":{"type":"object"},"defer_loading":true}],"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"ToolSearch","input":{"query":"select:WebSearch"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":[{"type":"tool_reference","tool_name":"WebSearch"}]}]}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ToolSearch","arguments":"{\"query\":\"select:WebSearch\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"Tool loaded: WebSearch. Call it directly."}],"tools":[{"type":"function","function":{"name":"ToolSearch","parameters":{"type":"object"}}},{"type":"function","function":{"name":"WebSearch","parameters":{"type":"object"}}}]}`,
	}, {
		name: "tool results put in call order; an unanswered call gets a result",
		in:   `{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"b","name":"f","input":{}},{"type":"tool_use","id":"c","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"3"},{"type":"tool_result","tool_use_id":"a","content":"1"}]}]}`,
		want: `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b","content":"Error: this tool call was not answered."},{"role":"tool","tool_call_id":"c","content":"3"}]}`,
	}, {
		name: "function names Chat Completions refuses are changed",
		in:   `{"model":"m","tools":[{"name":"mcp__srv__read.file","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"mcp__srv__read.file"},"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"mcp__srv__read.file","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]}]}`,
		want: `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"mcp__srv__read_file","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"x"}],"tools":[{"type":"function","function":{"name":"mcp__srv__read_file","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"mcp__srv__read_file"}}}`,
	}, {
		name: "code execution is said to be unavailable",
		in:   `{"model":"m","tools":[{"type":"code_execution_20250825","name":"code_execution"},{"name":"web_search","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","messages":[{"role":"system","content":"Code execution is not available on this backend: there is no code_execution tool. Work with the web_search and web_fetch results directly."},{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"web_search","parameters":{"type":"object"}}}]}`,
	}, {
		name: "per-model limits: max_tokens clamped, long user hashed, long description cut",
		opts: Options{Models: ModelMap{{Pattern: "*", MaxTokens: 1000, MaxUserLength: 20, MaxToolDescription: 30}}},
		in:   `{"model":"m","max_tokens":128000,"metadata":{"user_id":"` + strings.Repeat("u", 150) + `"},"tools":[{"name":"f","description":"First sentence here. Second sentence is long.","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","max_tokens":1000,"user":"wg-816752062318c8f21","messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"f","description":"First sentence here. …","parameters":{"type":"object"}}}]}`,
	}, {
		name: "reasoning_effort from output_config",
		opts: Options{Models: ModelMap{{Pattern: "*", Reasoning: "reasoning_effort"}}},
		in:   `{"model":"m","thinking":{"type":"adaptive"},"output_config":{"effort":"max"},"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","reasoning_effort":"high","messages":[{"role":"user","content":"q"}]}`,
	}, {
		name: "reasoning_effort from a thinking budget",
		opts: Options{Models: ModelMap{{Pattern: "*", Reasoning: "reasoning_effort"}}},
		in:   `{"model":"m","thinking":{"type":"enabled","budget_tokens":2000},"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","reasoning_effort":"low","messages":[{"role":"user","content":"q"}]}`,
	}, {
		name: "openrouter reasoning",
		opts: Options{Models: ModelMap{{Pattern: "*", Reasoning: "openrouter"}}},
		in:   `{"model":"m","thinking":{"type":"enabled","budget_tokens":5000},"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","reasoning":{"max_tokens":5000},"messages":[{"role":"user","content":"q"}]}`,
	}, {
		name: "thinking switch",
		opts: Options{Models: ModelMap{{Pattern: "*", Reasoning: "thinking"}}},
		in:   `{"model":"m","thinking":{"type":"disabled"},"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","thinking":{"type":"disabled"},"messages":[{"role":"user","content":"q"}]}`,
	}, {
		name: "chat template switch",
		opts: Options{Models: ModelMap{{Pattern: "*", Reasoning: "chat_template"}}},
		in:   `{"model":"m","thinking":{"type":"adaptive"},"messages":[{"role":"user","content":"q"}]}`,
		want: `{"model":"m","chat_template_kwargs":{"enable_thinking":true},"messages":[{"role":"user","content":"q"}]}`,
	}, {
		name: "PDF documents become text",
		opts: Options{PDFText: func(_ context.Context, data string) (string, error) { return "text of " + data, nil }},
		in:   `{"model":"m","messages":[{"role":"user","content":[{"type":"document","title":"Spec","source":{"type":"base64","media_type":"application/pdf","data":"JVBE"}},{"type":"text","text":"summarise"}]}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":"Spec\n\ntext of JVBE\n\nsummarise"}]}`,
	}, {
		name: "an unreadable PDF becomes a note",
		in:   `{"model":"m","messages":[{"role":"user","content":[{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBE"}}]}]}`,
		want: `{"model":"m","messages":[{"role":"user","content":"[A PDF document was attached here, but its text could not be read: no PDF reader is configured]"}]}`,
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

// ToChat refuses only what Anthropic's API refuses too.
func TestToChatErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"image no source", `{"model":"m","messages":[{"role":"user","content":[{"type":"image"}]}]}`, "without source"},
		{"bad role", `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, "role"},
		{"tool without a name", `{"model":"m","tools":[{"input_schema":{"type":"object"}}],"messages":[]}`, "tools[0]: name is required"},
		{"tool_addition without a tool", `{"model":"m","messages":[{"role":"system","content":[{"type":"tool_addition"}]}]}`, "messages[0].content[0]: invalid request: tool_addition"},
		{"tool_choice tool without name", `{"model":"m","tool_choice":{"type":"tool"},"messages":[]}`, "needs a name"},
		{"bad temperature", `{"model":"m","temperature":"hot","messages":[]}`, "temperature"},
		{"bad thinking", `{"model":"m","thinking":"yes","messages":[]}`, "thinking"},
		{"bad tool input", `{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"a":}}]}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := wire.DecodeRequest([]byte(tt.in))
			if err != nil {
				if tt.want == "" {
					return // rejected even earlier, by the decoder
				}
				t.Fatalf("decode: %v", err)
			}
			_, err = ToChat(context.Background(), req, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if !errors.Is(err, wire.ErrInvalidRequest) {
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
	if up, r := (ModelMap{{Pattern: "a", MaxTokens: 5}}).Lookup("a"); up != "a" || r.MaxTokens != 5 || r.MaxUserLength != 64 {
		t.Errorf("a settings-only rule gives %q %+v", up, r)
	}
}
