package proxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/config"
	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
)

// TestOpenAIKindRouting pins what /v1/messages does with upstream.kind
// openai beyond the emulation scenarios: a conversation without server
// tools is translated too (there is nothing to pass through to), failures
// before the stream are answered in Anthropic's shape with the upstream's
// status mapped, count_tokens is estimated locally, and paths a Chat
// Completions server cannot serve are 404 not_found_error rather than
// being forwarded.
func TestOpenAIKindRouting(t *testing.T) {
	plain, _ := json.Marshal(request(nil, userMsg("Say hi.")))
	tests := []struct {
		name       string
		method     string
		path       string
		body       []byte
		step       up.Step
		wantStatus int
		wantBody   []string
		wantCalls  int
	}{
		{
			name: "plain conversation is translated", method: http.MethodPost, path: "/v1/messages", body: plain,
			step: func(req up.Request) up.Reply {
				if !req.OpenAI || !strings.Contains(string(req.Raw), `"model":"qwen3-coder"`) || strings.Contains(string(req.Raw), `"tools"`) {
					t.Errorf("upstream request:\n%s", req.Raw)
				}
				return up.Reply{Events: up.Message("end_turn", up.Usage{Input: 5, Output: 2}, up.Text("Hi."))}
			},
			wantStatus: http.StatusOK, wantBody: []string{`"text":"Hi."`, `"model":"claude-sonnet-4-5"`, `"stop_reason":"end_turn"`, `"input_tokens":5`}, wantCalls: 1,
		},
		{
			name: "upstream 401 in OpenAI's shape", method: http.MethodPost, path: "/v1/messages", body: plain,
			step: func(up.Request) up.Reply {
				return up.Reply{Status: http.StatusUnauthorized, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`}
			},
			wantStatus: http.StatusUnauthorized, wantBody: []string{`"type":"error"`, `"authentication_error"`, "Incorrect API key provided"}, wantCalls: 1,
		},
		{
			name: "upstream 503", method: http.MethodPost, path: "/v1/messages", body: plain,
			step: func(up.Request) up.Reply {
				return up.Reply{Status: http.StatusServiceUnavailable, Body: `{"error":{"message":"busy","type":"server_error"}}`}
			},
			wantStatus: 529, wantBody: []string{`"overloaded_error"`, "busy"}, wantCalls: 1,
		},
		{
			name: "a request Anthropic refuses too", method: http.MethodPost, path: "/v1/messages",
			body:       []byte(`{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"robot","content":"hi"}]}`),
			wantStatus: http.StatusBadRequest, wantBody: []string{`"invalid_request_error"`},
		},
		{
			name: "count_tokens is estimated", method: http.MethodPost, path: "/v1/messages/count_tokens", body: plain,
			wantStatus: http.StatusOK, wantBody: []string{`"input_tokens":`},
		},
		{
			name: "models is not forwarded", method: http.MethodGet, path: "/v1/models",
			wantStatus: http.StatusNotFound, wantBody: []string{`"not_found_error"`, "upstream.kind openai"},
		},
		{
			name: "batches are not forwarded", method: http.MethodPost, path: "/v1/messages/batches", body: plain,
			wantStatus: http.StatusNotFound, wantBody: []string{`"not_found_error"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var steps []up.Step
			if tt.step != nil {
				steps = append(steps, tt.step)
			}
			var cfg config.Upstream
			u := newFake(t, "openai", &cfg, steps...)
			h := newHandler(t, Options{Searcher: results(), Upstream: cfg})
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(string(tt.body)))
			req.Header.Set("x-api-key", "sk-client")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.wantStatus, rec.Body)
			}
			for _, w := range tt.wantBody {
				if !strings.Contains(rec.Body.String(), w) {
					t.Errorf("body lacks %s: %s", w, rec.Body)
				}
			}
			reqs := u.Requests()
			if len(reqs) != tt.wantCalls {
				t.Errorf("upstream called %d times, want %d", len(reqs), tt.wantCalls)
			}
			if len(reqs) > 0 && reqs[0].Header.Get("Authorization") != "Bearer sk-client" {
				t.Errorf("Authorization %q, want the client's key as a bearer token", reqs[0].Header.Get("Authorization"))
			}
		})
	}
}

// Dynamic filtering on a Chat Completions backend: a request with the
// _20260209 web tools and Anthropic's code_execution tool runs the web
// tools, and the model is told in the code-execution tool's place that
// code execution is not available, instead of the request being refused.
func TestOpenAIKindDynamicFiltering(t *testing.T) {
	body, _ := json.Marshal(map[string]any{
		"model": "claude-sonnet-4-5", "max_tokens": 100,
		"tools": []any{
			map[string]any{"type": "web_search_20260209", "name": "web_search"},
			map[string]any{"type": "web_fetch_20260209", "name": "web_fetch"},
			map[string]any{"type": "code_execution_20250825", "name": "code_execution"},
		},
		"messages": []any{userMsg("What is new in Go?")},
	})
	var cfg config.Upstream
	u := newFake(t, "openai", &cfg,
		up.Send(up.Message("tool_use", up.Usage{Input: 10, Output: 5}, up.ToolUse("toolu_1", "web_search", `{"query":"go news"}`))),
		up.Send(up.Message("end_turn", up.Usage{Input: 10, Output: 5}, up.Text("Go is fine [1]."))),
	)
	h := newHandler(t, Options{Searcher: results(), Upstream: cfg})
	req := httptest.NewRequest(http.MethodPost, "/v1/messages", strings.NewReader(string(body)))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if !strings.Contains(rec.Body.String(), `"web_search_tool_result"`) {
		t.Errorf("the search did not run: %s", rec.Body)
	}
	reqs := u.Requests()
	if len(reqs) != 2 {
		t.Fatalf("upstream called %d times, want 2", len(reqs))
	}
	raw := string(reqs[0].Raw)
	if !strings.Contains(raw, "Code execution is not available on this backend") {
		t.Errorf("the model was not told code execution is unavailable: %s", raw)
	}
	if strings.Contains(raw, "code_execution_2025") || !strings.Contains(raw, `"name":"web_fetch"`) {
		t.Errorf("tools sent: %s", raw)
	}
}
