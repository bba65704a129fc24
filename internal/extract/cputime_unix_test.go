//go:build unix

package extract

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used. With
// GOMAXPROCS=1 only one goroutine runs at a time, so the difference over a
// call is the CPU that call cost, background GC included, and unlike
// wall time it does not grow while other processes hold the cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
