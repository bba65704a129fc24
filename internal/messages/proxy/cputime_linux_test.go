package proxy

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is the CPU time this process has used (all threads, user and
// system), nanosecond-precise: a cost measure that other processes on a
// busy machine do not inflate, unlike wall-clock time.
func processCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
