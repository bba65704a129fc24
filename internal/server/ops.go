package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webgate/webgate/internal/policy"
)

// Observer receives what the server sees of every request, for metrics.
// *metrics.Recorder implements it.
type Observer interface {
	// ObserveRequest is called once a request has been answered, with the
	// surface it came through, its status and how long it took (a whole
	// stream, for streamed responses).
	ObserveRequest(surface string, status int, took time.Duration)
	// StreamStarted is called when a response turns out to be a stream
	// (Content-Type text/event-stream), and StreamEnded once when it
	// finishes. (Two calls, not a returned func: a closure per streamed
	// response was a measurable share of a fast-path answer's allocations.)
	StreamStarted(surface string)
	StreamEnded(surface string)
}

// Check is one readiness check reported by /readyz.
type Check struct {
	// Name identifies the check: "draining", "providers", "redis", ...
	Name string `json:"name"`
	// Status is CheckOK, CheckDegraded (working, with less: still ready)
	// or CheckFail (not ready).
	Status string `json:"status"`
	// Detail says why, in a few words.
	Detail string `json:"detail,omitempty"`
}

// Check statuses.
const (
	CheckOK       = "ok"
	CheckDegraded = "degraded"
	CheckFail     = "fail"
)

// SurfaceOps labels the operational endpoints (/healthz, /readyz,
// /metrics, /openapi.json) in metrics; SurfaceOther labels unknown paths.
const (
	SurfaceOps   = "ops"
	SurfaceOther = "other"
)

// surfaceOf maps a request path to the surface it belongs to.
func surfaceOf(path, metricsPath string) string {
	switch {
	case path == "/mcp" || strings.HasPrefix(path, "/mcp/"):
		return policy.SurfaceMCP
	case strings.HasPrefix(path, "/v1/messages") || strings.HasPrefix(path, "/v1/models"):
		return policy.SurfaceMessages
	case path == "/healthz" || path == "/readyz" || path == "/openapi.json" || (metricsPath != "" && path == metricsPath):
		return SurfaceOps
	case strings.HasPrefix(path, "/v1/"):
		return policy.SurfaceAPI
	case path == "/" || strings.HasPrefix(path, "/console/"):
		return policy.SurfaceConsole
	}
	return SurfaceOther
}

// state is what Serve shares with the handler: whether it is draining and
// which requests are still running.
type state struct {
	draining atomic.Bool
	inflight sync.WaitGroup
	active   atomic.Int64
}

// readyz answers the readiness probe: 200 when every check passes (a
// degraded check still passes), 503 otherwise. The server's own check is
// "draining": a replica that is shutting down is not ready, so a load
// balancer stops sending it new requests while it finishes the old ones.
func readyz(st *state, extra func(context.Context) []Check) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		checks := []Check{{Name: "draining", Status: CheckOK}}
		if st.draining.Load() {
			checks[0] = Check{Name: "draining", Status: CheckFail, Detail: "shutting down"}
		}
		if extra != nil {
			ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			checks = append(checks, extra(ctx)...)
			cancel()
		}
		status, code := "ready", http.StatusOK
		for _, c := range checks {
			if c.Status == CheckFail {
				status, code = "not_ready", http.StatusServiceUnavailable
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(struct {
			Status string  `json:"status"`
			Checks []Check `json:"checks"`
		}{status, checks})
	}
}

// track counts a request as in flight until its handler returns, so Serve
// can wait for handlers it has cancelled.
func track(st *state, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st.inflight.Add(1)
		st.active.Add(1)
		defer func() {
			st.active.Add(-1)
			st.inflight.Done()
		}()
		next.ServeHTTP(w, r)
	})
}

// waitInflight waits for tracked handlers to return, at most d.
func waitInflight(st *state, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		st.inflight.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
