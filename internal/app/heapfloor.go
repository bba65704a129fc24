package app

import (
	"log/slog"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/perf/gcfloor"
)

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
