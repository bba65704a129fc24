package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stdioSession serves New's server over StdioTransport on pipes and
// returns a line sender and an answer reader.
func stdioSession(t *testing.T, maxLine int) (send func(string), next func() any) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := StdioTransport(inR, outW, nil).(*stdio)
	tr.maxLine = maxLine
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = New(Options{Searcher: &fakeSearcher{fn: results(1)}, Fetcher: &fakeGetter{}}).Run(ctx, tr)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); cancel(); <-done })
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send = func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next = func() any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the session ended")
			}
			var m any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %q", l)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatal("no answer within 20s")
		}
		return nil
	}
	return send, next
}

func initialize(send func(string), next func() any, version string) {
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestStdioLongLine: a line over the limit is answered with -32600 and
// dropped without being held whole; the session goes on.
func TestStdioLongLine(t *testing.T) {
	send, next := stdioSession(t, 4096)
	initialize(send, next, "2025-11-25")
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 100_000) + `"}}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if m, _ := next().(map[string]any); m["id"] != nil || m["error"] == nil || m["error"].(map[string]any)["code"] != float64(jsonrpc.CodeInvalidRequest) {
		t.Fatalf("long line: %v", m)
	}
	if m, _ := next().(map[string]any); m["id"] != 3.0 || m["result"] == nil {
		t.Fatalf("after the long line: %v", m)
	}
}

// TestStdioBatchesUnderOldVersions: a client that initialised with
// 2025-03-26, whose spec has servers receive batches, still gets its
// batch answered by the SDK.
func TestStdioBatchesUnderOldVersions(t *testing.T) {
	send, next := stdioSession(t, 1<<20)
	initialize(send, next, "2025-03-26")
	send(`[{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`)
	send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	// The two answers may come in either order: the SDK serves requests
	// concurrently.
	var batch []any
	var ping map[string]any
	for range 2 {
		switch a := next().(type) {
		case []any:
			batch = a
		case map[string]any:
			ping = a
		}
	}
	if len(batch) != 2 {
		t.Errorf("batch answer: %v", batch)
	}
	if ping["id"] != 4.0 {
		t.Errorf("ping after the batch: %v", ping)
	}
}

// FuzzScreenLine: any line is either passed to the SDK as a message it
// decodes, or answered with -32700 or -32600; never a panic.
func FuzzScreenLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","method":"x"}`, `[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
		`[]`, `{`, `42`, `null`, `{"jsonrpc":"2.0","id":{},"method":"a"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, line []byte, batches bool) {
		code, msg := screenLine(line, batches)
		switch code {
		case 0:
			if !json.Valid(line) {
				t.Fatalf("invalid JSON passed: %q", line)
			}
			if line[0] == '{' {
				if _, err := jsonrpc.DecodeMessage(line); err != nil {
					t.Fatalf("passed a line the SDK cannot decode: %q: %v", line, err)
				}
			} else if line[0] != '[' || !batches {
				t.Fatalf("passed a non-object: %q", line)
			}
		case jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest:
			if msg == "" {
				t.Fatal("error without a message")
			}
		default:
			t.Fatalf("code %d", code)
		}
	})
}
