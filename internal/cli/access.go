package cli

import (
	"context"
	"time"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/guard"
)

// untrusted is how the surfaces mark web content for models
// (guard.content.mark_untrusted).
func untrusted(cfg *config.Config) guard.Wrapper {
	return guard.Wrapper{Off: !cfg.Guard.Content.MarkUntrustedEnabled()}
}

// closeService flushes the audit log of a command's service: one-shot
// commands are audited too, and their records must reach the file before
// the process exits. Only then are its connections (providers, sites,
// Redis, which may carry the audit stream) released.
func closeService(svc *app.Service) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = svc.Close(ctx)
	_ = svc.Release()
}
