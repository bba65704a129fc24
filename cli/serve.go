package cli

import (
	"fmt"
	"net"

	"github.com/webgate/webgate/httpapi"
	"github.com/webgate/webgate/mcpserver"
	"github.com/webgate/webgate/policy"
	"github.com/webgate/webgate/proxy"
	"github.com/webgate/webgate/server"
)

type serveCmd struct {
	Listen   string `help:"Address to listen on (overrides listen; default 127.0.0.1:8788)." placeholder:"HOST:PORT"`
	Insecure bool   `help:"Allow a non-loopback address without auth.keys (only behind a proxy that authenticates, or on a trusted network)."`
}

// Run serves the JSON API, MCP over HTTP, the Anthropic-compatible
// Messages proxy and /healthz until SIGINT or
// SIGTERM, then shuts down gracefully.
func (c *serveCmd) Run(r *runtime) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	log := r.serverLogger()
	keys, err := policy.KeyringFromConfig(cfg)
	if err != nil {
		return err
	}
	svc, getter, err := buildService(cfg, log)
	if err != nil {
		return err
	}
	defer closeService(svc)
	addr := cfg.Listen
	if c.Listen != "" {
		addr = c.Listen
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if err := server.CheckExposure(ln.Addr(), cfg.AuthEnabled(), c.Insecure); err != nil {
		_ = ln.Close()
		return err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !tcp.IP.IsLoopback() && !cfg.AuthEnabled() {
		log.Warn("--insecure: listening on a non-loopback address without authentication", "addr", ln.Addr().String())
	}
	if len(cfg.Server.AuthTokens) > 0 {
		log.Warn("server.auth_tokens stores keys in plain text and attaches no policy; move them to auth.keys (printf %s \"$TOKEN\" | webgate keys hash --id NAME)")
	}
	if cfg.AuthEnabled() && cfg.Upstream.APIKey == "" {
		// The gateway key itself is never forwarded (server.Auth removes
		// it), so without upstream.api_key the upstream sees only what
		// clients send besides it.
		log.Warn("auth is on but upstream.api_key is not set: /v1/messages forwards only the credentials clients send besides their webgate key (send the webgate key as Authorization: Bearer and the upstream key as x-api-key), or set upstream.api_key")
	}
	messages, err := proxy.New(proxy.Options{Searcher: svc.Searcher, Fetcher: getter, Upstream: cfg.Upstream, Untrusted: untrusted(cfg), Logger: log})
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
		Keys:            keys,
		AllowedOrigins:  cfg.Server.AllowedOrigins,
		MaxBodyBytes:    cfg.Server.MaxRequestBytes,
		MaxConcurrent:   cfg.Server.MaxConcurrentRequests,
		ShutdownTimeout: cfg.Server.ShutdownTimeout,
		Logger:          log,
	}
	fmt.Fprintf(r.IO.Stderr, "webgate %s listening on http://%s (MCP at /mcp, API at /v1/search and /v1/fetch, Anthropic Messages at /v1/messages)\n", Version, ln.Addr())
	return server.Serve(r.Ctx, ln, opts)
}
