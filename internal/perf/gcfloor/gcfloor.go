// Package gcfloor keeps the Go garbage collector from running while the
// heap is small.
//
// Go starts a collection when the heap has grown by GOGC percent (100 by
// default) over what the last one left live, and no sooner than at 4 MiB.
// A server whose live heap is a few MiB but which allocates a few KiB per
// request therefore collects dozens of times a second under load: webgate
// serve, with its caches empty and 20k Claude Code searches a second,
// collected 32 times a second and spent about a tenth of its CPU doing
// so. A floor makes the first collections wait until the heap reaches a
// size the machine can spare anyway, and above the floor Go's own pacing
// takes over unchanged.
//
// It works by re-setting GOGC after every collection (from a finalizer,
// the only hook the runtime offers) to the percentage that puts the next
// collection at the floor, or leaves it at the base percentage once twice
// the live heap is above the floor. A memory limit (GOMEMLIMIT or
// debug.SetMemoryLimit) still applies on top: the runtime collects sooner
// when the limit is near, whatever GOGC says.
package gcfloor

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// maxPercent bounds the GOGC this package sets, so a near-empty heap
// cannot ask for an absurd percentage.
const maxPercent = 1 << 20

// Floor tunes GOGC so the heap may grow to a minimum size before the
// garbage collector runs. Create one with Start.
type Floor struct {
	min  uint64
	base int

	mu      sync.Mutex
	stopped bool
	percent int // what was last set
	sample  []metrics.Sample
}

// Start sets a floor of minBytes under the heap until Stop: no collection
// starts while the heap is smaller, unless a memory limit asks for one.
// Above the floor, collections start when the heap has grown by the GOGC
// percentage in force when Start was called (100 unless the program
// changed it). GOGC is process-wide, so only one Floor runs at a time:
// while one does, Start returns a Floor that changes nothing (tests that
// run several servers in one process start several).
func Start(minBytes uint64) *Floor {
	if !active.CompareAndSwap(false, true) {
		return &Floor{stopped: true, percent: current()}
	}
	base := current()
	f := &Floor{min: minBytes, base: base, percent: base, sample: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"},
	}}
	if base < 0 {
		// GOGC=off: the program collects only under a memory limit, and
		// a floor would change nothing.
		f.stopped = true
		active.Store(false)
		return f
	}
	f.adjust()
	f.arm()
	return f
}

// current returns GOGC as it is now, -1 for off.
func current() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	p := int(s[0].Value.Uint64())
	if p == 0 {
		// The metric says 0 both for GOGC=0 (collect continuously) and
		// for off; only SetGCPercent tells them apart.
		p = debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
	}
	return p
}

// Percent reports the GOGC value the floor last set.
func (f *Floor) Percent() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.percent
}

// Stop restores the GOGC percentage that was in force when Start was
// called, and stops adjusting it.
func (f *Floor) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.stopped = true
	debug.SetGCPercent(f.base)
	f.percent = f.base
	active.Store(false)
}

// active is set while a Floor runs.
var active atomic.Bool

// arm plants an object whose finalizer runs once the next collection has
// found it unreachable, which is after every collection, since nothing
// refers to it.
func (f *Floor) arm() {
	s := new(sentinel)
	runtime.SetFinalizer(s, func(*sentinel) {
		if f.adjust() {
			f.arm()
		}
	})
}

// sentinel is big enough not to be a tiny allocation: finalizers on tiny
// objects may never run, because the runtime batches those in 16-byte
// blocks.
type sentinel [16]byte

// adjust sets GOGC for the live heap the last collection measured. It
// reports false once the floor is stopped.
func (f *Floor) adjust() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return false
	}
	metrics.Read(f.sample)
	var v [3]uint64
	for i, s := range f.sample {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	p := percentFor(v[0], v[1]+v[2], f.min, f.base)
	// Small changes are not worth the heap lock SetGCPercent takes.
	if p != f.percent && (p == f.base || math.Abs(float64(p-f.percent)) > float64(f.percent)/20) {
		debug.SetGCPercent(p)
		f.percent = p
	}
	return true
}

// percentFor returns the GOGC value that starts the next collection when the
// heap reaches minBytes, or base when base percent of growth already gets
// there. live is the heap the last collection left, roots the stacks and
// globals it scanned. The runtime's goal for the next collection is the
// larger of live + (live + roots) × GOGC/100 (since Go 1.18) and its
// 4 MiB minimum heap × GOGC/100, which also holds before the first
// collection, when live is 0.
func percentFor(live, roots, minBytes uint64, base int) int {
	if minBytes <= live {
		return base
	}
	p := float64(minBytes) / float64(heapMinimum) * 100
	if live > 0 {
		p = min(p, float64(minBytes-live)/float64(live+roots)*100)
	}
	if p <= float64(base) {
		return base
	}
	return int(min(p, maxPercent))
}

// heapMinimum is the runtime's smallest heap goal at GOGC=100.
const heapMinimum = 4 << 20
