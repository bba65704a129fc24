package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/webgate/webgate/internal/messages/wire"
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

// maxHeldSpace bounds whitespace-only text held back between tool calls.
const maxHeldSpace = 4 << 10

// toolState is one upstream tool call.
type toolState struct {
	id, name string
	pending  []byte // argument bytes not yet emitted
	total    int
	opened   bool
	closed   bool
	// truncated marks a call whose block closed before its arguments
	// formed a complete object; only a reply cut off by its token limit
	// may end that way.
	truncated bool
	scan      objectScanner // fed on arrival, so it knows more than was emitted
}

// StreamTranslator turns a Chat Completions chunk stream
// (https://platform.openai.com/docs/api-reference/chat-streaming) into Anthropic
// stream events (https://docs.anthropic.com/en/docs/build-with-claude/streaming),
// incrementally: each chunk's events are written (and
// flushed) before the next chunk is read. It is not safe for concurrent
// use. See the package documentation for the block ordering rules.
type StreamTranslator struct {
	w    *wire.EventWriter
	opts Options
	lim  Limits

	started  bool
	done     bool
	next     int // index of the next block
	open     blockKind
	openIdx  int
	thinkSig string // signature of the open thinking block
	tools    []*toolState
	byKey    map[int]*toolState
	cur      int // tools[cur] is the first tool whose block is not closed
	buffered int
	space    string // whitespace-only text held back after tool calls
	finish   string // the most significant finish_reason seen
	usage    *ChatUsage
	refused  bool // a refusal delta was seen
	stopSeq  string
	think    thinkSplitter
}

// NewStreamTranslator returns a translator writing to w.
func NewStreamTranslator(w *wire.EventWriter, opts Options) *StreamTranslator {
	t := &StreamTranslator{w: w, opts: opts, lim: opts.Limits.withDefaults(), byKey: map[int]*toolState{}}
	if opts.KeepThinkTags {
		t.think.state = thinkPlain
	}
	return t
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
	rd := wire.NewReader(r, t.lim.MaxLine, t.lim.MaxEvent)
	for !t.done {
		if err := ctx.Err(); err != nil {
			return t.Fail("api_error", "stream canceled: "+err.Error())
		}
		ev, err := rd.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) && ctx.Err() != nil {
				return t.Fail("api_error", "stream canceled: "+ctx.Err().Error())
			}
			return t.End(err)
		}
		if err := t.Feed(ev); err != nil {
			return err
		}
	}
	return nil
}

// Feed translates one upstream server-sent event: a chunk, [DONE] or an
// "error" event.
func (t *StreamTranslator) Feed(ev wire.Event) error {
	switch {
	case t.done:
		return nil
	case ev.Name == "error":
		return t.chunkError(ev.Data)
	case string(bytes.TrimSpace(ev.Data)) == "[DONE]" && !t.started:
		// [DONE] before any chunk: the upstream sent no reply at all,
		// which must not reach the client as an empty, finished message.
		return t.Fail("api_error", "upstream stream ended ([DONE]) without a reply")
	case string(bytes.TrimSpace(ev.Data)) == "[DONE]":
		return t.Finish()
	}
	return t.Chunk(ev.Data)
}

// End ends the stream where the upstream body ended: err is the read
// error, or io.EOF (or nil) at a clean end of input. A clean end after a
// finish_reason finishes the message; anything else is an error event.
func (t *StreamTranslator) End(err error) error {
	if t.done {
		return nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return t.Fail("api_error", "reading upstream stream: "+err.Error())
	}
	if t.finish == "" {
		return t.Fail("api_error", "upstream stream ended before the reply was finished")
	}
	return t.Finish()
}

// Done reports whether the Anthropic stream has ended, with message_stop
// or an error event.
func (t *StreamTranslator) Done() bool { return t.done }

func (t *StreamTranslator) chunkError(data []byte) error {
	if c, err := DecodeChunk(data); err == nil {
		if e := c.err(); e != nil {
			return t.Fail(errorType(e), errorMessage(e))
		}
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
	if e := c.err(); e != nil {
		return t.Fail(errorType(e), errorMessage(e))
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
	t.takeUsage(c.Usage)
	if c.XGroq != nil {
		t.takeUsage(c.XGroq.Usage)
	}
	// Every choice belongs to the one reply: webgate never asks for n > 1,
	// and GitHub Copilot puts a Claude model's text and its tool calls in
	// separate choices.
	for i := range c.Choices {
		if err := t.choice(&c.Choices[i]); err != nil || t.done {
			return err
		}
	}
	return t.w.Err()
}

func (t *StreamTranslator) choice(ch *ChunkChoice) error {
	t.takeUsage(ch.Usage)
	d := &ch.Delta
	for _, r := range [...]struct{ text, field string }{
		{d.ReasoningContent, fieldReasoningContent},
		{d.Reasoning, fieldReasoning},
		{d.Content.Thinking, ""},
	} {
		if r.text != "" {
			if err := t.thinking(r.text, r.field); err != nil {
				return err
			}
		}
	}
	if d.Content.Text != "" {
		thinking, text := t.think.split(d.Content.Text)
		if err := t.content(thinking, text); err != nil {
			return err
		}
	}
	if d.Refusal != "" {
		t.refused = true
		if err := t.text(d.Refusal); err != nil {
			return err
		}
	}
	for j := range d.ToolCalls {
		if err := t.toolDelta(&d.ToolCalls[j]); err != nil {
			return err
		}
	}
	if ch.FinishReason == nil || *ch.FinishReason == "" {
		return nil
	}
	f := *ch.FinishReason
	if finishIsError(f) {
		if ch.Error != nil {
			return t.Fail(errorType(ch.Error), errorMessage(ch.Error))
		}
		return t.Fail("api_error", fmt.Sprintf("upstream ended the reply with finish_reason %q", f))
	}
	if finishRank(f) > finishRank(t.finish) {
		t.finish = f
	}
	if s := matchedStop(t.opts.StopSequences, ch.StopReason, ch.MatchedStop); s != "" {
		t.stopSeq = s
	}
	return nil
}

func (t *StreamTranslator) takeUsage(u *ChatUsage) {
	if u != nil {
		t.usage = u
	}
}

// content writes think-tag output: thinking first, then text.
func (t *StreamTranslator) content(thinking, text string) error {
	if thinking != "" {
		if err := t.thinking(thinking, ""); err != nil {
			return err
		}
	}
	if text != "" {
		return t.text(text)
	}
	return nil
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
	if err := t.content(t.think.flush()); err != nil {
		return err
	}
	if err := t.flushTools(); err != nil {
		return err
	}
	for _, st := range t.tools {
		if st.truncated && !cutOff(t.finish) {
			return t.Fail("api_error", fmt.Sprintf("upstream tool call %q ended before its arguments were complete", st.name))
		}
	}
	t.closeOpen()
	t.done = true
	stop, seq := StopReason(t.finish, len(t.tools) > 0), ""
	switch {
	case t.refused && !cutOff(t.finish):
		stop = "refusal"
	case t.stopSeq != "" && stop == "end_turn":
		stop, seq = "stop_sequence", t.stopSeq
	}
	messageDelta(t.w, stop, seq, ConvertUsage(t.usage))
	t.w.MessageStop()
	return t.w.Err()
}

// messageDelta writes message_delta; a non-empty seq is the stop
// sequence that matched (EventWriter.MessageDelta always writes null).
func messageDelta(w *wire.EventWriter, stop, seq string, u wire.Usage) {
	if seq == "" {
		w.MessageDelta(stop, u)
		return
	}
	var d struct {
		Type  string `json:"type"`
		Delta struct {
			StopReason   string `json:"stop_reason"`
			StopSequence string `json:"stop_sequence"`
		} `json:"delta"`
		Usage wire.Usage `json:"usage"`
	}
	d.Type, d.Delta.StopReason, d.Delta.StopSequence, d.Usage = "message_delta", stop, seq, u
	w.Event("message_delta", d)
}

// thinkingDelta writes a thinking_delta.
func thinkingDelta(w *wire.EventWriter, index int, s string) {
	stringDelta(w, index, "thinking_delta", "thinking", s)
}

// signatureDelta writes a signature_delta, which Anthropic sends last in
// a thinking block.
func signatureDelta(w *wire.EventWriter, index int, sig string) {
	stringDelta(w, index, "signature_delta", "signature", sig)
}

// stringDelta writes a content_block_delta whose delta is
// {"type": typ, key: value}, type first as Anthropic writes it.
func stringDelta(w *wire.EventWriter, index int, typ, key, value string) {
	delta := wire.AppendString([]byte(`{"type":"`+typ+`","`+key+`":`), value, false)
	w.Event("content_block_delta", struct {
		Type  string          `json:"type"`
		Index int             `json:"index"`
		Delta json.RawMessage `json:"delta"`
	}{"content_block_delta", index, append(delta, '}')})
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
	return t.w.MessageStart(&wire.Message{
		ID:      messageID(id, &t.opts),
		Type:    "message",
		Role:    "assistant",
		Model:   cmpOr(t.opts.Model, model),
		Content: []wire.ContentBlock{},
	})
}

func (t *StreamTranslator) openBlock(k blockKind, b wire.ContentBlock) {
	t.closeOpen()
	t.open, t.openIdx = k, t.next
	t.next++
	t.w.BlockStart(t.openIdx, b)
}

func (t *StreamTranslator) closeOpen() {
	switch t.open {
	case blockNone:
		return
	case blockThinking:
		signatureDelta(t.w, t.openIdx, t.thinkSig)
	case blockTool:
		t.tools[t.cur].closed = true
		t.cur++
	}
	t.w.BlockStop(t.openIdx)
	t.open = blockNone
}

// thinking writes reasoning that arrived in field ("" for reasoning that
// is not to be replayed).
func (t *StreamTranslator) thinking(s, field string) error {
	if t.open != blockThinking {
		if err := t.flushTools(); err != nil {
			return err
		}
		t.openBlock(blockThinking, ThinkingBlock{})
		t.thinkSig = ReasoningSignature(field)
	}
	thinkingDelta(t.w, t.openIdx, s)
	return t.w.Err()
}

func (t *StreamTranslator) text(s string) error {
	if t.open != blockText {
		// Whitespace between tool calls (Qwen's hermes format puts
		// newlines there) would split them around an empty text block and
		// close a call whose arguments are still arriving: hold it until
		// real text follows.
		if len(t.tools) > 0 && strings.TrimSpace(s) == "" && len(t.space)+len(s) <= maxHeldSpace {
			t.space += s
			return nil
		}
		if err := t.flushTools(); err != nil {
			return err
		}
		t.openBlock(blockText, wire.TextBlock{})
	}
	s, t.space = t.space+s, ""
	return t.w.TextDelta(t.openIdx, s)
}

// toolDelta files one fragment under its call, then emits what can be.
func (t *StreamTranslator) toolDelta(d *ToolCallDelta) error {
	st, err := t.toolFor(d)
	if err != nil {
		return err
	}
	args := string(d.Function.Arguments)
	if st.closed {
		if strings.TrimSpace(args) == "" {
			return nil
		}
		return t.Fail("api_error", fmt.Sprintf("upstream sent arguments for tool call %q after its block was closed", st.name))
	}
	if st.id == "" {
		st.id = d.ID
	}
	switch name := d.Function.Name; {
	case name == "" || name == st.name:
	case st.name == "":
		st.name = name
	case !st.opened:
		// A name streamed in fragments; a repeated full name was skipped.
		st.name += name
	}
	st.total += len(args)
	t.buffered += len(args)
	if st.total > t.lim.MaxToolArgBytes {
		return t.Fail("api_error", "tool call arguments too large")
	}
	if t.buffered > t.lim.MaxBufferedBytes {
		return t.Fail("api_error", "too many buffered tool call arguments")
	}
	st.scan.feed([]byte(args))
	if st.scan.invalid {
		return t.Fail("api_error", fmt.Sprintf("upstream tool call %q arguments are not a valid JSON object", st.name))
	}
	st.pending = append(st.pending, args...)
	return t.pump()
}

func (t *StreamTranslator) toolFor(d *ToolCallDelta) (*toolState, error) {
	newCall := func(prev *toolState) bool {
		// A fragment that names a function starts a new call when the
		// previous call is whole or has another id: some servers number
		// every call 0, or send calls whole without index or id.
		if prev.name == "" || d.Function.Name == "" {
			return false
		}
		return prev.scan.complete ||
			d.ID != "" && prev.id != "" && d.ID != prev.id ||
			d.Index == nil && d.Function.Name != prev.name
	}
	switch {
	case d.Index != nil:
		key := *d.Index
		if key < 0 || key >= t.lim.MaxToolCalls {
			return nil, t.Fail("api_error", fmt.Sprintf("tool call index %d out of range", key))
		}
		st := t.byKey[key]
		if st != nil && !newCall(st) {
			return st, nil
		}
		st, err := t.newTool()
		if err == nil {
			t.byKey[key] = st
		}
		return st, err
	case d.ID != "":
		for _, st := range t.tools {
			if st.id == d.ID {
				return st, nil
			}
		}
		return t.newTool()
	case len(t.tools) > 0:
		if last := t.tools[len(t.tools)-1]; !newCall(last) {
			return last, nil
		}
	}
	return t.newTool()
}

func (t *StreamTranslator) newTool() (*toolState, error) {
	if len(t.tools) >= t.lim.MaxToolCalls {
		return nil, t.Fail("api_error", "too many tool calls")
	}
	st := &toolState{}
	t.tools = append(t.tools, st)
	return st, nil
}

// pump opens the current tool's block once its name is known and its
// arguments have begun, streams its pending arguments, and moves on to the
// next call once the current one's arguments form a complete JSON object.
func (t *StreamTranslator) pump() error {
	for t.cur < len(t.tools) {
		st := t.tools[t.cur]
		if !st.opened {
			if st.name == "" || !st.scan.started {
				return t.w.Err()
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
	// Leading whitespace before the object is dropped, as Anthropic's
	// partial_json never starts with any.
	trimmed := bytes.TrimLeft(st.pending, " \t\r\n")
	t.buffered -= len(st.pending) - len(trimmed)
	st.pending = trimmed
	t.openBlock(blockTool, ToolUseBlock{ID: st.id, Name: t.opts.toolName(st.name)})
}

func (t *StreamTranslator) emitPending(st *toolState) {
	if len(st.pending) == 0 {
		return
	}
	t.w.InputJSONDelta(t.openIdx, string(st.pending))
	t.buffered -= len(st.pending)
	st.pending = st.pending[:0]
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
		st.truncated = st.scan.started && !st.scan.complete
		t.closeOpen()
	}
	return t.w.Err()
}

// finishIsError reports finish reasons that mean the reply failed:
// OpenRouter's "error", GLM's "network_error", SGLang's "abort".
func finishIsError(f string) bool {
	return f == "error" || f == "network_error" || f == "abort"
}

// finishRank orders finish reasons by significance, for replies whose
// choices finish differently.
func finishRank(f string) int {
	switch f {
	case "":
		return 0
	case "tool_calls", "function_call", "tool_use":
		return 2
	case "content_filter", "sensitive":
		return 3
	case "length", "max_tokens", "model_context_window_exceeded":
		return 4
	}
	return 1
}

// matchedStop returns the stop sequence the upstream says ended the reply,
// if it is one of the request's.
func matchedStop(stops []string, raws ...json.RawMessage) string {
	for _, raw := range raws {
		var s string
		if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil && slices.Contains(stops, s) {
			return s
		}
	}
	return ""
}

// cutOff reports finish reasons for a reply cut off by a token limit,
// which may leave a tool call's arguments incomplete, as Anthropic's
// max_tokens does.
func cutOff(f string) bool {
	r := StopReason(f, false)
	return r == "max_tokens" || r == "model_context_window_exceeded"
}

func errorType(e *ChatError) string {
	s := strings.ToLower(e.Type + " " + string(e.Code))
	switch {
	case strings.Contains(s, "rate_limit") || strings.Contains(s, "429") || strings.Contains(strings.ToLower(e.Message), "rate limit"):
		return "rate_limit_error"
	case strings.Contains(s, "overload") || strings.Contains(s, "503") || strings.Contains(s, "529"):
		return "overloaded_error"
	case strings.Contains(s, "context_length") || strings.Contains(s, "invalid_request"):
		return "invalid_request_error"
	case strings.Contains(s, "auth") || strings.Contains(s, "401"):
		return "authentication_error"
	}
	return "api_error"
}

// errorMessage is e's message, or a description when it has none.
func errorMessage(e *ChatError) string {
	if e.Message != "" {
		return e.Message
	}
	if e.Type != "" || len(e.Code) > 0 {
		return strings.TrimSpace("upstream error " + e.Type + " " + string(e.Code))
	}
	return "upstream error"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
