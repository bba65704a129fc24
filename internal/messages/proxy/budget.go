package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// bodyBudget bounds the request body bytes the proxy holds at once
// (upstream.max_body_bytes_in_flight). Without it, 256 concurrent 32 MiB
// bodies could claim 8 GiB. The semaphore is FIFO: a large body waiting
// for room is not overtaken forever by small ones.
//
// A request never waits for budget while it holds some (two requests
// each holding part of what they need and waiting for the rest would
// block each other until their waits ran out): it waits only for its
// first reservation, made as large as it may need; anything more later
// is taken only if free at once, else the request is refused.
type bodyBudget struct {
	sem  *semaphore.Weighted
	size int64
	used atomic.Int64
}

func newBodyBudget(size int64) *bodyBudget {
	return &bodyBudget{sem: semaphore.NewWeighted(size), size: size}
}

// defaultBudgetWait is how long a request waits for budget before it is
// refused with 529 overloaded_error.
const defaultBudgetWait = 10 * time.Second

// inUse reports the bytes currently held, for tests.
func (b *bodyBudget) inUse() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// acquire takes n bytes, waiting while ctx allows; callers hold none.
func (b *bodyBudget) acquire(ctx context.Context, n int64) error {
	if err := b.sem.Acquire(ctx, n); err != nil {
		return err
	}
	b.used.Add(n)
	return nil
}

// tryAcquire takes n bytes if they are free now.
func (b *bodyBudget) tryAcquire(n int64) bool {
	if !b.sem.TryAcquire(n) {
		return false
	}
	b.used.Add(n)
	return true
}

func (b *bodyBudget) release(n int64) {
	if n > 0 {
		b.used.Add(-n)
		b.sem.Release(n)
	}
}

// heldBody is a request body and the budget it holds. The handler's
// goroutine alone uses it.
type heldBody struct {
	b    *bodyBudget
	n    int64
	data []byte
	// size is the body's length, kept after data is dropped.
	size int64
}

// release gives back all the budget held; it is idempotent.
func (h *heldBody) release() { h.shrink(0) }

// shrink gives back what is held beyond n bytes.
func (h *heldBody) shrink(n int64) {
	if h.b != nil && h.n > n {
		h.b.release(h.n - n)
		h.n = n
	}
}

// grow holds at least n bytes, taking the difference only if it is free
// now (see bodyBudget).
func (h *heldBody) grow(n int64) bool {
	if h.n >= n {
		return true
	}
	if !h.b.tryAcquire(n - h.n) {
		return false
	}
	h.n = n
	return true
}

// turnCost is what an emulated turn is charged, in multiples of its
// body: it holds the conversation (the decoded request's raw messages)
// and, while the upstream answers, the upstream request built from it.
// BenchmarkBodyLiveHeap measures it: 2.0 times the body on both
// upstream kinds (passthrough: 1.0).
const turnCost = 2

// turnCharge is an emulated turn's charge for a body of size bytes: at
// most the whole budget, so any accepted body can run.
func (h *Handler) turnCharge(size int64) int64 { return min(turnCost*size, h.budget.size) }

// chargeTurn makes held cover an emulated turn. A body of announced
// length was charged for a turn before it was read; a chunked one takes
// the rest now, if it is free.
func (h *Handler) chargeTurn(held *heldBody) error {
	if !held.grow(h.turnCharge(held.size)) {
		return h.overBudget()
	}
	return nil
}

func (h *Handler) overBudget() error {
	return fmt.Errorf("%w: the request bodies held at once are at upstream.max_body_bytes_in_flight (%d bytes); retry shortly", ErrOverloaded, h.budget.size)
}

// budgetStep is the first reservation for a body of unknown length;
// each further one doubles what is held, up to max_body_bytes.
const budgetStep = 64 << 10

// readBody reads the whole body, bounded by max_body_bytes, holding body
// budget for it. A body of announced length is charged before it is
// read: as an emulated turn (turnCost times its length) when turn says
// the request may become one, else its length; the caller shrinks the
// charge once it knows. A body of unknown length (chunked) waits for a
// first reservation, then grows it as the body arrives while budget is
// free. The proxy must hold the body to classify the request, and
// forwarding the held bytes is what keeps passthrough byte-faithful. The
// caller releases the budget once it no longer needs the bytes.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, turn bool) (*heldBody, error) {
	hb := &heldBody{b: h.budget}
	if r.Body == nil || r.Body == http.NoBody {
		return hb, nil
	}
	if r.ContentLength > h.cfg.MaxBodyBytes {
		return hb, fmt.Errorf("body is %d bytes, limit %d: %w", r.ContentLength, h.cfg.MaxBodyBytes, errBodyTooLarge)
	}
	first := int64(budgetStep)
	if r.ContentLength > 0 {
		// One spare byte lets the final Read see EOF without growing.
		first = r.ContentLength + 1
		if turn {
			first = max(first, h.turnCharge(r.ContentLength))
		}
	}
	first = min(first, h.budget.size)
	ctx, cancel := context.WithTimeout(r.Context(), h.budgetWait)
	err := h.budget.acquire(ctx, first)
	cancel()
	if err != nil {
		if r.Context().Err() != nil {
			return hb, fmt.Errorf("%w: %w", errBadBody, r.Context().Err())
		}
		return hb, h.overBudget()
	}
	hb.n = first
	if r.ContentLength > 0 {
		hb.data, err = readAll(r.Body, r.ContentLength)
	} else {
		// Unknown length (chunked, or HTTP/2 without the header): bound
		// it here. With a Content-Length (checked above) net/http's body
		// already stops there.
		hb.data, err = readGrowing(http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes), h.cfg.MaxBodyBytes, hb)
	}
	// Closed once read, net/http has nothing left to drain before it
	// writes the response.
	_ = r.Body.Close()
	hb.size = int64(len(hb.data))
	if err != nil {
		hb.release()
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return hb, fmt.Errorf("body exceeds %d bytes: %w", h.cfg.MaxBodyBytes, errBodyTooLarge)
		case errors.Is(err, errNoBudget):
			return hb, h.overBudget()
		}
		return hb, fmt.Errorf("%w: %v", errBadBody, err)
	}
	return hb, nil
}

// errNoBudget is readGrowing's failure to grow its reservation.
var errNoBudget = errors.New("no budget")

// readAll is io.ReadAll with the buffer sized from Content-Length (callers
// bound it first), so a typical request body is read into one allocation
// instead of a chain of doublings from 512 B. A body longer than announced
// is an error here: net/http stops a body at its Content-Length.
func readAll(r io.Reader, contentLength int64) ([]byte, error) {
	b := make([]byte, 0, contentLength+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			return b, errors.New("body longer than its Content-Length")
		}
	}
}

// readGrowing reads a body of unknown length into a buffer never larger
// than what hb holds, doubling the reservation (up to limit+1) when the
// buffer is full.
func readGrowing(r io.Reader, limit int64, hb *heldBody) ([]byte, error) {
	b := make([]byte, 0, hb.n)
	for {
		if len(b) == cap(b) {
			next := min(2*hb.n, limit+1, hb.b.size)
			if next <= hb.n || !hb.grow(next) {
				if next <= hb.n && hb.n > limit {
					return nil, &http.MaxBytesError{Limit: limit}
				}
				return nil, errNoBudget
			}
			nb := make([]byte, len(b), hb.n)
			copy(nb, b)
			b = nb
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
