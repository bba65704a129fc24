package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/wire"
)

// events is the emulate.Events of one upstream reply. It is pull-driven:
// Next reads the upstream only when the events already translated are
// used up, so no goroutine runs and a slow consumer slows the upstream
// read rather than growing a buffer.
type events struct {
	ctx    context.Context // the caller's
	reqCtx context.Context // the upstream request's; canceled with a cause
	cancel context.CancelCauseFunc
	body   io.ReadCloser
	rd     *wire.Reader // nil for a whole reply, already translated
	tr     *StreamTranslator
	w      *wire.EventWriter
	q      eventQueue
	err    error // what Next returns once the queue is empty
	once   sync.Once
	closed atomic.Bool
}

// errClosed is the upstream request's cancel cause after Close.
var errClosed = errors.New("events closed")

// Next implements emulate.Events.
func (e *events) Next() (wire.Event, error) {
	for {
		if e.closed.Load() {
			e.release()
			return wire.Event{}, errClosed
		}
		if ev, ok := e.q.pop(); ok {
			return ev, nil
		}
		if e.err != nil {
			e.release()
			return wire.Event{}, e.err
		}
		e.step()
	}
}

// step translates the next upstream event, or ends the stream.
func (e *events) step() {
	if e.rd == nil || e.tr.Done() {
		e.end(io.EOF)
		return
	}
	ev, err := e.rd.Next()
	switch {
	case err != nil && e.ctx.Err() != nil:
		e.end(fmt.Errorf("openai upstream: %w", e.ctx.Err()))
		return
	case err != nil:
		if cause := context.Cause(e.reqCtx); errors.As(cause, new(idleError)) {
			err = cause
		}
		_ = e.tr.End(err)
	default:
		_ = e.tr.Feed(ev)
	}
	if e.tr.Done() {
		e.stopBody()
	}
}

// prime reads until the first event is translated. An error event first
// means the upstream failed before producing anything, which the client
// is better told with an HTTP status: it is returned as an UpstreamError
// (status from its type, body the error) instead of streamed.
func (e *events) prime() *emulate.UpstreamError {
	for len(e.q.evs) == e.q.head && e.err == nil {
		e.step()
	}
	if e.q.head == len(e.q.evs) || e.q.evs[e.q.head].Name != "error" {
		return nil
	}
	ev, _ := e.q.pop()
	var body struct {
		Error wire.ErrorDetail `json:"error"`
	}
	_ = json.Unmarshal(ev.Data, &body)
	return &emulate.UpstreamError{Status: errorTypeStatus(body.Error.Type), Body: ev.Data}
}

// errorTypeStatus is the HTTP status of an Anthropic error type.
func errorTypeStatus(typ string) int {
	switch typ {
	case "invalid_request_error":
		return http.StatusBadRequest
	case "authentication_error":
		return http.StatusUnauthorized
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "overloaded_error":
		return 529
	}
	return http.StatusBadGateway
}

func (e *events) end(err error) {
	e.err = err
	e.stopBody()
}

// stopBody releases the upstream connection as soon as the reply is
// translated.
func (e *events) stopBody() {
	e.once.Do(func() {
		e.cancel(errClosed)
		_ = e.body.Close()
	})
}

// Close implements emulate.Events; it cancels the upstream request if it
// is still running. It is safe to call more than once, and from another
// goroutine while Next waits on the upstream, which it unblocks.
func (e *events) Close() error {
	e.closed.Store(true)
	e.stopBody()
	return nil
}

// release drops the queue and recycles the writer's buffer; only the
// goroutine calling Next uses them.
func (e *events) release() {
	if e.w != nil {
		e.q.reset()
		e.w.Close()
		e.w = nil
	}
}

// eventQueue is the io.Writer under the translator's EventWriter: it
// splits what is written back into events. The writer only ever writes
// whole events, "event: <name>\ndata: <one line of JSON>\n\n", one or
// several at a time, so the split is exact.
type eventQueue struct {
	evs  []wire.Event
	head int
}

func (q *eventQueue) Write(p []byte) (int, error) {
	// The writer reuses p: keep a copy, sliced per event.
	buf := bytes.Clone(p)
	for len(buf) > 0 {
		ev, rest, ok := bytes.Cut(buf, []byte("\n\n"))
		name, data, ok2 := bytes.Cut(ev, []byte("\n"))
		name, ok3 := bytes.CutPrefix(name, []byte("event: "))
		data, ok4 := bytes.CutPrefix(data, []byte("data: "))
		if !ok || !ok2 || !ok3 || !ok4 {
			return 0, fmt.Errorf("openai: unexpected event framing %.64q", buf)
		}
		q.evs = append(q.evs, wire.Event{Name: string(name), Data: data})
		buf = rest
	}
	return len(p), nil
}

func (q *eventQueue) pop() (wire.Event, bool) {
	if q.head == len(q.evs) {
		return wire.Event{}, false
	}
	ev := q.evs[q.head]
	q.evs[q.head] = wire.Event{}
	if q.head++; q.head == len(q.evs) {
		q.evs, q.head = q.evs[:0], 0
	}
	return ev, true
}

func (q *eventQueue) reset() { q.evs, q.head = nil, 0 }

// writeMessage writes m as the events Anthropic would stream for it: each
// block opened empty, given its content in one delta and closed.
func writeMessage(w *wire.EventWriter, m *wire.Message) {
	start := *m
	start.Content = []wire.ContentBlock{}
	start.StopReason, start.StopSequence = nil, nil
	start.Usage.OutputTokens = 0
	w.MessageStart(&start)
	for i, b := range m.Content {
		switch b := b.(type) {
		case ThinkingBlock:
			w.BlockStart(i, ThinkingBlock{})
			thinkingDelta(w, i, b.Thinking)
			signatureDelta(w, i, b.Signature)
		case wire.TextBlock:
			w.BlockStart(i, wire.TextBlock{})
			w.TextDelta(i, b.Text)
		case ToolUseBlock:
			w.BlockStart(i, ToolUseBlock{ID: b.ID, Name: b.Name})
			if in := string(b.Input); in != "{}" && in != "" {
				w.InputJSONDelta(i, in)
			}
		}
		w.BlockStop(i)
	}
	stop, seq := "end_turn", ""
	if m.StopReason != nil {
		stop = *m.StopReason
	}
	if m.StopSequence != nil {
		seq = *m.StopSequence
	}
	messageDelta(w, stop, seq, m.Usage)
	w.MessageStop()
}
