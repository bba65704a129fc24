package emulate

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/webgate/webgate/internal/messages/wire"
)

// usage is Anthropic's usage object as the emulation reports it: token
// counts summed over every upstream call of the turn, and the server tool
// calls webgate ran.
type usage struct {
	InputTokens              int            `json:"input_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	ServerToolUse            *serverToolUse `json:"server_tool_use,omitempty"`
}

type serverToolUse struct {
	WebSearchRequests int `json:"web_search_requests"`
	WebFetchRequests  int `json:"web_fetch_requests"`
}

func (u *usage) add(v usage) {
	u.InputTokens += v.InputTokens
	u.CacheCreationInputTokens += v.CacheCreationInputTokens
	u.CacheReadInputTokens += v.CacheReadInputTokens
	u.OutputTokens += v.OutputTokens
}

// output is the client's side of a turn: one coherent message, written as
// server-sent events as it is produced, or collected into one JSON
// message for a non-streaming client. Every method is safe to call from
// the loop and the pinger at once; after a write error every call is a
// no-op and err reports it.
type output struct {
	mu     sync.Mutex
	stream bool
	w      http.ResponseWriter
	ew     *wire.EventWriter
	id     string
	model  string
	// started is set once message_start went out (for a stream, the 200
	// status with it).
	started bool
	next    int
	err     error
	last    time.Time
	// Collected message, for non-streaming clients.
	blocks      []*blockAcc
	startUsage  usage
	stopReason  string
	stopSeq     json.RawMessage
	finalUsage  usage
	finished    bool
	failure     *StreamError
	scratch     []byte
	pingEnabled bool
}

func newOutput(w http.ResponseWriter, stream bool, id, model string) *output {
	return &output{w: w, stream: stream, id: id, model: model}
}

// errClientGone is recorded when writing to the client failed.
var errClientGone = errors.New("client connection lost")

// emit writes one event (streaming) under o.mu. Before message_start
// there is no event writer, and nothing may be written: an event the
// client would get before message_start breaks the stream's grammar.
func (o *output) emit(name string, data []byte) {
	if o.err != nil || !o.stream || o.ew == nil {
		return
	}
	if err := o.ew.Raw(name, data); err != nil {
		o.err = errors.Join(errClientGone, err)
	}
	o.last = time.Now()
}

// start sends message_start; later calls do nothing.
func (o *output) start(u usage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.startLocked(u)
}

// startLocked is start with o.mu held.
func (o *output) startLocked(u usage) {
	if o.started {
		return
	}
	o.started = true
	o.startUsage = u
	if !o.stream {
		return
	}
	h := o.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	// Tell buffering reverse proxies (nginx) to pass events through.
	h.Set("X-Accel-Buffering", "no")
	o.w.WriteHeader(http.StatusOK)
	o.ew = wire.NewEventWriter(o.w, wire.HTTPFlusher(o.w))
	o.pingEnabled = true
	b := append(o.scratch[:0], `{"type":"message_start","message":{"id":`...)
	b = append(b, jsonString(o.id)...)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = append(b, jsonString(o.model)...)
	b = append(b, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":`...)
	b = append(b, mustMarshal(u)...)
	o.scratch = append(b, "}}"...)
	o.emit("message_start", o.scratch)
}

// blockStart opens a content block and returns its index.
func (o *output) blockStart(block json.RawMessage) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	i := o.next
	o.next++
	if !o.stream {
		o.blocks = append(o.blocks, newBlockAcc(block))
		return i
	}
	b := append(o.scratch[:0], `{"type":"content_block_start","index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"content_block":`...)
	b = append(b, block...)
	o.scratch = append(b, '}')
	o.emit("content_block_start", o.scratch)
	return i
}

// delta adds one delta to block i; raw is its JSON, d the decoded form.
func (o *output) delta(i int, raw json.RawMessage, d *delta) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i < 0 {
		return
	}
	if !o.stream {
		if i < len(o.blocks) {
			o.blocks[i].apply(d)
		}
		return
	}
	b := append(o.scratch[:0], `{"type":"content_block_delta","index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"delta":`...)
	b = append(b, raw...)
	o.scratch = append(b, '}')
	o.emit("content_block_delta", o.scratch)
}

func (o *output) text(i int, s string) {
	raw := append(append([]byte(`{"type":"text_delta","text":`), jsonString(s)...), '}')
	o.delta(i, raw, &delta{Type: "text_delta", Text: s})
}

func (o *output) citation(i int, c json.RawMessage) {
	raw := append(append([]byte(`{"type":"citations_delta","citation":`), c...), '}')
	o.delta(i, raw, &delta{Type: "citations_delta", Citation: c})
}

func (o *output) inputJSON(i int, s string) {
	raw := append(append([]byte(`{"type":"input_json_delta","partial_json":`), jsonString(s)...), '}')
	o.delta(i, raw, &delta{Type: "input_json_delta", PartialJSON: s})
}

// blockStop closes block i.
func (o *output) blockStop(i int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i < 0 {
		return
	}
	b := append(o.scratch[:0], `{"type":"content_block_stop","index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	o.scratch = append(b, '}')
	o.emit("content_block_stop", o.scratch)
}

// finish ends the message with its stop reason and the turn's usage.
func (o *output) finish(stopReason string, stopSeq json.RawMessage, u usage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	// A message ends only after it began (the loop starts it before any
	// upstream content; this keeps the grammar whatever the caller does).
	o.startLocked(usage{})
	o.finished, o.stopReason, o.stopSeq, o.finalUsage = true, stopReason, stopSeq, u
	if stopSeq == nil {
		stopSeq = json.RawMessage("null")
	}
	b := append(o.scratch[:0], `{"type":"message_delta","delta":{"stop_reason":`...)
	b = append(b, jsonString(stopReason)...)
	b = append(b, `,"stop_sequence":`...)
	b = append(b, stopSeq...)
	b = append(b, `},"usage":`...)
	b = append(b, mustMarshal(u)...)
	o.scratch = append(b, '}')
	o.emit("message_delta", o.scratch)
	o.emit("message_stop", []byte(`{"type":"message_stop"}`))
	o.pingEnabled = false
}

// fail ends a started stream with an error event, Anthropic's way of
// failing a response whose 200 status is already sent.
func (o *output) fail(e *StreamError) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failure = e
	o.pingEnabled = false
	o.emit("error", mustMarshal(struct {
		Type  string           `json:"type"`
		Error wire.ErrorDetail `json:"error"`
	}{"error", wire.ErrorDetail{Type: e.Type, Message: e.Message}}))
}

// ping relays an upstream ping. Before message_start it is dropped: a
// stream must open with message_start, and webgate's own pinger keeps
// the client's connection alive meanwhile.
func (o *output) ping() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.emit("ping", []byte(`{"type":"ping"}`))
}

// pingIfIdle sends a ping when nothing was written for idle; it reports
// whether the client is still there.
func (o *output) pingIfIdle(idle time.Duration) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pingEnabled && time.Since(o.last) >= idle {
		o.emit("ping", []byte(`{"type":"ping"}`))
	}
	return o.err == nil
}

// failed reports the first write error.
func (o *output) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// close releases the event writer's buffer.
func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ew != nil {
		o.ew.Close()
		o.ew = nil
	}
	o.pingEnabled = false
	if o.err == nil {
		o.err = errors.New("output closed")
	}
}

// message returns the collected message as JSON, for a non-streaming
// client.
func (o *output) message() (json.RawMessage, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	content := make([]json.RawMessage, 0, len(o.blocks))
	for _, b := range o.blocks {
		j, err := b.final()
		if err != nil {
			return nil, err
		}
		content = append(content, j)
	}
	stopSeq := o.stopSeq
	if stopSeq == nil {
		stopSeq = json.RawMessage("null")
	}
	b := append([]byte(`{"id":`), jsonString(o.id)...)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = append(b, jsonString(o.model)...)
	b = append(b, `,"content":`...)
	b = append(b, joinArray(content)...)
	b = append(b, `,"stop_reason":`...)
	b = append(b, jsonString(o.stopReason)...)
	b = append(b, `,"stop_sequence":`...)
	b = append(b, stopSeq...)
	b = append(b, `,"usage":`...)
	b = append(b, mustMarshal(o.finalUsage)...)
	return append(b, '}'), nil
}

func mustMarshal(v any) []byte {
	b, err := wire.Marshal(v)
	if err != nil {
		panic(err) // only called with static, always-encodable types
	}
	return b
}
