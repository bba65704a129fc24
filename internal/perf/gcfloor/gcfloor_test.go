package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name             string
		live, roots, min uint64
		base, want       int
	}{
		{"small heap waits for the floor", 4 * mib, 0, 64 * mib, 100, 1500},
		{"roots count in the goal", 3 * mib, 1 * mib, 63 * mib, 100, 1500},
		{"before the first collection, the runtime's 4 MiB minimum scales", 0, 1 * mib, 64 * mib, 100, 1600},
		{"a tiny heap is held by the 4 MiB minimum", 100 << 10, 100 << 10, 64 * mib, 100, 1600},
		{"half the floor is plain GOGC", 32 * mib, 0, 64 * mib, 100, 100},
		{"above the floor is plain GOGC", 100 * mib, 0, 64 * mib, 100, 100},
		{"a higher base stays", 16 * mib, 0, 64 * mib, 400, 400},
		{"a lower base is raised", 16 * mib, 0, 64 * mib, 50, 300},
		{"no floor", 4 * mib, 0, 0, 100, 100},
		{"a huge floor is capped", 1 * mib, 0, 1 << 62, 100, maxPercent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := percentFor(tc.live, tc.roots, tc.min, tc.base); got != tc.want {
				t.Errorf("percentFor(%d, %d, %d, %d) = %d, want %d", tc.live, tc.roots, tc.min, tc.base, got, tc.want)
			}
		})
	}
}

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestFloorFollowsHeap checks the whole loop against the runtime's own
// heap goal: it rises to the floor, comes back to Go's pacing once the
// live heap grows (only the finalizer can do that), and Stop gives GOGC
// back.
func TestFloorFollowsHeap(t *testing.T) {
	const floor = 64 << 20 // far above this test binary's live heap
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	runtime.GC()
	if g := heapGoal(); g >= floor/2 {
		t.Fatalf("heap goal is already %d before the floor", g)
	}
	f := Start(floor)
	defer f.Stop()
	// waitGoal collects until the goal is in [lo, hi]: the finalizer runs
	// after a collection, on its own goroutine.
	waitGoal := func(what string, lo, hi uint64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for g := heapGoal(); g < lo || g > hi; g = heapGoal() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: heap goal %d after 10s, want %d to %d (GOGC %d)", what, g, lo, hi, f.Percent())
			}
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitGoal("small heap", floor*9/10, floor*11/10)
	// A second floor while one runs changes nothing, and stopping it
	// leaves the first in place.
	want := f.Percent()
	second := Start(1 << 30)
	if p := current(); p != want {
		t.Errorf("GOGC %d after a second floor started, want the first floor's %d", p, want)
	}
	second.Stop()
	if p := current(); p != want {
		t.Errorf("GOGC %d after a second floor stopped, want the first floor's %d", p, want)
	}

	// A live heap of 3/4 of the floor: Go's own pacing (twice the live
	// heap) is above the floor, so GOGC must come back down to 100.
	// Without the finalizer's adjustment the goal would be about 17
	// times the live heap.
	live := make([]byte, floor*3/4)
	for i := range live {
		live[i] = 1
	}
	waitGoal("grown heap", floor*3/2, floor*2)
	if p := f.Percent(); p != 100 {
		t.Errorf("GOGC %d with the live heap at 3/4 of the floor, want 100", p)
	}
	runtime.KeepAlive(live)
	live = nil

	f.Stop()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC after Stop = %d, want 100", p)
	}
	// Stopped floors no longer adjust: collections leave GOGC alone.
	debug.SetGCPercent(150)
	for range 3 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	if p := debug.SetGCPercent(100); p != 150 {
		t.Errorf("GOGC = %d after collections with the floor stopped, want 150", p)
	}
}

func TestStartWithGCOff(t *testing.T) {
	before := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(before)
	f := Start(64 << 20)
	if p := f.Percent(); p != -1 {
		t.Errorf("Percent = %d with GOGC off, want -1", p)
	}
	f.Stop()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GOGC = %d, want still off", p)
	}
}
