package app

import (
	"log/slog"
	"runtime/debug"
	"testing"

	"github.com/webgate/webgate/internal/config"
)

// gogc returns the GOGC percentage in force.
func gogc() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestHeapFloorOptIn: the heap floor is off unless server.min_heap_bytes
// asks for it (issue 23), stays off when GOGC is set, and once on, raises
// GOGC until stopped.
func TestHeapFloorOptIn(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	noEnv := func(string) (string, bool) { return "", false }
	base := gogc()

	stop := HeapFloor(config.Default(), noEnv, log)
	if got := gogc(); got != base {
		t.Errorf("default config: GOGC %d, want %d untouched", got, base)
	}
	stop()

	on := config.Default()
	on.Server.MinHeapBytes = 256 << 20
	stop = HeapFloor(on, func(k string) (string, bool) { return "100", k == "GOGC" }, log)
	if got := gogc(); got != base {
		t.Errorf("GOGC set: GOGC %d, want %d untouched", got, base)
	}
	stop()

	stop = HeapFloor(on, noEnv, log)
	if got := gogc(); got <= base {
		t.Errorf("min_heap_bytes 256 MiB: GOGC %d, want above %d", got, base)
	}
	stop()
	if got := gogc(); got != base {
		t.Errorf("after stop: GOGC %d, want %d", got, base)
	}
}
