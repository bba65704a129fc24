package cli

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
)

// TestServerLogsHoldNoSecrets runs `webgate serve` at debug level and
// drives each refusal path that names a URL or query holding a secret:
// the emulated web_fetch (whose warning logged the whole URL, token
// included), the emulated web_search, the JSON API's fetch and search,
// and MCP's web_fetch. The audit log redacts what it records; the server
// log must too, whichever line the secret would reach.
func TestServerLogsHoldNoSecrets(t *testing.T) {
	const token = "ghp_R8xQ2mZ7vK4nW1tY6pL3sD9fH5jB0cA2eG7u"
	secretURL := "https://example.com/repo/archive.zip?access_token=" + token
	upstream := up.New(t,
		up.Send(up.Message("tool_use", up.Usage{Input: 50, Output: 20},
			up.ToolUse("toolu_1", "web_fetch", `{"url":"`+secretURL+`"}`),
			up.ToolUse("toolu_2", "web_search", `{"query":"why does `+token+` fail"}`))),
		up.Send(up.Message("end_turn", up.Usage{Input: 90, Output: 10}, up.Text("Both were refused."))),
	)
	cfg := writeConfig(t, "upstream:\n  base_url: \""+upstream.URL+"\"\n  web_search: {fast_path: false}\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"--config", cfg, "--log-level", "debug", "serve", "--listen", "127.0.0.1:0"}, IO{
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
	post := func(path, ctype, body string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	get := func(path string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	msgs := post("/v1/messages", "application/json", `{"model":"claude-x","max_tokens":100,"messages":[{"role":"user","content":"Get `+secretURL+` please"}],`+
		`"tools":[{"type":"web_fetch_20250910","name":"web_fetch"},{"type":"web_search_20250305","name":"web_search"}]}`)
	if !strings.Contains(msgs, "Both were refused.") {
		t.Fatalf("emulated turn: %s", msgs)
	}
	get("/v1/fetch?url=" + url.QueryEscape(secretURL))
	get("/v1/search?q=" + url.QueryEscape("why does "+token+" fail"))
	post("/v1/fetch", "application/json", `{"urls":["`+secretURL+`"]}`)
	post("/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"web_fetch","arguments":{"url":"`+secretURL+`"}}}`)
	post("/mcp", "application/json", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"why does `+token+` fail"}}}`)

	cancel()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
	log := stderr.String()
	if !strings.Contains(log, "emulated web fetch failed") {
		t.Fatalf("the refusal path under test did not log:\n%s", log)
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, token) || strings.Contains(line, token[4:20]) {
			t.Errorf("a log line holds the secret:\n%s", line)
		}
	}
}
