package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"
	"github.com/webgate/webgate/internal/messages/wire"
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
					ew := wire.NewEventWriter(w, rc.Flush)
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
				b, _ := wire.Marshal(m)
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

// TestSDKClientOverModel relays a Model's events to the official SDK's
// streaming client over HTTP, the way the proxy will: the client must
// rebuild the reply (reasoning, text, tool call) from them.
func TestSDKClientOverModel(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		writeFragments(w, []byte(sseChunk(`{"role":"assistant","reasoning_content":"Plan: "}`)+
			sseChunk(`{"reasoning_content":"search."}`)+sseChunk(`{"content":"Searching <now> & then"}`)+
			sseChunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"web_search","arguments":"{\"query\":"}}]}`)+
			sseChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"go 1.26\"}"}}]}`)+
			`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":30,"completion_tokens":12}}`+"\n\ndata: [DONE]\n\n"))
	}))
	defer up.Close()
	m := newTestModel(t, up.URL, ModelOptions{})
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		evs, err := m.Stream(r.Context(), r.Header, body)
		if err != nil {
			status, resp := ClientError(err)
			b, _ := wire.Marshal(resp)
			w.WriteHeader(status)
			w.Write(b)
			return
		}
		defer evs.Close()
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for {
			ev, err := evs.Next()
			if err != nil {
				return
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Name, ev.Data)
			rc.Flush()
		}
	}))
	defer proxy.Close()

	client := sdk.NewClient(option.WithBaseURL(proxy.URL), option.WithAPIKey("k"), option.WithMaxRetries(0))
	st := client.Messages.NewStreaming(context.Background(), sdk.MessageNewParams{
		Model: "claude-sonnet-4-5", MaxTokens: 100,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("latest go?"))},
		Tools:    []sdk.ToolUnionParam{{OfTool: &sdk.ToolParam{Name: "web_search", InputSchema: sdk.ToolInputSchemaParam{Properties: map[string]any{"query": map[string]any{"type": "string"}}}}}},
	})
	var acc sdk.Message
	for st.Next() {
		if err := acc.Accumulate(st.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if acc.Model != "claude-sonnet-4-5" || acc.StopReason != sdk.StopReasonToolUse || len(acc.Content) != 3 {
		t.Fatalf("message %s", acc.RawJSON())
	}
	th, tx, tu := acc.Content[0].AsThinking(), acc.Content[1].AsText(), acc.Content[2].AsToolUse()
	if th.Thinking != "Plan: search." || th.Signature != ReasoningSignature("reasoning_content") || tx.Text != "Searching <now> & then" {
		t.Errorf("blocks %s", acc.RawJSON())
	}
	var in struct{ Query string }
	if err := json.Unmarshal(tu.Input, &in); err != nil || tu.ID != "call_1" || tu.Name != "web_search" || in.Query != "go 1.26" {
		t.Errorf("tool_use %+v (%v)", tu, err)
	}
	if acc.Usage.InputTokens != 30 || acc.Usage.OutputTokens != 12 {
		t.Errorf("usage %+v", acc.Usage)
	}

	// An upstream error before any output reaches the SDK as an API error
	// with Anthropic's type.
	up.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit_exceeded"}}`)
	})
	_, err := client.Messages.New(context.Background(), sdk.MessageNewParams{Model: "m", MaxTokens: 1, Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("x"))}})
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests || !strings.Contains(apiErr.Error(), "rate_limit_error") {
		t.Fatalf("err %v", err)
	}
}
