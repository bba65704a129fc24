package audit

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Logger. Zero values take the defaults.
type Options struct {
	// Sinks receive every record, in order, in batches.
	Sinks []Sink
	// QueueSize bounds the records waiting to be written (default 4096).
	// When full, Log drops the record and counts it.
	QueueSize int
	// BatchSize caps the records handed to a sink at once (default 256).
	BatchSize int
	// Recent is how many of the latest records Recent can return (default
	// 1000).
	Recent int
	// WriteTimeout bounds one batch write to one sink (default 5s).
	WriteTimeout time.Duration
	// Logger receives sink errors and the drop count; nil discards.
	Logger *slog.Logger
}

// Logger is the audit log: Log queues a record without ever blocking, one
// goroutine writes batches to the sinks, and the latest records stay in
// memory for Recent. A nil *Logger is valid and records nothing.
type Logger struct {
	opts  Options
	log   *slog.Logger
	queue chan Record
	done  chan struct{} // closed when the writer has drained and exited

	mu     sync.RWMutex // guards closed against Log racing Close
	closed bool

	ringMu sync.Mutex
	ring   []Record
	next   int // index in ring of the next record
	full   bool

	logged, written, dropped, failed, deferred atomic.Uint64

	// failing[i] is set while sink i's writes fail or are deferred, so a
	// sink that is down (Redis gone) is logged once when it starts failing
	// and once when it recovers, not once per batch. Only the writer
	// goroutine touches it.
	failing []bool
}

// New starts a Logger. Call Close to flush and stop it.
func New(opts Options) *Logger {
	if opts.QueueSize <= 0 {
		opts.QueueSize = 4096
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 256
	}
	if opts.Recent <= 0 {
		opts.Recent = 1000
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 5 * time.Second
	}
	queueSize := opts.QueueSize
	if len(opts.Sinks) == 0 {
		queueSize = 0 // nothing is ever queued (see below)
	}
	l := &Logger{
		opts: opts, log: opts.Logger,
		queue: make(chan Record, queueSize),
		done:  make(chan struct{}),
		ring:  make([]Record, opts.Recent),
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if len(opts.Sinks) == 0 {
		// Records live only in Recent (the default configuration): no
		// writer goroutine, so Log costs no hand-off and no wake-up.
		close(l.done)
		return l
	}
	go l.run()
	return l
}

// Log records r. It never blocks: when the queue is full (a sink is slow
// or down) the record is dropped and counted in Stats().Dropped. The
// record is visible to Recent at once.
func (l *Logger) Log(r Record) {
	if l == nil {
		return
	}
	l.remember(r)
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		l.dropped.Add(1)
		return
	}
	if len(l.opts.Sinks) == 0 {
		// Every sink (there are none) has it.
		l.logged.Add(1)
		l.written.Add(1)
		return
	}
	select {
	case l.queue <- r:
		l.logged.Add(1)
	default:
		if n := l.dropped.Add(1); n&(n-1) == 0 {
			// Log the 1st, 2nd, 4th, 8th... drop: loud enough to notice,
			// bounded under a storm.
			l.log.Warn("audit queue full; records dropped", "dropped", n)
		}
	}
}

func (l *Logger) remember(r Record) {
	l.ringMu.Lock()
	l.ring[l.next] = r
	l.next++
	if l.next == len(l.ring) {
		l.next, l.full = 0, true
	}
	l.ringMu.Unlock()
}

// Recent returns the kept records that match f, newest first.
func (l *Logger) Recent(f Filter) []Record {
	if l == nil {
		return nil
	}
	l.ringMu.Lock()
	defer l.ringMu.Unlock()
	n := l.next
	if l.full {
		n = len(l.ring)
	}
	var out []Record
	for i := range n {
		r := &l.ring[(l.next-1-i+len(l.ring))%len(l.ring)]
		if f.Match(r) {
			out = append(out, *r)
			if f.Limit > 0 && len(out) == f.Limit {
				break
			}
		}
	}
	return out
}

// Stats are the Logger's counters since start.
type Stats struct {
	// Logged records were queued for the sinks.
	Logged uint64
	// Written records reached every sink.
	Written uint64
	// Dropped records never reached the sinks: the queue was full, or the
	// Logger was closed.
	Dropped uint64
	// Failed records were in a batch that a sink failed to write.
	Failed uint64
	// Deferred records were in a batch that a sink kept to write later
	// (ErrDeferred); they are not lost, and not yet Written.
	Deferred uint64
}

// Stats returns the counters.
func (l *Logger) Stats() Stats {
	if l == nil {
		return Stats{}
	}
	return Stats{Logged: l.logged.Load(), Written: l.written.Load(), Dropped: l.dropped.Load(), Failed: l.failed.Load(), Deferred: l.deferred.Load()}
}

// run writes queued records in batches until Close, then drains.
func (l *Logger) run() {
	defer close(l.done)
	batch := make([]Record, 0, l.opts.BatchSize)
	for r := range l.queue {
		batch = append(batch[:0], r)
	fill:
		for len(batch) < cap(batch) {
			select {
			case r, ok := <-l.queue:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		l.write(batch)
	}
}

func (l *Logger) write(batch []Record) {
	if len(l.failing) != len(l.opts.Sinks) {
		l.failing = make([]bool, len(l.opts.Sinks))
	}
	failed, deferred := false, false
	for i, s := range l.opts.Sinks {
		ctx, cancel := context.WithTimeout(context.Background(), l.opts.WriteTimeout)
		err := s.Write(ctx, batch)
		cancel()
		switch {
		case err != nil && !l.failing[i]:
			l.failing[i] = true
			msg := "audit sink failing; its writes are counted as failed until it recovers"
			if errors.Is(err, ErrDeferred) {
				msg = "audit sink failing; it keeps the records and writes them when it recovers"
			}
			l.log.Warn(msg, "sink", i, "records", len(batch), "err", err)
		case err == nil && l.failing[i]:
			l.failing[i] = false
			l.log.Info("audit sink writing again", "sink", i)
		}
		switch {
		case errors.Is(err, ErrDeferred):
			deferred = true
		case err != nil:
			failed = true
		}
	}
	switch {
	case failed:
		l.failed.Add(uint64(len(batch)))
	case deferred:
		l.deferred.Add(uint64(len(batch)))
	default:
		l.written.Add(uint64(len(batch)))
	}
}

// Close stops accepting records, writes what is queued (waiting at most
// until ctx ends), and closes the sinks.
func (l *Logger) Close(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		<-l.done
		return nil
	}
	l.closed = true
	close(l.queue) // no Log can send now: they check closed under the lock
	l.mu.Unlock()
	var err error
	select {
	case <-l.done:
	case <-ctx.Done():
		err = errors.New("audit: close: queued records not all written before the deadline")
	}
	for _, s := range l.opts.Sinks {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}
