package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/webgate/webgate/internal/app"
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
	svc, err := app.New(cfg, log)
	if err != nil {
		return err
	}
	defer svc.Shutdown()
	srv := mcpserver.New(svc.MCPOptions(Version))
	t := mcpserver.StdioTransport(r.IO.Stdin, r.IO.Stdout, log)
	// Over stdio the client is the local process that started webgate:
	// no key, and no policy.
	err = srv.Run(policy.WithCaller(r.Ctx, policy.Caller{Surface: policy.SurfaceMCP}), t)
	if err == nil || errors.Is(err, io.EOF) || r.Ctx.Err() != nil {
		return nil // the client hung up or we were signalled: a normal end
	}
	return fmt.Errorf("mcp: %w", err)
}
