package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/messages/wire"
)

// FuzzMessagesRequest drives whole /v1/messages requests through the
// handler, fast path and passthrough alike: nothing panics, the answer is
// either the upstream's (forwarded unchanged) or webgate's own valid
// Anthropic JSON, SSE stream or error envelope.
func FuzzMessagesRequest(f *testing.F) {
	f.Add(oldStyleBody("golang generics", false, nil))
	f.Add(oldStyleBody("golang generics", true, map[string]any{"type": "web_search_20250305", "name": "web_search", "allowed_domains": []string{"go.dev"}}))
	f.Add(oldStyleBody(strings.Repeat("q", 600), false, map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": 0}))
	f.Add([]byte(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"Perform a web search for the query: \u0000"}],"tools":[{"type":"web_search_x"}]}`))
	const upstreamBody = `{"upstream":true}`
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, upstreamBody)
	}))
	defer up.Close()
	off := false
	h := newHandler(f, Options{Searcher: results(goResults...), Upstream: config.Upstream{BaseURL: up.URL, MaxBodyBytes: 1 << 20, WebSearch: config.UpstreamWebSearch{Enrich: &off}}})
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := post(t, h, "/v1/messages", map[string]string{"content-type": "application/json"}, body)
		out := rec.Body.Bytes()
		switch {
		case rec.Code == http.StatusOK && string(out) == upstreamBody:
			// Forwarded.
		case rec.Code == http.StatusOK && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream"):
			rd := wire.NewReader(bytes.NewReader(out), 0, 0)
			n := 0
			for {
				ev, err := rd.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("broken stream: %v\n%s", err, out)
				}
				if !json.Valid(ev.Data) {
					t.Fatalf("event %s with invalid JSON: %s", ev.Name, ev.Data)
				}
				n++
			}
			if n == 0 {
				t.Fatal("empty stream")
			}
		case rec.Code == http.StatusOK:
			var msg struct {
				Type    string            `json:"type"`
				Content []json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(out, &msg); err != nil || msg.Type != "message" || len(msg.Content) == 0 {
				t.Fatalf("fast-path answer is not a message: %s", out)
			}
		default:
			var e struct {
				Type  string `json:"type"`
				Error struct{ Type, Message string }
			}
			if err := json.Unmarshal(out, &e); err != nil || e.Type != "error" || e.Error.Type == "" {
				t.Fatalf("status %d without an Anthropic error envelope: %s", rec.Code, out)
			}
		}
	})
}
