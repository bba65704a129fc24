package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/wire"
)

const simpleRequest = `{"model":"claude-x","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`

func sseChunk(delta string) string {
	return `data: {"id":"c","model":"m","choices":[{"index":0,"delta":` + delta + `}]}` + "\n\n"
}

const sseEnd = `data: {"id":"c","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"

// gatedServer streams first, then waits for release (or the request's
// end) before streaming rest. done is closed when the handler returns,
// canceled when it saw its request canceled.
type gatedServer struct {
	*httptest.Server
	release  chan struct{}
	started  chan struct{} // closed once first is flushed
	done     chan struct{}
	canceled atomic.Bool
}

func newGatedServer(t *testing.T, first, rest string) *gatedServer {
	g := &gatedServer{release: make(chan struct{}), started: make(chan struct{}), done: make(chan struct{})}
	var once, startOnce sync.Once
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer once.Do(func() { close(g.done) })
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, first)
		http.NewResponseController(w).Flush()
		startOnce.Do(func() { close(g.started) })
		select {
		case <-g.release:
			io.WriteString(w, rest)
		case <-r.Context().Done():
			g.canceled.Store(true)
		}
	}))
	t.Cleanup(func() {
		select {
		case <-g.release:
		default:
			close(g.release)
		}
		g.Close()
	})
	return g
}

func newTestModel(t *testing.T, url string, o ModelOptions) *Model {
	t.Helper()
	m, err := NewModel(config.Upstream{Kind: "openai", BaseURL: url}, o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// waitDone waits for the fake's handler to return; a generous bound only
// turns a hang into a failure.
func waitDone(t *testing.T, g *gatedServer) {
	t.Helper()
	select {
	case <-g.done:
	case <-time.After(30 * time.Second):
		t.Fatal("upstream request never ended")
	}
}

func nextNames(t *testing.T, evs emulate.Events, n int) []string {
	t.Helper()
	var names []string
	for range n {
		ev, err := evs.Next()
		if err != nil {
			t.Fatalf("Next after %v: %v", names, err)
		}
		names = append(names, ev.Name)
	}
	return names
}

// The first text delta is delivered while the upstream is still holding
// back the rest of its reply: translation is incremental.
func TestModelStreamsIncrementally(t *testing.T) {
	g := newGatedServer(t, sseChunk(`{"role":"assistant","content":"Hel"}`), sseChunk(`{"content":"lo"}`)+sseEnd)
	m := newTestModel(t, g.URL, ModelOptions{})
	evs, err := m.Stream(context.Background(), nil, []byte(simpleRequest))
	if err != nil {
		t.Fatal(err)
	}
	defer evs.Close()
	got := nextNames(t, evs, 3)
	if strings.Join(got, ",") != "message_start,content_block_start,content_block_delta" {
		t.Fatalf("first events %v", got)
	}
	close(g.release)
	out := drain(t, evs)
	if !strings.Contains(out, `"text":"lo"`) || !strings.HasSuffix(out, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
		t.Fatalf("rest of stream:\n%s", out)
	}
}

// An upstream that goes quiet mid-reply for longer than IdleTimeout gets
// its request canceled and the stream ends with an error event.
func TestModelIdleTimeout(t *testing.T) {
	g := newGatedServer(t, sseChunk(`{"content":"Hel"}`), "")
	m := newTestModel(t, g.URL, ModelOptions{IdleTimeout: 50 * time.Millisecond})
	evs, err := m.Stream(context.Background(), nil, []byte(simpleRequest))
	if err != nil {
		t.Fatal(err)
	}
	out := drain(t, evs)
	if !strings.Contains(out, "event: error\n") || !strings.Contains(out, "sent nothing for 50ms") {
		t.Fatalf("stream:\n%s", out)
	}
	waitDone(t, g)
	if !g.canceled.Load() {
		t.Error("upstream request not canceled")
	}
}

// idleReader arms its timer only while a Read waits: time the consumer
// spends between reads never counts as upstream silence.
func TestIdleReaderArmsOnlyDuringRead(t *testing.T) {
	var fired atomic.Bool
	timer := time.AfterFunc(time.Hour, func() { fired.Store(true) })
	timer.Stop()
	armed := false
	r := &idleReader{r: readerFunc(func(p []byte) (int, error) {
		// Stop reports true when the timer was armed; re-arm it so the
		// reader's own Stop still finds it running.
		armed = timer.Stop()
		timer.Reset(time.Hour)
		return copy(p, "x"), nil
	}), d: time.Hour, t: timer}
	if _, err := r.Read(make([]byte, 4)); err != nil {
		t.Fatal(err)
	}
	if !armed {
		t.Error("timer not armed during Read")
	}
	if timer.Stop() {
		t.Error("timer still armed after Read returned")
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// The caller's context ending stops the stream: Next returns its error
// and the upstream request is canceled.
func TestModelContextCancel(t *testing.T) {
	g := newGatedServer(t, sseChunk(`{"content":"Hel"}`), "")
	m := newTestModel(t, g.URL, ModelOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	evs, err := m.Stream(ctx, nil, []byte(simpleRequest))
	if err != nil {
		t.Fatal(err)
	}
	defer evs.Close()
	nextNames(t, evs, 3)
	cancel()
	for {
		_, err := evs.Next()
		if err == nil {
			continue
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Next after cancel: %v", err)
		}
		break
	}
	waitDone(t, g)
	if !g.canceled.Load() {
		t.Error("upstream request not canceled")
	}
}

// Close mid-stream (the loop giving up, or the client gone) cancels the
// upstream request.
func TestModelCloseCancelsUpstream(t *testing.T) {
	g := newGatedServer(t, sseChunk(`{"content":"Hel"}`), "")
	m := newTestModel(t, g.URL, ModelOptions{})
	evs, err := m.Stream(context.Background(), nil, []byte(simpleRequest))
	if err != nil {
		t.Fatal(err)
	}
	nextNames(t, evs, 1)
	if err := evs.Close(); err != nil {
		t.Fatal(err)
	}
	if err := evs.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := evs.Next(); err == nil {
		t.Error("Next after Close returned an event")
	}
	waitDone(t, g)
	if !g.canceled.Load() {
		t.Error("upstream request not canceled")
	}
}

// Close from another goroutine unblocks a Next waiting on the upstream.
func TestModelCloseUnblocksNext(t *testing.T) {
	g := newGatedServer(t, sseChunk(`{"content":"Hel"}`), "")
	m := newTestModel(t, g.URL, ModelOptions{})
	evs, err := m.Stream(context.Background(), nil, []byte(simpleRequest))
	if err != nil {
		t.Fatal(err)
	}
	nextNames(t, evs, 3)
	errc := make(chan error, 1)
	go func() {
		_, err := evs.Next() // blocks: the upstream is holding back
		errc <- err
	}()
	evs.Close()
	select {
	case err := <-errc:
		if err == nil || errors.Is(err, io.EOF) {
			t.Fatalf("Next after Close = %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Next still blocked after Close")
	}
	waitDone(t, g)
}

// A context that ends before the first event makes Stream fail.
func TestModelContextCancelBeforeFirstEvent(t *testing.T) {
	g := newGatedServer(t, ": waiting\n\n", sseChunk(`{"content":"x"}`)+sseEnd)
	m := newTestModel(t, g.URL, ModelOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-g.started // the request is being served, Stream is waiting
		cancel()
	}()
	_, err := m.Stream(ctx, nil, []byte(simpleRequest))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Stream = %v, want context.Canceled", err)
	}
	waitDone(t, g)
}

func TestModelCredentials(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Clone())
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sseChunk(`{"content":"x"}`)+sseEnd)
	}))
	defer srv.Close()
	for _, c := range []struct {
		name, key string
		hdr       http.Header
		want      string
	}{
		{"configured key wins", "sk-server", http.Header{"X-Api-Key": {"sk-client"}, "Authorization": {"Bearer b"}}, "Bearer sk-server"},
		{"client x-api-key", "", http.Header{"X-Api-Key": {"sk-client"}}, "Bearer sk-client"},
		{"client bearer", "", http.Header{"Authorization": {"Bearer tok"}}, "Bearer tok"},
		{"none", "", http.Header{"Anthropic-Version": {"2023-06-01"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := NewModel(config.Upstream{Kind: "openai", BaseURL: srv.URL + "/v1/", APIKey: c.key}, ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			evs, err := m.Stream(context.Background(), c.hdr, []byte(simpleRequest))
			if err != nil {
				t.Fatal(err)
			}
			drain(t, evs)
			h := got.Load().(http.Header)
			if a := h.Get("Authorization"); a != c.want {
				t.Errorf("Authorization %q, want %q", a, c.want)
			}
			for _, k := range []string{"X-Api-Key", "Anthropic-Version", "Anthropic-Beta"} {
				if h.Get(k) != "" {
					t.Errorf("client header %s forwarded", k)
				}
			}
		})
	}
}

// Requests Anthropic's API would refuse as well never reach the upstream.
func TestModelRefusesBeforeCalling(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	m := newTestModel(t, srv.URL, ModelOptions{})
	for _, c := range []struct {
		name, body string
	}{
		{"unknown role", `{"model":"m","messages":[{"role":"robot","content":"q"}]}`},
		{"tool without a name", `{"model":"m","tools":[{"description":"d","input_schema":{"type":"object"}}],"messages":[]}`},
		{"not JSON", `{"model":`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := m.Stream(context.Background(), nil, []byte(c.body))
			if !errors.Is(err, wire.ErrInvalidRequest) {
				t.Fatalf("err %v, want ErrInvalidRequest", err)
			}
			if status, resp := ClientError(err); status != 400 || resp.Error.Type != "invalid_request_error" {
				t.Errorf("ClientError = %d %+v", status, resp)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("upstream called %d times", n)
	}
}

// What has no Chat Completions form is dropped, not refused: the turn goes
// on without it, and each kind of drop is reported once.
func TestModelDegradesInsteadOfRefusing(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Store(b)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	var mu sync.Mutex
	var items []string
	m := newTestModel(t, srv.URL, ModelOptions{Degraded: func(item string) { mu.Lock(); items = append(items, item); mu.Unlock() }})
	for _, c := range []struct {
		name, body, item string
	}{
		{"server tool use in history", `{"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"server_tool_use","id":"srvtoolu_1","name":"code_execution","input":{"code":"x"}}]},{"role":"user","content":"more"}]}`, "block:server_tool"},
		{"web fetch result in history", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"q"},{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_1","content":{}}]}]}`, "block:server_tool"},
		{"server tool definition", `{"model":"m","tools":[{"type":"bash_20250124","name":"bash"}],"messages":[{"role":"user","content":"q"}]}`, "tool:typed"},
		{"unknown block", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"q"},{"type":"hologram","data":"x"}]}]}`, "block:other"},
		{"url document", `{"model":"m","messages":[{"role":"user","content":[{"type":"document","source":{"type":"url","url":"https://x/a.pdf"}}]}]}`, "document:url"},
		{"non-text system block", `{"model":"m","system":[{"type":"image"},{"type":"text","text":"s"}],"messages":[{"role":"user","content":"q"}]}`, "system:image"},
		{"unknown tool_choice", `{"model":"m","tool_choice":{"type":"magic"},"messages":[{"role":"user","content":"q"}]}`, "tool_choice:other"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			items = nil
			mu.Unlock()
			evs, err := m.Stream(context.Background(), nil, []byte(c.body))
			if err != nil {
				t.Fatal(err)
			}
			drain(t, evs)
			body, _ := got.Load().([]byte)
			if bytes.Contains(body, []byte("srvtoolu_")) || bytes.Contains(body, []byte("hologram")) || bytes.Contains(body, []byte("bash_")) {
				t.Errorf("untranslatable part reached the upstream: %s", body)
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Contains(items, c.item) {
				t.Errorf("degraded %v, want %q among them", items, c.item)
			}
		})
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestClientError(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		typ    string
		msg    string
	}{
		{&emulate.UpstreamError{Status: 401, Body: []byte(`{"error":{"message":"bad key"}}`)}, 401, "authentication_error", "bad key"},
		{&emulate.UpstreamError{Status: 403, Body: []byte(`{"error":"forbidden model"}`)}, 403, "permission_error", "forbidden model"},
		{&emulate.UpstreamError{Status: 404, Body: []byte(`{"detail":"Not Found"}`)}, 404, "not_found_error", "Not Found"},
		{&emulate.UpstreamError{Status: 422, Body: []byte(`{"detail":[{"loc":["body","messages"],"msg":"field required"}]}`)}, 400, "invalid_request_error", `[{"loc"`},
		{&emulate.UpstreamError{Status: 400, Body: []byte(`{"error":{"message":"Context length exceeded","code":"context_length_exceeded"}}`)}, 400, "invalid_request_error", "prompt is too long: Context length exceeded"},
		{&emulate.UpstreamError{Status: 413, Body: nil}, 413, "request_too_large", "upstream answered 413 Request Entity Too Large"},
		{&emulate.UpstreamError{Status: 429, Body: []byte(`{"message":"slow down"}`)}, 429, "rate_limit_error", "slow down"},
		{&emulate.UpstreamError{Status: 500, Body: []byte(`oops`)}, 500, "api_error", "oops"},
		{&emulate.UpstreamError{Status: 503, Body: []byte(`{}`)}, 529, "overloaded_error", "{}"},
		{&emulate.UpstreamError{Status: 504, Body: []byte(`{}`)}, 504, "timeout_error", "{}"},
		{&emulate.UpstreamError{Status: 418, Body: []byte(`teapot`)}, 418, "invalid_request_error", "teapot"},
		{fmt.Errorf("wrapped: %w", wire.ErrInvalidRequest), 400, "invalid_request_error", "invalid request"},
		{fmt.Errorf("openai upstream: %w", context.DeadlineExceeded), 504, "timeout_error", "deadline"},
		{fmt.Errorf("openai upstream: %w", timeoutErr{}), 504, "timeout_error", "i/o timeout"},
		{errors.New("dial tcp: connection refused"), 502, "api_error", "connection refused"},
	} {
		status, resp := ClientError(c.err)
		if status != c.status || resp.Type != "error" || resp.Error.Type != c.typ || !strings.Contains(resp.Error.Message, c.msg) {
			t.Errorf("ClientError(%v) = %d %+v, want %d %s containing %q", c.err, status, resp, c.status, c.typ, c.msg)
		}
	}
}

func TestNewModel(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  config.Upstream
		want string // "" = success
	}{
		{"defaults to OpenAI", config.Upstream{Kind: "openai"}, ""},
		{"kind left empty", config.Upstream{BaseURL: "http://127.0.0.1:11434/v1"}, ""},
		{"wrong kind", config.Upstream{Kind: "anthropic", BaseURL: "http://x"}, `kind is "anthropic"`},
		{"bad url", config.Upstream{Kind: "openai", BaseURL: "ftp://x"}, "absolute http(s) URL"},
		{"bad glob", config.Upstream{Kind: "openai", Models: []config.ModelRule{{Pattern: "[", Model: "x"}}}, "not a valid glob"},
		{"settings-only rule", config.Upstream{Kind: "openai", Models: []config.ModelRule{{Pattern: "*", MaxTokens: 100}}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := NewModel(c.cfg, ModelOptions{})
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasSuffix(m.endpoint, "/chat/completions") {
					t.Errorf("endpoint %s", m.endpoint)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
	m, _ := NewModel(config.Upstream{Kind: "openai", BaseURL: "https://api.example.com/openai/v1/?api-version=2"}, ModelOptions{})
	if m.endpoint != "https://api.example.com/openai/v1/chat/completions?api-version=2" {
		t.Errorf("endpoint %s", m.endpoint)
	}
}

// A whole reply larger than MaxResponseBytes is refused, not buffered.
func TestModelWholeReplyLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"message":{"content":"`+strings.Repeat("x", 4096)+`"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	m := newTestModel(t, srv.URL, ModelOptions{NoStream: true, MaxResponseBytes: 1024})
	_, err := m.Stream(context.Background(), nil, []byte(simpleRequest))
	var ue *emulate.UpstreamError
	if !errors.As(err, &ue) || ue.Status != http.StatusBadGateway || !strings.Contains(string(ue.Body), "larger than 1024 bytes") {
		t.Fatalf("err %v", err)
	}
}

// One Model serves concurrent streams (run with -race).
func TestModelConcurrent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sseChunk(`{"reasoning_content":"r"}`)+sseChunk(`{"content":"x"}`)+
			sseChunk(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}`)+sseEnd)
	}))
	defer srv.Close()
	m := newTestModel(t, srv.URL, ModelOptions{})
	body := `{"model":"m","max_tokens":10,"tools":[{"name":"f","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"hi"}]}`
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			evs, err := m.Stream(context.Background(), nil, []byte(body))
			if err != nil {
				errs <- err
				return
			}
			defer evs.Close()
			n := 0
			for {
				_, err := evs.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					errs <- err
					return
				}
				n++
			}
			if n != 13 {
				errs <- fmt.Errorf("%d events", n)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A tool name Chat Completions refuses is sent changed, and the reply's
// call is reported under the client's own name, streamed or whole.
func TestModelToolNamesRoundTrip(t *testing.T) {
	const name = "mcp__docs__read.page"
	for _, noStream := range []bool{false, true} {
		var sent atomic.Value
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			sent.Store(b)
			if noStream {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"mcp__docs__read_page","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, sseChunk(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"mcp__docs__read_page","arguments":"{}"}}]}`)+
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`+"\n\ndata: [DONE]\n\n")
		}))
		m := newTestModel(t, srv.URL, ModelOptions{NoStream: noStream})
		evs, err := m.Stream(context.Background(), nil, []byte(`{"model":"m","tools":[{"name":"`+name+`","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"q"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for {
			ev, err := evs.Next()
			if err != nil {
				break
			}
			var d struct {
				ContentBlock struct {
					Name string `json:"name"`
				} `json:"content_block"`
			}
			if ev.Name == "content_block_start" && json.Unmarshal(ev.Data, &d) == nil {
				names = append(names, d.ContentBlock.Name)
			}
		}
		evs.Close()
		srv.Close()
		if b, _ := sent.Load().([]byte); !bytes.Contains(b, []byte(`"name":"mcp__docs__read_page"`)) {
			t.Errorf("no stream %v: sent %s", noStream, b)
		}
		if len(names) != 1 || names[0] != name {
			t.Errorf("no stream %v: tool_use names %v, want [%s]", noStream, names, name)
		}
	}
}
