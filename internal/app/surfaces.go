package app

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/webgate/webgate/internal/console"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/messages/proxy"
	"github.com/webgate/webgate/internal/messages/upstream/anthropic"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/server"
	"github.com/webgate/webgate/internal/setup"
)

// Untrusted is how the surfaces mark web content for models
// (guard.content.mark_untrusted).
func (s *Service) Untrusted() guard.Wrapper {
	return guard.Wrapper{Off: !s.Config.Guard.Content.MarkUntrustedEnabled()}
}

// MCPOptions configures the MCP tools (over stdio and HTTP alike) on the
// service's Searcher and Getter. version is what the server reports to
// clients.
func (s *Service) MCPOptions(version string) mcpserver.Options {
	cfg := s.Config
	return mcpserver.Options{
		Searcher:         s.Searcher,
		Fetcher:          s.Getter,
		MaxOutputChars:   cfg.MCP.MaxOutputChars,
		FetchConcurrency: cfg.MCP.FetchConcurrency,
		ContentTimeout:   cfg.MCP.ContentTimeout,
		ContentResults:   cfg.MCP.ContentResults,
		StructuredOutput: cfg.MCP.StructuredOutput,
		Untrusted:        s.Untrusted(),
		Version:          version,
		Logger:           s.Log,
	}
}

// ServerOptions returns exactly what `webgate serve` serves: every surface
// (JSON API, MCP over HTTP, the Messages proxy) mounted on the service,
// the authentication, the request observer, /readyz and /metrics.
// cmd/loadgen builds its benchmark server with it, over a Service whose
// providers are in-process, so the figures it measures are those of the
// real stack. The web console is added by Console. Call release once the
// server has stopped: it closes the idle connections to the upstream.
func (s *Service) ServerOptions(version string) (opts server.Options, release func(), err error) {
	cfg := s.Config
	keys, err := policy.KeyringFromConfig(cfg)
	if err != nil {
		return server.Options{}, nil, err
	}
	hc := anthropic.NewHTTPClient(cfg.Upstream.WithDefaults().ResponseHeaderTimeout)
	release = hc.CloseIdleConnections
	messages, err := proxy.New(proxy.Options{Searcher: s.Searcher, Fetcher: s.Getter, Upstream: cfg.Upstream, HTTPClient: hc, Untrusted: s.Untrusted(), Degraded: s.Metrics.ObserveDegraded, Logger: s.Log})
	if err != nil {
		return server.Options{}, nil, err
	}
	mcpSrv := mcpserver.New(s.MCPOptions(version))
	s.Metrics.SetVersion(version)
	opts = server.Options{
		API: httpapi.New(httpapi.Options{
			Searcher: s.Searcher, Fetcher: s.Getter, MaxBodyBytes: cfg.Server.MaxRequestBytes,
			FetchConcurrency: cfg.MCP.FetchConcurrency, Logger: s.Log,
		}),
		MCP:             mcpserver.HTTPHandler(mcpSrv, cfg.Server.MaxRequestBytes, s.Log),
		Messages:        messages,
		Keys:            keys,
		AllowedOrigins:  cfg.Server.AllowedOrigins,
		MaxBodyBytes:    cfg.Server.MaxRequestBytes,
		MaxConcurrent:   cfg.Server.MaxConcurrentRequests,
		ShutdownTimeout: cfg.Server.ShutdownTimeout,
		Logger:          s.Log,
		Observer:        s.Metrics,
		Ready:           s.readiness,
	}
	if cfg.Metrics.MetricsEnabled() {
		opts.Metrics, opts.MetricsPath, opts.MetricsPublic = s.Metrics.Handler(), cfg.Metrics.Path, cfg.Metrics.Public
	}
	return opts, release, nil
}

// ConsoleOptions is what the web console needs beyond the service: the
// version it shows, and where the setup view finds this binary, the
// configuration file (empty for none; made absolute here) and the home
// directory holding the clients' settings.
type ConsoleOptions struct {
	Version    string
	Binary     string
	ConfigFile string
	Home       string
	// Env looks up environment variables for the setup view
	// (os.LookupEnv in production).
	Env func(string) (string, bool)
}

// Console builds the web console on the service: the playground runs
// through the same Searcher and Getter as every surface, its digest is the
// MCP web_search text, and the setup view uses what `webgate setup` would.
func (s *Service) Console(o ConsoleOptions) (*console.Console, error) {
	mo := s.MCPOptions(o.Version)
	cfgFile := o.ConfigFile
	if cfgFile != "" {
		cfgFile, _ = filepath.Abs(cfgFile)
	}
	return console.New(console.Options{
		Searcher: s.Searcher, Fetcher: s.Getter,
		Digest: func(ctx context.Context, r *search.Response, content bool) string {
			return mcpserver.SearchText(ctx, r, mo, content)
		},
		Snapshot:  s.Metrics.Snapshot,
		Audit:     s.Audit,
		Operators: s.Config.Console.Operators,
		Setup:     setup.Options{Binary: o.Binary, ConfigFile: cfgFile, Home: o.Home, Env: o.Env},
		Version:   o.Version,
		Logger:    s.Log,
	})
}

// readiness is /readyz beyond the server's own draining check: at least
// one search provider can be asked, and Redis, when configured, answers
// (while it does not, the replica is degraded but ready, unless
// metrics.ready_requires_redis says otherwise).
func (s *Service) readiness(context.Context) []server.Check {
	avail, total := s.ProvidersAvailable()
	providers := server.Check{Name: "providers", Status: server.CheckOK, Detail: fmt.Sprintf("%d of %d available", avail, total)}
	switch {
	case avail == 0:
		providers.Status, providers.Detail = server.CheckFail, fmt.Sprintf("all %d circuit breakers open", total)
	case avail < total:
		providers.Status = server.CheckDegraded
	}
	checks := []server.Check{providers}
	if st := s.RedisStatus(); st.Configured {
		c := server.Check{Name: "redis", Status: server.CheckOK, Detail: "shared cache, counters and audit stream in use"}
		if !st.Up {
			c.Status, c.Detail = server.CheckDegraded, "unreachable; serving from local cache and counters"
			if s.Config.Metrics.ReadyRequiresRedis {
				c.Status = server.CheckFail
			}
		}
		checks = append(checks, c)
	}
	return checks
}

// Shutdown flushes the audit log (waiting at most 5s): one-shot commands
// are audited too, and their records must reach the file before the
// process exits. Only then are the service's connections (providers,
// sites, Redis, which may carry the audit stream) released.
func (s *Service) Shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.Close(ctx)
	_ = s.Release()
}
