package cli

import (
	"fmt"
	"net"

	"github.com/webgate/webgate/httpapi"
	"github.com/webgate/webgate/mcpserver"
	"github.com/webgate/webgate/proxy"
	"github.com/webgate/webgate/server"
)

type serveCmd struct {
	Listen string `help:"Address to listen on (overrides listen; default 127.0.0.1:8788)." placeholder:"HOST:PORT"`
}

// Run serves the JSON API, MCP over HTTP, the Anthropic-compatible
// Messages proxy and /healthz until SIGINT or
// SIGTERM, then shuts down gracefully.
func (c *serveCmd) Run(r *runtime) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	log, flushLog := r.serverLogger()
	defer flushLog()
	svc, getter, err := buildService(cfg, log)
	if err != nil {
		return err
	}
	addr := cfg.Listen
	if c.Listen != "" {
		addr = c.Listen
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() && len(cfg.Server.AuthTokens) == 0 {
		log.Warn("listening on a non-loopback address without server.auth_tokens: anyone who can reach it can use it", "addr", ln.Addr().String())
	}
	if len(cfg.Server.AuthTokens) > 0 && cfg.Upstream.APIKey == "" {
		// The proxy forwards the client's own credentials when it has none
		// of its own; with gateway tokens on, those are webgate tokens.
		log.Warn("server.auth_tokens is set but upstream.api_key is not: /v1/messages will forward clients' credentials to the upstream; set upstream.api_key")
	}
	messages, err := proxy.New(proxy.Options{Searcher: svc.Searcher, Fetcher: getter, Upstream: cfg.Upstream, Logger: log})
	if err != nil {
		return err
	}
	mcpSrv := mcpserver.New(mcpOptions(cfg, svc, getter, log))
	opts := server.Options{
		API: httpapi.New(httpapi.Options{
			Searcher: svc.Searcher, Fetcher: getter, MaxBodyBytes: cfg.Server.MaxRequestBytes,
			FetchConcurrency: cfg.MCP.FetchConcurrency, Logger: log,
		}),
		MCP:             mcpserver.HTTPHandler(mcpSrv, cfg.Server.MaxRequestBytes, log),
		Messages:        messages,
		AuthTokens:      cfg.Server.AuthTokens,
		AllowedOrigins:  cfg.Server.AllowedOrigins,
		MaxBodyBytes:    cfg.Server.MaxRequestBytes,
		MaxConcurrent:   cfg.Server.MaxConcurrentRequests,
		ShutdownTimeout: cfg.Server.ShutdownTimeout,
		Logger:          log,
	}
	fmt.Fprintf(r.IO.Stderr, "webgate %s listening on http://%s (MCP at /mcp, API at /v1/search and /v1/fetch, Anthropic Messages at /v1/messages)\n", Version, ln.Addr())
	return server.Serve(r.Ctx, ln, opts)
}
