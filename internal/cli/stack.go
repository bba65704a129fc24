package cli

import (
	"log/slog"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/perf/gcfloor"
	"github.com/webgate/webgate/internal/server"
)

// ServeOptions returns exactly what `webgate serve` serves for cfg over
// svc: every surface, the authentication, the request observer, /readyz
// and /metrics. cmd/loadgen builds its benchmark server with it, over a
// Service whose providers are in-process, so the figures it measures are
// those of the real stack. Call release once the server has stopped.
func ServeOptions(cfg *config.Config, svc *app.Service, log *slog.Logger) (opts server.Options, release func(), err error) {
	return serverOptions(cfg, svc, svc.Getter, log)
}

// HeapFloor starts the garbage collector's heap floor when the operator
// asked for one (server.min_heap_bytes; off by default), unless the GOGC
// environment variable, looked up with getenv, says they tune the
// collector themselves. Call the returned function on the way out.
func HeapFloor(cfg *config.Config, getenv func(string) (string, bool), log *slog.Logger) (stop func()) {
	if cfg.Server.MinHeapBytes <= 0 {
		return func() {}
	}
	if v, ok := getenv("GOGC"); ok && v != "" {
		log.Debug("server.min_heap_bytes ignored: GOGC is set", "gogc", v)
		return func() {}
	}
	f := gcfloor.Start(uint64(cfg.Server.MinHeapBytes))
	log.Debug("garbage collector heap floor", "min_heap_bytes", cfg.Server.MinHeapBytes, "gogc", f.Percent())
	return f.Stop
}
