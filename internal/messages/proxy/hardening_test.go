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

	"github.com/webgate/webgate/internal/config"
	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
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
				var e wire.ErrorResponse
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

// TestBodyBudget: request bodies held at once are bounded by
// upstream.max_body_bytes_in_flight. A request that cannot get budget
// within the wait is refused with 529 overloaded_error and Retry-After,
// whether its length is announced or not; once the holder is done, the
// whole budget is free again.
func TestBodyBudget(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	upSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/v1/messages/batches" {
			entered <- struct{}{}
			<-release
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
	}))
	t.Cleanup(upSrv.Close)
	h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: upSrv.URL, MaxBodyBytes: 4096, MaxBodyBytesInFlight: 6000}})
	h.budgetWait = 50 * time.Millisecond // the holder holds until released: no timing involved
	srv := newServerNoWait(t, h)
	body := func(n int) []byte {
		b := []byte(`{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", n) + `"}]}`)
		return b
	}
	held := make(chan int, 1)
	go func() {
		status, _ := answerWithin(t, srv, http.MethodPost, "/v1/messages/batches", body(3900))
		held <- status
	}()
	<-entered
	post := func(b []byte, chunked bool) (int, http.Header, []byte) {
		var rd io.Reader = bytes.NewReader(b)
		if chunked {
			rd = io.MultiReader(rd) // no length known: sent chunked
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages", rd)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, out
	}
	for _, chunked := range []bool{false, true} {
		status, hdr, got := post(body(3900), chunked)
		if status != 529 || !strings.Contains(string(got), `"type":"overloaded_error"`) || hdr.Get("Retry-After") == "" {
			t.Errorf("chunked %v: %d %s (Retry-After %q), want 529 overloaded_error", chunked, status, got, hdr.Get("Retry-After"))
		}
	}
	if status, _, got := post(body(100), false); status != http.StatusOK {
		t.Errorf("a small body beside the holder: %d %s", status, got)
	}
	close(release)
	if status := <-held; status != http.StatusOK {
		t.Errorf("holder: %d", status)
	}
	// Both near-limit bodies at once fit only if nothing leaked.
	for _, chunked := range []bool{false, true} {
		if status, _, got := post(body(4000), chunked); status != http.StatusOK {
			t.Errorf("chunked %v after release: %d %s", chunked, status, got)
		}
	}
	if n := h.budget.inUse(); n != 0 {
		t.Errorf("%d budget bytes still held", n)
	}
}

// TestBodyBudgetChargesEmulatedTurns: an emulated turn holds about twice
// its body (the conversation and the upstream request built from it) and
// is charged that much.
func TestBodyBudgetChargesEmulatedTurns(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	u := up.New(t, up.Send(up.Message("end_turn", up.Usage{}, up.Text("ok"))))
	holder := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/messages/batches" {
			io.Copy(io.Discard, r.Body)
			entered <- struct{}{}
			<-release
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{}`)
			return
		}
		u.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(holder.Close)
	h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: holder.URL, MaxBodyBytes: 4096, MaxBodyBytesInFlight: 10000, WebSearch: noEnrich().WebSearch}})
	h.budgetWait = 50 * time.Millisecond
	srv := newServerNoWait(t, h)
	filler := func(n int) string { return strings.Repeat("x", n) }
	held := make(chan int, 1)
	go func() {
		status, _ := answerWithin(t, srv, http.MethodPost, "/v1/messages/batches", []byte(`{"requests":"`+filler(3900)+`"}`))
		held <- status
	}()
	<-entered
	emulated, _ := json.Marshal(request([]any{searchTool}, userMsg(filler(3400))))
	// 3.9 KB held + 2 x 3.5 KB for the turn is over 10,000 bytes; the
	// body alone (3.5 KB) would fit.
	if status, got := answerWithin(t, srv, http.MethodPost, "/v1/messages", emulated); status != 529 || !strings.Contains(string(got), "overloaded_error") {
		t.Errorf("emulated turn beside the holder: %d %s, want 529", status, got)
	}
	close(release)
	if status := <-held; status != http.StatusOK {
		t.Errorf("holder: %d", status)
	}
	if status, got := answerWithin(t, srv, http.MethodPost, "/v1/messages", emulated); status != http.StatusOK {
		t.Errorf("emulated turn alone: %d %s", status, got)
	}
	if n := h.budget.inUse(); n != 0 {
		t.Errorf("%d budget bytes still held", n)
	}
}

// TestEmulateUnverifiableHistory: what webgate cannot authenticate in a
// client's history. An empty or missing encrypted_content or
// encrypted_index (which neither webgate nor Anthropic ever sends) is
// refused with 400. A value from another origin (Anthropic's own, one
// sealed by another replica or an earlier process, or under a removed
// key) is accepted on purpose, and the model is told that webgate could
// not verify it: only its title and URL are known.
func TestEmulateUnverifiableHistory(t *testing.T) {
	const unverified = "webgate could not verify this earlier result"
	// searched runs a search turn through h and returns the next request.
	searched := func(t *testing.T, sealer *seal.Sealer) map[string]any {
		u := up.New(t, searchThenAnswerSteps()...)
		h := newHandler(t, Options{Searcher: results(goResults...), Sealer: sealer, Upstream: config.Upstream{BaseURL: u.URL, WebSearch: noEnrich().WebSearch}})
		return searchedConversation(t, h, u)
	}
	blocks := func(m map[string]any) []any { return m["messages"].([]any)[1].(map[string]any)["content"].([]any) }
	result := func(m map[string]any) map[string]any {
		for _, b := range blocks(m) {
			if b := b.(map[string]any); b["type"] == "web_search_tool_result" {
				return b["content"].([]any)[0].(map[string]any)
			}
		}
		t.Fatal("no web_search_tool_result in the conversation")
		return nil
	}
	citation := func(m map[string]any) map[string]any {
		for _, b := range blocks(m) {
			if c, ok := b.(map[string]any)["citations"].([]any); ok {
				return c[0].(map[string]any)
			}
		}
		t.Fatal("no citation in the conversation")
		return nil
	}
	eph1, _ := seal.Ephemeral()
	eph2, _ := seal.Ephemeral()
	tests := []struct {
		name string
		// sealer seals the first turn; the second runs with testSealer.
		sealer *seal.Sealer
		edit   func(m map[string]any)
		// status 400: refused with want in the message; 200: the upstream
		// is told want.
		status int
		want   string
	}{
		{"empty encrypted_content", nil, func(m map[string]any) { result(m)["encrypted_content"] = "" }, 400, "encrypted_content"},
		{"missing encrypted_content", nil, func(m map[string]any) { delete(result(m), "encrypted_content") }, 400, "encrypted_content"},
		{"empty encrypted_index", nil, func(m map[string]any) { citation(m)["encrypted_index"] = "" }, 400, "encrypted_index"},
		{"unknown key id", nil, func(m map[string]any) {
			result(m)["encrypted_content"] = "wg2.gone.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		}, 200, unverified},
		{"Anthropic's own value", nil, func(m map[string]any) {
			result(m)["encrypted_content"] = "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2MSDMrfZsLe"
		}, 200, unverified},
		{"sealed by another process without seal_keys", eph1, func(map[string]any) {}, 200, unverified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := clone(searched(t, tt.sealer))
			tt.edit(next)
			var told []string
			u2 := up.New(t, func(req up.Request) up.Reply {
				told = append(told, string(req.Body))
				return up.Reply{Events: up.Message("end_turn", up.Usage{}, up.Text("ok"))}
			})
			sealer := testSealer(t)
			if tt.sealer != nil {
				sealer = eph2
			}
			h2 := newHandler(t, Options{Searcher: results(), Sealer: sealer, Upstream: config.Upstream{BaseURL: u2.URL}})
			b, _ := json.Marshal(next)
			rec := post(t, h2, "/v1/messages", nil, b)
			if tt.status == 400 {
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"invalid_request_error"`) || !strings.Contains(rec.Body.String(), tt.want) {
					t.Errorf("%d %s, want 400 invalid_request_error mentioning %q", rec.Code, rec.Body, tt.want)
				}
				if len(told) != 0 {
					t.Error("a refused request reached the upstream")
				}
				return
			}
			if rec.Code != 200 {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			if len(told) != 1 || !strings.Contains(told[0], tt.want) || !strings.Contains(told[0], "URL: https://go.dev/doc/tutorial/generics") {
				t.Errorf("the upstream was told:\n%s", told)
			}
		})
	}
}
