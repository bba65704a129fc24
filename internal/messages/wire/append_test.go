package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encodeGeneric renders one event through encoding/json (EventWriter.Event),
// the reference the hand-written encoders must match byte for byte.
func encodeGeneric(t *testing.T, name string, v any) string {
	t.Helper()
	var out bytes.Buffer
	if err := NewEventWriter(&out, nil).Event(name, v); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func encodeFast(t *testing.T, f func(*EventWriter) error) string {
	t.Helper()
	var out bytes.Buffer
	if err := f(NewEventWriter(&out, nil)); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

const awkward = "a <b> & \"c\" \\ \n\r\t\b\f\x00\x1f\x7f é 日本 \u2028\u2029 \xff\xfe end"

func TestAppendMatchesEncodingJSON(t *testing.T) {
	stop, age := "end_turn", "May 1, 2025"
	cite := Citation{URL: "https://x.test/?a=1&b=<2>", Title: awkward, EncryptedIndex: "wg1.k.abc-_", CitedText: awkward}
	usage := Usage{InputTokens: 12, CacheCreationInputTokens: 3, CacheReadInputTokens: 4, OutputTokens: 5}
	usageTool := usage
	usageTool.ServerToolUse = &ServerToolUsage{WebSearchRequests: 1}
	msg := &Message{ID: "msg_1", Type: "message", Role: "assistant", Model: awkward, Content: []ContentBlock{}, Usage: usageTool}
	msgStop := *msg
	msgStop.StopReason = &stop
	blocks := []ContentBlock{
		TextBlock{},
		TextBlock{Text: awkward, Citations: []Citation{cite, cite}},
		ServerToolUseBlock{ID: "srvtoolu_1", Name: "web_search"},
		ServerToolUseBlock{ID: "srvtoolu_1", Name: awkward, Input: []byte(`{}`)},
		WebSearchToolResultBlock{ToolUseID: "t"},
		WebSearchToolResultBlock{ToolUseID: "t", Results: []WebSearchResult{
			{Title: awkward, URL: "https://a.test/<x>", EncryptedContent: "wg1.k.zz", PageAge: &age},
			{Title: "b", URL: "https://b.test/"},
		}},
		WebSearchToolResultBlock{ToolUseID: "t", Error: &WebSearchToolResultError{ErrorCode: "unavailable"}},
	}
	type tc struct {
		name      string
		fast, ref string
	}
	cases := []tc{
		{"message_start", encodeFast(t, func(e *EventWriter) error { return e.MessageStart(msg) }), encodeGeneric(t, "message_start", messageStart{"message_start", msg})},
		{"message_start stop", encodeFast(t, func(e *EventWriter) error { return e.MessageStart(&msgStop) }), encodeGeneric(t, "message_start", messageStart{"message_start", &msgStop})},
		{"text_delta", encodeFast(t, func(e *EventWriter) error { return e.TextDelta(2, awkward) }), encodeGeneric(t, "content_block_delta", blockDelta{"content_block_delta", 2, textDelta{"text_delta", awkward}})},
		{"input_json_delta", encodeFast(t, func(e *EventWriter) error { return e.InputJSONDelta(0, `{"query":"<q>"}`) }), encodeGeneric(t, "content_block_delta", blockDelta{"content_block_delta", 0, inputJSONDelta{"input_json_delta", `{"query":"<q>"}`}})},
		{"citations_delta", encodeFast(t, func(e *EventWriter) error { return e.CitationsDelta(2, cite) }), encodeGeneric(t, "content_block_delta", blockDelta{"content_block_delta", 2, citationsDelta{"citations_delta", cite}})},
		{"content_block_stop", encodeFast(t, func(e *EventWriter) error { return e.BlockStop(11) }), encodeGeneric(t, "content_block_stop", blockStop{"content_block_stop", 11})},
		{"message_delta", encodeFast(t, func(e *EventWriter) error { return e.MessageDelta("end_turn", usage) }), encodeGeneric(t, "message_delta", func() messageDelta {
			d := messageDelta{Type: "message_delta", Usage: usage}
			d.Delta.StopReason = &stop
			return d
		}())},
		{"message_delta tool", encodeFast(t, func(e *EventWriter) error { return e.MessageDelta("end_turn", usageTool) }), encodeGeneric(t, "message_delta", func() messageDelta {
			d := messageDelta{Type: "message_delta", Usage: usageTool}
			d.Delta.StopReason = &stop
			return d
		}())},
		{"message_stop", encodeFast(t, func(e *EventWriter) error { return e.MessageStop() }), encodeGeneric(t, "message_stop", typeOnly{"message_stop"})},
		{"ping", encodeFast(t, func(e *EventWriter) error { return e.Ping() }), encodeGeneric(t, "ping", typeOnly{"ping"})},
	}
	for i, b := range blocks {
		cases = append(cases, tc{"block " + b.BlockType(),
			encodeFast(t, func(e *EventWriter) error { return e.BlockStart(i, b) }),
			encodeGeneric(t, "content_block_start", blockStart{"content_block_start", i, b})})
	}
	for _, c := range cases {
		if c.fast != c.ref {
			t.Errorf("%s:\nfast %q\nref  %q", c.name, c.fast, c.ref)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add(awkward)
	f.Add("")
	f.Add("\xed\xa0\x80 surrogate")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
		want, err = json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s, true); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q, true) = %s, want %s", s, got, want)
		}
	})
}

// TestAppendStringEveryPosition puts each byte class the encoder treats
// specially at every offset of a run, at the start, the end and between
// plain bytes.
func TestAppendStringEveryPosition(t *testing.T) {
	specials := []string{"\x00", "\x1f", " ", "\x7f", "\"", "\\", "<", ">", "&", "\x80", "\xff", "é", "\u2028", "\u2029", "\xe2\x80", "A"}
	base := "abcdefghijklmnopqrstuvwx"
	for _, sp := range specials {
		for i := 0; i <= len(base); i++ {
			s := base[:i] + sp + base[i:]
			want, _ := Marshal(s)
			if got := appendString(nil, s); !bytes.Equal(got, want) {
				t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
			}
			want, _ = json.Marshal(s)
			if got := AppendString(nil, s, true); !bytes.Equal(got, want) {
				t.Fatalf("AppendString(%q, true) = %s, want %s", s, got, want)
			}
		}
	}
}

// BenchmarkAppendString encodes a sealed token and a snippet, the bulk of
// a fast-path answer.
func BenchmarkAppendString(b *testing.B) {
	token := "wg1.eph." + strings.Repeat("cXi5xu76Q62J_SbeOOMJfmrgU7RvBStq9-", 20)
	snippet := "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code."
	buf := make([]byte, 0, 4096)
	b.SetBytes(int64(len(token) + len(snippet)))
	for b.Loop() {
		buf = appendString(appendString(buf[:0], token), snippet)
	}
}
