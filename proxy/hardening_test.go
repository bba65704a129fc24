package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/anthropic"
	"github.com/webgate/webgate/config"
	up "github.com/webgate/webgate/emulate/emulatetest"
)

// answerWithin posts body to srv and returns the status and body, failing
// the test when no complete answer arrives within a generous bound (a hang
// fails instead of blocking the test binary).
func answerWithin(t *testing.T, srv *httptest.Server, method, path string, body []byte) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: no answer: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return resp.StatusCode, b
}

// newServerNoWait serves h; its cleanup does not wait for handlers that a
// failing test left hanging.
func newServerNoWait(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		if !t.Failed() {
			srv.Close()
		}
	})
	return srv
}

// TestEmulateStreamWithoutStart feeds an emulated turn upstream streams
// that do not begin with message_start. A ping first is harmless; a
// stream of only message_stop is a broken upstream and answered with 502
// api_error. Neither may hang, panic or drop the connection unanswered.
func TestEmulateStreamWithoutStart(t *testing.T) {
	ping := up.Event{Name: "ping", Data: `{"type":"ping"}`}
	stop := up.Event{Name: "message_stop", Data: `{"type":"message_stop"}`}
	tests := []struct {
		name   string
		events []up.Event
		status int
		want   string
	}{
		{"ping before message_start", append([]up.Event{ping}, up.Message("end_turn", up.Usage{Input: 3, Output: 2}, up.Text("Hello."))...), http.StatusOK, "Hello."},
		{"only message_stop", []up.Event{stop}, http.StatusBadGateway, `"type":"api_error"`},
		{"message_delta before message_start", append(up.End("end_turn", up.Usage{}), up.Message("end_turn", up.Usage{}, up.Text("x"))...), http.StatusBadGateway, `"type":"api_error"`},
	}
	for _, tt := range tests {
		for _, stream := range []bool{true, false} {
			name := tt.name + "/json"
			if stream {
				name = tt.name + "/stream"
			}
			t.Run(name, func(t *testing.T) {
				u := up.New(t, up.Send(tt.events))
				h := newHandler(t, Options{Searcher: results(goResults...), Upstream: config.Upstream{BaseURL: u.URL, WebSearch: noEnrich().WebSearch}})
				srv := newServerNoWait(t, h)
				body := request([]any{searchTool}, userMsg("hi"))
				body["stream"] = stream
				b, _ := json.Marshal(body)
				status, got := answerWithin(t, srv, http.MethodPost, "/v1/messages", b)
				if status != tt.status || !strings.Contains(string(got), tt.want) {
					t.Fatalf("got %d %s, want %d with %s", status, got, tt.status, tt.want)
				}
			})
		}
	}
}

// TestForwardOnlyServedPaths: passthrough forwards the Messages API's own
// paths and nothing else. Dot segments, encoded or not, empty segments and
// encoded slashes never reach the upstream (which would get
// upstream.api_key with them), whatever the method.
func TestForwardOnlyServedPaths(t *testing.T) {
	var mu sync.Mutex
	var got []string
	upSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.EscapedPath()+" "+r.Header.Get("X-Api-Key"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(upSrv.Close)
	h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: upSrv.URL, APIKey: "sk-operator"}})
	srv := newServerNoWait(t, h)
	tests := []struct {
		method, path string
		forwarded    string // what the upstream must see; "" = refused with 404
	}{
		{"GET", "/v1/models", "GET /v1/models"},
		{"GET", "/v1/models/claude-sonnet-4-5", "GET /v1/models/claude-sonnet-4-5"},
		{"GET", "/v1/models/qwen2.5-coder:7b", "GET /v1/models/qwen2.5-coder:7b"},
		{"POST", "/v1/messages/count_tokens", "POST /v1/messages/count_tokens"},
		{"POST", "/v1/messages/batches", "POST /v1/messages/batches"},
		{"GET", "/v1/messages/batches", "GET /v1/messages/batches"},
		{"GET", "/v1/messages/batches/msgbatch_01HkcTjaV5uDC8jWR4ZsDV8d", "GET /v1/messages/batches/msgbatch_01HkcTjaV5uDC8jWR4ZsDV8d"},
		{"DELETE", "/v1/messages/batches/msgbatch_01", "DELETE /v1/messages/batches/msgbatch_01"},
		{"POST", "/v1/messages/batches/msgbatch_01/cancel", "POST /v1/messages/batches/msgbatch_01/cancel"},
		{"GET", "/v1/messages/batches/msgbatch_01/results", "GET /v1/messages/batches/msgbatch_01/results"},

		{"GET", "/v1/models/%2e%2e/files", ""},
		{"GET", "/v1/models/%2E%2E/files", ""},
		{"GET", "/v1/models/..%2Ffiles", ""},
		{"POST", "/v1/messages/%2e%2e/%2e%2e/v1/files", ""},
		{"DELETE", "/v1/messages/%2e%2e/%2e%2e/v1/files/file_1", ""},
		{"GET", "/v1/messages/batches/%2e%2e", ""},
		{"GET", "/v1/messages/batches/msgbatch_01/%2e%2e/%2e%2e/%2e%2e/files", ""},
		{"GET", "/v1/models/%2e", ""},
		{"GET", "/v1/models/a%2Fb", ""},
		{"GET", "/v1/models//x", ""},
		{"GET", "/v1/models/", ""},
		{"POST", "/v1/messages/", ""},
		{"POST", "/v1/messages/files", ""},
		{"GET", "/v1/messages/batches/msgbatch_01/other", ""},
		{"GET", "/v1/models/x/y", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			var body []byte
			if tt.method == "POST" {
				body = []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
			}
			status, b := answerWithin(t, srv, tt.method, tt.path, body)
			mu.Lock()
			defer mu.Unlock()
			if tt.forwarded == "" {
				var e anthropic.ErrorResponse
				if status != http.StatusNotFound || json.Unmarshal(b, &e) != nil || e.Error.Type != "not_found_error" {
					t.Errorf("got %d %s, want 404 not_found_error", status, b)
				}
				if len(got) != 0 {
					t.Errorf("reached the upstream: %q", got)
				}
				return
			}
			if status != http.StatusOK || len(got) != 1 || got[0] != tt.forwarded+" sk-operator" {
				t.Errorf("got %d %s, upstream saw %q, want %q", status, b, got, tt.forwarded)
			}
		})
	}
}
