package chatcheck

import (
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/repotest"
)

func TestStrict(t *testing.T) {
	for _, c := range []struct {
		name, body, want string // want "" = no violation
	}{
		{"plain", `{"messages":[{"role":"system","content":"s"},{"role":"user","content":"u"}]}`, ""},
		{"calls answered in order", `{"messages":[{"role":"user","content":"u"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{\"x\":1}"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b","content":"2"},{"role":"user","content":"u"}],"tools":[{"type":"function","function":{"name":"f"}},{"type":"function","function":{"name":"g"}}]}`, ""},
		{"late system", `{"messages":[{"role":"user","content":"u"},{"role":"system","content":"s"}]}`, "after the conversation started"},
		{"out of order", `{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"b","content":"2"},{"role":"tool","tool_call_id":"a","content":"1"}]}`, "where call \"a\" comes in order"},
		{"unanswered", `{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"u"}]}`, "is not answered"},
		{"orphan tool message", `{"messages":[{"role":"user","content":"u"},{"role":"tool","tool_call_id":"a","content":"1"}]}`, "does not follow"},
		{"object arguments", `{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":{}}}]},{"role":"tool","tool_call_id":"a","content":"1"}]}`, "not a JSON string"},
		{"bad name", `{"messages":[{"role":"user","content":"u"}],"tools":[{"type":"function","function":{"name":"mcp__a.b"}}]}`, "function name \"mcp__a.b\""},
		{"long name", `{"messages":[{"role":"user","content":"u"}],"tools":[{"type":"function","function":{"name":"` + strings.Repeat("a", 65) + `"}}]}`, "function name"},
		{"choice without tools", `{"messages":[{"role":"user","content":"u"}],"tool_choice":"auto"}`, "without tools"},
		{"empty user", `{"messages":[{"role":"user","content":""}]}`, ""},
		{"null user", `{"messages":[{"role":"user","content":null}]}`, "without content"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Strict([]byte(c.body))
			switch {
			case c.want == "" && err != nil:
				t.Errorf("unexpected violation: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want a violation mentioning %q", err, c.want)
			}
		})
	}
}

func TestSchema(t *testing.T) {
	s, err := LoadSchema(repotest.Shared(t, "specs/openai-openapi/openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate([]byte(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AA"}}]}],"max_tokens":5,"stream":true,"stream_options":{"include_usage":true},"reasoning_effort":"high"}`)); err != nil {
		t.Errorf("valid request refused: %v", err)
	}
	for _, bad := range []string{
		`{"model":"m","messages":[]}`,
		`{"model":"m","messages":[{"role":"robot","content":"x"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"x"}],"temperature":"hot"}`,
		`{"model":"m","messages":[{"role":"user","content":"x"}],"reasoning_effort":"extreme"}`,
	} {
		if err := s.Validate([]byte(bad)); err == nil {
			t.Errorf("invalid request accepted: %s", bad)
		}
	}
}
