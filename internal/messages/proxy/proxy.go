// Package proxy is webgate's Anthropic-compatible Messages API endpoint.
//
// It makes Anthropic's web search and web fetch server tools (which
// normally only Anthropic's servers execute) work on any backend, routing
// each POST /v1/messages in this order:
//
//  1. Claude Code's WebSearch runs a search by sending a separate, tiny
//     request whose only job is "search for X". The proxy recognises that
//     request by its shape and answers it itself from webgate's search
//     engine (the fast path), streaming exactly the events Anthropic would.
//  2. A request that declares web_search_* or web_fetch_* tools, or whose
//     history holds their blocks, is emulated (package emulate) when
//     upstream.emulate says so: webgate runs the tools and the agentic
//     loop around an upstream that only sees client tools. A history
//     holding values webgate sealed is always emulated, since no upstream
//     can read them.
//  3. Everything else is forwarded byte for byte to the configured
//     upstream, streamed back unbuffered.
package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/emulate/tools"
	"github.com/webgate/webgate/internal/messages/seal"
	upstream "github.com/webgate/webgate/internal/messages/upstream/anthropic"
	"github.com/webgate/webgate/internal/messages/upstream/openai"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

// Options configures a Handler.
type Options struct {
	// Searcher answers search-execution requests. Required.
	Searcher search.Searcher
	// Fetcher fetches top result pages for enrichment; nil disables
	// enrichment.
	Fetcher fetch.Getter
	// Upstream is the backend and the proxy's settings; unset fields take
	// their documented defaults.
	Upstream config.Upstream
	// HTTPClient talks to the upstream; nil builds one with bounded
	// connect, TLS and header timeouts.
	HTTPClient *http.Client
	// Sealer encrypts encrypted_content and encrypted_index; nil builds one
	// from Upstream.SealKeys (or an ephemeral key when there are none).
	Sealer *seal.Sealer
	// Model is the upstream model emulated turns call; nil selects the
	// one of Upstream.Kind (the Anthropic-compatible upstream itself, or
	// internal/messages/upstream/openai's Chat Completions translation).
	Model emulate.Model
	// Untrusted marks the search results and page passages in the text
	// the model reads as untrusted; the zero value marks them
	// (guard.content.mark_untrusted).
	Untrusted guard.Wrapper
	// Degraded is told, for kind openai, each kind of request part the
	// translation dropped or degraded (see openai.Options.Degraded); nil
	// ignores them.
	Degraded func(item string)
	// Logger receives request logs; nil discards.
	Logger *slog.Logger
}

// Handler serves /v1/messages, /v1/messages/count_tokens and /v1/models.
type Handler struct {
	searcher search.Searcher
	fetcher  fetch.Getter
	up       *upstream.Client
	sealer   *seal.Sealer
	log      *slog.Logger
	cfg      config.Upstream
	ws       config.UpstreamWebSearch
	fastPath bool
	enrichOn bool
	emu      *emulate.Engine
	// emulating is upstream.emulate's decision for this upstream; every
	// turn is emulated when the upstream cannot take Messages requests
	// at all (kind openai).
	emulating  bool
	everyTurn  bool
	untrusted  guard.Wrapper
	answers    *answers
	budget     *bodyBudget
	budgetWait time.Duration
}

// New validates opts and returns a Handler.
func New(opts Options) (*Handler, error) {
	if opts.Searcher == nil {
		return nil, errors.New("proxy: a searcher is required")
	}
	cfg := opts.Upstream.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	up, err := upstream.New(cfg, opts.HTTPClient)
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	s := opts.Sealer
	if s == nil {
		if s, err = seal.FromConfig(cfg.SealKeys); err != nil {
			return nil, fmt.Errorf("proxy: upstream.seal_keys: %w", err)
		}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Handler{
		searcher: opts.Searcher, fetcher: opts.Fetcher, up: up, sealer: s,
		log: log.With("surface", "anthropic"), cfg: cfg, ws: cfg.WebSearch,
		fastPath: cfg.WebSearch.FastPathEnabled(), enrichOn: cfg.WebSearch.EnrichEnabled(),
		emulating: cfg.Emulates(), everyTurn: cfg.Kind == "openai",
		untrusted: opts.Untrusted, answers: newAnswers(),
		budget: newBodyBudget(cfg.MaxBodyBytesInFlight), budgetWait: defaultBudgetWait,
	}
	model := opts.Model
	switch {
	case model != nil:
	case cfg.Kind == "openai":
		// Every turn goes through the emulation, whose upstream calls the
		// Model translates into Chat Completions (with the model map).
		if model, err = openai.NewModel(cfg, openai.ModelOptions{HTTPClient: opts.HTTPClient, Logger: h.log, Degraded: opts.Degraded}); err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
	default:
		model = up
	}
	if h.emu, err = h.newEngine(model); err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	return h, nil
}

// newEngine builds the server tool emulation on the same searcher,
// fetcher, sealer and enrichment as the fast path.
func (h *Handler) newEngine(model emulate.Model) (*emulate.Engine, error) {
	to := tools.Options{
		Searcher: h.searcher, Getter: h.fetcher, Sealer: h.sealer,
		EnrichTimeout: h.ws.EnrichTimeout, MaxResults: h.ws.MaxResults, MaxQueryLength: h.ws.MaxQueryLength,
		Logger: h.log,
	}
	if h.enrichOn && h.fetcher != nil {
		to.Enrich = func(ctx context.Context, query string, results []search.Result) map[int][]string {
			return enrich(ctx, h.fetcher, h.log, query, results, h.ws.EnrichPages, h.ws.PassagesPerPage)
		}
	}
	box, err := tools.New(to)
	if err != nil {
		return nil, err
	}
	return emulate.New(emulate.Options{
		Model: model, Toolbox: box, MaxIterations: h.cfg.MaxIterations,
		PingInterval: h.ws.PingInterval, Untrusted: h.untrusted, Logger: h.log,
	})
}

// Register mounts h on mux at every path it serves.
func (h *Handler) Register(mux *http.ServeMux) {
	for _, p := range []string{"/v1/messages", "/v1/messages/", "/v1/models", "/v1/models/"} {
		mux.Handle(p, h)
	}
}

// ServeHTTP routes a request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if _, err := upstream.Route(r.URL.EscapedPath()); err != nil {
		// Refused before the body is read: only the Messages API's own
		// paths are served, and none may climb out of them.
		writeError(w, fmt.Errorf("%w: webgate serves only the Messages API's paths (/v1/messages, /v1/messages/count_tokens, /v1/messages/batches[/{id}[/cancel|/results]], /v1/models[/{id}]): %w", errNotFound, err))
		return
	}
	// A request that may become an emulated turn is charged as one up
	// front (see bodyBudget); with emulation off only a sealed history
	// is emulated, which then takes the rest if it is free.
	held, err := h.readBody(w, r, r.Method == http.MethodPost && p == "/v1/messages" && (h.everyTurn || h.emulating))
	defer held.release()
	if err != nil {
		if errors.Is(err, ErrOverloaded) {
			h.log.WarnContext(r.Context(), "request refused: body budget exhausted", "path", p, "content_length", r.ContentLength)
		}
		writeError(w, err)
		return
	}
	body := held.data
	if r.Method == http.MethodPost && (p == "/v1/messages" || p == "/v1/messages/count_tokens") {
		if h.fastPath {
			if c, ok := h.detectBody(body); ok {
				if p == "/v1/messages" {
					h.serveSearch(w, r, c)
				} else {
					h.serveCountTokens(w, c)
				}
				return
			}
		}
		if t, ok, err := h.emulation(body); ok {
			switch {
			case err != nil:
				writeError(w, err)
			case p == "/v1/messages":
				// The turn holds its own copy of the conversation.
				held.data, body = nil, nil
				h.serveEmulated(w, r, t, held)
			default:
				h.serveEmulatedCount(w, body)
			}
			return
		}
	}
	if r.Method == http.MethodPost && seal.Contains(body) {
		// Message batches (and anything else below /v1/messages/) cannot
		// be emulated, and webgate's sealed values must never reach an
		// upstream, which could not read them anyway.
		writeError(w, fmt.Errorf("%w: %s: the body holds webgate-sealed encrypted_content or encrypted_index values, which only /v1/messages can restore", wire.ErrInvalidRequest, p))
		return
	}
	if h.everyTurn {
		// A Chat Completions server has no Messages API to forward to.
		writeError(w, fmt.Errorf("%s %s with upstream.kind openai: %w", r.Method, p, errNotFound))
		return
	}
	h.forward(w, r, held)
}

// serverToolMarkers are cheap pre-filters: a body that mentions none of
// them declares no server tool and holds none of their blocks, so an
// ordinary conversation (often megabytes) is forwarded without a parse.
var serverToolMarkers = [][]byte{[]byte(`"web_search_`), []byte(`"web_fetch_`), []byte(`"server_tool_use"`)}

// emulation decides whether a request is emulated. ok reports that the
// proxy must answer it here (with the turn, or with err when the request
// cannot be emulated); otherwise it is forwarded untouched.
func (h *Handler) emulation(body []byte) (t *emulate.Turn, ok bool, err error) {
	if !h.everyTurn && !containsAny(body, serverToolMarkers) && !seal.Contains(body) {
		return nil, false, nil
	}
	t, err = h.emu.Prepare(body)
	if err != nil {
		// A request this upstream would take as is is its to judge, unless
		// it carries webgate's sealed values, which must never reach it.
		if h.everyTurn || h.emulating || seal.Contains(body) {
			return nil, true, err
		}
		return nil, false, nil
	}
	switch {
	case h.everyTurn, t.Sealed():
		return t, true, nil
	case h.emulating && (t.ServerTools() || t.ServerHistory()):
		return t, true, nil
	}
	return nil, false, nil
}

func containsAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// serveEmulated runs an emulated turn.
func (h *Handler) serveEmulated(w http.ResponseWriter, r *http.Request, t *emulate.Turn, held *heldBody) {
	if err := h.chargeTurn(held); err != nil {
		h.log.WarnContext(r.Context(), "request refused: body budget exhausted", "path", r.URL.Path, "bytes", held.size)
		writeError(w, err)
		return
	}
	w.Header().Set("request-id", newID("req_"))
	err := t.Serve(r.Context(), w, r.Header)
	if err == nil {
		return
	}
	if r.Context().Err() != nil {
		h.log.DebugContext(r.Context(), "client went away before the emulated turn answered")
		return
	}
	if !errors.Is(err, context.DeadlineExceeded) && !isTimeout(err) && !isEmulationError(err) {
		h.log.WarnContext(r.Context(), "upstream request failed", "err", err)
		err = fmt.Errorf("%w: %w", errUpstreamUnreachable, err)
	}
	writeError(w, err)
}

// serveEmulatedCount answers count_tokens for an emulated request with
// webgate's estimate: the request the upstream would count is not the one
// the client sent (its server tools are replaced and the turn may call the
// upstream several times), and many backends lack the endpoint.
func (h *Handler) serveEmulatedCount(w http.ResponseWriter, body []byte) {
	b, _ := wire.Marshal(map[string]int{"input_tokens": estimateTokens(len(body))})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// webSearchMarker is a cheap pre-filter: a body that never mentions a
// web_search_* tool type cannot be a search-execution request, so ordinary
// conversations (often megabytes) are forwarded without being parsed.
var webSearchMarker = []byte(`"web_search_`)

func (h *Handler) detectBody(body []byte) (*searchCall, bool) {
	if !bytes.Contains(body, webSearchMarker) {
		return nil, false
	}
	req, err := decodeRequest(body)
	if err != nil {
		// Not ours to judge: the upstream answers malformed requests with
		// its own canonical error.
		return nil, false
	}
	return detect(req)
}

// serveCountTokens answers count_tokens for a search-execution request
// locally. Such a request is never sent upstream, so the upstream's count
// would describe a call that does not happen, and many Anthropic-compatible
// backends lack the endpoint anyway.
func (h *Handler) serveCountTokens(w http.ResponseWriter, c *searchCall) {
	b, _ := wire.Marshal(map[string]int{"input_tokens": inputTokens(c)})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// copyBufs recycles the passthrough copy buffers.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// forward relays the request upstream and streams the response back. The
// upstream request is bound to the client's context, so a disconnect
// cancels it; each chunk is flushed as soon as it is read, so SSE events
// reach the client as the upstream emits them.
func (h *Handler) forward(w http.ResponseWriter, r *http.Request, held *heldBody) {
	ctx := r.Context()
	// A passthrough request holds its body, no turn's charge.
	held.shrink(held.size + 1)
	resp, err := h.up.Do(ctx, r, held.data)
	// The upstream has the request: a reply that streams for minutes need
	// not hold the body's budget.
	held.data = nil
	held.release()
	if err != nil {
		if ctx.Err() != nil {
			h.log.DebugContext(ctx, "client went away before upstream answered", "path", r.URL.Path)
			return
		}
		h.log.WarnContext(ctx, "upstream request failed", "path", r.URL.Path, "err", err)
		if !errors.Is(err, context.DeadlineExceeded) && !isTimeout(err) {
			err = fmt.Errorf("%w: %w", errUpstreamUnreachable, err)
		}
		writeError(w, err)
		return
	}
	defer resp.Body.Close()
	dst := w.Header()
	for k, v := range upstream.CleanHeader(resp.Header) {
		dst[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	buf := *bp
	// An event stream is relayed event by event: bytes are held until
	// the event they belong to is complete (upstreams flush whole events,
	// so this adds no delay), and a stream that breaks off between events
	// can still end well formed.
	var ev *eventBuffer
	if isEventStream(resp.Header) {
		ev = &eventBuffer{}
	}
	for {
		n, rerr := resp.Body.Read(buf)
		out := buf[:n]
		if ev != nil {
			out = ev.add(out, errors.Is(rerr, io.EOF))
		}
		if len(out) > 0 {
			_, werr := w.Write(out)
			if ev != nil {
				ev.sent()
			}
			if werr != nil {
				h.log.DebugContext(ctx, "client went away during upstream response", "err", werr)
				return
			}
			if ferr := rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
				return
			}
		}
		if rerr == nil {
			continue
		}
		if errors.Is(rerr, io.EOF) || ctx.Err() != nil {
			return
		}
		h.log.WarnContext(ctx, "upstream response broken", "path", r.URL.Path, "err", rerr)
		if ev != nil && !ev.partial {
			// Between two events (an unfinished one is dropped): end the
			// stream as Anthropic ends a failed one, with an error event,
			// which clients report as the error it is.
			msg := "the upstream stream broke off"
			var ie *upstream.IdleError
			if errors.As(rerr, &ie) {
				msg = "the upstream went silent mid-stream and was cut off"
			}
			b, _ := wire.Marshal(wire.NewError("api_error", msg))
			_, _ = w.Write(append(append([]byte("event: error\ndata: "), b...), "\n\n"...))
			_ = rc.Flush()
			return
		}
		// Not an event stream (or an event too large to hold went out in
		// part): all that can be done is to cut the response short, which
		// the client sees as a broken response rather than a silently
		// truncated success.
		panic(http.ErrAbortHandler)
	}
}

func isEventStream(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/event-stream"
}

// maxHeldEvent bounds the part of one event the passthrough relay holds
// back; a larger event is relayed as it arrives.
const maxHeldEvent = 1 << 20

// eventBuffer holds back the unfinished event of a relayed event stream.
type eventBuffer struct {
	held []byte
	cut  int
	// partial reports that part of an unfinished event went out (one
	// larger than maxHeldEvent): the stream is not between two events.
	partial bool
}

// add takes the next bytes read and returns those to relay now: up to
// the end of the last complete event (an event ends with a blank line;
// SSE lines end with LF, CRLF or CR), everything at a clean end of the
// body (eof), or all of an event too large to hold. The caller calls sent
// once it has written them.
func (e *eventBuffer) add(p []byte, eof bool) []byte {
	e.held = append(e.held, p...)
	e.cut = eventsEnd(e.held)
	switch {
	case eof:
		e.cut = len(e.held)
	case e.cut < 0 && len(e.held) > maxHeldEvent:
		e.cut = len(e.held)
		e.partial = true
		return e.held
	case e.cut < 0:
		e.cut = 0
		return nil
	}
	e.partial = false
	return e.held[:e.cut]
}

// sent drops what add returned, keeping the unfinished event.
func (e *eventBuffer) sent() {
	n := copy(e.held, e.held[e.cut:])
	e.held, e.cut = e.held[:n], 0
}

// eventsEnd is the index just after the last blank line in b, or -1.
func eventsEnd(b []byte) int {
	end := -1
	for _, sep := range []string{"\n\n", "\r\n\r\n", "\r\r"} {
		if i := bytes.LastIndex(b, []byte(sep)); i >= 0 && i+len(sep) > end {
			end = i + len(sep)
		}
	}
	return end
}
