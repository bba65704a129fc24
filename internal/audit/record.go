// Package audit records one JSON line per search and fetch: who asked,
// through which surface, what, which provider answered, how much came back,
// how long it took and how it ended. Records go to sinks (a rotated file, a
// Redis stream) asynchronously and never block or fail the request they
// describe; the most recent ones are also kept in memory for the console.
package audit

import (
	"context"
	"errors"
	"time"
)

// Kinds of audited operation.
const (
	KindSearch = "search"
	KindFetch  = "fetch"
)

// Outcomes of an audited operation.
const (
	OutcomeOK      = "ok"      // answered
	OutcomeError   = "error"   // failed (provider, network, extraction)
	OutcomeDenied  = "denied"  // refused by policy: auth, tool, domain, rate limit, budget
	OutcomeBlocked = "blocked" // refused by the query guard (a secret was detected)
)

// Record is one audited search or fetch. It marshals to one JSONL line.
type Record struct {
	Time time.Time `json:"time"`
	// KeyID is the gateway API key id, "" for anonymous callers.
	KeyID string `json:"key_id,omitempty"`
	// Surface is the policy.Surface* the request came through.
	Surface string `json:"surface"`
	// Kind is KindSearch or KindFetch.
	Kind string `json:"kind"`
	// Query is the search query (possibly redacted); empty for fetches.
	Query string `json:"query,omitempty"`
	// URL is the fetched URL; empty for searches.
	URL string `json:"url,omitempty"`
	// Provider is the search provider that answered, if any.
	Provider string `json:"provider,omitempty"`
	// Results is the number of search results returned.
	Results int `json:"results"`
	// Bytes is the size of the content returned to the caller.
	Bytes int64 `json:"bytes"`
	// LatencyMS is the wall time of the operation in milliseconds.
	LatencyMS float64 `json:"latency_ms"`
	// Cached reports whether the answer came from a cache.
	Cached bool `json:"cached,omitempty"`
	// Rendered reports a fetched page whose content was taken after
	// rendering it in the headless browser (fetch.render).
	Rendered bool `json:"rendered,omitempty"`
	// Outcome is one of the Outcome* constants.
	Outcome string `json:"outcome"`
	// Error is a one-line reason for a non-ok outcome.
	Error string `json:"error,omitempty"`
}

// Sink is a destination for records. Write is called from one goroutine
// with batches in order; an error is logged and the batch dropped, never
// retried forever. A sink that keeps the batch to write later (the Redis
// stream while Redis is down) returns an error wrapping ErrDeferred
// instead: nothing is lost, so the Logger counts the batch as deferred and
// logs only the first of a run of deferrals.
type Sink interface {
	Write(ctx context.Context, recs []Record) error
	Close() error
}

// ErrDeferred is wrapped by a Sink's Write error when the sink kept the
// batch to write it later.
var ErrDeferred = errors.New("audit: records kept by the sink for a later write")

// Filter selects records for Recent; empty fields match everything.
type Filter struct {
	KeyID   string
	Surface string
	Outcome string
	// Kind is KindSearch or KindFetch.
	Kind string
	// Limit caps the records returned (newest first); 0 returns all kept.
	Limit int
}

// Match reports whether r passes f.
func (f Filter) Match(r *Record) bool {
	return (f.KeyID == "" || f.KeyID == r.KeyID) && (f.Surface == "" || f.Surface == r.Surface) &&
		(f.Outcome == "" || f.Outcome == r.Outcome) && (f.Kind == "" || f.Kind == r.Kind)
}
