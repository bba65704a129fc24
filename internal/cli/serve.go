package cli

import (
	"fmt"
	"net"
	"os"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/server"
)

type serveCmd struct {
	Listen   string `help:"Address to listen on (overrides listen; default 127.0.0.1:8788)." placeholder:"HOST:PORT"`
	Insecure bool   `help:"Allow a non-loopback address without auth.keys (only behind a proxy that authenticates, or on a trusted network)."`
}

// Run serves the JSON API, MCP over HTTP, the Anthropic-compatible
// Messages proxy, /healthz, /readyz and /metrics until SIGINT or SIGTERM,
// then shuts down gracefully, draining streams.
func (c *serveCmd) Run(r *runtime) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	log, flushLog := r.serverLogger()
	defer flushLog()
	defer app.HeapFloor(cfg, r.IO.Getenv, log)()
	svc, err := app.New(cfg, log)
	if err != nil {
		return err
	}
	defer svc.Shutdown()
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
	opts, release, err := svc.ServerOptions(Version)
	if err != nil {
		return err
	}
	defer release()
	if cfg.Console.ConsoleEnabled() {
		cfgFile := r.g.Config
		if cfgFile == "" {
			cfgFile, _ = r.IO.Getenv(config.EnvConfig)
		}
		bin, _ := executable()
		home, _ := os.UserHomeDir()
		opts.Console, err = svc.Console(app.ConsoleOptions{Version: Version, Binary: bin, ConfigFile: cfgFile, Home: home, Env: os.LookupEnv})
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(r.IO.Stderr, "webgate %s listening on http://%s (MCP at /mcp, API at /v1/search and /v1/fetch, Anthropic Messages at /v1/messages%s)\n", Version, ln.Addr(), consoleNote(opts))
	return server.Serve(r.Ctx, ln, opts)
}

func consoleNote(opts server.Options) string {
	if opts.Console == nil {
		return ""
	}
	return ", web console at /"
}
