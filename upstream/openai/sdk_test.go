package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"
	"github.com/webgate/webgate/anthropic"
)

// TestSDKAccumulatorMatchesFromChat serves translated golden streams to the
// official SDK: what its accumulator rebuilds must equal what FromChat
// makes of the equivalent non-streaming response.
func TestSDKAccumulatorMatchesFromChat(t *testing.T) {
	tests := []struct {
		stream string
		resp   string
	}{
		{"plain_text", `{"id":"c1","model":"m1","choices":[{"message":{"content":"Hello, <world> & co"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3}}`},
		{"reasoning_deepseek", `{"id":"c1","model":"m1","choices":[{"message":{"content":"Answer 42.","reasoning_content":"Let me think."},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":9,"prompt_cache_hit_tokens":16}}`},
		{"one_tool_fragments", `{"id":"c1","model":"m1","choices":[{"message":{"content":"Checking.","tool_calls":[{"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{\"location\": \"Paris\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":12}}`},
		{"parallel_tools_interleaved", `{"id":"c1","model":"m1","choices":[{"message":{"tool_calls":[{"id":"call_1","function":{"name":"read","arguments":"{\"path\":\"a}b.go\"}"}},{"id":"call_2","function":{"name":"list","arguments":"{\"dir\":\"/tmp\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":7}}`},
		{"usage_only_final", `{"id":"c1","model":"m1","choices":[{"message":{"content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":64}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.stream, func(t *testing.T) {
			in, err := os.ReadFile("testdata/stream/" + tt.stream + ".in")
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var body map[string]any
				_ = json.NewDecoder(r.Body).Decode(&body)
				if body["stream"] == true {
					w.Header().Set("Content-Type", "text/event-stream")
					rc := http.NewResponseController(w)
					ew := anthropic.NewEventWriter(w, rc.Flush)
					if err := NewStreamTranslator(ew, Options{NewID: seqIDs()}).Run(r.Context(), strings.NewReader(string(in))); err != nil {
						t.Errorf("stream: %v", err)
					}
					return
				}
				var resp ChatResponse
				if err := json.Unmarshal([]byte(tt.resp), &resp); err != nil {
					t.Error(err)
					return
				}
				m, err := FromChat(&resp, Options{NewID: seqIDs()})
				if err != nil {
					t.Error(err)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				b, _ := anthropic.Marshal(m)
				_, _ = w.Write(b)
			}))
			defer srv.Close()
			client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("k"), option.WithMaxRetries(0))
			params := sdk.MessageNewParams{Model: "claude-x", MaxTokens: 10, Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("hi"))}}
			ctx := context.Background()
			st := client.Messages.NewStreaming(ctx, params)
			var acc sdk.Message
			for st.Next() {
				if err := acc.Accumulate(st.Current()); err != nil {
					t.Fatalf("accumulate: %v", err)
				}
			}
			if err := st.Err(); err != nil {
				t.Fatalf("stream: %v", err)
			}
			whole, err := client.Messages.New(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal([]byte(acc.RawJSON()), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(whole.RawJSON()), &b); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("accumulated stream differs from FromChat (-json +stream):\n%s", diff)
			}
			if len(acc.Content) == 0 || acc.StopReason == "" {
				t.Fatalf("accumulated nothing: %s", acc.RawJSON())
			}
			for _, blk := range acc.Content {
				if blk.Type == "tool_use" && !json.Valid(blk.Input) {
					t.Errorf("tool input %s not JSON", blk.Input)
				}
			}
		})
	}
}
