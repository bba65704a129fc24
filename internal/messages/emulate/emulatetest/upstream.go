// Package emulatetest provides scripted fake upstreams for testing server
// tool emulation, one Anthropic-compatible (New) and one
// OpenAI-compatible (NewOpenAI). Each answers every request with the next
// step of a script, streaming text and tool calls in small fragments, one
// flushed event Delay after the other, and records what it was sent.
// Scripts are written once, in Messages API terms, and play on either.
package emulatetest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is one request the fake received.
type Request struct {
	Header http.Header
	// Body is the request as a Messages API request: the body itself for
	// the Anthropic-compatible fake, a view of the Chat Completions
	// request for the OpenAI-compatible one (see NewOpenAI).
	Body []byte
	// Raw is the body exactly as it arrived.
	Raw []byte
	// OpenAI reports a request to the OpenAI-compatible fake.
	OpenAI bool
}

// JSON decodes the request body.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("upstream request is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

// Step answers one request.
type Step func(req Request) Reply

// Reply is what the fake sends back.
type Reply struct {
	// Status, when not 2xx, is sent with Body (an error answer).
	Status int
	Body   string
	// Events are streamed one at a time, each flushed, Delay apart.
	Events []Event
	// Raw, when set, is sent instead of Events: each string written as
	// it is (malformed or not) and flushed, Delay apart. Fault injection
	// scripts the bytes of each upstream kind with it.
	Raw []string
	// Cut drops the connection after Events instead of ending cleanly.
	Cut bool
	// Hold keeps the response open after Events until the client goes
	// away. Released, when set, is closed once the client is gone.
	Hold     bool
	Released chan struct{}
	// StallHeaders sends nothing at all, not even headers, until the
	// client goes away.
	StallHeaders bool
}

// Event is one server-sent event.
type Event struct {
	Name string
	Data string
}

// Upstream is the fake.
type Upstream struct {
	*httptest.Server
	// Delay separates streamed events. Tests never depend on it; it makes
	// the proxy read an upstream that really streams.
	Delay time.Duration

	t      testing.TB
	openai bool
	mu     sync.Mutex
	steps  []Step
	every  Step
	reqs   []Request
}

// New starts a fake that answers with steps, in order; a request beyond
// the script fails the test.
func New(t testing.TB, steps ...Step) *Upstream {
	u := &Upstream{t: t, steps: steps, Delay: time.Millisecond}
	u.Server = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.Close)
	return u
}

// Serve starts a fake that answers every request with step, for scripts
// that decide from the conversation itself what comes next (a real client
// sends requests in an order the test does not fix).
func Serve(t testing.TB, step Step) *Upstream {
	u := New(t)
	u.every = step
	return u
}

// ServeOpenAI is Serve for the OpenAI-compatible fake (see NewOpenAI).
func ServeOpenAI(t testing.TB, step Step) *Upstream {
	u := Serve(t, step)
	u.openai = true
	return u
}

// Requests returns what the fake received so far.
func (u *Upstream) Requests() []Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]Request(nil), u.reqs...)
}

func (u *Upstream) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	u.mu.Lock()
	n := len(u.reqs)
	var step Step
	switch {
	case u.every != nil:
		step = u.every
	case n < len(u.steps):
		step = u.steps[n]
	}
	path := "/v1/messages"
	req := Request{Header: r.Header.Clone(), Body: body, Raw: body}
	var viewErr error
	if u.openai {
		path = ChatPath
		req.OpenAI = true
		if req.Body, viewErr = messagesView(body); viewErr != nil {
			req.Body = body
		}
	}
	u.reqs = append(u.reqs, req)
	u.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != path {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	if step == nil {
		u.t.Errorf("upstream called %d times, script has %d steps; request:\n%s", n+1, len(u.steps), body)
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"script exhausted"}}`, http.StatusInternalServerError)
		return
	}
	if viewErr != nil {
		u.t.Errorf("request %d is not a valid Chat Completions request: %v\n%s", n+1, viewErr, body)
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	rep := step(req)
	if rep.Status != 0 && rep.Status/100 != 2 {
		w.Header().Set("Content-Type", "application/json")
		if u.openai {
			w.Header().Set("X-Request-Id", "req_upstream")
			w.WriteHeader(rep.Status)
			io.WriteString(w, chatErrorBody(rep.Body))
			return
		}
		w.Header().Set("Request-Id", "req_upstream")
		w.WriteHeader(rep.Status)
		io.WriteString(w, rep.Body)
		return
	}
	if rep.Released != nil {
		// However the response ends, Released tells the test the fake
		// saw the proxy's request end.
		defer func() {
			<-r.Context().Done()
			close(rep.Released)
		}()
	}
	if rep.StallHeaders {
		<-r.Context().Done()
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	lines := func(ev Event) []string { return []string{"event: " + ev.Name + "\ndata: " + ev.Data + "\n\n"} }
	if u.openai {
		lines = (&chunker{}).convert
	}
	var out []string
	for _, ev := range rep.Events {
		out = append(out, lines(ev)...)
	}
	if rep.Raw != nil {
		out = rep.Raw
	}
	for _, line := range out {
		if u.Delay > 0 {
			select {
			case <-time.After(u.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if _, err := io.WriteString(w, line); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
	switch {
	case rep.Cut:
		panic(http.ErrAbortHandler)
	case rep.Hold:
		<-r.Context().Done()
	}
}

// Chunk is the size of the fragments text and tool input are cut into.
const Chunk = 7

// Block is one content block of a scripted reply.
type Block interface {
	events(index int) []Event
}

type textBlock string

// Text is a text block streamed in Chunk-sized text_delta fragments.
func Text(s string) Block { return textBlock(s) }

func (b textBlock) events(i int) []Event {
	evs := []Event{ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})}
	for _, part := range fragments(string(b)) {
		evs = append(evs, deltaEvent(i, "text_delta", "text", part))
	}
	return append(evs, ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}))
}

type toolBlock struct{ id, name, input string }

// ToolUse is a tool_use block whose input JSON arrives in Chunk-sized
// input_json_delta fragments.
func ToolUse(id, name, input string) Block { return toolBlock{id, name, input} }

func (b toolBlock) events(i int) []Event {
	evs := []Event{ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
		"content_block": map[string]any{"type": "tool_use", "id": b.id, "name": b.name, "input": map[string]any{}}})}
	for _, part := range fragments(b.input) {
		evs = append(evs, deltaEvent(i, "input_json_delta", "partial_json", part))
	}
	return append(evs, ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}))
}

type thinkingBlock struct{ text, signature string }

// Thinking is a thinking block with its signature.
func Thinking(text, signature string) Block { return thinkingBlock{text, signature} }

func (b thinkingBlock) events(i int) []Event {
	evs := []Event{ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})}
	for _, part := range fragments(b.text) {
		evs = append(evs, deltaEvent(i, "thinking_delta", "thinking", part))
	}
	evs = append(evs, deltaEvent(i, "signature_delta", "signature", b.signature))
	return append(evs, ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}))
}

// Usage is a reply's token counts.
type Usage struct{ Input, Output int }

// Message is a complete streamed reply: message_start, a ping, the
// blocks, message_delta with stop and usage, message_stop.
func Message(stop string, u Usage, blocks ...Block) []Event {
	evs := Start(u)
	for i, b := range blocks {
		evs = append(evs, b.events(i)...)
	}
	return append(evs, End(stop, u)...)
}

// Start is message_start (with usage u's input tokens) and a ping.
func Start(u Usage) []Event {
	return []Event{
		ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_upstream", "type": "message", "role": "assistant", "model": "upstream-model",
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": u.Input, "output_tokens": 1}}}),
		ev("ping", map[string]any{"type": "ping"}),
	}
}

// Blocks are the events of blocks numbered from first.
func Blocks(first int, blocks ...Block) []Event {
	var evs []Event
	for i, b := range blocks {
		evs = append(evs, b.events(first+i)...)
	}
	return evs
}

// End is message_delta and message_stop.
func End(stop string, u Usage) []Event {
	return []Event{
		ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": u.Output}}),
		ev("message_stop", map[string]any{"type": "message_stop"}),
	}
}

// Error is an error event, how Anthropic fails a stream already begun.
func Error(typ, msg string) Event {
	return ev("error", map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

// Send is a step that answers with events.
func Send(events []Event) Step { return func(Request) Reply { return Reply{Events: events} } }

// deltaEvent is a content_block_delta event with its members in the
// order Anthropic's API writes them (type, index, delta; the delta's type
// first), which webgate's decoding fast path relies on.
func deltaEvent(index int, typ, member, value string) Event {
	d := `{"type":"content_block_delta","index":` + strconv.Itoa(index) + `,"delta":{"type":` + quote(typ) + `,` + quote(member) + `:` + quote(value) + `}}`
	return Event{Name: "content_block_delta", Data: d}
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func ev(name string, v any) Event {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return Event{Name: name, Data: string(b)}
}

// fragments cuts s into Chunk-byte pieces without splitting a UTF-8
// sequence.
func fragments(s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(Chunk, len(s))
		for n < len(s) && !isRuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Contains reports whether the request body contains every substring.
func (r Request) Contains(subs ...string) bool {
	for _, s := range subs {
		if !strings.Contains(string(r.Body), s) {
			return false
		}
	}
	return true
}
