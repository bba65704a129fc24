package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/console"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/messages/proxy"
	"github.com/webgate/webgate/internal/messages/upstream/anthropic"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/server"
	"github.com/webgate/webgate/internal/setup"
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
	defer HeapFloor(cfg, r.IO.Getenv, log)()
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
	opts, release, err := serverOptions(cfg, svc, getter, log)
	if err != nil {
		return err
	}
	defer release()
	if cfg.Console.ConsoleEnabled() {
		cfgFile := r.g.Config
		if cfgFile == "" {
			cfgFile, _ = r.IO.Getenv(config.EnvConfig)
		}
		if opts.Console, err = consoleHandler(cfg, svc, getter, log, cfgFile); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.IO.Stderr, "webgate %s listening on http://%s (MCP at /mcp, API at /v1/search and /v1/fetch, Anthropic Messages at /v1/messages%s)\n", Version, ln.Addr(), consoleNote(opts))
	return server.Serve(r.Ctx, ln, opts)
}

// serverOptions mounts every surface of `webgate serve` on svc, with the
// operational endpoints (/readyz, /metrics) wired to its metrics. Call
// release once the server has stopped: it closes the idle connections to
// the upstream.
func serverOptions(cfg *config.Config, svc *app.Service, getter fetch.Getter, log *slog.Logger) (opts server.Options, release func(), err error) {
	keys, err := policy.KeyringFromConfig(cfg)
	if err != nil {
		return server.Options{}, nil, err
	}
	hc := anthropic.NewHTTPClient(cfg.Upstream.WithDefaults().ResponseHeaderTimeout)
	release = hc.CloseIdleConnections
	messages, err := proxy.New(proxy.Options{Searcher: svc.Searcher, Fetcher: getter, Upstream: cfg.Upstream, HTTPClient: hc, Untrusted: untrusted(cfg), Degraded: svc.Metrics.ObserveDegraded, Logger: log})
	if err != nil {
		return server.Options{}, nil, err
	}
	mcpSrv := mcpserver.New(mcpOptions(cfg, svc, getter, log))
	svc.Metrics.SetVersion(Version)
	opts = server.Options{
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
		Observer:        svc.Metrics,
		Ready:           readiness(cfg, svc),
	}
	if cfg.Metrics.MetricsEnabled() {
		opts.Metrics, opts.MetricsPath, opts.MetricsPublic = svc.Metrics.Handler(), cfg.Metrics.Path, cfg.Metrics.Public
	}
	return opts, release, nil
}

// consoleHandler builds the web console on the service: the playground
// runs through the same searcher and getter as every surface, its digest
// is the MCP web_search text, and the setup view uses what `webgate setup`
// would.
func consoleHandler(cfg *config.Config, svc *app.Service, getter fetch.Getter, log *slog.Logger, cfgFile string) (*console.Console, error) {
	mo := mcpOptions(cfg, svc, getter, log)
	bin, _ := executable()
	home, _ := os.UserHomeDir()
	if cfgFile != "" {
		cfgFile, _ = filepath.Abs(cfgFile)
	}
	return console.New(console.Options{
		Searcher: svc.Searcher, Fetcher: getter,
		Digest: func(ctx context.Context, r *search.Response, content bool) string {
			return mcpserver.SearchText(ctx, r, mo, content)
		},
		Snapshot:  svc.Metrics.Snapshot,
		Audit:     svc.Audit,
		Operators: cfg.Console.Operators,
		Setup:     setup.Options{Binary: bin, ConfigFile: cfgFile, Home: home, Env: os.LookupEnv},
		Version:   Version,
		Logger:    log,
	})
}

// readiness is /readyz beyond the server's own draining check: at least
// one search provider can be asked, and Redis, when configured, answers
// (while it does not, the replica is degraded but ready, unless
// metrics.ready_requires_redis says otherwise).
func readiness(cfg *config.Config, svc *app.Service) func(context.Context) []server.Check {
	return func(context.Context) []server.Check {
		avail, total := svc.ProvidersAvailable()
		providers := server.Check{Name: "providers", Status: server.CheckOK, Detail: fmt.Sprintf("%d of %d available", avail, total)}
		switch {
		case avail == 0:
			providers.Status, providers.Detail = server.CheckFail, fmt.Sprintf("all %d circuit breakers open", total)
		case avail < total:
			providers.Status = server.CheckDegraded
		}
		checks := []server.Check{providers}
		if st := svc.RedisStatus(); st.Configured {
			c := server.Check{Name: "redis", Status: server.CheckOK, Detail: "shared cache, counters and audit stream in use"}
			if !st.Up {
				c.Status, c.Detail = server.CheckDegraded, "unreachable; serving from local cache and counters"
				if cfg.Metrics.ReadyRequiresRedis {
					c.Status = server.CheckFail
				}
			}
			checks = append(checks, c)
		}
		return checks
	}
}

func consoleNote(opts server.Options) string {
	if opts.Console == nil {
		return ""
	}
	return ", web console at /"
}
