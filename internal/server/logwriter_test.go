package server

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer records each Write call.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
	wrote  chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	if s.wrote != nil {
		select {
		case s.wrote <- struct{}{}:
		default:
		}
	}
	return s.b.Write(p)
}

func (s *syncBuffer) snapshot() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.writes
}

func TestLogWriterBatches(t *testing.T) {
	out := &syncBuffer{}
	l := NewLogWriter(out, time.Hour)
	for i := range 10 {
		fmt.Fprintf(l, "line %d\n", i)
	}
	if s, n := out.snapshot(); n != 0 || s != "" {
		t.Fatalf("lines written before the interval: %d writes", n)
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	s, n := out.snapshot()
	if n != 1 || strings.Count(s, "\n") != 10 || !strings.HasPrefix(s, "line 0\n") {
		t.Fatalf("after Flush: %d writes, %q", n, s)
	}
	// A full buffer is written at once, without waiting for the interval.
	big := strings.Repeat("x", DefaultLogMaxBuffer/2) + "\n"
	for range 3 {
		l.Write([]byte(big))
	}
	// Each line that would overflow the buffer first writes it out.
	if _, n := out.snapshot(); n != 3 {
		t.Fatalf("a full buffer was not written: %d writes, want 3", n)
	}
	l.Write([]byte(strings.Repeat("y", DefaultLogMaxBuffer+1)))
	if s, _ := out.snapshot(); !strings.HasSuffix(s, "y") || strings.Count(s, big) != 3 {
		t.Fatal("a line larger than the buffer did not go straight through after what was pending")
	}
}

func TestLogWriterInterval(t *testing.T) {
	out := &syncBuffer{wrote: make(chan struct{}, 1)}
	l := NewLogWriter(out, time.Millisecond)
	l.Write([]byte("hello\n"))
	select {
	case <-out.wrote:
	case <-time.After(20 * time.Second):
		t.Fatal("a buffered line was never written")
	}
	if s, _ := out.snapshot(); s != "hello\n" {
		t.Fatalf("got %q", s)
	}
}

// TestLogWriterConcurrent: lines from many goroutines arrive whole.
func TestLogWriterConcurrent(t *testing.T) {
	out := &syncBuffer{}
	l := NewLogWriter(out, time.Millisecond)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				fmt.Fprintf(l, "g%d line %d %s\n", g, i, strings.Repeat("z", 200))
			}
		}()
	}
	wg.Wait()
	l.Close()
	s, _ := out.snapshot()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 8*500 {
		t.Fatalf("%d lines, want %d", len(lines), 8*500)
	}
	for _, line := range lines {
		if !strings.HasSuffix(line, strings.Repeat("z", 200)) {
			t.Fatalf("torn line %q", line)
		}
	}
}
