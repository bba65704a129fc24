package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/webgate/webgate/internal/audit"
)

// DefaultBacklog is how many records a Sink keeps while Redis is down.
const DefaultBacklog = 10000

// Sink is an audit.Sink appending each record to a Redis stream with XADD
// MAXLEN ~, as one entry whose "record" field holds the record's JSON line
// (plus kind, outcome and key_id fields for consumers that filter without
// decoding). While Redis is down, records wait in a bounded backlog and
// are written, oldest first, once it answers again; when the backlog is
// full the oldest are dropped and counted.
type Sink struct {
	c      *Client
	stream string
	maxLen int64
	limit  int

	mu      sync.Mutex
	backlog []audit.Record
	dropped uint64
}

var _ audit.Sink = (*Sink)(nil)

// NewSink writes to the stream key prefix+stream, trimmed to about maxLen
// entries, keeping at most backlog records (DefaultBacklog if <= 0) while
// Redis is down.
func NewSink(c *Client, stream string, maxLen int64, backlog int) *Sink {
	if backlog <= 0 {
		backlog = DefaultBacklog
	}
	return &Sink{c: c, stream: c.key(stream), maxLen: maxLen, limit: backlog}
}

// Stream returns the stream's full key.
func (s *Sink) Stream() string { return s.stream }

// Write implements audit.Sink. While Redis is down the records wait in
// the backlog and Write returns an error wrapping audit.ErrDeferred.
func (s *Sink) Write(ctx context.Context, recs []audit.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backlog = append(s.backlog, recs...)
	if over := len(s.backlog) - s.limit; over > 0 {
		s.dropped += uint64(over)
		s.backlog = append(s.backlog[:0], s.backlog[over:]...)
		s.c.log.Warn("redis audit backlog full; oldest records dropped", "dropped_total", s.dropped)
	}
	if !s.c.Up() {
		return fmt.Errorf("redis audit stream: redis unreachable; %d records waiting: %w", len(s.backlog), audit.ErrDeferred)
	}
	return s.flush(ctx)
}

// flush writes the backlog in pipelined batches. Callers hold s.mu.
func (s *Sink) flush(ctx context.Context) error {
	const batch = 256
	for len(s.backlog) > 0 {
		n := min(batch, len(s.backlog))
		cctx, cancel := s.c.cmdCtx(ctx)
		pipe := s.c.rdb.Pipeline()
		for _, r := range s.backlog[:n] {
			line, err := json.Marshal(r)
			if err != nil {
				continue
			}
			pipe.XAdd(cctx, &redis.XAddArgs{
				Stream: s.stream, MaxLen: s.maxLen, Approx: true,
				Values: []any{"kind", r.Kind, "outcome", r.Outcome, "key_id", r.KeyID, "record", line},
			})
		}
		_, err := pipe.Exec(cctx)
		cancel()
		if err != nil {
			s.c.failed(ctx, "audit", err)
			return fmt.Errorf("redis audit stream: %w; %d records waiting: %w", err, len(s.backlog), audit.ErrDeferred)
		}
		s.backlog = append(s.backlog[:0], s.backlog[n:]...)
	}
	return nil
}

// Pending reports how many records wait for Redis and how many were
// dropped because the backlog was full.
func (s *Sink) Pending() (waiting int, dropped uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.backlog), s.dropped
}

// Close writes what is waiting, if Redis answers. The Client is closed by
// its owner.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.backlog) == 0 || !s.c.Up() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*s.c.timeout)
	defer cancel()
	return s.flush(ctx)
}
