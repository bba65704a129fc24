// Package server assembles `webgate serve`: one HTTP server with the JSON
// API (/v1/search, /v1/fetch, /openapi.json), MCP over Streamable HTTP
// (/mcp), an optional Anthropic-compatible handler (/v1/messages,
// /v1/models), /healthz, /readyz and /metrics, behind bearer-token
// authentication, Origin and Host checks against DNS rebinding, a
// concurrency cap, and graceful shutdown that drains streams.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/messages/proxy"
	"github.com/webgate/webgate/internal/perf/batchconn"
	"github.com/webgate/webgate/internal/policy"
)

// Options configures the server. API and MCP are required; Messages is
// optional.
type Options struct {
	// API serves /v1/search, /v1/fetch, /openapi.json and other /v1/ paths.
	API http.Handler
	// MCP serves /mcp (MCP Streamable HTTP).
	MCP http.Handler
	// Messages, when set, serves the Anthropic-compatible surface:
	// /v1/messages, /v1/messages/count_tokens and /v1/models. Mount the
	// proxy with one line: Options{..., Messages: proxyHandler}.
	Messages http.Handler
	// Keys are the gateway API keys and their policies; nil means no
	// authentication (loopback use). Each surface answers a missing or
	// bad key, or a key its policy keeps off that surface, in its own
	// error format.
	Keys *policy.Keyring
	// AuthTokens, when non-empty and Keys is nil, are accepted bearer
	// tokens with no policy (the older server.auth_tokens).
	AuthTokens []string
	// AllowedOrigins are browser origins allowed besides loopback ones.
	AllowedOrigins []string
	// MaxBodyBytes caps every request body, whatever the route (default
	// 1 MiB); larger bodies fail with 413.
	MaxBodyBytes int64
	// MaxConcurrent caps in-flight requests (default 256).
	MaxConcurrent int
	// ShutdownTimeout bounds graceful shutdown (default 15s): in-flight
	// requests, streams included, have this long to finish before they are
	// cancelled.
	ShutdownTimeout time.Duration
	// Metrics, when set, serves the Prometheus metrics at MetricsPath
	// (default /metrics), behind authentication unless MetricsPublic.
	Metrics       http.Handler
	MetricsPath   string
	MetricsPublic bool
	// Console, when set, serves the web console (package console): its
	// page at / and its assets under /console/ without a key, since they
	// hold no data, and its JSON API under /console/api/ behind the keys,
	// on the console surface.
	Console http.Handler
	// Observer, when set, sees every request (surface, status, duration)
	// and every streamed response.
	Observer Observer
	// Ready, when set, adds checks to /readyz besides the server's own
	// (not draining).
	Ready func(ctx context.Context) []Check
	// Logger receives access and error logs; nil discards.
	Logger *slog.Logger
}

// Handler returns the whole HTTP surface as one handler, for Serve and for
// tests (httptest.NewServer(server.Handler(opts))).
func Handler(opts Options) http.Handler {
	return handler(opts, &state{})
}

func handler(opts Options, st *state) http.Handler {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 256
	}
	if opts.Metrics != nil && opts.MetricsPath == "" {
		opts.MetricsPath = "/metrics"
	}
	// The probes answer outside the concurrency cap: an overloaded replica
	// is alive, and says so.
	probes := http.NewServeMux()
	probes.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	probes.Handle("GET /readyz", readyz(st, opts.Ready))
	mux := http.NewServeMux()
	mux.Handle("/openapi.json", opts.API)
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	keys := opts.Keys
	if keys == nil && len(opts.AuthTokens) > 0 {
		keys = policy.KeyringFromTokens(opts.AuthTokens)
	}
	auth := NewAuth(keys, log)
	// The body cap covers the JSON API and MCP only: Messages requests
	// carry whole conversations (images included) and the proxy enforces
	// its own, larger limit (upstream.max_body_bytes).
	mux.Handle("/v1/", auth.Wrap(policy.SurfaceAPI, httpapi.WriteError, limitBody(opts.MaxBodyBytes, opts.API)))
	mux.Handle("/mcp", auth.Wrap(policy.SurfaceMCP, mcpserver.WriteError, limitBody(opts.MaxBodyBytes, opts.MCP)))
	if opts.Messages != nil {
		msgs := auth.Wrap(policy.SurfaceMessages, proxy.WriteError, opts.Messages)
		for _, p := range []string{"/v1/messages", "/v1/messages/", "/v1/models", "/v1/models/"} {
			mux.Handle(p, msgs)
		}
	}
	if opts.Metrics != nil {
		if opts.MetricsPublic {
			mux.Handle(opts.MetricsPath, opts.Metrics)
		} else {
			// Behind the same keys as the JSON API.
			mux.Handle(opts.MetricsPath, auth.Wrap(policy.SurfaceAPI, httpapi.WriteError, opts.Metrics))
		}
	}
	if opts.Console != nil {
		mux.Handle("GET /{$}", opts.Console)
		mux.Handle("/console/", opts.Console)
		mux.Handle("/console/api/", auth.Wrap(policy.SurfaceConsole, httpapi.WriteError, limitBody(opts.MaxBodyBytes, opts.Console)))
	}
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpapi.WriteErrorBody(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.URL.Path, 0)
	}))
	// A request refused at the cap is answered in its surface's shape.
	overloaded := func(w http.ResponseWriter, r *http.Request) {
		if opts.Messages != nil && surfaceOf(r.URL.Path, "") == policy.SurfaceMessages {
			proxy.WriteError(w, r, fmt.Errorf("%w: too many concurrent requests; retry shortly", proxy.ErrOverloaded))
			return
		}
		httpapi.WriteErrorBody(w, http.StatusServiceUnavailable, "overloaded", "too many concurrent requests; retry shortly", time.Second)
	}
	limited := limitConcurrency(opts.MaxConcurrent, overloaded, mux)
	probes.Handle("/", limited)
	// Only the probes' own paths go through the probe mux: every other
	// request would find nothing there but "/" (~0.4 µs of pattern
	// matching on each search).
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "/healthz" || p == "/readyz" {
			probes.ServeHTTP(w, r)
			return
		}
		limited.ServeHTTP(w, r)
	})
	h = checkOrigin(opts.AllowedOrigins, h)
	h = accessLog(log, opts.Observer, opts.MetricsPath, h)
	h = track(st, h)
	// Outermost: a response gathered into one write leaves after every
	// layer above has finished with its request.
	h = batchconn.Handler(h)
	return h
}

// HTTPServer returns the http.Server that Serve serves h with: its
// timeouts and limits, errors logged to log at warn, request contexts
// derived from base, and batchconn's connection hook. Serve it on a
// batchconn.Listener. cmd/loadgen measures bare net/http with it.
func HTTPServer(h http.Handler, log *slog.Logger, base context.Context) *http.Server {
	return &http.Server{
		Handler: h,
		// Slow-loris protection. There is no WriteTimeout because MCP
		// responses stream for as long as a tool call runs; each call is
		// bounded by the search and fetch deadlines instead.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return base },
		// Handlers with a complete response send it in one write (see
		// package batchconn).
		ConnContext: batchconn.ConnContext,
	}
}

// Serve serves Handler(opts) on ln until ctx ends, then shuts down
// gracefully: it stops accepting, lets in-flight requests finish for up to
// ShutdownTimeout, then closes what is left. It returns nil after a clean
// shutdown.
func Serve(ctx context.Context, ln net.Listener, opts Options) error {
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = 15 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st := &state{}
	// Request contexts derive from base, which outlives ctx (so a signal
	// does not cut requests short) but is cancelled when the drain
	// deadline passes.
	base, cancelBase := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancelBase(nil)
	srv := HTTPServer(handler(opts, st), log, base)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(batchconn.Listener{Listener: ln}) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Draining: /readyz fails from now on, the listener closes (Shutdown
	// stops accepting at once), and in-flight requests, streams included,
	// get ShutdownTimeout to finish. Whatever is still running then is
	// cancelled through its context, its connection closed, and waited for
	// briefly, so Serve returns with no handler left behind.
	st.draining.Store(true)
	if d, ok := opts.Observer.(interface{ SetDraining(bool) }); ok {
		d.SetDraining(true)
	}
	log.Info("shutting down: draining in-flight requests", "in_flight", st.active.Load(), "timeout", opts.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), opts.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		left := st.active.Load()
		cancelBase(errShutdown)
		_ = srv.Close()
		if !waitInflight(st, cancelGrace) {
			log.Error("shutdown: handlers still running after cancellation", "in_flight", st.active.Load())
			return fmt.Errorf("shutdown: %d requests did not end within %s of being cancelled", st.active.Load(), cancelGrace)
		}
		log.Warn("shutdown: drain deadline passed; cancelled the requests still running", "cancelled", left)
	} else {
		log.Info("shutdown: drained")
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// errShutdown is the cause of the request contexts cancelled when the drain
// deadline passes.
var errShutdown = errors.New("server shutting down")

// cancelGrace bounds the wait for cancelled handlers to return.
const cancelGrace = 5 * time.Second

// checkOrigin rejects browser requests from foreign origins and requests
// whose Host is not a loopback name when the connection arrived on a
// loopback address. Together they stop DNS rebinding: a web page on
// evil.example that re-points its name to 127.0.0.1 sends Origin and Host
// evil.example, and is refused. The MCP specification makes this a MUST
// for Streamable HTTP (2025-11-25, Transports, "Security Warning",
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning:
// "Servers MUST validate the Origin header on all incoming connections to
// prevent DNS rebinding attacks. If the Origin header is present and
// invalid, servers MUST respond with HTTP 403 Forbidden"). Requests a
// browser sends for another site's page without an Origin (no-cors GETs)
// are refused on the surfaces that do work (see crosssite.go). Clients
// that are not browsers send neither header and pass.
//
// The hosts of allowed origins are accepted as Host too, so a reverse
// proxy on the same machine that forwards its public Host still works.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	ok := map[string]bool{}
	hosts := map[string]bool{}
	for _, o := range allowed {
		o = strings.TrimSuffix(strings.ToLower(o), "/")
		ok[o] = true
		if u, err := url.Parse(o); err == nil {
			hosts[u.Host] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !ok[strings.ToLower(origin)] && !loopbackOrigin(origin) {
			httpapi.WriteErrorBody(w, http.StatusForbidden, "forbidden_origin", "origin "+origin+" is not allowed (add it to server.allowed_origins)", 0)
			return
		}
		if crossSiteNoOrigin(r) && workSurface(r.URL.Path) {
			httpapi.WriteErrorBody(w, http.StatusForbidden, "forbidden_origin", "a web page of another site may not use "+r.URL.Path+
				" (the browser sent Sec-Fetch-Site: "+r.Header.Get("Sec-Fetch-Site")+" and no Origin); to call webgate from a page, serve the page from an origin listed in server.allowed_origins and send the request in CORS mode", 0)
			return
		}
		if la, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr); la != nil && isLoopbackAddr(la) && !isLoopbackHost(r.Host) && !hosts[strings.ToLower(r.Host)] {
			httpapi.WriteErrorBody(w, http.StatusForbidden, "forbidden_origin", "host "+r.Host+" is not allowed on a loopback listener", 0)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && isLoopbackHost(u.Host)
}

// isLoopbackHost reports whether a Host header (host or host:port) names
// this machine.
func isLoopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func isLoopbackAddr(a net.Addr) bool {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.IsLoopback()
	}
	return false
}

// limitBody bounds every request body; handlers see *http.MaxBytesError
// when a client sends more.
func limitBody(n int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > n {
			httpapi.WriteErrorBody(w, http.StatusRequestEntityTooLarge, "request_too_large", fmt.Sprintf("request body of %d bytes is over the %d-byte limit", r.ContentLength, n), 0)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, n)
		next.ServeHTTP(w, r)
	})
}

// limitConcurrency refuses a request with refuse (an overloaded answer:
// 503 with Retry-After, RFC 9110 sections 15.6.4 and 10.2.3,
// https://www.rfc-editor.org/rfc/rfc9110#section-15.6.4) when n requests
// are already in flight, rather than queueing without bound.
func limitConcurrency(n int, refuse http.HandlerFunc, next http.Handler) http.Handler {
	sem := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
			next.ServeHTTP(w, r)
		default:
			refuse(w, r)
		}
	})
}

// statusRecorder captures the status for the access log and metrics, and
// notices streamed responses. It forwards Flush, which MCP's and the
// proxy's streamed responses need.
type statusRecorder struct {
	http.ResponseWriter
	status int
	// obs, when set, counts the response in surface's streams if it is an
	// event stream; streaming says it did and StreamEnded is owed.
	obs       Observer
	surface   string
	streaming bool
	// extra holds what the handler added to the access-log line
	// (httplog.Annotate), in buf so that costs no allocation.
	extra []slog.Attr
	buf   [maxLogExtras]slog.Attr
}

// maxLogExtras bounds the attributes a handler may add to its request's
// access-log line; more are dropped.
const maxLogExtras = 8

// LogAttrs implements httplog.Annotator.
func (s *statusRecorder) LogAttrs() *[]slog.Attr {
	if s.extra == nil {
		s.extra = s.buf[:0]
	}
	return &s.extra
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
		if s.obs != nil && strings.HasPrefix(s.Header().Get("Content-Type"), "text/event-stream") {
			s.obs.StreamStarted(s.surface)
			s.streaming = true
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func accessLog(log *slog.Logger, obs Observer, metricsPath string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		surface := surfaceOf(r.URL.Path, metricsPath)
		rec := &statusRecorder{ResponseWriter: w, obs: obs, surface: surface}
		// The bookkeeping is deferred: a handler that aborts its response
		// (the proxy panics with http.ErrAbortHandler when an upstream
		// breaks mid-stream) must still end its stream in the gauge and
		// get its line. The panic goes on to net/http once this is done.
		completed := false
		defer func() {
			logRequest(log, obs, r, rec, surface, start, !completed)
		}()
		next.ServeHTTP(rec, r)
		completed = true
	})
}

// logRequest is accessLog's bookkeeping for one request: the stream gauge,
// the observer and the access-log line (with aborted=true when the
// handler cut its response short).
func logRequest(log *slog.Logger, obs Observer, r *http.Request, rec *statusRecorder, surface string, start time.Time, aborted bool) {
	end := time.Now()
	took := end.Sub(start)
	switch {
	case rec.status == 0 && aborted:
		// Nothing was sent and the connection is cut: the request
		// failed here.
		rec.status = http.StatusInternalServerError
	case rec.status == 0:
		rec.status = http.StatusOK // nothing written: net/http sends 200
	}
	if rec.streaming {
		obs.StreamEnded(surface)
	}
	if obs != nil {
		obs.ObserveRequest(surface, rec.status, took)
	}
	// The query string is left out: it holds search queries, which
	// are the user's business, not the operator's log's.
	h := log.Handler()
	if !h.Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	// The record goes straight to the handler: Logger.LogAttrs would
	// also walk the stack for the caller's program counter, which an
	// access-log line has no use for (its source would be this
	// function), at a cost of ~0.4 µs a request.
	line := slog.NewRecord(end, slog.LevelInfo, "request", 0)
	line.AddAttrs(slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("surface", surface),
		slog.Int("status", rec.status), slog.Duration("took", took))
	line.AddAttrs(rec.extra...)
	if aborted {
		line.AddAttrs(slog.Bool("aborted", true))
	}
	_ = h.Handle(r.Context(), line)
}
