package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

// safety bounds a wait that only a bug can make long; tests never assert
// on elapsed time, this just turns a would-be hang into a failure.
const safety = 20 * time.Second

// seen is what the fake upstream received.
type seen struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   []byte
}

func recordingUpstream(t *testing.T, status int, respHeader map[string]string, respBody string) (*httptest.Server, chan seen) {
	t.Helper()
	ch := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ch <- seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), b}
		for k, v := range respHeader {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, respBody)
	}))
	t.Cleanup(srv.Close)
	return srv, ch
}

func TestForwardByteFaithful(t *testing.T) {
	// Odd spacing, key order and unknown members must survive untouched;
	// it mentions web_search so the proxy parses it, but it is a real
	// conversation (two turns) and, with emulation off, goes upstream.
	body := []byte(`{ "model":"claude-x",  "max_tokens":5,"messages":[{"role":"user","content":"Perform a web search for the query: q"},{"role":"assistant","content":"hi"},{"role":"user","content":"more"}],
  "tools":[{"type":"web_search_20250305","name":"web_search"}],"future_field":{"z":1,"a":[1e3, "\u00e9"]}}`)
	errBody := `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`
	tests := []struct {
		name       string
		apiKey     string
		wantKey    string
		wantNoAuth bool
	}{
		{name: "client credentials forwarded", wantKey: "sk-client"},
		{name: "configured key replaces client's", apiKey: "sk-upstream", wantKey: "sk-upstream", wantNoAuth: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			up, got := recordingUpstream(t, http.StatusTooManyRequests, map[string]string{
				"Content-Type": "application/json", "Retry-After": "7", "request-id": "req_up", "anthropic-ratelimit-requests-remaining": "0",
			}, errBody)
			h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: up.URL + "/prefix/", APIKey: tt.apiKey, Emulate: "never"}})
			srv := httptest.NewServer(h)
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages?beta=true", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("anthropic-version", "2023-06-01")
			req.Header.Set("anthropic-beta", "claude-code-20250219,interleaved-thinking-2025-05-14")
			req.Header.Set("x-api-key", "sk-client")
			req.Header.Set("Authorization", "Bearer sk-client")
			req.Header.Set("X-App", "cli")
			req.Header.Set("Connection", "X-Hop")
			req.Header.Set("X-Hop", "must not pass")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			rb, _ := io.ReadAll(resp.Body)

			s := <-got
			if s.Method != http.MethodPost || s.Path != "/prefix/v1/messages" || s.RawQuery != "beta=true" {
				t.Errorf("upstream saw %s %s?%s", s.Method, s.Path, s.RawQuery)
			}
			if !bytes.Equal(s.Body, body) {
				t.Errorf("body changed in transit:\n got %s\nwant %s", s.Body, body)
			}
			for _, k := range []string{"anthropic-version", "anthropic-beta", "X-App", "Content-Type"} {
				if s.Header.Get(k) != req.Header.Get(k) {
					t.Errorf("header %s = %q, want %q", k, s.Header.Get(k), req.Header.Get(k))
				}
			}
			if s.Header.Get("X-Hop") != "" {
				t.Error("header named by Connection was forwarded")
			}
			if s.Header.Get("x-api-key") != tt.wantKey {
				t.Errorf("x-api-key = %q, want %q", s.Header.Get("x-api-key"), tt.wantKey)
			}
			if (s.Header.Get("Authorization") == "") != tt.wantNoAuth {
				t.Errorf("Authorization = %q", s.Header.Get("Authorization"))
			}
			if resp.StatusCode != http.StatusTooManyRequests || string(rb) != errBody {
				t.Errorf("upstream error not passed through: %d %s", resp.StatusCode, rb)
			}
			for _, k := range []string{"Retry-After", "request-id", "anthropic-ratelimit-requests-remaining"} {
				if resp.Header.Get(k) == "" {
					t.Errorf("response header %s dropped", k)
				}
			}
		})
	}
}

// TestForwardStreamsIncrementally proves the proxy neither buffers nor
// batches: the fake upstream sends event N+1 only after the test client has
// received event N through the proxy. A buffering proxy would deadlock
// (caught by the safety timeout), whatever the machine's speed.
func TestForwardStreamsIncrementally(t *testing.T) {
	const n = 5
	received := make(chan int)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := range n {
			fmt.Fprintf(w, "event: ping\ndata: {\"type\":\"ping\",\"n\":%d}\n\n", i)
			if err := rc.Flush(); err != nil {
				return
			}
			select {
			case got := <-received:
				if got != i {
					t.Errorf("client acknowledged %d, want %d", got, i)
					return
				}
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer up.Close()
	h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: up.URL}})
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages", strings.NewReader(`{"model":"m","stream":true}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := wire.NewReader(resp.Body, 0, 0)
	for i := range n {
		ev, err := rd.Next()
		if err != nil {
			t.Fatalf("event %d: %v (a buffering proxy stalls here)", i, err)
		}
		var p struct{ N int }
		if err := json.Unmarshal(ev.Data, &p); err != nil || p.N != i {
			t.Fatalf("event %d: data %s", i, ev.Data)
		}
		received <- i
	}
}

// TestForwardCancelPropagates checks that a client disconnect cancels the
// upstream request: the upstream handler's context must end.
func TestForwardCancelPropagates(t *testing.T) {
	upCanceled := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: ping\ndata: {\"type\":\"ping\"}\n\n")
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
		close(upCanceled)
	}))
	defer up.Close()
	h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{BaseURL: up.URL}})
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages", strings.NewReader(`{"stream":true}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wire.NewReader(resp.Body, 0, 0).Next(); err != nil {
		t.Fatalf("first event: %v", err)
	}
	cancel()
	resp.Body.Close()
	select {
	case <-upCanceled:
	case <-time.After(safety):
		t.Fatal("upstream request was not cancelled after the client went away")
	}
}

func TestModelsAndCountTokens(t *testing.T) {
	up, got := recordingUpstream(t, http.StatusOK, map[string]string{"Content-Type": "application/json"}, `{"data":[]}`)
	searcher := results(goResults...)
	h := newHandler(t, Options{Searcher: searcher, Upstream: config.Upstream{BaseURL: up.URL}})

	req := httptest.NewRequest(http.MethodGet, "/v1/models?limit=2", nil)
	req.Header.Set("x-api-key", "k")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if s := <-got; rec.Code != 200 || s.Method != "GET" || s.Path != "/v1/models" || s.RawQuery != "limit=2" || rec.Body.String() != `{"data":[]}` {
		t.Errorf("models: %d %s, upstream saw %+v", rec.Code, rec.Body, s)
	}

	plain := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if rec := post(t, h, "/v1/messages/count_tokens", nil, plain); rec.Code != 200 {
		t.Errorf("count_tokens forward: %d", rec.Code)
	}
	if s := <-got; s.Path != "/v1/messages/count_tokens" || !bytes.Equal(s.Body, plain) {
		t.Errorf("count_tokens not forwarded faithfully: %+v", s)
	}

	rec = post(t, h, "/v1/messages/count_tokens", nil, oldStyleBody("golang", false, nil))
	var ct struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &ct); err != nil || rec.Code != 200 || ct.InputTokens <= 0 {
		t.Errorf("local count_tokens: %d %s", rec.Code, rec.Body)
	}
	select {
	case s := <-got:
		t.Errorf("search-execution count_tokens went upstream: %+v", s)
	default:
	}
	if searcher.calls() != 0 {
		t.Error("count_tokens ran a search")
	}
}

func TestFastPathDisabledForwards(t *testing.T) {
	up, got := recordingUpstream(t, http.StatusOK, nil, `{}`)
	off := false
	searcher := results(goResults...)
	h := newHandler(t, Options{Searcher: searcher, Upstream: config.Upstream{BaseURL: up.URL, Emulate: "never", WebSearch: config.UpstreamWebSearch{FastPath: &off}}})
	body := oldStyleBody("golang", true, nil)
	post(t, h, "/v1/messages", nil, body)
	if s := <-got; !bytes.Equal(s.Body, body) {
		t.Errorf("forwarded body differs")
	}
	if searcher.calls() != 0 {
		t.Error("searched with the fast path off")
	}
}

func TestHTTPErrors(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(), Upstream: config.Upstream{MaxBodyBytes: 2048}})
	tests := []struct {
		name       string
		method     string
		path       string
		body       io.Reader
		status     int
		errType    string
		chunkedLen bool
	}{
		{"body too large", "POST", "/v1/messages", strings.NewReader(strings.Repeat("x", 4096)), 413, "request_too_large", false},
		{"chunked body too large", "POST", "/v1/messages", io.MultiReader(strings.NewReader(strings.Repeat("x", 4096))), 413, "request_too_large", true},
		{"unknown path", "GET", "/v1/complete", nil, 404, "not_found_error", false},
		{"upstream unreachable", "POST", "/v1/messages", strings.NewReader(`{"model":"m"}`), 502, "api_error", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, tt.body)
			if tt.chunkedLen {
				req.ContentLength = -1
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var e wire.ErrorResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				t.Fatalf("error body %q: %v", rec.Body, err)
			}
			if rec.Code != tt.status || e.Type != "error" || e.Error.Type != tt.errType {
				t.Errorf("got %d %+v, want %d %s", rec.Code, e, tt.status, tt.errType)
			}
		})
	}
}

// TestFastPathPingsWhileSearching: the search blocks until the client has
// received a ping, so the test passes only if pings flow during a search.
func TestFastPathPingsWhileSearching(t *testing.T) {
	release := make(chan struct{})
	searcher := &fakeSearcher{fn: func(ctx context.Context, q search.Query) (*search.Response, error) {
		select {
		case <-release:
			return &search.Response{Provider: "fake", Results: goResults[:1]}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	up := noEnrich()
	up.WebSearch.PingInterval = time.Millisecond
	h := newHandler(t, Options{Searcher: searcher, Upstream: up})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), safety)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(oldStyleBody("golang", true, nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := wire.NewReader(resp.Body, 0, 0)
	var names []string
	released := false
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %v: %v", names, err)
		}
		if ev.Name == "ping" {
			if !released {
				close(release)
				released = true
			}
			continue
		}
		names = append(names, ev.Name)
	}
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_stop", "content_block_start"}
	if len(names) < len(want) || !cmp.Equal(names[:len(want)], want) || names[len(names)-1] != "message_stop" {
		t.Errorf("event sequence %v", names)
	}
}

// TestFastPathClientCancel: a client that leaves mid-search cancels the
// search; the searcher's context must end.
func TestFastPathClientCancel(t *testing.T) {
	started := make(chan struct{})
	canceled := make(chan struct{})
	var once sync.Once
	searcher := &fakeSearcher{fn: func(ctx context.Context, q search.Query) (*search.Response, error) {
		once.Do(func() { close(started) })
		<-ctx.Done()
		close(canceled)
		return nil, ctx.Err()
	}}
	h := newHandler(t, Options{Searcher: searcher, Upstream: noEnrich()})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(oldStyleBody("golang", true, nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	if _, err := br.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(safety):
		t.Fatal("search never started")
	}
	cancel()
	resp.Body.Close()
	select {
	case <-canceled:
	case <-time.After(safety):
		t.Fatal("search was not cancelled after the client went away")
	}
}

// TestEnrichDeadline: when the enrichment deadline passes, the pages
// already collected are kept, the page still loading is dropped, and its
// fetch is cancelled rather than left running. The deadline is a manual
// cancellation at a known point, so the test does not depend on timing.
func TestEnrichDeadline(t *testing.T) {
	exited, started := make(chan string, 3), make(chan string, 3)
	f := &fakeFetcher{pages: goPages, block: map[string]bool{"https://example.com/go/generics": true}, exited: exited, started: started}
	collected := make(chan int, 3)
	testHookEnrichPage = func(i int) { collected <- i }
	defer func() { testHookEnrichPage = nil }()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan map[int][]string, 1)
	go func() { out <- enrich(ctx, f, slog.New(slog.DiscardHandler), "golang generics", goResults, 3, 2) }()
	for range 2 {
		select {
		case <-collected:
		case <-time.After(safety):
			t.Fatal("fast pages were never collected")
		}
	}
	// Every fetch must have begun before the deadline: one still waiting
	// for its turn when ctx ends is skipped, not fetched (fetch.Each), and
	// on a loaded machine the blocked one's goroutine may not have run yet.
	for range 3 {
		select {
		case <-started:
		case <-time.After(safety):
			t.Fatal("the fetches never began")
		}
	}
	cancel() // the deadline
	var got map[int][]string
	select {
	case got = <-out:
	case <-time.After(safety):
		t.Fatal("enrich did not return at the deadline")
	}
	if len(got[0]) == 0 || len(got[1]) == 0 || got[2] != nil {
		t.Errorf("passages by result: %v", got)
	}
	for range 3 {
		select {
		case <-exited:
		case <-time.After(safety):
			t.Fatal("a fetch outlived the enrichment deadline")
		}
	}
}

// plainWriter hides the recorder's Flush, like a middleware wrapper that
// does not implement http.Flusher.
type plainWriter struct{ w http.ResponseWriter }

func (p plainWriter) Header() http.Header         { return p.w.Header() }
func (p plainWriter) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p plainWriter) WriteHeader(code int)        { p.w.WriteHeader(code) }

func TestFastPathWithoutFlusher(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	rec := httptest.NewRecorder()
	h.ServeHTTP(plainWriter{rec}, httptest.NewRequest(http.MethodPost, "/v1/messages", bytes.NewReader(oldStyleBody("golang", true, nil))))
	evs := events(t, rec.Body)
	if len(evs) == 0 || evs[len(evs)-1].Name != "message_stop" {
		t.Fatalf("stream cut short without a flusher: %d events", len(evs))
	}
}
