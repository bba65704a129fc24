package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/httplog"
)

func TestSurfaceOf(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/v1/search", "api"},
		{"/v1/fetch", "api"},
		{"/v1/messages", "messages"},
		{"/v1/messages/count_tokens", "messages"},
		{"/v1/models", "messages"},
		{"/mcp", "mcp"},
		{"/healthz", "ops"},
		{"/readyz", "ops"},
		{"/metrics", "ops"},
		{"/openapi.json", "ops"},
		{"/", "console"},
		{"/console/api/status", "console"},
		{"/console/assets/console.js", "console"},
		{"/consoles", "other"},
		{"/wp-login.php", "other"},
	}
	for _, tt := range tests {
		if got := surfaceOf(tt.path, "/metrics"); got != tt.want {
			t.Errorf("surfaceOf(%q) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

func TestReadyz(t *testing.T) {
	tests := []struct {
		name     string
		checks   []Check
		draining bool
		code     int
		status   string
	}{
		{name: "no extra checks", code: 200, status: "ready"},
		{name: "degraded is ready", checks: []Check{{Name: "redis", Status: CheckDegraded, Detail: "unreachable"}, {Name: "providers", Status: CheckOK}}, code: 200, status: "ready"},
		{name: "a failed check", checks: []Check{{Name: "providers", Status: CheckFail, Detail: "every breaker open"}}, code: 503, status: "not_ready"},
		{name: "draining", draining: true, code: 503, status: "not_ready"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOptions()
			opts.AuthTokens = []string{token}
			if tt.checks != nil {
				opts.Ready = func(context.Context) []Check { return tt.checks }
			}
			st := &state{}
			st.draining.Store(tt.draining)
			ts := httptest.NewServer(handler(opts, st))
			defer ts.Close()
			code, body, hdr := get(t, ts.URL+"/readyz") // no token: probes are public
			if code != tt.code || hdr.Get("Content-Type") != "application/json" {
				t.Fatalf("readyz = %d %s", code, body)
			}
			var got struct {
				Status string  `json:"status"`
				Checks []Check `json:"checks"`
			}
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			if got.Status != tt.status || len(got.Checks) != 1+len(tt.checks) || got.Checks[0].Name != "draining" {
				t.Errorf("readyz body = %+v", got)
			}
		})
	}
}

func TestMetricsEndpointAuth(t *testing.T) {
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "webgate_up 1\n") })
	for _, public := range []bool{false, true} {
		t.Run(fmt.Sprint("public=", public), func(t *testing.T) {
			opts := testOptions()
			opts.AuthTokens = []string{token}
			opts.Metrics, opts.MetricsPublic, opts.MetricsPath = metrics, public, "/internal/metrics"
			ts := httptest.NewServer(Handler(opts))
			defer ts.Close()
			code, body, _ := get(t, ts.URL+"/internal/metrics")
			if public && (code != 200 || body != "webgate_up 1\n") {
				t.Errorf("public metrics without a token = %d %s", code, body)
			}
			if !public && code != 401 {
				t.Errorf("private metrics without a token = %d, want 401", code)
			}
			if code, body, _ := get(t, ts.URL+"/internal/metrics", "Authorization", "Bearer "+token); code != 200 || body != "webgate_up 1\n" {
				t.Errorf("metrics with a token = %d %s", code, body)
			}
		})
	}
}

type request struct {
	surface string
	status  int
}

type fakeObserver struct {
	mu        sync.Mutex
	requests  []request
	streams   map[string]int // currently open
	opened    int
	draining  bool
	streamEnd chan struct{}
}

func (o *fakeObserver) ObserveRequest(surface string, status int, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests = append(o.requests, request{surface, status})
}

func (o *fakeObserver) StreamStarted(surface string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.streams == nil {
		o.streams = map[string]int{}
	}
	o.streams[surface]++
	o.opened++
}

func (o *fakeObserver) StreamEnded(surface string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.streams[surface]--
}

func (o *fakeObserver) SetDraining(on bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.draining = on
}

func sseHandler(events int, every time.Duration, entered chan<- struct{}, sawCancel chan<- error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		if entered != nil {
			entered <- struct{}{}
		}
		for i := 0; events < 0 || i < events; i++ {
			select {
			case <-r.Context().Done():
				if sawCancel != nil {
					sawCancel <- context.Cause(r.Context())
				}
				return
			case <-time.After(every):
			}
			fmt.Fprintf(w, "event: ping\ndata: %d\n\n", i)
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "event: done\ndata: {}\n\n")
	})
}

func TestObserverSeesSurfacesAndStreams(t *testing.T) {
	obs := &fakeObserver{}
	opts := testOptions()
	opts.Observer = obs
	opts.Messages = sseHandler(2, time.Millisecond, nil, nil)
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	for _, p := range []string{"/v1/messages", "/v1/search?q=go", "/healthz", "/nope"} {
		req, _ := http.NewRequest("GET", ts.URL+p, nil)
		if p == "/v1/messages" {
			req.Method = "POST"
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := []request{{"messages", 200}, {"api", 200}, {"ops", 200}, {"other", 404}}
	if fmt.Sprint(obs.requests) != fmt.Sprint(want) {
		t.Errorf("observed %v, want %v", obs.requests, want)
	}
	if obs.opened != 1 || obs.streams["messages"] != 0 {
		t.Errorf("streams opened %d, open now %v: want 1 opened and none left", obs.opened, obs.streams)
	}
}

// TestShutdownDrainsThenCancelsStreams: on shutdown the listener closes at
// once, a stream that ends within the deadline is delivered whole, and one
// that would run forever is cancelled (its handler sees the shutdown
// cause) when the deadline passes; Serve then returns nil with no handler
// left running.
func TestShutdownDrainsThenCancelsStreams(t *testing.T) {
	entered := make(chan struct{}, 2)
	sawCancel := make(chan error, 2)
	finite := sseHandler(5, 20*time.Millisecond, entered, sawCancel)
	endless := sseHandler(-1, 10*time.Millisecond, entered, sawCancel)
	obs := &fakeObserver{}
	opts := testOptions()
	opts.Observer = obs
	opts.ShutdownTimeout = 500 * time.Millisecond
	opts.Messages = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("endless") {
			endless.ServeHTTP(w, r)
			return
		}
		finite.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, opts) }()

	type result struct {
		body string
		err  error
	}
	stream := func(q string) <-chan result {
		out := make(chan result, 1)
		go func() {
			resp, err := http.Post("http://"+addr+"/v1/messages"+q, "application/json", strings.NewReader("{}"))
			if err != nil {
				out <- result{err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(bufio.NewReader(resp.Body))
			out <- result{string(b), err}
		}()
		return out
	}
	a, b := stream(""), stream("?endless")
	<-entered
	<-entered
	cancel()
	// The listener closes at once: new connections are refused.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts connections after shutdown began")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ra := <-a
	if ra.err != nil || !strings.Contains(ra.body, "event: done") || strings.Count(ra.body, "event: ping") != 5 {
		t.Errorf("the finite stream was not delivered whole: %q, %v", ra.body, ra.err)
	}
	rb := <-b
	if strings.Contains(rb.body, "event: done") || !strings.Contains(rb.body, "event: ping") {
		t.Errorf("the endless stream = %q, %v: want some pings then a cut", rb.body, rb.err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	select {
	case cause := <-sawCancel:
		if !errors.Is(cause, errShutdown) {
			t.Errorf("the endless stream's handler saw %v, want the shutdown cause", cause)
		}
	default:
		t.Error("the endless stream's handler never saw its context cancelled")
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if !obs.draining || obs.opened != 2 || obs.streams["messages"] != 0 {
		t.Errorf("observer: draining=%v opened=%d open=%v", obs.draining, obs.opened, obs.streams)
	}
}

// A handler's httplog.Annotate lands on the request's one access-log line,
// bounded to maxLogExtras attributes.
func TestAccessLogAnnotations(t *testing.T) {
	tests := []struct {
		name  string
		attrs int
		want  int
	}{
		{"none", 0, 0},
		{"some", 3, 3},
		{"past the bound", maxLogExtras + 4, maxLogExtras},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, nil))
			h := accessLog(log, nil, "/metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for i := range tt.attrs {
					// Each call adds one, as handlers that annotate in steps do.
					if !httplog.Annotate(w, slog.Int(fmt.Sprintf("extra%d", i), i)) {
						t.Error("Annotate found no access logger")
					}
				}
				w.WriteHeader(http.StatusTeapot)
			}))
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/v1/search?q=secret", nil))
			line := buf.String()
			if strings.Count(line, "\n") != 1 || !strings.Contains(line, "msg=request") || !strings.Contains(line, "status=418") {
				t.Fatalf("want one access line with status 418, got %q", line)
			}
			if strings.Contains(line, "secret") {
				t.Errorf("the query string was logged: %q", line)
			}
			if got := strings.Count(line, " extra"); got != tt.want {
				t.Errorf("%d extra attributes logged, want %d: %q", got, tt.want, line)
			}
		})
	}
}
