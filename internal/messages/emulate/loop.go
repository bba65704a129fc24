package emulate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// codeMaxUsesExceeded is the error code of a call beyond max_uses
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#errors).
const codeMaxUsesExceeded = "max_uses_exceeded"

// Serve runs the turn and writes the response to w: server-sent events as
// they happen when the client streams (https://docs.anthropic.com/en/docs/build-with-claude/streaming),
// else one JSON message at the end (https://docs.anthropic.com/en/api/messages).
// hdr is the client's request header, handed to the Model.
//
// A non-nil error means nothing was written and the caller must answer:
// it is an *UpstreamError to relay as is, a *StreamError, a transport
// error reaching the upstream, or ctx's error. Once a stream has begun,
// failures end it with an error event instead (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events)
// and Serve returns nil.
func (t *Turn) Serve(ctx context.Context, w http.ResponseWriter, hdr http.Header) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := newOutput(w, t.req.Stream, t.e.o.NewID("msg_"), t.req.Model)
	defer o.close()
	if t.req.Stream {
		stop := t.e.startPinger(ctx, cancel, o)
		defer stop()
	}
	defer func() {
		if p := recover(); p != nil {
			err = t.e.recovered(ctx, p, o)
		}
	}()
	start := time.Now()
	st, err := t.run(ctx, hdr, o)
	t.e.logTurn(ctx, t, st, err, time.Since(start))
	if ctx.Err() != nil || o.failed() != nil {
		// The client left; nobody is listening.
		if !o.started {
			return context.Cause(ctx)
		}
		return nil
	}
	if err != nil {
		if !o.started || !t.req.Stream {
			return t.e.mapError(err)
		}
		o.fail(t.e.asStreamError(err))
		return nil
	}
	if !t.req.Stream {
		msg, err := o.message()
		if err != nil {
			return &StreamError{Type: "api_error", Message: "assembling the response: " + err.Error()}
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		_, _ = w.Write(msg)
	}
	return nil
}

// recovered answers a turn that panicked: a bug must cost its request an
// answer (500 api_error, or an error event once the stream began), not
// the connection, and leave the output usable for the deferred cleanup.
// The panic and its stack go to the log at error level.
func (e *Engine) recovered(ctx context.Context, p any, o *output) error {
	if p == http.ErrAbortHandler {
		panic(p)
	}
	e.log.ErrorContext(ctx, "emulated turn panicked", "panic", p, "stack", string(debug.Stack()))
	se := &StreamError{Type: "api_error", Message: "internal error", Status: http.StatusInternalServerError}
	o.mu.Lock()
	started, stream := o.started, o.stream
	o.mu.Unlock()
	if !started || !stream {
		return se
	}
	o.fail(se)
	return nil
}

// mapError returns err as the Model's ErrorMapper has the client see it,
// or unchanged when the Model has none or err is webgate's own.
func (e *Engine) mapError(err error) error {
	m, ok := e.o.Model.(ErrorMapper)
	var se *StreamError
	if !ok || errors.As(err, &se) || errors.Is(err, ErrInvalidHistory) || errors.Is(err, ErrInvalidRequest) ||
		errors.Is(err, context.Canceled) {
		return err
	}
	status, resp := m.ClientError(err)
	return &StreamError{Type: resp.Error.Type, Message: resp.Error.Message, Status: status}
}

// asStreamError turns a failure after the stream began into the error
// event the client gets.
func (e *Engine) asStreamError(err error) *StreamError {
	var se *StreamError
	if errors.As(e.mapError(err), &se) {
		return se
	}
	var ue *UpstreamError
	if errors.As(err, &ue) {
		var body struct {
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(ue.Body, &body) == nil && body.Error.Type != "" {
			return &StreamError{Type: body.Error.Type, Message: body.Error.Message}
		}
		return &StreamError{Type: "api_error", Message: fmt.Sprintf("upstream answered %d", ue.Status)}
	}
	// Transport errors may name internal hosts; keep them in the log.
	return &StreamError{Type: "api_error", Message: "upstream request failed"}
}

// startPinger sends a ping whenever the stream has been idle for
// PingInterval, keeping idle-timeout proxies from cutting it while tools
// run or the upstream thinks; a failed write cancels the turn.
func (e *Engine) startPinger(ctx context.Context, cancel context.CancelFunc, o *output) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(e.o.PingInterval)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tk.C:
				if !o.pingIfIdle(e.o.PingInterval) {
					cancel()
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// turnStats summarise a turn for the log.
type turnStats struct {
	iterations       int
	searches, fetchs int
	stopReason       string
}

func (e *Engine) logTurn(ctx context.Context, t *Turn, st turnStats, err error, took time.Duration) {
	attrs := []any{"took", took, "iterations", st.iterations, "web_search_requests", st.searches,
		"web_fetch_requests", st.fetchs, "stop_reason", st.stopReason, "stream", t.req.Stream}
	switch {
	case err != nil && ctx.Err() != nil:
		e.log.DebugContext(ctx, "emulated turn ended: client went away", attrs...)
		return
	case err != nil:
		e.log.WarnContext(ctx, "emulated turn failed", append(attrs, "err", err)...)
		return
	}
	e.log.InfoContext(ctx, "emulated turn", attrs...)
}

// run is the agentic loop.
func (t *Turn) run(ctx context.Context, hdr http.Header, o *output) (turnStats, error) {
	var st turnStats
	total := usage{}
	if len(t.tools) > 0 || len(t.pending) > 0 {
		total.ServerToolUse = &serverToolUse{}
	}
	used := map[ServerTool]int{}
	if len(t.pending) > 0 {
		// Calls left open by the previous response run first; their
		// results open this response, as Anthropic's do.
		o.start(usage{})
		calls := make([]srvCall, len(t.pending))
		for i, p := range t.pending {
			calls[i] = srvCall{id: p.id, tool: p.tool, input: p.input}
		}
		results := t.runCalls(ctx, o, calls, used, &total, &st)
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if t.pendingInto >= 0 {
			t.msgs[t.pendingInto] = prepend(t.msgs[t.pendingInto], results...)
		} else {
			t.msgs = append(t.msgs, upMessage{role: "user", blocks: results})
		}
	}
	for iter := 1; ; iter++ {
		st.iterations = iter
		body, err := t.body(iter == 1 && len(t.pending) == 0)
		if err != nil {
			return st, err
		}
		ev, err := t.e.o.Model.Stream(ctx, hdr, body)
		if err != nil {
			return st, err
		}
		r, err := t.pump(ctx, ev, o)
		ev.Close()
		total.add(r.usage)
		if err != nil {
			return st, err
		}
		st.stopReason = r.stopReason
		if r.stopReason != "tool_use" || len(r.server) == 0 || len(r.client) > 0 {
			// The model is done, or called a client tool: a server call
			// made alongside one waits, without its result, until the
			// client sends its tool results (Anthropic's deferral rule).
			o.finish(r.stopReason, r.stopSeq, total)
			return st, o.failed()
		}
		results := t.runCalls(ctx, o, r.server, used, &total, &st)
		if err := ctx.Err(); err != nil {
			return st, err
		}
		t.msgs = append(t.msgs,
			upMessage{role: "assistant", blocks: r.assistant},
			upMessage{role: "user", blocks: results})
		if iter >= t.e.o.MaxIterations {
			st.stopReason = "pause_turn"
			o.finish("pause_turn", nil, total)
			return st, o.failed()
		}
	}
}

// srvCall is a server tool call to run.
type srvCall struct {
	id    string
	tool  ServerTool
	input json.RawMessage
}

// runCalls runs a batch of server tool calls, at most MaxConcurrentCalls
// at once, streams their result blocks in call order, numbers their
// sources and returns the tool_result blocks for the upstream. Calls
// beyond a tool's max_uses are answered with max_uses_exceeded without
// running, counted in call order so the outcome never depends on timing.
func (t *Turn) runCalls(ctx context.Context, o *output, calls []srvCall, used map[ServerTool]int, total *usage, st *turnStats) []json.RawMessage {
	outs := make([]Outcome, len(calls))
	sem := make(chan struct{}, t.e.o.MaxConcurrentCalls)
	var wg sync.WaitGroup
	for i, c := range calls {
		call := Call{ID: c.id, Input: c.input, Conv: t.conv}
		used[c.tool]++
		if lim := c.tool.MaxUses(); lim < 0 || lim > 0 && used[c.tool] > lim {
			outs[i] = c.tool.Fail(call, codeMaxUsesExceeded)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				// A tool's bug would otherwise take the whole process
				// down from this goroutine; the call fails instead.
				if p := recover(); p != nil {
					t.e.log.ErrorContext(ctx, "server tool panicked", "tool", c.tool.Name(), "panic", p, "stack", string(debug.Stack()))
					outs[i] = c.tool.Fail(call, "unavailable")
				}
			}()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				outs[i] = c.tool.Fail(call, "unavailable")
				return
			}
			outs[i] = c.tool.Run(ctx, call)
		}()
	}
	wg.Wait()
	results := make([]json.RawMessage, len(calls))
	for i, c := range calls {
		out := &outs[i]
		idx := o.blockStart(out.Result)
		o.blockStop(idx)
		rep := out.Report
		rep.Sources = t.conv.AddSources(c.tool.Name(), rep.Sources)
		for _, u := range rep.URLs {
			t.conv.AddURL(u, URLSource{Origin: FromServerTool, Tool: c.tool.Name()})
		}
		if out.Counted {
			switch c.tool.Kind() {
			case KindWebSearch:
				total.ServerToolUse.WebSearchRequests++
				st.searches++
			case KindWebFetch:
				total.ServerToolUse.WebFetchRequests++
				st.fetchs++
			}
		}
		results[i] = toolResultJSON(c.id, t.e.renderResult(c.id, &rep), out.ErrorCode != "")
	}
	return results
}

// pumped is what one upstream response produced.
type pumped struct {
	stopReason string
	stopSeq    json.RawMessage
	usage      usage
	// assistant is the response's content for the upstream conversation.
	assistant []json.RawMessage
	server    []srvCall
	client    []string
}

// upEvent is the union of the upstream event members the loop reads.
type upEvent struct {
	Type         string          `json:"type"`
	Index        int             `json:"index"`
	ContentBlock json.RawMessage `json:"content_block"`
	Delta        json.RawMessage `json:"delta"`
	Message      *struct {
		Usage usage `json:"usage"`
	} `json:"message"`
	Usage *usage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// upBlock is the state of one upstream content block.
type upBlock struct {
	acc *blockAcc
	// client is the client block it streams into (-1: none open now).
	client int
	// server is set for a call of an emulated tool.
	server *srvCall
	text   *textStream
}

// maxUpstreamBlocks bounds the blocks of one upstream response.
const maxUpstreamBlocks = 4096

// errNoMessageStart is an upstream stream whose message ends (or never
// begins) without message_start: the Messages API opens every stream
// with it (https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types), so the
// upstream is broken and its reply cannot be trusted.
var errNoMessageStart = badUpstream("upstream stream did not begin with message_start")

// badUpstream is the error of an upstream reply that breaks the Messages
// API's stream grammar or stops short: 502, the gateway got an invalid
// response (RFC 9110 section 15.6.3,
// https://www.rfc-editor.org/rfc/rfc9110#section-15.6.3; a streaming
// client already answered gets it as an error event).
func badUpstream(msg string) *StreamError {
	return &StreamError{Type: "api_error", Message: msg, Status: http.StatusBadGateway}
}

// pump relays one upstream response to the client: text live (citation
// markers turned into citations), thinking and client tool calls as they
// come, emulated tool calls as server_tool_use blocks. It returns what
// the response asked for.
func (t *Turn) pump(ctx context.Context, ev Events, o *output) (pumped, error) {
	var (
		r        pumped
		blocks   = map[int]*upBlock{}
		order    []int
		startUse usage
		sawStart bool
		sawStop  bool
	)
	for {
		e, err := ev.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return r, ctx.Err()
			}
			// Transport errors may name internal addresses: the log gets
			// them, the client a plain sentence.
			t.e.log.WarnContext(ctx, "upstream stream broken", "err", err)
			var te interface{ Timeout() bool }
			if errors.As(err, &te) && te.Timeout() {
				return r, badUpstream("the upstream went silent mid-stream and was cut off")
			}
			return r, badUpstream("the upstream stream broke off before the message was complete")
		}
		if err := o.failed(); err != nil {
			return r, err
		}
		if e.Name == "content_block_delta" {
			if i, raw, d, ok := fastDelta(e.Data); ok {
				b := blocks[i]
				if b == nil {
					return r, badUpstream(fmt.Sprintf("upstream delta for unknown content block %d", i))
				}
				t.blockDelta(b, raw, &d, o)
				continue
			}
		}
		var u upEvent
		if err := json.Unmarshal(e.Data, &u); err != nil {
			return r, badUpstream("malformed upstream event: " + err.Error())
		}
		if u.Type == "" {
			u.Type = e.Name
		}
		switch u.Type {
		case "message_start":
			sawStart = true
			if u.Message != nil {
				startUse = u.Message.Usage
			}
			o.start(startUse)
		case "content_block_start":
			if !sawStart {
				o.start(usage{})
				sawStart = true
			}
			if len(blocks) >= maxUpstreamBlocks || blocks[u.Index] != nil {
				return r, badUpstream(fmt.Sprintf("upstream content block %d is invalid or repeated", u.Index))
			}
			b := t.startBlock(u.ContentBlock, o)
			blocks[u.Index] = b
			order = append(order, u.Index)
		case "content_block_delta":
			b := blocks[u.Index]
			if b == nil {
				return r, badUpstream(fmt.Sprintf("upstream delta for unknown content block %d", u.Index))
			}
			var d delta
			if err := json.Unmarshal(u.Delta, &d); err != nil {
				return r, badUpstream("malformed upstream delta: " + err.Error())
			}
			t.blockDelta(b, u.Delta, &d, o)
		case "content_block_stop":
			if b := blocks[u.Index]; b != nil {
				t.stopBlock(b, o)
			}
		case "message_delta":
			if !sawStart {
				return r, errNoMessageStart
			}
			var d struct {
				StopReason   string          `json:"stop_reason"`
				StopSequence json.RawMessage `json:"stop_sequence"`
			}
			_ = json.Unmarshal(u.Delta, &d)
			r.stopReason, r.stopSeq = d.StopReason, d.StopSequence
			if u.Usage != nil {
				mergeUsage(&startUse, *u.Usage)
			}
		case "message_stop":
			if !sawStart {
				return r, errNoMessageStart
			}
			sawStop = true
		case "ping":
			o.ping()
		case "error":
			se := &StreamError{Type: "api_error", Message: "upstream error"}
			if u.Error != nil {
				se.Type, se.Message = u.Error.Type, u.Error.Message
			}
			r.usage = startUse
			return r, se
		}
		if sawStop {
			break
		}
	}
	r.usage = startUse
	switch {
	case !sawStart:
		return r, errNoMessageStart
	case !sawStop && r.stopReason == "":
		return r, badUpstream("upstream stream ended unexpectedly")
	case r.stopReason == "":
		return r, badUpstream("upstream stream ended without a stop_reason")
	}
	for _, i := range order {
		b := blocks[i]
		if b.client >= 0 || b.text != nil && b.text.open >= 0 {
			// A block the upstream never stopped: close it for the client.
			t.stopBlock(b, o)
		}
		var j json.RawMessage
		switch {
		case b.server != nil:
			j = toolUseJSON(b.server.id, b.server.tool.Name(), b.server.input)
			r.server = append(r.server, *b.server)
		case b.text != nil && len(b.acc.citations) == 0:
			j = textJSON(b.text.up.String())
		default:
			var err error
			if j, err = b.acc.final(); err != nil {
				return r, badUpstream("upstream " + err.Error())
			}
			if b.acc.typ == "tool_use" {
				r.client = append(r.client, b.acc.typ)
			}
		}
		r.assistant = append(r.assistant, j)
	}
	return r, nil
}

// mergeUsage takes the counts a message_delta carries: they are totals
// for the message ("cumulative", https://docs.anthropic.com/en/docs/build-with-claude/streaming),
// so they replace those of message_start.
func mergeUsage(u *usage, d usage) {
	u.OutputTokens = d.OutputTokens
	if d.InputTokens > 0 {
		u.InputTokens = d.InputTokens
	}
	if d.CacheCreationInputTokens > 0 {
		u.CacheCreationInputTokens = d.CacheCreationInputTokens
	}
	if d.CacheReadInputTokens > 0 {
		u.CacheReadInputTokens = d.CacheReadInputTokens
	}
}

// startBlock handles an upstream content_block_start.
func (t *Turn) startBlock(raw json.RawMessage, o *output) *upBlock {
	acc := newBlockAcc(raw)
	b := &upBlock{acc: acc, client: -1}
	switch acc.typ {
	case "text":
		b.text = &textStream{t: t, o: o, open: -1}
		if t.cites() {
			b.text.m = &markers{valid: func(n int) bool { return t.conv.Source(n) != nil }}
		}
		var tb struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &tb) == nil && tb.Text != "" {
			b.text.feed(tb.Text)
		}
	case "tool_use":
		var tu struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &tu)
		if st := t.byName[tu.Name]; st != nil {
			id := t.e.o.NewID("srvtoolu_")
			b.server = &srvCall{id: id, tool: st}
			start := append([]byte(`{"type":"server_tool_use","id":`), jsonString(id)...)
			start = append(start, `,"name":`...)
			start = append(start, jsonString(st.Name())...)
			start = append(start, `,"input":{}}`...)
			b.client = o.blockStart(start)
			return b
		}
		b.client = o.blockStart(raw)
	default:
		b.client = o.blockStart(raw)
	}
	return b
}

// blockDelta handles an upstream content_block_delta.
func (t *Turn) blockDelta(b *upBlock, raw json.RawMessage, d *delta, o *output) {
	b.acc.apply(d)
	switch {
	case b.text != nil && d.Type == "text_delta":
		b.text.feed(d.Text)
	case b.server != nil:
		// The input is shown whole when the call is complete (see
		// stopBlock), as Anthropic streams server_tool_use input.
	case b.text != nil:
		// citations_delta from an upstream that cites documents itself.
		if b.text.open < 0 {
			b.text.openBlock()
		}
		o.delta(b.text.open, raw, d)
	case b.client >= 0:
		o.delta(b.client, raw, d)
	}
}

// stopBlock handles an upstream content_block_stop.
func (t *Turn) stopBlock(b *upBlock, o *output) {
	switch {
	case b.text != nil:
		b.text.end()
	case b.server != nil:
		if b.client < 0 {
			return // stopped already
		}
		in := bytes.TrimSpace(b.acc.input)
		var buf bytes.Buffer
		if len(in) == 0 || json.Compact(&buf, in) != nil || buf.Len() == 0 || buf.Bytes()[0] != '{' {
			// Arguments that are not a JSON object reach the tool as they
			// are (it answers invalid_tool_input); the client sees {}.
			b.server.input = json.RawMessage(in)
			if len(in) == 0 {
				b.server.input = json.RawMessage(`{}`)
			}
		} else {
			b.server.input = buf.Bytes()
			o.inputJSON(b.client, buf.String())
		}
		o.blockStop(b.client)
		b.client = -1
		return
	case b.client >= 0:
		o.blockStop(b.client)
	}
	b.client = -1
}

// textStream carries one upstream text block to the client, taking the
// model's [n] markers out and turning them into citations on the text
// they follow. A cited run of text ends its client text block, the way
// Anthropic splits cited text into blocks of their own
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations).
type textStream struct {
	t *Turn
	o *output
	m *markers
	// up is the text as the model wrote it, for the upstream conversation.
	up strings.Builder
	// open is the client block being written, -1 when none; claim is its
	// text so far.
	open  int
	claim strings.Builder
	// cited is set after a citation: closing punctuation still joins the
	// cited block, then the next text starts a new one.
	cited bool
}

func (s *textStream) feed(text string) {
	s.up.WriteString(text)
	if s.m == nil {
		s.write(text)
		return
	}
	s.apply(s.m.feed(text))
}

func (s *textStream) end() {
	if s.m != nil {
		s.apply(s.m.flush())
	}
	if s.open >= 0 {
		s.o.blockStop(s.open)
		s.open = -1
	}
}

func (s *textStream) apply(ops []markerOp) {
	for _, op := range ops {
		if op.cites != nil {
			s.cite(op.cites)
			continue
		}
		text := op.text
		if s.cited {
			n := len(text) - len(strings.TrimLeft(text, ".,;:!?)]}\"'”’»…"))
			if n > 0 {
				s.write(text[:n])
				text = text[n:]
			}
			if text == "" {
				continue
			}
			s.cited = false
			if s.open >= 0 {
				s.o.blockStop(s.open)
				s.open = -1
				s.claim.Reset()
			}
		}
		s.write(text)
	}
}

func (s *textStream) openBlock() {
	s.open = s.o.blockStart(json.RawMessage(`{"type":"text","text":""}`))
}

func (s *textStream) write(text string) {
	if text == "" {
		return
	}
	if s.open < 0 {
		s.openBlock()
	}
	s.o.text(s.open, text)
	s.claim.WriteString(text)
}

// cite attaches citations of the given sources to the open block.
func (s *textStream) cite(nums []int) {
	claim := strings.TrimSpace(s.claim.String())
	if s.open < 0 || claim == "" {
		return
	}
	seen := map[int]bool{}
	for _, n := range nums {
		src := s.t.conv.Source(n)
		if src == nil || seen[n] {
			continue
		}
		seen[n] = true
		c, err := s.t.e.o.Toolbox.Cite(src, claim)
		if err != nil {
			s.t.e.log.Warn("citation dropped", "source", n, "err", err)
			continue
		}
		if c != nil {
			s.o.citation(s.open, c)
		}
	}
	s.cited = true
}
