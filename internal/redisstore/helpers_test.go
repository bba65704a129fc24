package redisstore

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/webgate/webgate/internal/metrics"
)

// logBuf collects log lines safely across goroutines.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), sub)
}

// newClient connects to mr with a fast health check.
func newClient(t *testing.T, mr *miniredis.Miniredis, logs *logBuf) *Client {
	t.Helper()
	return newClientAt(t, mr.Addr(), logs)
}

func newClientAt(t *testing.T, addr string, logs *logBuf) *Client {
	t.Helper()
	return newClientTimeout(t, addr, logs, 200*time.Millisecond)
}

// newClientTimeout is newClientAt with a chosen command timeout: tests
// that queue many concurrent commands on a loaded machine must not mistake
// a slow pool for an outage.
func newClientTimeout(t *testing.T, addr string, logs *logBuf, timeout time.Duration) *Client {
	t.Helper()
	var lg *slog.Logger
	if logs != nil {
		lg = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	c, err := New(Options{URL: "redis://" + addr + "/0", Timeout: timeout, HealthInterval: 20 * time.Millisecond,
		Logger: lg, Metrics: metrics.New(metrics.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// eventually polls cond every 5ms for up to 10s: state changes here come
// from the background health check.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
