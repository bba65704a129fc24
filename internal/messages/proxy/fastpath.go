package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/webgate/webgate/internal/httplog"
	"github.com/webgate/webgate/internal/messages/websearch"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/perf/batchconn"
	"github.com/webgate/webgate/internal/search"
)

// decodeRequest decodes a body that may be a search-execution request:
// in one pass when the scanner can (Claude Code's requests always), else
// with the general decoder, which settles the cases the scanner leaves.
func decodeRequest(body []byte) (*wire.Request, error) {
	if r, ok := wire.ScanRequest(body); ok {
		return r, nil
	}
	return wire.DecodeRequest(body)
}

// execute runs the search and, when configured, the enrichment. The
// caller bounds ctx (run applies maxSearchTime).
func (h *Handler) execute(ctx context.Context, c *searchCall) *outcome {
	tool, err := h.checkCall(c)
	if err != nil {
		return &outcome{err: err}
	}
	resp, results, err := tool.Search(ctx, h.searcher, c.Query, h.ws.MaxResults)
	if err != nil {
		return &outcome{err: err}
	}
	o := &outcome{results: results, provider: resp.Provider, cached: resp.Cached}
	if h.enrichOn && h.fetcher != nil && len(o.results) > 0 {
		ectx, cancel := context.WithTimeout(ctx, h.ws.EnrichTimeout)
		o.passages = enrich(ectx, h.fetcher, h.log, c.Query, o.results, h.ws.EnrichPages, h.ws.PassagesPerPage)
		cancel()
	}
	return o
}

// checkCall validates the call before any search (see websearch), in the
// order its error_code is decided: max_uses, the query, the domain rules.
func (h *Handler) checkCall(c *searchCall) (*websearch.Tool, error) {
	if err := websearch.CheckMaxUses(c.Tool.MaxUses); err != nil {
		return nil, err
	}
	if err := websearch.CheckQuery(c.Query, h.ws.MaxQueryLength); err != nil {
		return nil, err
	}
	var loc search.Location
	if l := c.Tool.UserLocation; l != nil {
		loc = search.Location{Country: l.Country, Region: l.Region, City: l.City, Timezone: l.Timezone}
	}
	return websearch.New(c.Tool.AllowedDomains, c.Tool.BlockedDomains, loc)
}

// maxSearchTime is websearch.MaxSearchTime, a variable for tests.
var maxSearchTime = websearch.MaxSearchTime

// errSearchTimeout is the cause of a search cancelled at maxSearchTime.
var errSearchTimeout = errors.New("search took longer than the fast path allows")

// idAlphabet is base62, which Anthropic's ids use.
const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// idLen is the number of random characters in an id, as in Anthropic's
// ("req_" and 24 characters).
const idLen = 24

// appendID appends prefix and idLen random base62 characters. Ids must be
// unique, not secret (they are printed in logs and echoed by clients), so
// they come from the runtime's per-thread ChaCha8 generator rather than
// from the kernel: a getrandom call per answer was 4% of the fast path's
// CPU.
func appendID(b []byte, prefix string) []byte {
	b = append(b, prefix...)
	var v uint64
	for i := range idLen {
		// Ten base62 digits of each 64-bit draw (62^10 < 2^64).
		if i%10 == 0 {
			v = rand.Uint64()
		}
		b = append(b, idAlphabet[v%uint64(len(idAlphabet))])
		v /= uint64(len(idAlphabet))
	}
	return b
}

// newID returns a random id with prefix.
func newID(prefix string) string {
	var b [32]byte
	return string(appendID(b[:0], prefix))
}

// newIDs returns a request id, a message id and a server tool use id in
// one allocation.
func newIDs() (reqID, msgID, toolID string) {
	var b [len("req_msg_srvtoolu_") + 3*idLen]byte
	out := appendID(b[:0], "req_")
	out = appendID(out, "msg_")
	out = appendID(out, "srvtoolu_")
	s := string(out)
	return s[:4+idLen], s[4+idLen : 8+2*idLen], s[8+2*idLen:]
}

// estimateTokens approximates a token count from bytes of JSON or text at
// the usual four bytes per token. It exists so usage and count_tokens carry
// plausible, stable figures for requests no model ever sees.
func estimateTokens(n int) int { return max(1, (n+3)/4) }

func inputTokens(c *searchCall) int {
	n := len(c.Req.System)
	for _, m := range c.Req.Messages {
		n += len(m.Raw)
	}
	for _, t := range c.Req.Tools {
		n += len(t.Raw)
	}
	return estimateTokens(n)
}

// serveSearch answers a search-execution request without any model call,
// streaming exactly the event sequence Anthropic's servers send for one
// web search followed by a text answer.
func (h *Handler) serveSearch(w http.ResponseWriter, r *http.Request, c *searchCall) {
	start := time.Now()
	ctx := r.Context()
	reqID, msgID, toolID := newIDs()
	// The tool input as Marshal(map[string]string{"query": q}) writes it.
	var ib [256]byte
	input := string(append(wire.AppendString(append(ib[:0], `{"query":`...), c.Query, false), '}'))
	msg := &wire.Message{
		ID: msgID, Type: "message", Role: "assistant", Model: c.Model,
		Content: []wire.ContentBlock{},
		Usage:   wire.Usage{InputTokens: inputTokens(c), OutputTokens: 1},
	}
	// The canonical form of Anthropic's "request-id", set directly: Set
	// would canonicalize it into a new string on every response.
	w.Header()["Request-Id"] = []string{reqID}

	var (
		ew     *wire.EventWriter
		stream *answerStream
	)
	if c.Stream {
		hdr := w.Header()
		// Shared, never-modified value slices: Set would allocate one per
		// header per response.
		hdr["Content-Type"] = sseContentType
		hdr["Cache-Control"] = noCache
		// Tell buffering reverse proxies (nginx) to pass events through.
		hdr["X-Accel-Buffering"] = accelNo
		// The status goes out with the first write: then, when the whole
		// answer is ready before anything was sent, it can carry a
		// Content-Length (see the end of this function).
		// The tool call is known before the search starts. It stays held
		// while the search runs and run sends it after firstFlushDelay, so
		// the client shows "Searching: <query>" within a few milliseconds;
		// a search that is faster (a cache hit) goes out with the whole
		// answer in one write instead of paying a syscall and a TCP
		// segment for the first events alone. The EventWriter only
		// encodes; the stream decides when events leave.
		stream = newAnswerStream(w, wire.HTTPFlusher(w))
		ew = wire.NewEventWriter(stream, nil)
		defer ew.Close()
		ew.MessageStart(msg)
		ew.BlockStart(0, wire.ServerToolUseBlock{ID: toolID, Name: c.Tool.Name, Input: []byte(`{}`)})
		ew.InputJSONDelta(0, input)
		ew.BlockStop(0)
	}

	o := h.run(ctx, c, ew, stream, start)
	if ctx.Err() != nil || (ew != nil && (ew.Err() != nil || stream.err != nil)) {
		// The client left; the search was cancelled with it and nobody is
		// listening for the answer.
		h.log.DebugContext(ctx, "client went away during search", "err", context.Cause(ctx))
		return
	}
	ans, key := h.answers.get(ctx, c, o, start)
	kept := ans != nil || key != ""
	var err error
	if ans == nil {
		// An answer is kept for reuse when its results came from the
		// search cache, that is when this search is a repeat: answers to
		// one-off searches would only churn the answer cache.
		// Whole seconds: the sealed retrieval time needs no more, and
		// nanoseconds would lengthen every result's token.
		comp := &composer{sealer: h.sealer, now: time.Now().UTC().Truncate(time.Second), maxQueryLen: h.ws.MaxQueryLength, untrusted: h.untrusted}
		if ans, err = comp.compose(c, o); err == nil && key != "" {
			h.answers.put(ctx, key, c, o, ans, start)
		}
	}
	if err != nil {
		// Sealing only fails if the system's randomness does; nothing
		// sensible can be sent, so fail loudly.
		h.log.ErrorContext(ctx, "compose web search answer", "err", err)
		if ew != nil {
			// release sends the error with anything still held.
			ew.Error("api_error", "internal error")
			stream.release()
		} else {
			writeError(w, err)
		}
		return
	}
	requests := 0
	if o.err == nil {
		requests = 1
	}
	final := msg.Usage
	final.OutputTokens = estimateTokens(len(input) + len(ans.text))
	final.ServerToolUse = &wire.ServerToolUsage{WebSearchRequests: requests}

	h.logSearch(ctx, w, c, o, time.Since(start))
	if ew == nil {
		end := "end_turn"
		msg.StopReason = &end
		msg.Usage = final
		result := ans.result
		result.ToolUseID = toolID
		msg.Content = []wire.ContentBlock{
			wire.ServerToolUseBlock{ID: toolID, Name: c.Tool.Name, Input: json.RawMessage(input)},
			result,
			ans.textBlock(),
		}
		b, err := wire.Marshal(msg)
		if err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = batchconn.WriteResponse(w, r, http.StatusOK, b)
		return
	}
	// Everything from here is ready at once; it is written in one go and
	// leaves when the handler chain returns (see batchconn below).
	stream.hold()
	if kept {
		rec, at := ans.events()
		stream.replay(rec, at, toolID)
	} else {
		ans.writeBlocks(ew, toolID)
	}
	ew.MessageDelta("end_turn", final)
	ew.MessageStop()
	if !stream.wrote {
		// Nothing was sent while searching (a fast search): the whole
		// stream is one body of known length, which then leaves with the
		// headers in one write; chunked encoding would need another for
		// the terminating chunk. A client reads the same events.
		w.Header().Set("Content-Length", strconv.Itoa(stream.pending()))
	}
	// The rest of the answer, and the headers if nothing went out yet,
	// leave in one write once the handler chain returns, instead of
	// net/http's two (see batchconn).
	batchconn.Gather(ctx)
	if err := stream.writeHeld(); err != nil {
		h.log.DebugContext(ctx, "client went away", "err", err)
	}
}

var (
	sseContentType = []string{"text/event-stream; charset=utf-8"}
	noCache        = []string{"no-cache"}
	accelNo        = []string{"no"}
)

// firstFlushDelay is how long the events sent before the search may wait
// for the answer to join them (see serveSearch): far below what a person
// notices, and longer than a search-cache hit takes.
const firstFlushDelay = 5 * time.Millisecond

// run executes the search. While streaming it first sends the held events
// after firstFlushDelay, then a ping every PingInterval so idle-timeout
// proxies keep the connection open; if a write fails, the client leaves
// or the search outlives maxSearchTime, the search is cancelled.
//
// The search runs on the handler's own goroutine and pings come from a
// timer callback, rather than the search running on a new goroutine while
// the handler waits on a ticker: with an instant provider that hop (spawn,
// wake-up, channel handoff, rescheduling the handler) cost more than the
// search itself, and under load every wake-up waits in the run queue.
// The mutex makes a ping and the end of the search mutually exclusive, so
// no ping is written once run returns and the caller owns the writer again.
//
// The search's context is not a child of the request's: registering one
// with net/http's per-request context (its done channel, a children map,
// the unregistering) was about 2% of a cached answer's CPU, for a
// cancellation that only a search slower than firstFlushDelay can see.
// The timer looks for the client leaving instead, every clientPoll.
// start is when the request began, which the deadline counts from.
func (h *Handler) run(ctx context.Context, c *searchCall, ew *wire.EventWriter, stream *answerStream, start time.Time) *outcome {
	if ew == nil {
		ctx, cancel := context.WithTimeout(ctx, maxSearchTime)
		defer cancel()
		return h.execute(ctx, c)
	}
	// While streaming, the ping timer also enforces maxSearchTime: one
	// timer per request instead of two.
	parent := ctx
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(parent))
	defer cancel(nil)
	p := &pinger{ew: ew, stream: stream, parent: parent, cancel: cancel, every: h.ws.PingInterval, deadline: start.Add(maxSearchTime)}
	p.mu.Lock()
	p.t = time.AfterFunc(min(firstFlushDelay, h.ws.PingInterval), p.fire)
	p.mu.Unlock()
	o := h.execute(ctx, c)
	p.mu.Lock()
	p.finished = true
	p.t.Stop()
	p.mu.Unlock()
	return o
}

// clientPoll is how often a search that is still running checks whether
// its client has left (see run).
const clientPoll = 25 * time.Millisecond

// pinger is run's timer state, one object rather than a closure over
// several variables (each of which would be its own allocation).
type pinger struct {
	mu       sync.Mutex
	t        *time.Timer
	ew       *wire.EventWriter
	stream   *answerStream
	parent   context.Context // the request's
	cancel   context.CancelCauseFunc
	every    time.Duration
	deadline time.Time
	nextPing time.Time // zero until the held events are sent
	finished bool
}

// fire sends the held events the first time and a ping when one is due
// after that, or cancels the search when the client has gone or its time
// is up.
func (p *pinger) fire() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	if p.parent.Err() != nil {
		p.cancel(context.Cause(p.parent))
		return
	}
	now := time.Now()
	left := p.deadline.Sub(now)
	if left <= 0 {
		p.cancel(errSearchTimeout)
		return
	}
	var err error
	switch {
	case p.nextPing.IsZero():
		err = p.stream.release()
		p.nextPing = now.Add(p.every)
	case !now.Before(p.nextPing):
		err = p.ew.Ping()
		p.nextPing = now.Add(p.every)
	}
	if err != nil {
		p.cancel(err)
		return
	}
	p.t.Reset(max(time.Millisecond, min(clientPoll, p.nextPing.Sub(now), left)))
}

func (h *Handler) logSearch(ctx context.Context, w http.ResponseWriter, c *searchCall, o *outcome, took time.Duration) {
	// Build the line from slog.Attrs, which need no boxing, and only when
	// something would log it: the fast path answers thousands of requests
	// a second and logs each at info by default.
	level := slog.LevelInfo
	if o.err != nil {
		level = slog.LevelWarn
	}
	if !h.log.Enabled(ctx, level) {
		return
	}
	var buf [7]slog.Attr
	attrs := append(buf[:0], slog.Duration("search_took", took), slog.Int("results", len(o.results)), slog.Bool("stream", c.Stream))
	if o.provider != "" {
		attrs = append(attrs, slog.String("provider", o.provider))
	}
	if o.passages != nil {
		attrs = append(attrs, slog.Int("enriched_pages", len(o.passages)))
	}
	if o.err != nil {
		attrs = append(attrs, slog.String("error_code", websearch.Code(o.err)), slog.Any("err", o.err))
		h.log.LogAttrs(ctx, slog.LevelWarn, "web search failed", attrs...)
		return
	}
	// A successful search is told on the request's access-log line (one
	// line per request instead of two); without an access logger it gets
	// its own.
	if !httplog.Annotate(w, attrs...) {
		h.log.LogAttrs(ctx, slog.LevelInfo, "web search answered", attrs...)
	}
	if h.log.Enabled(ctx, slog.LevelDebug) {
		h.log.LogAttrs(ctx, slog.LevelDebug, "web search query", slog.String("query", c.Query))
	}
}
