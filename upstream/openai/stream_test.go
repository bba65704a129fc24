package openai

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/webgate/webgate/anthropic"
)

// translate runs a stream through a translator and returns the Anthropic
// SSE it wrote and Run's error.
func translate(t *testing.T, ctx context.Context, in io.Reader, opts Options) (string, error) {
	t.Helper()
	var out bytes.Buffer
	flushes := 0
	w := anthropic.NewEventWriter(&out, func() error { flushes++; return nil })
	if opts.NewID == nil {
		opts.NewID = seqIDs()
	}
	err := NewStreamTranslator(w, opts).Run(ctx, in)
	if out.Len() > 0 && flushes == 0 {
		t.Error("events written but never flushed")
	}
	return out.String(), err
}

// wantErr lists the golden streams that must end with an error event.
var wantErr = map[string]bool{
	"error_mid_stream": true,
	"disconnect":       true,
	"malformed_chunk":  true,
}

func TestStreamGolden(t *testing.T) {
	ins, err := filepath.Glob("testdata/stream/*.in")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			// One byte at a time: chunk boundaries must not matter.
			got, err := translate(t, context.Background(), iotest.OneByteReader(bytes.NewReader(data)), Options{})
			if (err != nil) != wantErr[name] {
				t.Fatalf("Run error = %v, want error %v", err, wantErr[name])
			}
			if wantErr[name] && !errors.Is(err, ErrUpstream) {
				t.Errorf("error %v does not wrap ErrUpstream", err)
			}
			golden(t, strings.TrimSuffix(in, ".in")+".golden", []byte(got))
			checkStream(t, got, wantErr[name])
		})
	}
}

// checkStream verifies the structural rules of an Anthropic stream: one
// message_start first, at most one open block, continuous indices, and a
// message_delta/message_stop (or error) ending.
func checkStream(t *testing.T, s string, wantError bool) {
	t.Helper()
	rd := anthropic.NewReader(strings.NewReader(s), 0, 0)
	var names []string
	open, next := -1, 0
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, ev.Name)
		typ, err := anthropic.DecodeType(ev.Data)
		if err != nil || typ != ev.Name {
			t.Fatalf("event %s has type %q (%v)", ev.Name, typ, err)
		}
		var idx struct{ Index int }
		_ = jsonUnmarshal(ev.Data, &idx)
		switch ev.Name {
		case "content_block_start":
			if open >= 0 || idx.Index != next {
				t.Fatalf("block %d started while %d open, next %d", idx.Index, open, next)
			}
			open = idx.Index
			next++
		case "content_block_delta":
			if idx.Index != open {
				t.Fatalf("delta for %d while %d open", idx.Index, open)
			}
		case "content_block_stop":
			if idx.Index != open {
				t.Fatalf("stop for %d while %d open", idx.Index, open)
			}
			open = -1
		}
	}
	if len(names) == 0 {
		t.Fatal("no events")
	}
	last := names[len(names)-1]
	if wantError {
		if last != "error" {
			t.Fatalf("last event %s, want error", last)
		}
		return
	}
	if names[0] != "message_start" || last != "message_stop" || names[len(names)-2] != "message_delta" || open >= 0 {
		t.Fatalf("bad event sequence %v", names)
	}
}
