package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/mcpserver"
	"github.com/webgate/webgate/internal/perf/batchconn"
	"github.com/webgate/webgate/internal/search"
)

const token = "0123456789abcdef-test-token"

type fakeSearcher struct{}

func (fakeSearcher) Search(_ context.Context, q search.Query) (*search.Response, error) {
	return &search.Response{Query: q, Provider: "fake", Results: []search.Result{{Title: "Go", URL: "https://go.dev/", Provider: "fake"}}}, nil
}

type fakeGetter struct{}

func (fakeGetter) Fetch(_ context.Context, req fetch.Request) (*fetch.Result, error) {
	return &fetch.Result{URL: req.URL, FinalURL: req.URL, Status: 200, Title: "T", Content: "page"}, nil
}

func testOptions() Options {
	return Options{
		API:      httpapi.New(httpapi.Options{Searcher: fakeSearcher{}, Fetcher: fakeGetter{}}),
		MCP:      mcpserver.HTTPHandler(mcpserver.New(mcpserver.Options{Searcher: fakeSearcher{}, Fetcher: fakeGetter{}}), 1<<20, nil),
		Messages: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "messages:"+r.URL.Path) }),
	}
}

func get(t *testing.T, url string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestRoutesAndAuth(t *testing.T) {
	opts := testOptions()
	opts.AuthTokens = []string{token, "another-token-0123456789"}
	opts.AllowedOrigins = []string{"https://console.example.com"}
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	tests := []struct {
		name   string
		path   string
		hdr    []string
		status int
		body   string
	}{
		{name: "healthz is public", path: "/healthz", status: 200, body: `{"status":"ok"}`},
		{name: "openapi is public", path: "/openapi.json", status: 200, body: `"openapi": "3.1.0"`},
		{name: "search needs a token", path: "/v1/search?q=go", status: 401, body: `"type":"authentication_error"`},
		{name: "wrong token", path: "/v1/search?q=go", hdr: []string{"Authorization", "Bearer nope"}, status: 401, body: "invalid API key"},
		{name: "bearer token", path: "/v1/search?q=go", hdr: []string{"Authorization", "Bearer " + token}, status: 200, body: `"provider":"fake"`},
		{name: "second token, lower-case scheme", path: "/v1/search?q=go", hdr: []string{"Authorization", "bearer another-token-0123456789"}, status: 200},
		{name: "x-api-key", path: "/v1/search?q=go", hdr: []string{"x-api-key", token}, status: 200},
		{name: "mcp needs a token", path: "/mcp", status: 401},
		{name: "messages mounted", path: "/v1/messages", hdr: []string{"x-api-key", token}, status: 200, body: "messages:/v1/messages"},
		{name: "count_tokens mounted", path: "/v1/messages/count_tokens", hdr: []string{"x-api-key", token}, status: 200, body: "messages:/v1/messages/count_tokens"},
		{name: "models mounted", path: "/v1/models", hdr: []string{"x-api-key", token}, status: 200, body: "messages:/v1/models"},
		{name: "messages need a token", path: "/v1/messages", status: 401},
		{name: "unknown path", path: "/v1/nope", hdr: []string{"x-api-key", token}, status: 404, body: `"not_found"`},
		{name: "foreign origin", path: "/v1/search?q=go", hdr: []string{"x-api-key", token, "Origin", "https://evil.example"}, status: 403, body: `"forbidden_origin"`},
		{name: "allowed origin", path: "/v1/search?q=go", hdr: []string{"x-api-key", token, "Origin", "https://console.example.com"}, status: 200},
		{name: "loopback origin", path: "/v1/search?q=go", hdr: []string{"x-api-key", token, "Origin", "http://localhost:3000"}, status: 200},
		{name: "rebinding host", path: "/healthz", hdr: []string{"Host", "evil.example:8788"}, status: 403, body: "not allowed on a loopback listener"},
		{name: "allowed origin's host", path: "/healthz", hdr: []string{"Host", "console.example.com"}, status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, hdr := get(t, ts.URL+tt.path, tt.hdr...)
			if status != tt.status || !strings.Contains(body, tt.body) {
				t.Errorf("GET %s = %d %q, want %d containing %q", tt.path, status, body, tt.status, tt.body)
			}
			if status == 401 && hdr.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
}

func TestNoMessagesHandler(t *testing.T) {
	opts := testOptions()
	opts.Messages = nil
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	if status, body, _ := get(t, ts.URL+"/v1/messages"); status != 404 || !strings.Contains(body, "not_found") {
		t.Errorf("/v1/messages without a proxy = %d %s", status, body)
	}
}

func TestBodyLimit(t *testing.T) {
	opts := testOptions()
	opts.MaxBodyBytes = 2048
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	for _, path := range []string{"/v1/search", "/mcp"} {
		resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(`{"query":"`+strings.Repeat("a", 4096)+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("POST %s with a large body = %d, want 413", path, resp.StatusCode)
		}
	}
	// Conversations are larger than API calls: the proxy has its own cap.
	resp, err := http.Post(ts.URL+"/v1/messages", "application/json", strings.NewReader(`{"x":"`+strings.Repeat("a", 8192)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST /v1/messages with a body over the API cap = %d, want 200", resp.StatusCode)
	}
}

// TestMCPOverHTTP drives /mcp with the SDK client through the full
// middleware stack, with and without the token.
func TestMCPOverHTTP(t *testing.T) {
	opts := testOptions()
	opts.AuthTokens = []string{token}
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()

	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	_, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err == nil {
		t.Fatal("connected without a token")
	}

	hc := &http.Client{Transport: BearerTransport{Token: token, Base: http.DefaultTransport}}
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "web_search", Arguments: map[string]any{"query": "golang"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "https://go.dev/") {
		t.Errorf("web_search over HTTP = %+v", res)
	}
}

// TestConcurrencyLimit: with one slot taken, the next request is refused
// at once with 503 and Retry-After.
func TestConcurrencyLimit(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	opts := testOptions()
	opts.MaxConcurrent = 1
	opts.API = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/slow" {
			close(entered)
			<-release
		}
	})
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Get(ts.URL + "/v1/slow")
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	status, body, hdr := get(t, ts.URL+"/v1/other")
	if status != 503 || hdr.Get("Retry-After") != "1" || !strings.Contains(body, "overloaded") {
		t.Errorf("second request = %d %s (Retry-After %q)", status, body, hdr.Get("Retry-After"))
	}
	// The probes answer outside the cap: an overloaded replica is alive
	// and ready.
	for _, p := range []string{"/healthz", "/readyz"} {
		if status, body, _ := get(t, ts.URL+p); status != 200 {
			t.Errorf("%s while overloaded = %d %s", p, status, body)
		}
	}
	close(release)
	<-done
	if status, _, _ := get(t, ts.URL+"/v1/other"); status != 200 {
		t.Errorf("after release = %d", status)
	}
}

// TestGracefulShutdown: cancelling Serve's context lets the in-flight
// request finish, then Serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	opts := testOptions()
	opts.API = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, opts) }()

	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/v1/x")
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	<-entered
	cancel()
	// Shutdown must wait for the request; release it only now.
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v before the in-flight request finished", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if body := <-got; body != "finished" {
		t.Errorf("in-flight request got %q", body)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// writeCounter counts the writes made to the connections it accepts.
type writeCounter struct {
	net.Listener
	n atomic.Int64
}

func (l *writeCounter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countedConn{c, &l.n}, nil
}

type countedConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countedConn) Write(p []byte) (int, error) { c.n.Add(1); return c.Conn.Write(p) }

// TestServeGathersResponses checks Serve's wiring of package batchconn: a
// handler that asks for its 10 KB response to be gathered sends it in one
// write (net/http alone makes two), and the access log has the request by
// the time the client has the answer. (Without gathering net/http sends
// most of a large body while the handler still runs, so the client may see
// it before the log does; only gathered answers are checked for that.)
func TestServeGathersResponses(t *testing.T) {
	body := bytes.Repeat([]byte("data: {}\n\n"), 1000)
	logs := &syncBuffer{}
	opts := testOptions()
	opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	opts.API = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if strings.HasPrefix(r.URL.Path, "/v1/gather/") {
			batchconn.Gather(r.Context())
		}
		w.Write(body)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &writeCounter{Listener: ln}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, counted, opts) }()
	defer func() { cancel(); <-served }()
	for _, tc := range []struct {
		path   string
		writes int64
	}{{"/v1/plain/0", 2}, {"/v1/gather/1", 1}, {"/v1/plain/2", 2}, {"/v1/gather/3", 1}} {
		before := counted.n.Load()
		resp, err := http.Get("http://" + ln.Addr().String() + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Equal(b, body) {
			t.Fatalf("%q: body of %d bytes", tc.path, len(b))
		}
		if n := counted.n.Load() - before; n != tc.writes {
			t.Errorf("%q: %d writes, want %d", tc.path, n, tc.writes)
		}
		if got, _ := logs.snapshot(); tc.writes == 1 && !strings.Contains(got, "path="+tc.path+" ") {
			t.Errorf("%q: answer arrived before the access log had the request:\n%s", tc.path, got)
		}
	}
}
