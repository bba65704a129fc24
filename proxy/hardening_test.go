package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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
