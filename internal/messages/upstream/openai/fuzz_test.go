package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/webgate/webgate/internal/messages/upstream/openai/chatcheck"
	"github.com/webgate/webgate/internal/messages/wire"
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
	for _, sec := range transcriptSections(f, "upstream") {
		if _, body, ok := bytes.Cut(sec, []byte("\n\n")); ok {
			f.Add(body)
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
			w := wire.NewEventWriter(&out, nil)
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

// checkStreamRules checks the rules every stream keeps, however it
// ends: each event's type member is its name, at most one block is open,
// block indices are continuous, and no message_delta or message_stop comes
// while a block is open. It returns the event names.
func checkStreamRules(t *testing.T, s string) []string {
	t.Helper()
	rd := wire.NewReader(strings.NewReader(s), 0, 0)
	var names []string
	open, next := -1, 0
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, ev.Name)
		if typ, err := wire.DecodeType(ev.Data); err != nil || typ != ev.Name {
			t.Fatalf("event %s has type %q (%v)", ev.Name, typ, err)
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

// transcriptSections returns the named section of every transcript.
func transcriptSections(f *testing.F, name string) [][]byte {
	files, _ := filepath.Glob("testdata/model/*.txtar")
	var out [][]byte
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range ar.Files {
			if s.Name == name {
				out = append(out, s.Data)
			}
		}
	}
	return out
}

// FuzzToChat feeds arbitrary request bodies to the request translator: it
// must not panic, every refusal must be typed (so the proxy answers 400),
// and every translation must encode to JSON that keeps Chat Completions'
// basic rules, the same way each time.
func FuzzToChat(f *testing.F) {
	for _, b := range transcriptSections(f, "request.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"model":"claude-x","system":[{"type":"text","text":"s"}],"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"webgate-openai:reasoning"},{"type":"tool_use","id":"a","name":"f","input":{"x":[1]}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":[{"type":"document","source":{"type":"text","data":"d"}},{"type":"search_result","source":"https://x","title":"t","content":[{"type":"text","text":"c"}]}]}]}]}`))
	f.Add([]byte(`{"model":"m","tool_choice":{"type":"tool","name":"f"},"tools":[{"name":"f","input_schema":null}],"messages":[{"role":"user","content":[{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBER"}}]}]}`))
	models := ModelMap{{Pattern: "claude-*", Model: "mapped"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := wire.DecodeRequest(body)
		if err != nil {
			return
		}
		out, err := ToChat(context.Background(), req, Options{Models: models})
		if err != nil {
			if !errors.Is(err, wire.ErrInvalidRequest) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		b, err := json.Marshal(out)
		if err != nil || !json.Valid(b) {
			t.Fatalf("encoding %+v: %v", out, err)
		}
		if err := chatcheck.Strict(b); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		again, _ := ToChat(context.Background(), req, Options{Models: models})
		if b2, _ := json.Marshal(again); !bytes.Equal(b, b2) {
			t.Fatalf("not deterministic:\n%s\n%s", b, b2)
		}
		if out.Model != models.Map(req.Model) {
			t.Fatalf("model %q for %q", out.Model, req.Model)
		}
		for i, m := range out.Messages {
			switch {
			case m.Role == "system" && i != 0:
				t.Fatalf("system message at %d", i)
			case m.Role != "system" && m.Role != "user" && m.Role != "assistant" && m.Role != "tool":
				t.Fatalf("role %q", m.Role)
			case m.Role == "tool" && m.ToolCallID == "" && !bytes.Contains(body, []byte(`"tool_result"`)):
				t.Fatalf("tool message without a tool_result")
			}
			for _, c := range m.ToolCalls {
				if !json.Valid([]byte(c.Function.Arguments)) {
					t.Fatalf("arguments %q", c.Function.Arguments)
				}
			}
			if (m.Reasoning != nil || m.ReasoningContent != nil) && (m.Role != "assistant" || len(m.ToolCalls) == 0) {
				t.Fatalf("reasoning replayed on %+v", m)
			}
		}
	})
}
