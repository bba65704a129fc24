package openai

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/messages/wire"
)

// benchReply is a typical agent turn: 40 reasoning chunks, 200 text
// chunks, a tool call in 20 fragments and a usage chunk.
var benchReply = func() string {
	var b strings.Builder
	for range 40 {
		b.WriteString(sseChunk(`{"reasoning_content":"thinking about it "}`))
	}
	for range 200 {
		b.WriteString(sseChunk(`{"content":"some words of the answer "}`))
	}
	b.WriteString(sseChunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"web_search","arguments":"{\"query\":\""}}]}`))
	for range 18 {
		b.WriteString(sseChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"go "}}]}`))
	}
	b.WriteString(sseChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`))
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":900,"completion_tokens":300}}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}()

// BenchmarkStreamTranslator measures translating one reply (261 chunks)
// from Chat Completions SSE bytes to Anthropic SSE bytes.
func BenchmarkStreamTranslator(b *testing.B) {
	b.SetBytes(int64(len(benchReply)))
	b.ReportAllocs()
	for b.Loop() {
		w := wire.NewEventWriter(io.Discard, nil)
		if err := NewStreamTranslator(w, Options{Model: "claude-x"}).Run(context.Background(), strings.NewReader(benchReply)); err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}

// BenchmarkEvents measures the same reply pulled as emulate.Events (what
// the loop sees), without HTTP.
func BenchmarkEvents(b *testing.B) {
	b.SetBytes(int64(len(benchReply)))
	b.ReportAllocs()
	for b.Loop() {
		e := &events{ctx: context.Background(), reqCtx: context.Background(), cancel: func(error) {}, body: io.NopCloser(nil)}
		e.w = wire.NewEventWriter(&e.q, nil)
		e.tr = NewStreamTranslator(e.w, Options{Model: "claude-x"})
		e.rd = wire.NewReader(strings.NewReader(benchReply), 0, 0)
		n := 0
		for {
			_, err := e.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 270 {
			b.Fatalf("%d events", n)
		}
		e.Close()
	}
}
