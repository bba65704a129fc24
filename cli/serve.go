package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/webgate/webgate/config"
	"github.com/webgate/webgate/fetch"
	"github.com/webgate/webgate/httpapi"
	"github.com/webgate/webgate/mcpserver"
	"github.com/webgate/webgate/proxy"
	"github.com/webgate/webgate/server"
	"github.com/webgate/webgate/service"
	"github.com/webgate/webgate/upstream/anthropic"
)

type serveCmd struct {
	Listen string `help:"Address to listen on (overrides listen; default 127.0.0.1:8788)." placeholder:"HOST:PORT"`
}

// Run serves the JSON API, MCP over HTTP, the Anthropic-compatible
// Messages proxy, /healthz, /readyz and /metrics until SIGINT or SIGTERM,
// then shuts down gracefully, draining streams.
func (c *serveCmd) Run(r *runtime) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	log := r.serverLogger()
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
	defer svc.Release()
	opts, release, err := serverOptions(cfg, svc, getter, log)
	if err != nil {
		return err
	}
	defer release()
	fmt.Fprintf(r.IO.Stderr, "webgate %s listening on http://%s (MCP at /mcp, API at /v1/search and /v1/fetch, Anthropic Messages at /v1/messages)\n", Version, ln.Addr())
	return server.Serve(r.Ctx, ln, opts)
}

// serverOptions mounts every surface of `webgate serve` on svc, with the
// operational endpoints (/readyz, /metrics) wired to its metrics. Call
// release once the server has stopped: it closes the idle connections to
// the upstream.
func serverOptions(cfg *config.Config, svc *service.Service, getter fetch.Getter, log *slog.Logger) (opts server.Options, release func(), err error) {
	hc := anthropic.NewHTTPClient(cfg.Upstream.WithDefaults().ResponseHeaderTimeout)
	release = hc.CloseIdleConnections
	messages, err := proxy.New(proxy.Options{Searcher: svc.Searcher, Fetcher: getter, Upstream: cfg.Upstream, HTTPClient: hc, Logger: log})
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
		AuthTokens:      cfg.Server.AuthTokens,
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

// readiness is /readyz beyond the server's own draining check: at least
// one search provider can be asked, and Redis, when configured, answers
// (while it does not, the replica is degraded but ready, unless
// metrics.ready_requires_redis says otherwise).
func readiness(cfg *config.Config, svc *service.Service) func(context.Context) []server.Check {
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
