package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/policy"
)

type mcpCmd struct{}

// Run serves MCP over stdio until the client closes stdin or the process
// is signalled. Stdout carries only protocol messages; logs go to stderr.
func (c *mcpCmd) Run(r *runtime) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	log := r.Logger()
	svc, getter, err := buildService(cfg, log)
	if err != nil {
		return err
	}
	defer closeService(svc)
	srv := mcpserver.New(mcpOptions(cfg, svc, getter, log))
	t := mcpserver.StdioTransport(r.IO.Stdin, r.IO.Stdout, log)
	// Over stdio the client is the local process that started webgate:
	// no key, and no policy.
	err = srv.Run(policy.WithCaller(r.Ctx, policy.Caller{Surface: policy.SurfaceMCP}), t)
	if err == nil || errors.Is(err, io.EOF) || r.Ctx.Err() != nil {
		return nil // the client hung up or we were signalled: a normal end
	}
	return fmt.Errorf("mcp: %w", err)
}

// buildService returns the service and the page fetcher the surfaces use.
func buildService(cfg *config.Config, log *slog.Logger) (*app.Service, fetch.Getter, error) {
	svc, err := app.New(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	return svc, svc.Getter, nil
}

func mcpOptions(cfg *config.Config, svc *app.Service, getter fetch.Getter, log *slog.Logger) mcpserver.Options {
	return mcpserver.Options{
		Searcher:         svc.Searcher,
		Fetcher:          getter,
		MaxOutputChars:   cfg.MCP.MaxOutputChars,
		FetchConcurrency: cfg.MCP.FetchConcurrency,
		ContentTimeout:   cfg.MCP.ContentTimeout,
		ContentResults:   cfg.MCP.ContentResults,
		StructuredOutput: cfg.MCP.StructuredOutput,
		Untrusted:        untrusted(cfg),
		Version:          Version,
		Logger:           log,
	}
}
