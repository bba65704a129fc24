package cli

import (
	"log/slog"

	"github.com/webgate/webgate/config"
	"github.com/webgate/webgate/server"
	"github.com/webgate/webgate/service"
)

// ServeOptions returns exactly what `webgate serve` serves for cfg over
// svc: every surface, the authentication, the request observer, /readyz
// and /metrics. cmd/loadgen builds its benchmark server with it, over a
// Service whose providers are in-process, so the figures it measures are
// those of the real stack. Call release once the server has stopped.
func ServeOptions(cfg *config.Config, svc *service.Service, log *slog.Logger) (opts server.Options, release func(), err error) {
	return serverOptions(cfg, svc, svc.Getter, log)
}
