package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a Stderr the server goroutine writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeAnthropicSurface runs `webgate serve` and checks that it mounts
// the Anthropic surface: Claude Code's search request is answered by the
// fast path from the configured search provider, /v1/models goes to the
// upstream, count_tokens for a search request is answered locally, and the
// batched log is written out when the server stops.
func TestServeAnthropicSurface(t *testing.T) {
	searx, calls := searxngFake(t)
	upstreamPaths := make(chan string, 4)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamPaths <- r.URL.Path
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"has_more":false}`)
	}))
	defer up.Close()
	cfg := writeConfig(t, "search: {providers: [searxng]}\nproviders:\n  searxng: {base_url: \""+searx.URL+"\"}\n"+
		"upstream:\n  base_url: \""+up.URL+"\"\n  web_search: {enrich: false}\n")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"--config", cfg, "serve", "--listen", "127.0.0.1:0"}, IO{
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr,
			Getenv: func(string) (string, bool) { return "", false },
		})
	}()
	banner := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	var base string
	for deadline := time.Now().Add(20 * time.Second); base == ""; {
		if m := banner.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", stderr)
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}

	search := `{"model":"claude-x","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"Perform a web search for the query: go generics"}],` +
		`"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":8}]}`
	resp, err := http.Post(base+"/v1/messages?beta=true", "application/json", strings.NewReader(search))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"type":"web_search_tool_result"`) ||
		!strings.Contains(string(body), "https://go.dev/doc/tutorial/generics") || !strings.HasSuffix(string(body), "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
		t.Fatalf("search request: %d\n%s", resp.StatusCode, body)
	}
	if calls.Load() != 1 {
		t.Errorf("search provider called %d times", calls.Load())
	}

	resp, err = http.Get(base + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"data":[],"has_more":false}` {
		t.Errorf("/v1/models: %d %s", resp.StatusCode, body)
	}
	if p := <-upstreamPaths; p != "/v1/models" {
		t.Errorf("upstream saw %s", p)
	}

	resp, err = http.Post(base+"/v1/messages/count_tokens", "application/json", strings.NewReader(search))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !regexp.MustCompile(`^\{"input_tokens":\d+\}$`).Match(body) {
		t.Errorf("count_tokens: %d %s", resp.StatusCode, body)
	}
	select {
	case p := <-upstreamPaths:
		t.Errorf("a search request's count_tokens went upstream (%s)", p)
	default:
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d: %s", code, stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
	// The fast path tells its search on the request's access-log line.
	if log := stderr.String(); !regexp.MustCompile(`msg=request method=POST path=/v1/messages .*status=200 .*search_took=\S+ results=2 `).MatchString(log) || !strings.Contains(log, "path=/v1/models") {
		t.Errorf("the batched log was not written out on exit:\n%s", log)
	}
}
