package openai

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/messages/wire"
)

func chunkLine(delta string) string {
	return `data: {"id":"c","model":"m","choices":[{"index":0,"delta":` + delta + `}]}` + "\n\n"
}

func TestStreamEdgeCases(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		in       string
		wantErr  string // substring of the error event; "" = clean end
		contains []string
	}{{
		name: "text after an unfinished tool call flushes it, then a cut-off reply may end so",
		in: chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}`) +
			chunkLine(`{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{}"}}]}`) +
			chunkLine(`{"content":"after"}`) + `data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n",
		contains: []string{`"index":1,"content_block":{"type":"tool_use","id":"b"`, `"index":2,"content_block":{"type":"text"`, `"stop_reason":"max_tokens"`},
	}, {
		name: "an unfinished tool call is an error unless the reply was cut off",
		in: chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}`) +
			chunkLine(`{"content":"after"}`) + `data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n",
		wantErr: `tool call \"f\" ended before its arguments were complete`,
	}, {
		name:    "arguments that are not an object",
		in:      chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"[1]"}}]}`),
		wantErr: `tool call \"f\" arguments are not a valid JSON object`,
	}, {
		name:    "arguments that turn invalid mid-way",
		in:      chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"a\":"}}]}`) + chunkLine(`{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}`),
		wantErr: `are not a valid JSON object`,
	}, {
		name: "fragment after closed block",
		in: chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}`) +
			chunkLine(`{"tool_calls":[{"index":0,"function":{"arguments":"  "}}]}`) +
			chunkLine(`{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}`),
		wantErr: "after its block was closed",
	}, {
		name:    "index out of range",
		opts:    Options{Limits: Limits{MaxToolCalls: 2}},
		in:      chunkLine(`{"tool_calls":[{"index":2,"id":"a","function":{"name":"f"}}]}`),
		wantErr: "index 2 out of range",
	}, {
		name:    "negative index",
		in:      chunkLine(`{"tool_calls":[{"index":-1,"id":"a","function":{"name":"f"}}]}`),
		wantErr: "out of range",
	}, {
		name: "too many unindexed calls",
		opts: Options{Limits: Limits{MaxToolCalls: 1}},
		in: chunkLine(`{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]}`) +
			chunkLine(`{"tool_calls":[{"id":"b","function":{"name":"g","arguments":"{}"}}]}`),
		wantErr: "too many tool calls",
	}, {
		name:    "arguments too large",
		opts:    Options{Limits: Limits{MaxToolArgBytes: 8}},
		in:      chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"abcdefgh\":1}"}}]}`),
		wantErr: "too large",
	}, {
		name: "buffered arguments bounded",
		opts: Options{Limits: Limits{MaxBufferedBytes: 10}},
		in: chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{"}}]}`) +
			chunkLine(`{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{\"long-arg\":1"}}]}`),
		wantErr: "buffered",
	}, {
		name:    "tool call never named",
		in:      chunkLine(`{"tool_calls":[{"index":0,"id":"a","function":{"arguments":"{}"}}]}`) + `data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n",
		wantErr: "no function name",
	}, {
		name:    "line too long",
		opts:    Options{Limits: Limits{MaxLine: 64}},
		in:      chunkLine(`{"content":"` + strings.Repeat("x", 100) + `"}`),
		wantErr: "line too long",
	}, {
		name:    "error event",
		in:      "event: error\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_overloaded\"}}\n\n",
		wantErr: `"type":"overloaded_error","message":"overloaded"`,
	}, {
		name:     "other choices ignored, model override",
		opts:     Options{Model: "claude-x"},
		in:       `data: {"id":"c","model":"m","choices":[{"index":1,"delta":{"content":"no"}},{"index":0,"delta":{"content":"yes"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n",
		contains: []string{`"model":"claude-x"`, `"text":"yes"`},
	}, {
		name:     "openai refusal delta",
		in:       chunkLine(`{"refusal":"I can't."}`) + `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n",
		contains: []string{`"text":"I can't."`, `"stop_reason":"refusal"`},
	}, {
		// Nothing but [DONE] is a broken upstream, as an Anthropic stream
		// of only message_stop is: not an empty, finished message.
		name:    "empty stream with DONE",
		in:      "data: [DONE]\n\n",
		wantErr: "without a reply",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := translate(t, context.Background(), strings.NewReader(tt.in), tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(got, tt.wantErr) {
					t.Fatalf("err %v, output:\n%s\nwant error event containing %q", err, got, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("err %v, output:\n%s", err, got)
			}
			checkStream(t, got, tt.wantErr != "")
			for _, c := range tt.contains {
				if !strings.Contains(got, c) {
					t.Errorf("output lacks %q:\n%s", c, got)
				}
			}
		})
	}
}

// blockingBody yields its chunks, then blocks until closed, like an HTTP
// body whose upstream went quiet.
type blockingBody struct {
	r      io.Reader
	closed chan struct{}
}

func (b *blockingBody) Read(p []byte) (int, error) {
	if n, err := b.r.Read(p); err != io.EOF {
		return n, err
	}
	<-b.closed
	return 0, errors.New("body closed")
}

func (b *blockingBody) Close() error { close(b.closed); return nil }

func TestStreamContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	body := &blockingBody{r: strings.NewReader(chunkLine(`{"content":"hi"}`)), closed: make(chan struct{})}
	w := wire.NewEventWriter(io.Discard, nil)
	tr := NewStreamTranslator(w, Options{})
	done := make(chan error, 1)
	go func() { done <- tr.Run(ctx, body) }()
	cancel()
	if err := <-done; err == nil || !errors.Is(err, ErrUpstream) {
		t.Fatalf("Run after cancel = %v", err)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n--; f.n < 0 {
		return 0, errors.New("client gone")
	}
	return len(p), nil
}

func TestStreamWriterError(t *testing.T) {
	in := strings.Repeat(chunkLine(`{"content":"x"}`), 10) + "data: [DONE]\n\n"
	w := wire.NewEventWriter(&failWriter{n: 3}, nil)
	err := NewStreamTranslator(w, Options{}).Run(context.Background(), strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "client gone") {
		t.Fatalf("err = %v", err)
	}
}

func TestObjectScanner(t *testing.T) {
	for in, want := range map[string]bool{
		`{}`: true, `{"a":"}"}`: true, `{"a":"\"}"`: false, `{"a":{"b":[1,2]}}`: true,
		`{"a":`: false, `[1]`: false, `"{}"`: false, `1`: false, `  {"a":"\\"}`: true,
		`{"n":-0.5e+10,"t":true,"f":false,"z":null,"u":"\u00e9"} `: true,
	} {
		// Byte by byte and whole must agree.
		var whole, split objectScanner
		whole.feed([]byte(in))
		for i := range len(in) {
			split.feed([]byte{in[i]})
		}
		if whole.complete != want || split.complete != want {
			t.Errorf("%s: complete %v/%v, want %v", in, whole.complete, split.complete, want)
		}
	}
}

func TestRandomID(t *testing.T) {
	a, b := RandomID("toolu_"), RandomID("toolu_")
	if a == b || !strings.HasPrefix(a, "toolu_") || len(a) != len("toolu_")+24 {
		t.Errorf("ids %q %q", a, b)
	}
}

func TestErrorType(t *testing.T) {
	for _, c := range []struct {
		e    ChatError
		want string
	}{
		{ChatError{Type: "rate_limit_exceeded"}, "rate_limit_error"},
		{ChatError{Code: []byte(`429`)}, "rate_limit_error"},
		{ChatError{Type: "server_overloaded"}, "overloaded_error"},
		{ChatError{Code: []byte(`"context_length_exceeded"`)}, "invalid_request_error"},
		{ChatError{Type: "invalid_request_error"}, "invalid_request_error"},
		{ChatError{Code: []byte(`401`)}, "authentication_error"},
		{ChatError{Type: "server_error"}, "api_error"},
	} {
		if got := errorType(&c.e); got != c.want {
			t.Errorf("errorType(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
	if (ThinkingBlock{}).BlockType() != "thinking" || (ToolUseBlock{}).BlockType() != "tool_use" {
		t.Error("block types")
	}
}

func TestErrorEventNotJSON(t *testing.T) {
	got, err := translate(t, context.Background(), strings.NewReader("event: error\ndata: "+strings.Repeat("z", 600)+"\n\n"), Options{})
	if err == nil || !strings.Contains(got, `"message":"upstream error: zzz`) || strings.Contains(got, strings.Repeat("z", 513)) {
		t.Fatalf("err %v, got %s", err, got)
	}
}
