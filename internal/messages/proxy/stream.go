package proxy

import (
	"errors"
	"fmt"
	"io"
)

// answerStream is the fast path's side of a streamed answer: it sits
// between the shared wire.EventWriter, which only encodes events, and the
// response, and decides when they leave. Its buffer holds events while
// the search runs (so a fast search goes out whole, with a
// Content-Length, in one write), and it splices in an answer's recorded
// events (replay) with the response's own tool use id. None of this is
// any other surface's concern, so it lives here rather than on the
// shared writer.
type answerStream struct {
	w     io.Writer
	flush func() error
	// buf holds the events not yet written.
	buf   []byte
	held  bool
	wrote bool // anything has been written to w
	err   error
}

// newAnswerStream returns a stream to w that holds its events until
// release; flush, when not nil, is called after every write while not
// held (wire.HTTPFlusher).
func newAnswerStream(w io.Writer, flush func() error) *answerStream {
	return &answerStream{w: w, flush: flush, held: true}
}

// Write takes one or more encoded events from the EventWriter: it holds
// them, or writes and flushes them at once when not holding.
func (s *answerStream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.buf = append(s.buf, p...)
	if err := s.send(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// send writes and flushes the buffer unless holding.
func (s *answerStream) send() error {
	if s.held {
		return s.err
	}
	if s.writeHeld(); s.err != nil {
		return s.err
	}
	return s.flushNow()
}

// hold keeps what is written from now on in the buffer, until release or
// writeHeld.
func (s *answerStream) hold() { s.held = true }

// release stops holding, and writes and flushes what was held.
func (s *answerStream) release() error {
	s.held = false
	return s.send()
}

// writeHeld writes the held events without flushing and keeps holding,
// for the end of a response: the server flushes once the handler returns
// (batchconn's one write), so a flush here would be wasted work.
func (s *answerStream) writeHeld() error {
	if s.err != nil || len(s.buf) == 0 {
		return s.err
	}
	_, err := s.w.Write(s.buf)
	s.wrote = true
	s.buf = s.buf[:0]
	if err != nil {
		s.err = fmt.Errorf("write events: %w", err)
	}
	return s.err
}

func (s *answerStream) flushNow() error {
	if s.err != nil || s.flush == nil {
		return s.err
	}
	if err := s.flush(); err != nil {
		s.err = fmt.Errorf("flush: %w", err)
	}
	return s.err
}

// pending returns the size of the events held and not yet written.
func (s *answerStream) pending() int { return len(s.buf) }

// replay writes events recorded once (see composed.events), with patch
// copied over the bytes at offset at: a recorded run may embed one value
// that changes per response (the tool use id) as a placeholder of the
// same length. rec itself is not modified.
func (s *answerStream) replay(rec []byte, at int, patch string) error {
	if s.err != nil {
		return s.err
	}
	if at < 0 || at+len(patch) > len(rec) {
		s.err = errors.New("replay: patch outside the recorded events")
		return s.err
	}
	n := len(s.buf)
	s.buf = append(s.buf, rec...)
	copy(s.buf[n+at:], patch)
	return s.send()
}
