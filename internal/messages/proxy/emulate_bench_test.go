package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/messages/emulate"
	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/messages/wire"
)

// The emulation benchmarks run the whole /v1/messages handler (routing,
// Prepare, the agentic loop, the real web_search and web_fetch tools with
// sealing and citations, the SSE output) over an in-memory emulate.Model
// whose replies are pre-rendered events, an in-memory searcher and an
// in-memory page getter. Neither upstream nor provider time exists, so
// what is timed is webgate's own work per iteration.

// scriptedModel answers each upstream call of a turn by how many tool
// results the conversation already holds: 0 asks for a search, 1 for a
// fetch of the first result, then the cited answer. hold, when set, makes
// the second call wait for release (or the request's end), keeping a turn
// open for the memory figure.
type scriptedModel struct {
	replies [][]wire.Event
	mu      sync.Mutex
	calls   []time.Time
	cpu     []time.Duration
	hold    chan struct{}
	held    chan struct{}
}

func newScriptedModel() *scriptedModel {
	text := strings.Repeat("Go 1.18 added generics, with type parameters for functions and types [1]. ", 12)
	conv := func(evs []up.Event) []wire.Event {
		out := make([]wire.Event, len(evs))
		for i, e := range evs {
			out[i] = wire.Event{Name: e.Name, Data: []byte(e.Data)}
		}
		return out
	}
	return &scriptedModel{replies: [][]wire.Event{
		conv(up.Message("tool_use", up.Usage{Input: 500, Output: 40},
			up.Text("Let me look that up."), up.ToolUse("toolu_s", "web_search", `{"query":"go generics"}`))),
		conv(up.Message("tool_use", up.Usage{Input: 1500, Output: 30},
			up.ToolUse("toolu_f", "web_fetch", fmt.Sprintf(`{"url":%q}`, goResults[0].URL)))),
		conv(up.Message("end_turn", up.Usage{Input: 9000, Output: 300}, up.Text(text))),
	}}
}

func (m *scriptedModel) Stream(ctx context.Context, _ http.Header, body []byte) (emulate.Events, error) {
	m.mu.Lock()
	m.calls = append(m.calls, time.Now())
	if c, ok := processCPU(); ok {
		m.cpu = append(m.cpu, c)
	}
	m.mu.Unlock()
	n := min(bytes.Count(body, []byte(`"tool_result"`)), len(m.replies)-1)
	if n == 1 && m.hold != nil {
		m.held <- struct{}{}
		select {
		case <-m.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return &memEvents{evs: m.replies[n]}, nil
}

type memEvents struct{ evs []wire.Event }

func (e *memEvents) Next() (wire.Event, error) {
	if len(e.evs) == 0 {
		return wire.Event{}, io.EOF
	}
	ev := e.evs[0]
	e.evs = e.evs[1:]
	return ev, nil
}

func (e *memEvents) Close() error { return nil }

// discardWriter is a flushable ResponseWriter that keeps nothing.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
func (w *discardWriter) Flush()                      {}
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// benchDoc is the fetched page: about 20 KB of text.
var benchDoc = &fetch.Result{Title: "Tutorial: Getting started with generics", ContentType: "text/html",
	Content: strings.Repeat(goPages["https://go.dev/doc/tutorial/generics"]+"\n\n", 20)}

func emulationHandler(b testing.TB, m emulate.Model) http.Handler {
	return newHandler(b, Options{
		Searcher: results(goResults...),
		Fetcher:  &docGetter{docs: map[string]*fetch.Result{goResults[0].URL: benchDoc}},
		Upstream: noEnrich(), Model: m,
	})
}

var benchTurn = func() []byte {
	b, _ := json.Marshal(map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 4096, "stream": true,
		"tools": []any{searchTool, fetchTool},
		"messages": []any{
			userMsg("What changed in Go generics? Search, read the tutorial and answer with citations."),
		}})
	return b
}()

// BenchmarkEmulationIteration runs three-iteration emulated turns (search,
// fetch, cited answer), streamed, and records the duration of every
// iteration: from the handler's start (or the previous upstream call) to
// the next upstream call, and from the last upstream call to the end of
// the response. It reports p50 and p99 of those per-iteration durations
// (issue 6's goal: p99 <= 2 ms) besides ns/op for a whole turn. On Linux
// it also reports the process CPU time of each iteration (p50-cpu-µs,
// p99-cpu-µs): the same work measured so that other processes on a busy
// machine cannot inflate it, since wall-clock percentiles there mostly
// measure the scheduler.
func BenchmarkEmulationIteration(b *testing.B) {
	m := newScriptedModel()
	h := emulationHandler(b, m)
	var iters, cpus []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.calls, m.cpu = m.calls[:0], m.cpu[:0]
		w := &discardWriter{h: http.Header{}}
		req := httptest.NewRequest(http.MethodPost, "/v1/messages", bytes.NewReader(benchTurn))
		cpu0, cpuOK := processCPU()
		start := time.Now()
		h.ServeHTTP(w, req)
		end := time.Now()
		cpu1, _ := processCPU()
		if w.status != 0 && w.status != http.StatusOK || len(m.calls) != 3 {
			b.Fatalf("status %d after %d upstream calls", w.status, len(m.calls))
		}
		prev := start
		for _, c := range m.calls[1:] {
			iters = append(iters, c.Sub(prev))
			prev = c
		}
		iters = append(iters, end.Sub(prev))
		if cpuOK && len(m.cpu) == len(m.calls) {
			prev := cpu0
			for _, c := range m.cpu[1:] {
				cpus = append(cpus, c-prev)
				prev = c
			}
			cpus = append(cpus, cpu1-prev)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(percentile(iters, 0.50).Microseconds()), "p50-µs/iter")
	b.ReportMetric(float64(percentile(iters, 0.99).Microseconds()), "p99-µs/iter")
	if len(cpus) > 0 {
		b.ReportMetric(float64(percentile(cpus, 0.50).Microseconds()), "p50-cpu-µs/iter")
		b.ReportMetric(float64(percentile(cpus, 0.99).Microseconds()), "p99-cpu-µs/iter")
	}
}

// BenchmarkEmulationMemory holds n emulated streams open at once, each
// parked in its second upstream call (after its search ran and its results
// were streamed), and reports the live heap they hold, per stream, after a
// full GC: the memory cost of one concurrent emulated stream, excluding
// the HTTP server's per-connection buffers.
func BenchmarkEmulationMemory(b *testing.B) {
	const n = 200
	for i := 0; i < b.N; i++ {
		m := newScriptedModel()
		m.hold, m.held = make(chan struct{}), make(chan struct{}, n)
		h := emulationHandler(b, m)
		before := liveHeap()
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := &discardWriter{h: http.Header{}}
				h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/messages", bytes.NewReader(benchTurn)))
			}()
		}
		for range n {
			<-m.held
		}
		during := liveHeap()
		close(m.hold)
		wg.Wait()
		b.ReportMetric(float64(during-before)/n/1024, "KiB/stream")
	}
}

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
