package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// Stream event payloads. Each marshals to the data of one SSE event whose
// event name equals its type member (Anthropic, "Streaming Messages":
// https://docs.anthropic.com/en/docs/build-with-claude/streaming).

type messageStart struct {
	Type    string   `json:"type"`
	Message *Message `json:"message"`
}

type blockStart struct {
	Type         string       `json:"type"`
	Index        int          `json:"index"`
	ContentBlock ContentBlock `json:"content_block"`
}

type blockDelta struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta any    `json:"delta"`
}

type blockStop struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

type textDelta struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type inputJSONDelta struct {
	Type        string `json:"type"`
	PartialJSON string `json:"partial_json"`
}

type citationsDelta struct {
	Type     string   `json:"type"`
	Citation Citation `json:"citation"`
}

type messageDelta struct {
	Type  string `json:"type"`
	Delta struct {
		StopReason   *string `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
	} `json:"delta"`
	Usage Usage `json:"usage"`
}

type typeOnly struct {
	Type string `json:"type"`
}

type errorEvent struct {
	Type  string      `json:"type"`
	Error ErrorDetail `json:"error"`
}

// EventWriter writes Anthropic stream events as server-sent events and
// flushes after each one, so a client sees every event as soon as it is
// produced rather than when a buffer fills.
type EventWriter struct {
	w     io.Writer
	flush func() error
	held  bool
	// out holds the encoded events not yet written: one event normally,
	// every event since Hold while held, so a run produced back to back
	// reaches the connection in a single Write.
	out []byte
	// pooled is out's slot from outPool, kept to put it back without
	// allocating a new pointer.
	pooled *[]byte
	buf    bytes.Buffer
	enc    *json.Encoder
	err    error
}

// outPool recycles EventWriter buffers across requests, so a writer does
// not grow a fresh buffer to the size of its events for every response.
var outPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// maxPooled keeps unusually large buffers out of the pool.
const maxPooled = 256 << 10

// HTTPFlusher returns the flush function NewEventWriter wants for an HTTP
// response. A ResponseWriter wrapped by middleware that cannot flush is
// tolerated (events then arrive when the server's buffer fills or the
// handler returns) instead of failing the stream on its first event.
func HTTPFlusher(w http.ResponseWriter) func() error {
	return func() error {
		// The controller is made per flush, on the stack: a response
		// that never flushes (a fast answer written whole) pays nothing.
		if err := http.NewResponseController(w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		return nil
	}
}

// NewEventWriter returns a writer on w. flush, when non-nil, is called after
// every event (http.ResponseController.Flush in the proxy). Call Close when
// done with it to recycle its buffer.
func NewEventWriter(w io.Writer, flush func() error) *EventWriter {
	return &EventWriter{w: w, flush: flush}
}

var errClosed = errors.New("anthropic: EventWriter used after Close")

// Close returns the writer's buffer to a pool; the writer must not be used
// afterwards. Events still held are discarded, so Release first.
func (e *EventWriter) Close() {
	if e.pooled != nil && cap(e.out) <= maxPooled {
		*e.pooled = e.out[:0]
		outPool.Put(e.pooled)
	}
	e.out, e.pooled = nil, nil
	if e.err == nil {
		e.err = errClosed
	}
}

// Hold stops flushing after each event until Release. Use it around a run
// of events produced back to back: flushing each one would cost a syscall
// and a TCP segment apiece without delivering anything sooner.
func (e *EventWriter) Hold() { e.held = true }

// Release resumes per-event writing and flushing and sends what was held.
func (e *EventWriter) Release() error {
	e.held = false
	if e.writeOut(); e.err != nil {
		return e.err
	}
	return e.Flush()
}

// Flush flushes the underlying writer now.
func (e *EventWriter) Flush() error {
	if e.err != nil || e.flush == nil {
		return e.err
	}
	if err := e.flush(); err != nil {
		e.err = fmt.Errorf("flush: %w", err)
	}
	return e.err
}

// Err returns the first write error; once set every method is a no-op, so
// callers can emit a sequence and check once.
func (e *EventWriter) Err() error { return e.err }

// Event writes one event with data marshalled from v.
func (e *EventWriter) Event(name string, v any) error {
	if e.err != nil {
		return e.err
	}
	e.buf.Reset()
	if e.enc == nil {
		// One encoder writing straight into the reused buffer: no
		// per-event allocation for the encoded data.
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	// Encode ends the JSON with a newline; one more ends the event.
	if err := e.enc.Encode(v); err != nil {
		e.err = fmt.Errorf("marshal %s event: %w", name, err)
		return e.err
	}
	b := append(e.begin(name), e.buf.Bytes()...)
	return e.emit(name, append(b, '\n'))
}

// begin starts an event after any held ones.
func (e *EventWriter) begin(name string) []byte {
	e.grab()
	b := append(e.out, "event: "...)
	b = append(b, name...)
	return append(b, "\ndata: "...)
}

// grab takes a buffer from outPool when the writer has none.
func (e *EventWriter) grab() {
	if e.out == nil {
		e.pooled = outPool.Get().(*[]byte)
		e.out = (*e.pooled)[:0]
	}
}

// end finishes a hand-encoded event begun with begin.
func (e *EventWriter) end(name string, b []byte) error {
	return e.emit(name, append(b, "\n\n"...))
}

// emit records a complete event and, unless held, writes and flushes it.
func (e *EventWriter) emit(name string, b []byte) error {
	e.out = b
	if e.held {
		return nil
	}
	if e.writeOut(); e.err != nil {
		return e.err
	}
	if e.flush != nil {
		if err := e.flush(); err != nil {
			e.err = fmt.Errorf("flush %s event: %w", name, err)
		}
	}
	return e.err
}

// writeOut writes the pending events.
func (e *EventWriter) writeOut() {
	if e.err != nil || len(e.out) == 0 {
		return
	}
	_, err := e.w.Write(e.out)
	e.out = e.out[:0]
	if err != nil {
		e.err = fmt.Errorf("write events: %w", err)
	}
}

// The methods below encode their payloads by hand (see append.go) and
// fall back to encoding/json only for shapes the fast path never sends.

// MessageStart writes message_start. m should have empty content and a
// null stop_reason.
func (e *EventWriter) MessageStart(m *Message) error {
	if e.err != nil {
		return e.err
	}
	const name = "message_start"
	if b, ok := appendMessageStart(e.begin(name), m); ok {
		return e.end(name, b)
	}
	return e.Event(name, messageStart{name, m})
}

// BlockStart writes content_block_start.
func (e *EventWriter) BlockStart(index int, cb ContentBlock) error {
	if e.err != nil {
		return e.err
	}
	const name = "content_block_start"
	b := append(e.begin(name), `{"type":"content_block_start","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"content_block":`...)
	if b, ok := appendBlock(b, cb); ok {
		return e.end(name, append(b, '}'))
	}
	return e.Event(name, blockStart{name, index, cb})
}

// delta begins a content_block_delta event up to its delta member.
func (e *EventWriter) delta(index int) []byte {
	b := append(e.begin("content_block_delta"), `{"type":"content_block_delta","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	return append(b, `,"delta":`...)
}

// TextDelta writes a text_delta.
func (e *EventWriter) TextDelta(index int, text string) error {
	if e.err != nil {
		return e.err
	}
	b := append(e.delta(index), `{"type":"text_delta","text":`...)
	b = appendString(b, text)
	return e.end("content_block_delta", append(b, "}}"...))
}

// InputJSONDelta writes an input_json_delta.
func (e *EventWriter) InputJSONDelta(index int, partial string) error {
	if e.err != nil {
		return e.err
	}
	b := append(e.delta(index), `{"type":"input_json_delta","partial_json":`...)
	b = appendString(b, partial)
	return e.end("content_block_delta", append(b, "}}"...))
}

// CitationsDelta writes a citations_delta.
func (e *EventWriter) CitationsDelta(index int, c Citation) error {
	if e.err != nil {
		return e.err
	}
	b := append(e.delta(index), `{"type":"citations_delta","citation":`...)
	b = appendCitation(b, &c)
	return e.end("content_block_delta", append(b, "}}"...))
}

// BlockStop writes content_block_stop.
func (e *EventWriter) BlockStop(index int) error {
	if e.err != nil {
		return e.err
	}
	const name = "content_block_stop"
	b := append(e.begin(name), `{"type":"content_block_stop","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	return e.end(name, append(b, '}'))
}

// MessageDelta writes message_delta with the final stop reason and the
// cumulative usage.
func (e *EventWriter) MessageDelta(stopReason string, u Usage) error {
	if e.err != nil {
		return e.err
	}
	const name = "message_delta"
	b := append(e.begin(name), `{"type":"message_delta","delta":{"stop_reason":`...)
	b = appendString(b, stopReason)
	b = append(b, `,"stop_sequence":null},"usage":`...)
	b = appendUsage(b, &u)
	return e.end(name, append(b, '}'))
}

// MessageStop writes message_stop.
func (e *EventWriter) MessageStop() error {
	if e.err != nil {
		return e.err
	}
	return e.end("message_stop", append(e.begin("message_stop"), `{"type":"message_stop"}`...))
}

// Ping writes a ping, which keeps idle connections and proxies from timing
// out while a search runs (a ping may come anywhere in a stream:
// https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types).
func (e *EventWriter) Ping() error {
	if e.err != nil {
		return e.err
	}
	return e.end("ping", append(e.begin("ping"), `{"type":"ping"}`...))
}

// Error writes an error event, Anthropic's way of failing a stream that has
// already sent its 200 status (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events;
// the error types: https://docs.anthropic.com/en/api/errors).
func (e *EventWriter) Error(typ, msg string) error {
	return e.Event("error", errorEvent{"error", ErrorDetail{typ, msg}})
}

// Event is one server-sent event.
type Event struct {
	// Name is the event field; "" means the default "message".
	Name string
	// Data is the data lines joined with "\n".
	Data []byte
	// ID is the last id field seen, per the SSE specification
	// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
	ID string
}

// Reader limits.
var (
	// ErrLineTooLong means one line exceeded the reader's line limit.
	ErrLineTooLong = errors.New("sse: line too long")
	// ErrEventTooLarge means one event's data exceeded the event limit.
	ErrEventTooLarge = errors.New("sse: event too large")
)

// Default limits for NewReader. A single Anthropic event is a JSON object
// on one line; the largest in practice carry a whole web_search_tool_result
// (tens of KiB), so 1 MiB leaves ample room while still bounding memory
// against a hostile or broken upstream.
const (
	DefaultMaxLine  = 1 << 20
	DefaultMaxEvent = 4 << 20
)

// Reader parses a server-sent event stream with bounded memory: a line
// longer than maxLine or an event whose data exceeds maxEvent is an error,
// never an unbounded allocation.
type Reader struct {
	src      io.Reader
	buf      []byte
	start    int
	end      int
	eof      bool
	skipLF   bool // the previous line ended in CR; a following LF belongs to it
	scanned  int  // bytes after start already known to hold no terminator
	maxLine  int
	maxEvent int
	lastID   string
}

// NewReader returns a Reader on r. Non-positive limits select the defaults.
func NewReader(r io.Reader, maxLine, maxEvent int) *Reader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	if maxEvent <= 0 {
		maxEvent = DefaultMaxEvent
	}
	return &Reader{src: r, buf: make([]byte, min(maxLine+1, 4096)), maxLine: maxLine, maxEvent: maxEvent}
}

// Next returns the next event. It returns io.EOF at a clean end of stream;
// an event cut off by EOF is discarded, as the SSE specification requires
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
func (r *Reader) Next() (Event, error) {
	var (
		ev      Event
		data    []byte
		hasData bool
	)
	for {
		line, err := r.line()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return Event{}, io.EOF
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if !hasData {
				// A blank line after only comments or an event name with no
				// data dispatches nothing, per the specification.
				ev.Name = ""
				continue
			}
			ev.Data = data
			ev.ID = r.lastID
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "event":
			ev.Name = string(value)
		case "data":
			if len(data)+len(value)+1 > r.maxEvent {
				return Event{}, ErrEventTooLarge
			}
			if hasData {
				data = append(data, '\n')
			}
			data = append(data, value...)
			hasData = true
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				r.lastID = string(value)
			}
		}
	}
}

// line returns the next line without its terminator (LF, CRLF or CR, as
// the SSE specification allows: https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream).
// The slice is valid until the next call.
func (r *Reader) line() ([]byte, error) {
	for {
		if r.skipLF && r.start < r.end {
			if r.buf[r.start] == '\n' {
				r.start++
			}
			r.skipLF = false
		}
		if i := bytes.IndexAny(r.buf[r.start+r.scanned:r.end], "\r\n"); i >= 0 {
			i += r.scanned
			r.scanned = 0
			if i > r.maxLine {
				return nil, ErrLineTooLong
			}
			l := r.buf[r.start : r.start+i]
			r.skipLF = r.buf[r.start+i] == '\r'
			r.start += i + 1
			return l, nil
		}
		// Remember how far we looked, so byte-at-a-time input does not
		// make the scan quadratic.
		r.scanned = r.end - r.start
		if r.scanned > r.maxLine {
			return nil, ErrLineTooLong
		}
		if r.eof {
			// A final line with no terminator is an incomplete event; the
			// caller sees EOF before dispatching it.
			return nil, io.EOF
		}
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
}

// fill reads more input, compacting and growing the buffer up to the line
// limit so memory stays bounded by maxLine.
func (r *Reader) fill() error {
	if r.start > 0 {
		r.end = copy(r.buf, r.buf[r.start:r.end])
		r.start = 0
	}
	if r.end == len(r.buf) {
		nb := make([]byte, min(2*len(r.buf), r.maxLine+1))
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	n, err := r.src.Read(r.buf[r.end:])
	r.end += n
	if errors.Is(err, io.EOF) {
		r.eof = true
		return nil
	}
	if err != nil {
		return err
	}
	if n == 0 {
		// A reader returning 0, nil repeatedly would spin; io.Reader allows
		// it occasionally, so just try again on the next loop.
		return nil
	}
	return nil
}

// DecodeType returns the type member of an event's JSON data, which for
// Anthropic streams always equals the event name.
func DecodeType(data []byte) (string, error) {
	var t typeOnly
	if err := json.Unmarshal(data, &t); err != nil {
		return "", err
	}
	return t.Type, nil
}
