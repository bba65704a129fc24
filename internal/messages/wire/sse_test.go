package wire

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func readAll(r *Reader) ([]Event, error) {
	var out []Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		maxLine int
		maxEv   int
		want    []Event
		wantErr error
	}{
		{name: "anthropic event", in: "event: ping\ndata: {\"type\":\"ping\"}\n\n",
			want: []Event{{Name: "ping", Data: []byte(`{"type":"ping"}`)}}},
		{name: "crlf", in: "event: a\r\ndata: 1\r\n\r\nevent: b\r\ndata: 2\r\n\r\n",
			want: []Event{{Name: "a", Data: []byte("1")}, {Name: "b", Data: []byte("2")}}},
		{name: "bare cr", in: "event: a\rdata: 1\r\r",
			want: []Event{{Name: "a", Data: []byte("1")}}},
		{name: "multi-line data and comments", in: ": keepalive\ndata: x\ndata:y\ndata\n\n",
			want: []Event{{Data: []byte("x\ny\n")}}},
		{name: "no space after colon and id", in: "id: 7\nevent:e\ndata:{}\n\n",
			want: []Event{{Name: "e", Data: []byte("{}"), ID: "7"}}},
		{name: "blank lines without data dispatch nothing", in: "\n\nevent: lonely\n\ndata: z\n\n",
			want: []Event{{Data: []byte("z")}}},
		{name: "unterminated final event discarded", in: "data: a\n\ndata: cut",
			want: []Event{{Data: []byte("a")}}},
		{name: "unknown fields ignored", in: "retry: 10\nfoo: bar\ndata: a\n\n",
			want: []Event{{Data: []byte("a")}}},
		{name: "line too long", in: "data: " + strings.Repeat("x", 100) + "\n\n", maxLine: 32, wantErr: ErrLineTooLong},
		{name: "line too long across buffer growth", in: "data: " + strings.Repeat("x", 10000) + "\n\n", maxLine: 9000, wantErr: ErrLineTooLong},
		{name: "long line within limit", in: "data: " + strings.Repeat("x", 10000) + "\n\n", maxLine: 12000,
			want: []Event{{Data: []byte(strings.Repeat("x", 10000))}}},
		{name: "event too large", in: strings.Repeat("data: 0123456789\n", 10) + "\n", maxEv: 50, wantErr: ErrEventTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range []string{"whole", "one byte"} {
				var src io.Reader = strings.NewReader(tt.in)
				if mode == "one byte" {
					src = iotest.OneByteReader(src)
				}
				got, err := readAll(NewReader(src, tt.maxLine, tt.maxEv))
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("%s: err = %v, want %v", mode, err, tt.wantErr)
				}
				if tt.wantErr == nil {
					if diff := cmp.Diff(tt.want, got); diff != "" {
						t.Errorf("%s: events (-want +got):\n%s", mode, diff)
					}
				}
			}
		})
	}
}

func TestEventWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	flushes := 0
	w := NewEventWriter(&buf, func() error { flushes++; return nil })
	w.MessageStart(&Message{ID: "msg_1", Type: "message", Role: "assistant", Model: "m", Content: []ContentBlock{}})
	w.BlockStart(0, TextBlock{})
	w.TextDelta(0, "a <b> & \"c\"\nd")
	w.CitationsDelta(0, Citation{URL: "https://x", Title: "X", EncryptedIndex: "e", CitedText: "a"})
	w.BlockStop(0)
	w.MessageDelta("end_turn", Usage{OutputTokens: 3, ServerToolUse: &ServerToolUsage{WebSearchRequests: 1}})
	w.Ping()
	w.Error("overloaded_error", "busy")
	w.MessageStop()
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	if flushes != 9 {
		t.Errorf("flushed %d times, want once per event (9)", flushes)
	}
	evs, err := readAll(NewReader(&buf, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ev := range evs {
		typ, err := DecodeType(ev.Data)
		if err != nil || typ != ev.Name {
			t.Errorf("event %q has type %q (%v)", ev.Name, typ, err)
		}
		names = append(names, ev.Name)
	}
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "ping", "error", "message_stop"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if !bytes.Contains(evs[2].Data, []byte(`"text":"a <b> & \"c\"\nd"`)) {
		t.Errorf("text delta escaped differently from Anthropic: %s", evs[2].Data)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, io.ErrClosedPipe
	}
	f.n--
	return len(p), nil
}

func TestEventWriterStickyError(t *testing.T) {
	fw := &failWriter{n: 1}
	w := NewEventWriter(fw, nil)
	if err := w.Ping(); err != nil {
		t.Fatal(err)
	}
	if err := w.Ping(); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("err = %v", err)
	}
	if err := w.MessageStop(); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("error not sticky: %v", err)
	}
}

// FuzzReader feeds arbitrary bytes to the parser: it must never panic,
// never return an event larger than its limit, and agree with itself when
// the input arrives one byte at a time.
func FuzzReader(f *testing.F) {
	f.Add([]byte("event: ping\ndata: {\"type\":\"ping\"}\n\n"))
	f.Add([]byte("data: a\r\ndata: b\r\r\n: c\n\nid: 1\ndata\n\n"))
	f.Add([]byte("data: " + strings.Repeat("x", 300) + "\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		const maxLine, maxEv = 128, 256
		a, errA := readAll(NewReader(bytes.NewReader(in), maxLine, maxEv))
		b, errB := readAll(NewReader(iotest.OneByteReader(bytes.NewReader(in)), maxLine, maxEv))
		if (errA == nil) != (errB == nil) {
			t.Fatalf("chunking changed the outcome: %v vs %v", errA, errB)
		}
		if errA == nil && !cmp.Equal(a, b) {
			t.Fatalf("chunking changed the events:\n%v\n%v", a, b)
		}
		for _, ev := range a {
			if len(ev.Data) > maxEv {
				t.Fatalf("event of %d bytes exceeds limit", len(ev.Data))
			}
		}
	})
}

func TestEventWriterHold(t *testing.T) {
	var buf bytes.Buffer
	flushes := 0
	w := NewEventWriter(&buf, func() error { flushes++; return nil })
	w.Hold()
	w.Ping()
	w.Ping()
	if flushes != 0 {
		t.Fatalf("flushed %d times while held", flushes)
	}
	w.Release()
	w.Ping()
	if flushes != 2 {
		t.Fatalf("flushes = %d, want 1 on release and 1 after the next event", flushes)
	}
}
