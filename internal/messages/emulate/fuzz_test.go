package emulate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/messages/wire"
)

// FuzzLoop feeds the emulation loop random upstream event sequences,
// over several upstream calls (a server tool call in one makes the loop
// call again), streaming and not. Whatever the upstream sends, the turn
// must return (no hang), not panic, and either hand the caller an error
// to answer with, having written nothing, or write a well-formed answer
// (emulatetest.CheckAnswer). Each input byte picks an event from an
// alphabet covering the Messages API's events, in any order, with
// indices that may repeat or refer to nothing, truncated or unknown
// events, and errors.
//
//	go test ./internal/messages/emulate -run '^$' -fuzz FuzzLoop -fuzztime 60s
func FuzzLoop(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 2, 0, 6, 0, 8, 0, 9, 0, 10, 0},       // a text reply
		{1, 0, 0, 0, 2, 0, 6, 1, 8, 0, 9, 0, 10, 0}, // ping first
		{0, 10, 0}, // only a stop
		{0, 0, 3, 0, 7, 0, 7, 1, 8, 0, 9, 1, 10, 0, 15, 0, 0, 0, 2, 0, 6, 1, 9}, // a search, then an answer
		{0, 0, 2, 0, 2, 0, 6, 0, 11, 0},                                         // duplicate index, then an error
		{0, 0, 2, 0, 13, 0, 12, 0, 14, 0, 8, 0, 8, 0, 9, 2, 10, 0},              // truncated, unknown, citations
	} {
		f.Add(false, seed)
		f.Add(true, seed)
	}
	f.Fuzz(func(t *testing.T, stream bool, ops []byte) {
		if len(ops) > 512 {
			ops = ops[:512]
		}
		m := &fuzzModel{segments: segments(ops)}
		e, err := New(Options{Model: m, Toolbox: fuzzBox{}, MaxIterations: 3, PingInterval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		body := `{"model":"claude-x","max_tokens":64,"stream":` + fmt.Sprint(stream) +
			`,"tools":[{"type":"web_search_20250305","name":"web_search"},{"name":"run","input_schema":{"type":"object"}}],` +
			`"messages":[{"role":"user","content":"hi"}]}`
		turn, err := e.Prepare([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- turn.Serve(ctx, rec, http.Header{}) }()
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("the turn did not return (ops %v)", ops)
		}
		if err != nil {
			var se *StreamError
			var ue *UpstreamError
			if !errors.As(err, &se) && !errors.As(err, &ue) {
				t.Fatalf("error %v (%T) is not one the proxy answers with", err, err)
			}
			if rec.Body.Len() != 0 {
				t.Fatalf("error %v returned after writing:\n%s", err, rec.Body)
			}
			return
		}
		if _, err := emulatetest.CheckAnswer(rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
			t.Fatalf("malformed answer: %v (ops %v)\n%s", err, ops, rec.Body)
		}
	})
}

// segments splits ops into one event sequence per upstream call at each
// op 15.
func segments(ops []byte) [][]wire.Event {
	var out [][]wire.Event
	var cur []wire.Event
	for i := 0; i < len(ops); i += 2 {
		op := ops[i] % 16
		var arg byte
		if i+1 < len(ops) {
			arg = ops[i+1]
		}
		if op == 15 {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, fuzzEvent(op, arg))
	}
	return append(out, cur)
}

// fuzzEvent is event op of the alphabet, with arg choosing its index and
// details.
func fuzzEvent(op, arg byte) wire.Event {
	idx := int(arg % 4)
	ev := func(name, data string) wire.Event { return wire.Event{Name: name, Data: []byte(data)} }
	start := func(block string) wire.Event {
		return ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, idx, block))
	}
	delta := func(d string) wire.Event {
		return ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, idx, d))
	}
	switch op {
	case 0:
		return ev("message_start", `{"type":"message_start","message":{"id":"msg_up","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":3,"output_tokens":1}}}`)
	case 1:
		return ev("ping", `{"type":"ping"}`)
	case 2:
		return start(`{"type":"text","text":""}`)
	case 3:
		return start(`{"type":"tool_use","id":"toolu_s","name":"web_search","input":{}}`)
	case 4:
		return start(`{"type":"tool_use","id":"toolu_c","name":"run","input":{}}`)
	case 5:
		return start(`{"type":"thinking","thinking":"","signature":""}`)
	case 6:
		texts := []string{"Hello", " as found [1].", "[", "2] more", "", "\u00e9\u00e8"}
		b, _ := json.Marshal(texts[int(arg/4)%len(texts)])
		return delta(`{"type":"text_delta","text":` + string(b) + `}`)
	case 7:
		parts := []string{`{"query":`, `"go"}`, `}`, `[1,`, ``, `{}`}
		b, _ := json.Marshal(parts[int(arg/4)%len(parts)])
		return delta(`{"type":"input_json_delta","partial_json":` + string(b) + `}`)
	case 8:
		return ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, idx))
	case 9:
		reasons := []string{`"end_turn"`, `"tool_use"`, `"max_tokens"`, `""`, `null`, `"pause_turn"`, `"weird"`}
		return ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":`+reasons[int(arg)%len(reasons)]+`,"stop_sequence":null},"usage":{"output_tokens":2}}`)
	case 10:
		return ev("message_stop", `{"type":"message_stop"}`)
	case 11:
		return ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	case 12:
		return ev("future_event", `{"type":"future_event","x":1}`)
	case 13:
		return ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_de`)
	default: // 14
		if arg%2 == 0 {
			return delta(`{"type":"citations_delta","citation":{"type":"char_location","cited_text":"x","document_index":0,"start_char_index":0,"end_char_index":1}}`)
		}
		return delta(`{"type":"signature_delta","signature":"sig"}`)
	}
}

// fuzzModel answers each upstream call with the next segment; calls
// beyond them get an upstream error.
type fuzzModel struct {
	mu       sync.Mutex
	segments [][]wire.Event
}

func (m *fuzzModel) Stream(ctx context.Context, _ http.Header, body []byte) (Events, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.segments) == 0 {
		return nil, &UpstreamError{Status: http.StatusInternalServerError, Body: []byte(`{"type":"error","error":{"type":"api_error","message":"script exhausted"}}`)}
	}
	seg := m.segments[0]
	m.segments = m.segments[1:]
	return &fuzzEvents{evs: seg}, nil
}

type fuzzEvents struct{ evs []wire.Event }

func (e *fuzzEvents) Next() (wire.Event, error) {
	if len(e.evs) == 0 {
		return wire.Event{}, io.EOF
	}
	ev := e.evs[0]
	e.evs = e.evs[1:]
	return ev, nil
}

func (e *fuzzEvents) Close() error { return nil }

// fuzzBox emulates web_search with a tool that always finds one page.
type fuzzBox struct{}

func (fuzzBox) Tool(def wire.Tool) (ServerTool, bool, error) {
	if strings.HasPrefix(def.Type, "web_search_") {
		return fuzzTool{}, true, nil
	}
	return nil, false, nil
}

func (fuzzBox) IsResult(t string) bool { return t == "web_search_tool_result" }

func (fuzzBox) Restore(json.RawMessage, json.RawMessage) (Report, error) { return Report{}, nil }

func (fuzzBox) Cite(src *Source, claim string) (json.RawMessage, error) {
	return json.Marshal(map[string]any{"type": "web_search_result_location", "url": src.URL, "title": src.Title,
		"encrypted_index": "x", "cited_text": claim})
}

func (fuzzBox) VerifyCitation(json.RawMessage) error { return nil }

type fuzzTool struct{}

func (fuzzTool) Name() string { return "web_search" }
func (fuzzTool) Kind() string { return KindWebSearch }
func (fuzzTool) MaxUses() int { return 0 }
func (fuzzTool) Definition() json.RawMessage {
	return json.RawMessage(`{"name":"web_search","description":"Search.","input_schema":{"type":"object"}}`)
}

func (fuzzTool) Run(_ context.Context, c Call) Outcome {
	return Outcome{
		Input:   json.RawMessage(`{"query":"go"}`),
		Result:  json.RawMessage(`{"type":"web_search_tool_result","tool_use_id":"` + c.ID + `","content":[{"type":"web_search_result","url":"https://a.example/","title":"A","encrypted_content":"x","page_age":null}]}`),
		Report:  Report{Kind: KindWebSearch, Header: "Results", Sources: []Source{{Kind: KindWebSearch, URL: "https://a.example/", Title: "A", Citations: true}}},
		Counted: true,
	}
}

func (fuzzTool) Fail(c Call, code string) Outcome {
	return Outcome{
		Input:     json.RawMessage(`{}`),
		Result:    json.RawMessage(`{"type":"web_search_tool_result","tool_use_id":"` + c.ID + `","content":{"type":"web_search_tool_result_error","error_code":"` + code + `"}}`),
		Report:    Report{Kind: KindWebSearch, Error: "failed: " + code},
		ErrorCode: code,
	}
}
