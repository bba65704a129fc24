package cli

import (
	"context"
	"time"

	"github.com/webgate/webgate/service"
)

// closeService flushes the audit log of a command's service: one-shot
// commands are audited too, and their records must reach the file before
// the process exits.
func closeService(svc *service.Service) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = svc.Close(ctx)
}
