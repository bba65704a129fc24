package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/webgate/webgate/anthropic"
)

// Limits bound the memory a stream translation may use. Zero fields select
// the defaults.
type Limits struct {
	// MaxLine and MaxEvent bound one SSE line and one event's data
	// (defaults: the anthropic package's, 1 MiB and 4 MiB).
	MaxLine, MaxEvent int
	// MaxToolCalls bounds the number of tool calls, and so the tool call
	// indices accepted (0 to MaxToolCalls-1). Default 128.
	MaxToolCalls int
	// MaxToolArgBytes bounds one call's arguments. Default 16 MiB.
	MaxToolArgBytes int
	// MaxBufferedBytes bounds argument bytes held back while another tool
	// block is open. Default 16 MiB.
	MaxBufferedBytes int
}

func (l Limits) withDefaults() Limits {
	if l.MaxToolCalls <= 0 {
		l.MaxToolCalls = 128
	}
	if l.MaxToolArgBytes <= 0 {
		l.MaxToolArgBytes = 16 << 20
	}
	if l.MaxBufferedBytes <= 0 {
		l.MaxBufferedBytes = 16 << 20
	}
	return l
}

type blockKind int

const (
	blockNone blockKind = iota
	blockThinking
	blockText
	blockTool
)

// toolState is one upstream tool call.
type toolState struct {
	id, name string
	pending  []byte // argument bytes not yet emitted
	total    int
	opened   bool
	closed   bool
	scan     objectScanner
}

// StreamTranslator turns a Chat Completions chunk stream into Anthropic
// stream events, incrementally: each chunk's events are written (and
// flushed) before the next chunk is read. It is not safe for concurrent
// use. See the package documentation for the block ordering rules.
type StreamTranslator struct {
	w    *anthropic.EventWriter
	opts Options
	lim  Limits

	started  bool
	done     bool
	next     int // index of the next block
	open     blockKind
	openIdx  int
	tools    []*toolState
	byKey    map[int]*toolState
	cur      int // tools[cur] is the first tool whose block is not closed
	buffered int
	finish   string
	finished bool // a finish_reason was seen
	usage    *ChatUsage
	refused  bool // a refusal delta was seen
}

// NewStreamTranslator returns a translator writing to w.
func NewStreamTranslator(w *anthropic.EventWriter, opts Options) *StreamTranslator {
	return &StreamTranslator{w: w, opts: opts, lim: opts.Limits.withDefaults(), byKey: map[int]*toolState{}}
}

// Run reads the upstream SSE body r until [DONE], end of input, an error
// or ctx's end, translating as it goes. If r is an io.Closer it is closed
// when ctx ends, unblocking a pending read. A stream that ends without
// [DONE] or a finish_reason, an upstream error chunk, a malformed chunk
// or an exceeded limit ends the Anthropic stream with an error event, and
// Run returns the error.
func (t *StreamTranslator) Run(ctx context.Context, r io.Reader) error {
	if c, ok := r.(io.Closer); ok {
		stop := context.AfterFunc(ctx, func() { _ = c.Close() })
		defer stop()
	}
	rd := anthropic.NewReader(r, t.lim.MaxLine, t.lim.MaxEvent)
	for {
		if err := ctx.Err(); err != nil {
			return t.Fail("api_error", "stream canceled: "+err.Error())
		}
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if !t.finished {
				return t.Fail("api_error", "upstream stream ended unexpectedly")
			}
			return t.Finish()
		}
		if err != nil {
			if ctx.Err() != nil {
				return t.Fail("api_error", "stream canceled: "+ctx.Err().Error())
			}
			return t.Fail("api_error", "reading upstream stream: "+err.Error())
		}
		if ev.Name == "error" {
			return t.chunkError(ev.Data)
		}
		if string(bytes.TrimSpace(ev.Data)) == "[DONE]" {
			return t.Finish()
		}
		if err := t.Chunk(ev.Data); err != nil {
			return err
		}
		if t.done {
			return nil
		}
	}
}

func (t *StreamTranslator) chunkError(data []byte) error {
	c, err := DecodeChunk(data)
	if err == nil && c.Error != nil {
		return t.Fail(errorType(c.Error), c.Error.Message)
	}
	return t.Fail("api_error", "upstream error: "+truncate(string(data), 512))
}

// Chunk translates one chunk (an SSE data payload other than [DONE]).
func (t *StreamTranslator) Chunk(data []byte) error {
	if t.done {
		return nil
	}
	c, err := DecodeChunk(data)
	if err != nil {
		return t.Fail("api_error", err.Error())
	}
	if c.Error != nil {
		return t.Fail(errorType(c.Error), c.Error.Message)
	}
	t.w.Hold()
	err = t.chunk(&c)
	if rerr := t.w.Release(); err == nil && rerr != nil {
		err = rerr
	}
	return err
}

func (t *StreamTranslator) chunk(c *Chunk) error {
	if err := t.start(c.ID, c.Model); err != nil {
		return err
	}
	if c.Usage != nil {
		t.usage = c.Usage
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := &ch.Delta
		if r := cmpOr(d.ReasoningContent, d.Reasoning); r != "" {
			if err := t.thinking(r); err != nil {
				return err
			}
		}
		t.refused = t.refused || d.Refusal != ""
		for _, s := range []string{d.Content, d.Refusal} {
			if s != "" {
				if err := t.text(s); err != nil {
					return err
				}
			}
		}
		for j := range d.ToolCalls {
			if err := t.toolDelta(&d.ToolCalls[j]); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			t.finish = *ch.FinishReason
			t.finished = true
		}
	}
	return t.w.Err()
}

// Finish ends the stream: open blocks are closed, held-back tool calls
// emitted, and message_delta and message_stop written.
func (t *StreamTranslator) Finish() error {
	if t.done {
		return nil
	}
	if err := t.start("", ""); err != nil {
		return err
	}
	if err := t.flushTools(); err != nil {
		return err
	}
	t.closeOpen()
	t.done = true
	stop := StopReason(t.finish, len(t.tools) > 0)
	if t.refused && t.finish != "length" {
		stop = "refusal"
	}
	t.w.MessageDelta(stop, ConvertUsage(t.usage))
	t.w.MessageStop()
	return t.w.Err()
}

// Fail ends the stream with an Anthropic error event and returns the
// error. It does nothing once the stream has ended.
func (t *StreamTranslator) Fail(typ, msg string) error {
	if t.done {
		return nil
	}
	t.done = true
	t.w.Error(typ, msg)
	if err := t.w.Err(); err != nil {
		return err
	}
	return fmt.Errorf("%w: %s: %s", ErrUpstream, typ, msg)
}

func (t *StreamTranslator) start(id, model string) error {
	if t.started {
		return nil
	}
	t.started = true
	return t.w.MessageStart(&anthropic.Message{
		ID:      messageID(id, &t.opts),
		Type:    "message",
		Role:    "assistant",
		Model:   cmpOr(t.opts.Model, model),
		Content: []anthropic.ContentBlock{},
	})
}

func (t *StreamTranslator) openBlock(k blockKind, b anthropic.ContentBlock) {
	t.closeOpen()
	t.open, t.openIdx = k, t.next
	t.next++
	t.w.BlockStart(t.openIdx, b)
}

func (t *StreamTranslator) closeOpen() {
	if t.open == blockNone {
		return
	}
	t.w.BlockStop(t.openIdx)
	if t.open == blockTool {
		t.tools[t.cur].closed = true
		t.cur++
	}
	t.open = blockNone
}

type thinkingDelta struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta struct {
		Type     string `json:"type"`
		Thinking string `json:"thinking"`
	} `json:"delta"`
}

func (t *StreamTranslator) thinking(s string) error {
	if t.open != blockThinking {
		if err := t.flushTools(); err != nil {
			return err
		}
		t.openBlock(blockThinking, ThinkingBlock{})
	}
	d := thinkingDelta{Type: "content_block_delta", Index: t.openIdx}
	d.Delta.Type, d.Delta.Thinking = "thinking_delta", s
	return t.w.Event("content_block_delta", d)
}

func (t *StreamTranslator) text(s string) error {
	if t.open != blockText {
		if err := t.flushTools(); err != nil {
			return err
		}
		t.openBlock(blockText, anthropic.TextBlock{})
	}
	return t.w.TextDelta(t.openIdx, s)
}

// toolDelta files one fragment under its call, then emits what can be.
func (t *StreamTranslator) toolDelta(d *ToolCallDelta) error {
	st, err := t.toolFor(d)
	if err != nil {
		return err
	}
	args := d.Function.Arguments
	if st.closed {
		if strings.TrimSpace(args) == "" {
			return nil
		}
		return t.Fail("api_error", "upstream sent tool call arguments after the call's block was closed")
	}
	if st.id == "" {
		st.id = d.ID
	}
	if st.name == "" {
		st.name = d.Function.Name
	}
	st.total += len(args)
	t.buffered += len(args)
	if st.total > t.lim.MaxToolArgBytes {
		return t.Fail("api_error", "tool call arguments too large")
	}
	if t.buffered > t.lim.MaxBufferedBytes {
		return t.Fail("api_error", "too many buffered tool call arguments")
	}
	st.pending = append(st.pending, args...)
	return t.pump()
}

func (t *StreamTranslator) toolFor(d *ToolCallDelta) (*toolState, error) {
	var key int
	switch {
	case d.Index != nil:
		key = *d.Index
		if key < 0 || key >= t.lim.MaxToolCalls {
			return nil, t.Fail("api_error", fmt.Sprintf("tool call index %d out of range", key))
		}
	case d.ID != "":
		// No index: match by id, else a new call.
		for _, st := range t.tools {
			if st.id == d.ID {
				return st, nil
			}
		}
		key = -1 - len(t.tools)
	case len(t.tools) > 0:
		return t.tools[len(t.tools)-1], nil
	default:
		key = -1
	}
	if st := t.byKey[key]; st != nil {
		return st, nil
	}
	if len(t.tools) >= t.lim.MaxToolCalls {
		return nil, t.Fail("api_error", "too many tool calls")
	}
	st := &toolState{}
	t.byKey[key] = st
	t.tools = append(t.tools, st)
	return st, nil
}

// pump opens the current tool's block once its name is known, streams its
// pending arguments, and moves on to the next call once the current one's
// arguments form a complete JSON object.
func (t *StreamTranslator) pump() error {
	for t.cur < len(t.tools) {
		st := t.tools[t.cur]
		if !st.opened {
			if st.name == "" {
				return nil
			}
			t.openTool(st)
		}
		t.emitPending(st)
		if !st.scan.complete {
			return t.w.Err()
		}
		t.closeOpen()
	}
	return t.w.Err()
}

func (t *StreamTranslator) openTool(st *toolState) {
	if st.id == "" {
		st.id = t.opts.newID("toolu_")
	}
	st.opened = true
	t.openBlock(blockTool, ToolUseBlock{ID: st.id, Name: st.name})
}

func (t *StreamTranslator) emitPending(st *toolState) {
	if len(st.pending) == 0 {
		return
	}
	st.scan.feed(st.pending)
	t.w.InputJSONDelta(t.openIdx, string(st.pending))
	t.buffered -= len(st.pending)
	st.pending = nil
}

// flushTools emits every remaining tool call, each as a complete block.
func (t *StreamTranslator) flushTools() error {
	for t.cur < len(t.tools) {
		st := t.tools[t.cur]
		if !st.opened {
			if st.name == "" {
				return t.Fail("api_error", "upstream tool call has no function name")
			}
			t.openTool(st)
		}
		t.emitPending(st)
		t.closeOpen()
	}
	return t.w.Err()
}

// objectScanner tracks whether a streamed JSON text is a complete object.
type objectScanner struct {
	depth    int
	started  bool
	inStr    bool
	esc      bool
	complete bool
	invalid  bool
}

func (s *objectScanner) feed(b []byte) {
	for _, c := range b {
		if s.complete || s.invalid {
			return
		}
		if s.inStr {
			switch {
			case s.esc:
				s.esc = false
			case c == '\\':
				s.esc = true
			case c == '"':
				s.inStr = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
		case '"':
			s.inStr = true
		case '{', '[':
			s.depth++
			s.started = true
		case '}', ']':
			s.depth--
			if s.depth == 0 && s.started {
				s.complete = true
			}
		default:
			if !s.started {
				// Not an object: never call it complete early.
				s.invalid = true
			}
		}
		if !s.started && s.inStr {
			s.invalid = true
		}
	}
}

func errorType(e *ChatError) string {
	s := strings.ToLower(e.Type + " " + string(e.Code))
	switch {
	case strings.Contains(s, "rate_limit") || strings.Contains(s, "429"):
		return "rate_limit_error"
	case strings.Contains(s, "overload") || strings.Contains(s, "503"):
		return "overloaded_error"
	case strings.Contains(s, "invalid_request") || strings.Contains(s, "context_length"):
		return "invalid_request_error"
	case strings.Contains(s, "auth") || strings.Contains(s, "401"):
		return "authentication_error"
	}
	return "api_error"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
