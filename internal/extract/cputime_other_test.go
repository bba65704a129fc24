//go:build !unix

package extract

import "time"

// processCPU is not measured on this platform; benchmarks report zeros.
func processCPU() time.Duration { return 0 }
