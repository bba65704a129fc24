package server

import (
	"io"
	"sync"
	"time"
)

// LogWriter batches a busy server's log output: each Write (one log line,
// as slog handlers write them) is appended to a buffer, and the buffer is
// written out at most Interval after its first line, or at once when it
// reaches MaxBuffer. At thousands of requests a second a write system call
// per access-log line is a visible share of a request's CPU; batched, the
// same lines cost one call per interval.
//
// Lines are never split or reordered. A line reaches the underlying writer
// at most Interval late; Close (or Flush) writes what is pending, so call
// it before the process exits. A crash can lose at most one interval of
// log lines; the Go runtime's own panic output is written directly and is
// not affected.
type LogWriter struct {
	w        io.Writer
	interval time.Duration
	max      int

	mu      sync.Mutex
	buf     []byte
	timer   *time.Timer
	pending bool // a flush is scheduled
	err     error
}

// Defaults for NewLogWriter.
const (
	DefaultLogInterval  = 100 * time.Millisecond
	DefaultLogMaxBuffer = 64 << 10
)

// NewLogWriter returns a LogWriter on w that writes at most every interval
// (DefaultLogInterval when interval <= 0).
func NewLogWriter(w io.Writer, interval time.Duration) *LogWriter {
	if interval <= 0 {
		interval = DefaultLogInterval
	}
	l := &LogWriter{w: w, interval: interval, max: DefaultLogMaxBuffer}
	l.timer = time.AfterFunc(time.Hour, func() { _ = l.Flush() })
	l.timer.Stop()
	return l
}

// Write buffers p. It returns the last error of the underlying writer, if
// any, after buffering.
func (l *LogWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf)+len(p) > l.max {
		l.flushLocked()
	}
	if len(p) >= l.max {
		// A line larger than the buffer goes straight through.
		if _, err := l.w.Write(p); err != nil {
			l.err = err
		}
		return len(p), l.err
	}
	l.buf = append(l.buf, p...)
	if !l.pending {
		l.pending = true
		l.timer.Reset(l.interval)
	}
	return len(p), l.err
}

// Flush writes what is buffered now.
func (l *LogWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked()
	return l.err
}

func (l *LogWriter) flushLocked() {
	l.pending = false
	l.timer.Stop()
	if len(l.buf) == 0 {
		return
	}
	if _, err := l.w.Write(l.buf); err != nil {
		l.err = err
	}
	if cap(l.buf) > 2*l.max {
		l.buf = nil
	} else {
		l.buf = l.buf[:0]
	}
}

// Close flushes; the LogWriter keeps working afterwards (late lines are
// still written), so closing twice or logging during shutdown is safe.
func (l *LogWriter) Close() error { return l.Flush() }
