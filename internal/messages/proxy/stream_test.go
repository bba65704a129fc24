package proxy

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/messages/wire"
)

// TestAnswerStreamHold: held events leave in one write when released or
// written at the end, flushed only on release; once released, every event
// is written and flushed as it comes.
func TestAnswerStreamHold(t *testing.T) {
	var out bytes.Buffer
	writes := &countWriter{w: &out}
	flushes := 0
	s := newAnswerStream(writes, func() error { flushes++; return nil })
	ew := wire.NewEventWriter(s, nil)
	defer ew.Close()
	ew.Ping()
	ew.Ping()
	if writes.n != 0 || flushes != 0 || s.pending() == 0 {
		t.Fatalf("held: %d writes, %d flushes, %d pending", writes.n, flushes, s.pending())
	}
	if err := s.release(); err != nil {
		t.Fatal(err)
	}
	if writes.n != 1 || flushes != 1 || !s.wrote {
		t.Fatalf("release: %d writes, %d flushes, wrote %v; want 1, 1, true", writes.n, flushes, s.wrote)
	}
	ew.Ping()
	if writes.n != 2 || flushes != 2 {
		t.Fatalf("after release: %d writes, %d flushes, want 2, 2", writes.n, flushes)
	}
	s.hold()
	ew.Ping()
	ew.MessageStop()
	if err := s.writeHeld(); err != nil {
		t.Fatal(err)
	}
	if writes.n != 3 || flushes != 2 || s.pending() != 0 {
		t.Fatalf("writeHeld: %d writes, %d flushes, %d pending; want 3, 2, 0", writes.n, flushes, s.pending())
	}
	if got := strings.Count(out.String(), "event: ping\n"); got != 4 {
		t.Errorf("%d pings written, want 4", got)
	}
}

// TestAnswerStreamErrors: a failed write or flush sticks, and the
// EventWriter on the stream sees it.
func TestAnswerStreamErrors(t *testing.T) {
	broken := errors.New("connection reset")
	s := newAnswerStream(&countWriter{err: broken}, nil)
	ew := wire.NewEventWriter(s, nil)
	defer ew.Close()
	ew.Ping()
	if err := s.release(); !errors.Is(err, broken) {
		t.Fatalf("release = %v, want %v", err, broken)
	}
	if err := ew.Ping(); !errors.Is(err, broken) {
		t.Errorf("a ping after the failure = %v, want %v", err, broken)
	}

	s = newAnswerStream(&countWriter{}, func() error { return broken })
	s.held = false
	if _, err := s.Write([]byte("event: ping\ndata: {}\n\n")); !errors.Is(err, broken) {
		t.Errorf("write with a failing flush = %v, want %v", err, broken)
	}
	if err := s.release(); !errors.Is(err, broken) {
		t.Errorf("release after a failed flush = %v, want %v", err, broken)
	}
}

// TestAnswerReplay: an answer's events recorded once and replayed with a
// response's tool use id are byte for byte the events written directly,
// and the recording itself is not modified.
func TestAnswerReplay(t *testing.T) {
	call := &searchCall{Query: "golang generics", Tool: wire.Tool{Type: "web_search_20250305", Name: "web_search"}}
	comp := &composer{sealer: testSealer(t), now: time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC), maxQueryLen: 500}
	ans, err := comp.compose(call, &outcome{results: goResults, provider: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, toolID := newIDs()

	var direct, replayed bytes.Buffer
	d := wire.NewEventWriter(&direct, nil)
	ans.writeBlocks(d, toolID)
	d.Close()

	rec, at := ans.events()
	s := newAnswerStream(&replayed, nil)
	if err := s.replay(rec, at, toolID); err != nil {
		t.Fatal(err)
	}
	if err := s.writeHeld(); err != nil {
		t.Fatal(err)
	}
	if direct.String() != replayed.String() {
		t.Errorf("replay differs from direct encoding:\n%s\n%s", replayed.String(), direct.String())
	}
	if !bytes.Contains(rec, []byte(placeholderToolID)) || bytes.Contains(rec, []byte(toolID)) {
		t.Error("replay modified the recording")
	}
	if err := newAnswerStream(&replayed, nil).replay(rec, len(rec)-2, toolID); err == nil {
		t.Error("a patch past the end was accepted")
	}
}

// countWriter counts writes, and fails each one with err when set.
type countWriter struct {
	w   *bytes.Buffer
	n   int
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n++
	if c.err != nil {
		return 0, c.err
	}
	if c.w != nil {
		c.w.Write(p)
	}
	return len(p), nil
}
