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

	"github.com/webgate/webgate/internal/messages/wire"
)

// translate runs a stream through a translator and returns the Anthropic
// SSE it wrote and Run's error.
func translate(t *testing.T, ctx context.Context, in io.Reader, opts Options) (string, error) {
	t.Helper()
	var out bytes.Buffer
	flushes := 0
	w := wire.NewEventWriter(&out, func() error { flushes++; return nil })
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

// checkStream verifies the structural rules of an Anthropic stream (see
// checkStreamRules) and its ending: message_start first, then
// message_delta and message_stop (or, when wantError, an error event
// last).
func checkStream(t *testing.T, s string, wantError bool) {
	t.Helper()
	names := checkStreamRules(t, s)
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
	if names[0] != "message_start" || last != "message_stop" || names[len(names)-2] != "message_delta" {
		t.Fatalf("bad event sequence %v", names)
	}
}
