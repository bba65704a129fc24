package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestMCPStdioSurvivesMalformedLines runs `webgate mcp` and sends, after
// the handshake, each kind of bad line followed by a valid request. Every
// bad line gets its JSON-RPC error with a null id (JSON-RPC 2.0 section
// 5: "If there was an error in detecting the id in the Request object
// (e.g. Parse error/Invalid Request), it MUST be Null"; section 5.1:
// -32700 for invalid JSON, -32600 for JSON that is not a Request), and
// the request after it is still answered. Before, the first malformed
// line ended the session: no error was sent and nothing after it was
// answered.
func TestMCPStdioSurvivesMalformedLines(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"mcp"}, IO{Stdin: inR, Stdout: outW, Stderr: io.Discard,
			Getenv: func(string) (string, bool) { return "", false }})
		outW.Close()
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatalf("write %q: %v", s, err)
		}
	}
	type answer struct {
		ID    any `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	next := func() answer {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server closed its output")
			}
			var a answer
			if err := json.Unmarshal([]byte(l), &a); err != nil {
				t.Fatalf("output line is not JSON: %q", l)
			}
			return a
		case <-time.After(20 * time.Second):
			t.Fatal("no answer within 20s")
		}
		return answer{}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if a := next(); a.ID != 1.0 || a.Error != nil {
		t.Fatalf("initialize: %+v", a)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	bad := []struct {
		line string
		code int
	}{
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"`, -32700}, // cut short
		{`not json at all`, -32700},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"} trailing`, -32700},
		{"\xff\xfe{}", -32700},
		{`{"jsonrpc":"1.0","method":"tools/list"}`, -32600},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, -32600},
		{`42`, -32600},
		{`[]`, -32600},
		{`[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`, -32600}, // no batches since MCP 2025-06-18
	}
	for i, b := range bad {
		id := 100 + i
		send(b.line)
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id))
		a := next()
		if a.Error == nil || a.Error.Code != b.code || a.ID != nil {
			t.Errorf("after %q: got %+v, want error %d with id null", b.line, a, b.code)
			if a.ID == float64(id) {
				continue // the error was not sent, but the session lives
			}
		} else {
			a = next()
		}
		if a.ID != float64(id) || a.Error != nil || !strings.Contains(string(a.Result), `"web_search"`) {
			t.Fatalf("the request after %q was not answered: %+v", b.line, a)
		}
	}
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("webgate mcp exited %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("webgate mcp did not exit after stdin closed")
	}
}
