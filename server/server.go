// Package server assembles `webgate serve`: one HTTP server with the JSON
// API (/v1/search, /v1/fetch, /openapi.json), MCP over Streamable HTTP
// (/mcp), an optional Anthropic-compatible handler (/v1/messages,
// /v1/models) and /healthz, behind bearer-token authentication, Origin and
// Host checks against DNS rebinding, a concurrency cap, and graceful
// shutdown.
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

	"github.com/webgate/webgate/httpapi"
	"github.com/webgate/webgate/mcpserver"
	"github.com/webgate/webgate/policy"
	"github.com/webgate/webgate/proxy"
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
	// ShutdownTimeout bounds graceful shutdown (default 15s).
	ShutdownTimeout time.Duration
	// Logger receives access and error logs; nil discards.
	Logger *slog.Logger
}

// Handler returns the whole HTTP surface as one handler, for Serve and for
// tests (httptest.NewServer(server.Handler(opts))).
func Handler(opts Options) http.Handler {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 256
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
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
	mux.Handle("/v1/", auth.Wrap(policy.SurfaceAPI, httpapi.WriteErr, limitBody(opts.MaxBodyBytes, opts.API)))
	mux.Handle("/mcp", auth.Wrap(policy.SurfaceMCP, mcpserver.WriteHTTPError, limitBody(opts.MaxBodyBytes, opts.MCP)))
	if opts.Messages != nil {
		msgs := auth.Wrap(policy.SurfaceMessages, proxy.WriteError, opts.Messages)
		for _, p := range []string{"/v1/messages", "/v1/messages/", "/v1/models", "/v1/models/"} {
			mux.Handle(p, msgs)
		}
	}
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpapi.WriteError(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.URL.Path, 0)
	}))
	var h http.Handler = mux
	h = limitConcurrency(opts.MaxConcurrent, h)
	h = checkOrigin(opts.AllowedOrigins, h)
	h = accessLog(log, h)
	return h
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
	srv := &http.Server{
		Handler: Handler(opts),
		// Slow-loris protection. There is no WriteTimeout because MCP
		// responses stream for as long as a tool call runs; each call is
		// bounded by the search and fetch deadlines instead.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", opts.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), opts.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// checkOrigin rejects browser requests from foreign origins and requests
// whose Host is not a loopback name when the connection arrived on a
// loopback address. Together they stop DNS rebinding: a web page on
// evil.example that re-points its name to 127.0.0.1 sends Origin and Host
// evil.example, and is refused. Clients that are not browsers send no
// Origin and pass.
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
			httpapi.WriteError(w, http.StatusForbidden, "forbidden_origin", "origin "+origin+" is not allowed (add it to server.allowed_origins)", 0)
			return
		}
		if la, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr); la != nil && isLoopbackAddr(la) && !isLoopbackHost(r.Host) && !hosts[strings.ToLower(r.Host)] {
			httpapi.WriteError(w, http.StatusForbidden, "forbidden_origin", "host "+r.Host+" is not allowed on a loopback listener", 0)
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
			httpapi.WriteError(w, http.StatusRequestEntityTooLarge, "request_too_large", fmt.Sprintf("request body of %d bytes is over the %d-byte limit", r.ContentLength, n), 0)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, n)
		next.ServeHTTP(w, r)
	})
}

// limitConcurrency answers 503 with Retry-After when MaxConcurrent requests
// are already in flight, rather than queueing without bound.
func limitConcurrency(n int, next http.Handler) http.Handler {
	sem := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
			next.ServeHTTP(w, r)
		default:
			httpapi.WriteError(w, http.StatusServiceUnavailable, "overloaded", "too many concurrent requests; retry shortly", time.Second)
		}
	})
}

// statusRecorder captures the status for the access log. It forwards
// Flush, which MCP's streamed responses need.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
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

func accessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		// The query string is left out: it holds search queries, which
		// are the user's business, not the operator's log's.
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", rec.status), slog.Duration("took", time.Since(start)))
	})
}
