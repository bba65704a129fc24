package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/server"
)

// replica is one in-process `webgate serve`: the same service and server
// wiring as the command, on a loopback port.
type replica struct {
	URL string
	Svc *app.Service
	// Stop shuts the replica down as SIGTERM would and returns Serve's
	// result; the test's cleanup calls it too (only the first call acts).
	Stop func() error
}

// replicaYAML is a configuration for replicas sharing redisURL (none when
// empty), searching the SearXNG fake at searx and fetching loopback pages.
// A key prefix, when given, keeps the replicas' keys apart from other
// tests' on a shared Redis.
func replicaYAML(searx, redisURL, extra string, keyPrefix ...string) string {
	y := fmt.Sprintf(`search: {providers: [searxng], retries: -1}
providers: {searxng: {base_url: %q}}
fetch: {allow_private_networks: true, ignore_robots: true}
`, searx)
	if redisURL != "" {
		prefix := "webgate:"
		if len(keyPrefix) > 0 {
			prefix = keyPrefix[0]
		}
		// Outages in these tests are refused connections, noticed at
		// once; the timeout only has to outlast a loaded machine.
		y += fmt.Sprintf("redis: {url: %q, key_prefix: %q, health_interval: 100ms, timeout: 2s}\n", redisURL, prefix)
	}
	return y + extra
}

// startReplica serves cfgYAML until the test ends.
func startReplica(t testing.TB, cfgYAML string, log *slog.Logger) *replica {
	t.Helper()
	cfg, err := config.Parse(strings.NewReader(cfgYAML), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	svc, err := app.New(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	opts, release, err := svc.ServerOptions(Version)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Serve(ctx, ln, opts) }()
	var once sync.Once
	var serveErr error
	stop := func() error {
		once.Do(func() {
			cancel()
			serveErr = <-done
			release()
			svc.Shutdown() // as serve does: flush the audit log, then release
		})
		return serveErr
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("replica shutdown: %v", err)
		}
	})
	return &replica{URL: "http://" + ln.Addr().String(), Svc: svc, Stop: stop}
}

// get fetches path from the replica and returns status and body.
func (r *replica) get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(r.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// fetch runs a JSON API fetch of one URL.
func (r *replica) fetch(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Post(r.URL+"/v1/fetch", "application/json", strings.NewReader(`{"url":"`+url+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// search runs a JSON API search and returns whether it succeeded.
func (r *replica) search(t testing.TB, q string) (int, string) {
	t.Helper()
	return r.get(t, "/v1/search?q="+strings.ReplaceAll(q, " ", "+"))
}

// ready returns /readyz decoded.
func (r *replica) ready(t testing.TB) (int, map[string]server.Check) {
	t.Helper()
	code, body := r.get(t, "/readyz")
	var v struct {
		Checks []server.Check `json:"checks"`
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("readyz body %q: %v", body, err)
	}
	m := map[string]server.Check{}
	for _, c := range v.Checks {
		m[c.Name] = c
	}
	return code, m
}

// metric returns the value of the first exposition line starting with
// prefix, or "" when there is none.
func (r *replica) metric(t testing.TB, prefix string) string {
	t.Helper()
	_, body := r.get(t, "/metrics")
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimSpace(strings.TrimPrefix(l, prefix))
		}
	}
	return ""
}

// waitFor polls cond every 20ms for up to 15s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newJSONLogger logs JSON lines to w at info level, as serve does with
// log.format json.
func newJSONLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
