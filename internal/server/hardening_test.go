package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAbortedStreamBookkeeping: a stream the handler aborts (as the proxy
// does with http.ErrAbortHandler when the upstream breaks mid-stream)
// still ends its stream in the gauge, is observed, and gets its
// access-log line.
func TestAbortedStreamBookkeeping(t *testing.T) {
	obs := &fakeObserver{}
	var logBuf lockedBuffer
	opts := testOptions()
	opts.Observer = obs
	opts.Logger = slog.New(slog.NewTextHandler(&logBuf, nil))
	opts.Messages = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "event: message_start\ndata: {}\n\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	})
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/v1/messages", "application/json", strings.NewReader("{}"))
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Error("the aborted stream read as complete")
	}
	// The handler's deferred bookkeeping has run by the time the
	// connection closes; poll briefly in case the client saw it first.
	deadline := time.Now().Add(10 * time.Second)
	for {
		obs.mu.Lock()
		open, n := obs.streams["messages"], len(obs.requests)
		obs.mu.Unlock()
		line := logBuf.String()
		if open == 0 && n == 1 && strings.Contains(line, "path=/v1/messages") && strings.Contains(line, "aborted=true") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("streams open %d, requests observed %d, log %q", open, n, line)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lockedBuffer is a bytes.Buffer safe for a logger and a test at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *lockedBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *lockedBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestConcurrencyCapAnswersPerSurface: a request refused because every
// slot is taken gets its own surface's error shape: Anthropic's
// overloaded_error on the Messages surface (which its SDKs retry), the JSON
// API's on /v1/search.
func TestConcurrencyCapAnswersPerSurface(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	opts := testOptions()
	opts.MaxConcurrent = 1
	opts.Messages = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("hold") {
			close(entered)
			<-release
		}
		io.WriteString(w, "{}")
	})
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	held := make(chan error, 1)
	go func() {
		resp, err := http.Post(ts.URL+"/v1/messages?hold", "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
		}
		held <- err
	}()
	<-entered
	for _, tt := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"POST", "/v1/messages", 529, `{"type":"error","error":{"type":"overloaded_error","message":`},
		{"GET", "/v1/models", 529, `{"type":"error","error":{"type":"overloaded_error","message":`},
		{"GET", "/v1/search?q=go", 503, `"type":"overloaded"`},
	} {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.body) || resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s = %d %s (Retry-After %q), want %d with %s", tt.method, tt.path, resp.StatusCode, b, resp.Header.Get("Retry-After"), tt.status, tt.body)
		}
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
}
