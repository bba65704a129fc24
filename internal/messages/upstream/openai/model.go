package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/messages/emulate"
	upanthropic "github.com/webgate/webgate/internal/messages/upstream/anthropic"
	"github.com/webgate/webgate/internal/messages/wire"
)

// Model is the emulate.Model of an upstream of kind openai: it sends each
// Messages request to <base_url>/chat/completions as a translated Chat
// Completions request and turns the reply into Messages API events as it
// streams in. It is safe for concurrent use.
type Model struct {
	endpoint string
	apiKey   string
	hc       *http.Client
	log      *slog.Logger
	opts     Options
	idle     time.Duration
	stream   bool
	maxBody  int64
}

// ModelOptions configure a Model beyond what config.Upstream holds. The
// zero value is ready to use.
type ModelOptions struct {
	// HTTPClient sends the requests. Nil selects one with bounded connect,
	// TLS and response-header timeouts (upstream.response_header_timeout)
	// that never follows redirects.
	HTTPClient *http.Client
	// Logger receives debug records (dropped request members, upstream
	// calls). Nil discards them.
	Logger *slog.Logger
	// IdleTimeout bounds the upstream's silence once its reply has begun:
	// a read that waits longer ends the stream with an error event. Zero
	// selects upstream.response_header_timeout, since a reasoning model's
	// pauses can be as long as its wait for a first token.
	IdleTimeout time.Duration
	// NoStream asks the upstream for whole replies ("stream": false) and
	// replays each as events, for servers whose streamed tool calls are
	// broken (some Ollama versions drop them). Text then arrives at once
	// rather than live.
	NoStream bool
	// MaxResponseBytes bounds a whole (non-streamed) reply and an error
	// body kept for the client. Default 32 MiB.
	MaxResponseBytes int64
	// KeepThinkTags, Limits, NewID and Degraded are passed to the
	// translation (see Options).
	KeepThinkTags bool
	Limits        Limits
	NewID         func(prefix string) string
	Degraded      func(item string)
	// PDFText reads PDF documents for the translation (see Options). Nil
	// selects webgate's own PDF extractor, with a small cache so a PDF
	// that stays in a conversation is read once, not on every turn.
	PDFText func(ctx context.Context, base64Data string) (string, error)
}

// maxErrorBody bounds the upstream error body kept for the client.
const maxErrorBody = 64 << 10

// NewModel returns the Model for cfg, whose Kind must be "openai". Unset
// fields of cfg take their documented defaults.
func NewModel(cfg config.Upstream, o ModelOptions) (*Model, error) {
	if cfg.Kind == "" {
		cfg.Kind = "openai"
	}
	cfg = cfg.WithDefaults()
	if cfg.Kind != "openai" {
		return nil, fmt.Errorf("openai upstream: kind is %q", cfg.Kind)
	}
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("openai upstream: base url %q must be an absolute http(s) URL", cfg.BaseURL)
	}
	ep := *base
	ep.Path = strings.TrimSuffix(base.Path, "/") + "/chat/completions"
	ep.RawPath = ""
	models := ModelMap(cfg.Models)
	if err := models.Validate(); err != nil {
		return nil, fmt.Errorf("openai upstream: %w", err)
	}
	m := &Model{
		endpoint: ep.String(),
		apiKey:   cfg.APIKey,
		hc:       o.HTTPClient,
		log:      o.Logger,
		idle:     o.IdleTimeout,
		stream:   !o.NoStream,
		maxBody:  o.MaxResponseBytes,
		opts: Options{
			Models:              models,
			MaxCompletionTokens: cfg.MaxCompletionTokens,
			KeepThinkTags:       o.KeepThinkTags,
			NewID:               o.NewID,
			Limits:              o.Limits,
			Logger:              o.Logger,
			Degraded:            o.Degraded,
			PDFText:             o.PDFText,
		},
	}
	if m.opts.PDFText == nil {
		m.opts.PDFText = newPDFReader().text
	}
	if m.hc == nil {
		m.hc = upanthropic.NewHTTPClient(cfg.ResponseHeaderTimeout)
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.idle <= 0 {
		m.idle = cfg.ResponseHeaderTimeout
	}
	if m.maxBody <= 0 {
		m.maxBody = 32 << 20
	}
	return m, nil
}

// Stream implements emulate.Model. body is a Messages request (its
// "stream" member is ignored: the upstream is always asked to stream
// unless NoStream is set); the events always stream. Credentials are
// upstream.api_key when configured, else the client's x-api-key, both sent
// as Authorization: Bearer, else the client's Authorization header as
// is; no other client header is forwarded.
//
// Errors before any event: a request that cannot be translated wraps
// ErrUnsupported, ErrServerBlock or anthropic.ErrInvalidRequest; a non-2xx
// answer (or a 2xx one that is an error object or not a reply at all) is
// an *emulate.UpstreamError; a transport failure is returned as is.
// ClientError maps each to the client's answer. Once events flow, every
// upstream failure is an Anthropic error event followed by io.EOF, except
// that when ctx ends Next returns ctx's error.
func (m *Model) Stream(ctx context.Context, hdr http.Header, body []byte) (emulate.Events, error) {
	req, err := wire.DecodeRequest(body)
	if err != nil {
		return nil, err
	}
	opts := m.opts
	opts.Model = req.Model
	req.Stream = m.stream
	chat, err := ToChat(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	opts.StopSequences = chat.Stop
	opts.toolNames = chat.toolNames
	var payload bytes.Buffer
	enc := json.NewEncoder(&payload)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(chat); err != nil {
		return nil, fmt.Errorf("openai upstream: encode request: %w", err)
	}

	// What the log line needs is taken now: the decoded request and its
	// translation are dead once encoded, and must not stay live (several
	// copies of a request of up to 32 MiB) while the upstream answers.
	logAttrs := []any{"model", chat.Model, "client_model", req.Model, "stream", m.stream, "messages", len(chat.Messages), "tools", len(chat.Tools), "bytes", payload.Len()}
	req, chat = nil, ChatRequest{}

	reqCtx, cancel := context.WithCancelCause(ctx)
	resp, err := m.post(reqCtx, hdr, payload.Bytes())
	if err != nil {
		cancel(nil)
		return nil, err
	}
	m.log.Debug("openai upstream request", append(logAttrs, "status", resp.StatusCode)...)
	if resp.StatusCode/100 != 2 {
		defer cancel(nil)
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, &emulate.UpstreamError{Status: resp.StatusCode, Header: resp.Header.Clone(), Body: b}
	}

	e := &events{ctx: ctx, reqCtx: reqCtx, cancel: cancel, body: resp.Body}
	e.w = wire.NewEventWriter(&e.q, nil)
	e.tr = NewStreamTranslator(e.w, opts)
	timer := time.AfterFunc(m.idle, func() { cancel(idleError{m.idle}) })
	timer.Stop()
	br := bufio.NewReader(&idleReader{r: resp.Body, d: m.idle, t: timer})
	var uerr *emulate.UpstreamError
	switch classify(resp.Header, br) {
	case replyStream:
		e.rd = wire.NewReader(br, e.tr.lim.MaxLine, e.tr.lim.MaxEvent)
		uerr = e.prime()
	case replyWhole:
		uerr = m.whole(e, br, opts)
	default:
		b, _ := io.ReadAll(io.LimitReader(br, maxErrorBody))
		uerr = &emulate.UpstreamError{Status: http.StatusBadGateway, Body: b}
	}
	if err := e.ctx.Err(); err != nil {
		// The caller is gone; whatever the reply was does not matter.
		e.Close()
		e.release()
		return nil, fmt.Errorf("openai upstream: %w", err)
	}
	if uerr != nil {
		e.Close()
		e.release()
		uerr.Header = resp.Header.Clone()
		return nil, uerr
	}
	return e, nil
}

// post sends the request.
func (m *Model) post(ctx context.Context, hdr http.Header, payload []byte) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, m.endpoint, bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("openai upstream: build request: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if !m.stream {
		hreq.Header.Set("Accept", "application/json")
	}
	hreq.Header.Set("User-Agent", "webgate")
	if a := m.authorization(hdr); a != "" {
		hreq.Header.Set("Authorization", a)
	}
	resp, err := m.hc.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("openai upstream: %w", err)
	}
	return resp, nil
}

// whole reads a whole (non-streamed) reply and queues its events; an
// error object, an unreadable reply or one FromChat refuses is returned
// as an UpstreamError.
func (m *Model) whole(e *events, br *bufio.Reader, opts Options) *emulate.UpstreamError {
	defer e.stopBody()
	data, err := io.ReadAll(io.LimitReader(br, m.maxBody+1))
	switch {
	case err != nil:
		return &emulate.UpstreamError{Status: http.StatusBadGateway, Body: errorJSON("reading the upstream reply: " + errors.Join(err, context.Cause(e.reqCtx)).Error())}
	case int64(len(data)) > m.maxBody:
		return &emulate.UpstreamError{Status: http.StatusBadGateway, Body: errorJSON(fmt.Sprintf("the upstream reply is larger than %d bytes", m.maxBody))}
	}
	var cr ChatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return &emulate.UpstreamError{Status: http.StatusBadGateway, Body: truncateBytes(data, maxErrorBody)}
	}
	if ce := cr.err(); ce != nil {
		return &emulate.UpstreamError{Status: errorStatus(ce), Body: truncateBytes(data, maxErrorBody)}
	}
	msg, err := FromChat(&cr, opts)
	if err != nil {
		return &emulate.UpstreamError{Status: http.StatusBadGateway, Body: errorJSON(err.Error())}
	}
	writeMessage(e.w, msg)
	e.tr.done = true
	return nil
}

// errorJSON is an error body in OpenAI's shape, for failures webgate
// detects in a 2xx reply.
func errorJSON(msg string) []byte {
	return append(wire.AppendString([]byte(`{"error":{"message":`), msg, false), "}}"...)
}

// authorization is the Authorization header sent upstream.
func (m *Model) authorization(hdr http.Header) string {
	if m.apiKey != "" {
		return "Bearer " + m.apiKey
	}
	if k := hdr.Get("X-Api-Key"); k != "" {
		return "Bearer " + k
	}
	return hdr.Get("Authorization")
}

type replyKind int

const (
	replyStream replyKind = iota
	replyWhole
	replyOther
)

// classify tells an event stream from a whole JSON reply (sent when
// streaming was not asked for, or by a server that ignores "stream") and
// from anything else (a proxy's HTML page): by Content-Type when it says
// text/event-stream, else by the first non-space byte.
func classify(h http.Header, br *bufio.Reader) replyKind {
	if mt, _, _ := mime.ParseMediaType(h.Get("Content-Type")); mt == "text/event-stream" {
		return replyStream
	}
	for n := 1; n <= 512; n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			if err != nil && len(b) == n-1 && n > 1 {
				return replyStream // only whitespace: an empty stream, reported as cut short
			}
			return replyOther
		}
		switch c := b[n-1]; {
		case isSpace(c):
		case c == '{':
			return replyWhole
		case c == ':' || c == 'd' || c == 'e' || c == 'i' || c == 'r':
			return replyStream // a comment, data, event, id or retry field
		default:
			return replyOther
		}
	}
	return replyOther
}

func truncateBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[:n]
}

// idleError is the cause of a stream cut for silence.
type idleError struct{ d time.Duration }

func (e idleError) Error() string { return fmt.Sprintf("the upstream sent nothing for %s", e.d) }

// idleReader arms t for the duration of each Read, so only time spent
// waiting on the upstream counts, not time the consumer takes between
// reads.
type idleReader struct {
	r io.Reader
	d time.Duration
	t *time.Timer
}

func (r *idleReader) Read(p []byte) (int, error) {
	r.t.Reset(r.d)
	n, err := r.r.Read(p)
	r.t.Stop()
	return n, err
}
