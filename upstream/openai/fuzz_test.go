package openai

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webgate/webgate/anthropic"
)

// FuzzChunkDecoder feeds arbitrary payloads to the chunk decoder and
// arbitrary streams to the translator: neither may panic, the limits must
// hold, and every stream must end with message_stop or an error event and
// keep Anthropic's block rules.
func FuzzChunkDecoder(f *testing.F) {
	ins, _ := filepath.Glob("testdata/stream/*.in")
	for _, in := range ins {
		b, err := os.ReadFile(in)
		if err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"choices":[{"delta":{"tool_calls":[{"index":3,"function":{"arguments":"{"}}]}}]}`))
	f.Add([]byte(`{"error":{"message":"x","code":"rate_limit_exceeded"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if c, err := DecodeChunk(data); err == nil {
			for _, ch := range c.Choices {
				_ = len(ch.Delta.ToolCalls)
			}
		}
		// As a whole stream, and as one chunk's data.
		for _, stream := range [][]byte{data, append(append([]byte("data: "), bytes.ReplaceAll(data, []byte("\n"), nil)...), "\n\ndata: [DONE]\n\n"...)} {
			var out bytes.Buffer
			w := anthropic.NewEventWriter(&out, nil)
			lim := Limits{MaxLine: 4096, MaxEvent: 8192, MaxToolCalls: 4, MaxToolArgBytes: 256, MaxBufferedBytes: 256}
			tr := NewStreamTranslator(w, Options{NewID: seqIDs(), Limits: lim})
			err := tr.Run(context.Background(), bytes.NewReader(stream))
			if len(tr.tools) > lim.MaxToolCalls || tr.buffered > lim.MaxBufferedBytes {
				t.Fatalf("limits exceeded: %d tools, %d buffered", len(tr.tools), tr.buffered)
			}
			s := out.String()
			if err == nil && !strings.HasSuffix(s, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
				t.Fatalf("clean end without message_stop:\n%s", s)
			}
			if err != nil && !strings.Contains(s, "event: error\n") {
				t.Fatalf("error %v without error event:\n%s", err, s)
			}
			checkStreamRules(t, s)
		}
	})
}

// checkStreamRules is checkStream's structural part, usable on any ending.
func checkStreamRules(t *testing.T, s string) {
	t.Helper()
	rd := anthropic.NewReader(strings.NewReader(s), 0, 0)
	open, next := -1, 0
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var idx struct{ Index int }
		_ = jsonUnmarshal(ev.Data, &idx)
		switch ev.Name {
		case "content_block_start":
			if open >= 0 || idx.Index != next {
				t.Fatalf("block %d started while %d open, next %d:\n%s", idx.Index, open, next, s)
			}
			open, next = idx.Index, next+1
		case "content_block_delta", "content_block_stop":
			if idx.Index != open {
				t.Fatalf("%s for %d while %d open:\n%s", ev.Name, idx.Index, open, s)
			}
			if ev.Name == "content_block_stop" {
				open = -1
			}
		case "message_delta", "message_stop":
			if open >= 0 {
				t.Fatalf("%s with block %d open", ev.Name, open)
			}
		}
	}
}
