package openai

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/webgate/webgate/internal/messages/wire"
)

func fromChatJSON(t *testing.T, body string, opts Options) (string, error) {
	t.Helper()
	var resp ChatResponse
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		t.Fatal(err)
	}
	if opts.NewID == nil {
		opts.NewID = seqIDs()
	}
	m, err := FromChat(&resp, opts)
	if err != nil {
		return "", err
	}
	b, err := wire.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), nil
}

const usage0 = `"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}`

func TestFromChat(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   string
		want string
	}{{
		name: "text stop",
		in:   `{"id":"c1","model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"Hi <b>"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2}}`,
		want: `{"id":"msg_c1","type":"message","role":"assistant","model":"up","content":[{"type":"text","text":"Hi <b>"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":9,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":2}}`,
	}, {
		name: "reasoning, tools, cached usage, model override",
		opts: Options{Model: "claude-x"},
		in:   `{"id":"c2","model":"up","choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_content":"think","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{ \"a\": 1 }"}},{"type":"function","function":{"name":"g","arguments":""}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":100,"completion_tokens":20,"prompt_tokens_details":{"cached_tokens":80}}}`,
		want: `{"id":"msg_c2","type":"message","role":"assistant","model":"claude-x","content":[{"type":"thinking","thinking":"think","signature":"webgate-openai:reasoning_content"},{"type":"tool_use","id":"call_1","name":"f","input":{"a":1}},{"type":"tool_use","id":"toolu_gen1","name":"g","input":{}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":20,"cache_creation_input_tokens":0,"cache_read_input_tokens":80,"output_tokens":20}}`,
	}, {
		name: "openrouter reasoning, length, no id",
		in:   `{"model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"Once","reasoning":"r"},"finish_reason":"length"}]}`,
		want: `{"id":"msg_gen1","type":"message","role":"assistant","model":"up","content":[{"type":"thinking","thinking":"r","signature":"webgate-openai:reasoning"},{"type":"text","text":"Once"}],"stop_reason":"max_tokens","stop_sequence":null,` + usage0 + `}`,
	}, {
		name: "content filter",
		in:   `{"id":"c","model":"up","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"content_filter"}]}`,
		want: `{"id":"msg_c","type":"message","role":"assistant","model":"up","content":[],"stop_reason":"refusal","stop_sequence":null,` + usage0 + `}`,
	}, {
		name: "openai refusal",
		in:   `{"id":"c","model":"up","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"No."},"finish_reason":"stop"}]}`,
		want: `{"id":"msg_c","type":"message","role":"assistant","model":"up","content":[{"type":"text","text":"No."}],"stop_reason":"refusal","stop_sequence":null,` + usage0 + `}`,
	}, {
		name: "tool calls finished with stop, deepseek cache",
		in:   `{"id":"c","model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"x","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":1,"prompt_cache_hit_tokens":4}}`,
		want: `{"id":"msg_c","type":"message","role":"assistant","model":"up","content":[{"type":"tool_use","id":"x","name":"f","input":{}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":6,"cache_creation_input_tokens":0,"cache_read_input_tokens":4,"output_tokens":1}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fromChatJSON(t, tt.in, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mustJSON(t, tt.want), mustJSON(t, got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromChatErrors(t *testing.T) {
	for name, in := range map[string]string{
		"error object":   `{"error":{"message":"boom","type":"server_error"}}`,
		"no choices":     `{"id":"c","choices":[]}`,
		"bad arguments":  `{"choices":[{"message":{"tool_calls":[{"id":"x","function":{"name":"f","arguments":"{\"a\":"}}]}}]}`,
		"array argument": `{"choices":[{"message":{"tool_calls":[{"id":"x","function":{"name":"f","arguments":"[1]"}}]}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := fromChatJSON(t, in, Options{})
			if !errors.Is(err, ErrUpstream) {
				t.Fatalf("error %v, want ErrUpstream", err)
			}
		})
	}
}

func TestStopReasonAndUsage(t *testing.T) {
	for _, c := range []struct {
		finish string
		tools  bool
		want   string
	}{{"stop", false, "end_turn"}, {"", false, "end_turn"}, {"length", true, "max_tokens"}, {"tool_calls", false, "tool_use"}, {"function_call", false, "tool_use"}, {"content_filter", false, "refusal"}, {"stop", true, "tool_use"}, {"weird", false, "end_turn"}} {
		if got := StopReason(c.finish, c.tools); got != c.want {
			t.Errorf("StopReason(%q, %v) = %q, want %q", c.finish, c.tools, got, c.want)
		}
	}
	// Cached tokens can never drive input_tokens negative.
	u := ConvertUsage(&ChatUsage{PromptTokens: 5, PromptCacheHitTokens: 9})
	if u.InputTokens != 0 || u.CacheReadInputTokens != 5 {
		t.Errorf("usage %+v", u)
	}
	if got := ConvertUsage(nil); got != (wire.Usage{}) {
		t.Errorf("nil usage %+v", got)
	}
}
