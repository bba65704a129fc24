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

// acquire takes n bytes, waiting while ctx allows.
func (b *bodyBudget) acquire(ctx context.Context, n int64) error {
	if err := b.sem.Acquire(ctx, n); err != nil {
		return err
	}
	b.used.Add(n)
	return nil
}

func (b *bodyBudget) release(n int64) {
	if n > 0 {
		b.used.Add(-n)
		b.sem.Release(n)
	}
}

// heldBody is a request body and the budget it holds. Release is
// idempotent; the handler's goroutine alone uses it.
type heldBody struct {
	b    *bodyBudget
	n    int64
	data []byte
	// size is the body's length, kept after data is dropped.
	size int64
}

// turnCost is what an emulated turn is charged, in multiples of its
// body: it holds the conversation (the decoded request's raw messages)
// and, while the upstream answers, the upstream request built from it.
// BenchmarkBodyLiveHeap measures it: 2.0 times the body on both
// upstream kinds (passthrough: 1.0).
const turnCost = 2

// chargeTurn takes the rest of an emulated turn's budget (turnCost times
// its body, at most the whole budget, so any accepted body can run).
func (h *Handler) chargeTurn(r *http.Request, held *heldBody) error {
	extra := min(turnCost*held.size, h.budget.size) - held.n
	if extra <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.budgetWait)
	defer cancel()
	if err := h.budget.acquire(ctx, extra); err != nil {
		if r.Context().Err() != nil {
			return fmt.Errorf("%w: %w", errBadBody, r.Context().Err())
		}
		return h.overBudget()
	}
	held.n += extra
	return nil
}

func (h *Handler) overBudget() error {
	return fmt.Errorf("%w: the request bodies held at once are at upstream.max_body_bytes_in_flight (%d bytes); retry shortly", ErrOverloaded, h.budget.size)
}

func (h *heldBody) release() {
	if h.b != nil {
		h.b.release(h.n)
		h.n = 0
	}
}

// budgetStep is the first reservation for a body of unknown length;
// each further one doubles what is held, up to max_body_bytes.
const budgetStep = 64 << 10

// readBody reads the whole body, bounded by max_body_bytes, holding body
// budget for it: the announced length before reading, or for a body of
// unknown length (chunked) growing reservations as it arrives. The proxy
// must hold the body to classify the request, and forwarding the held
// bytes is what keeps passthrough byte-faithful. The caller releases the
// budget once it no longer needs the bytes.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) (*heldBody, error) {
	hb := &heldBody{b: h.budget}
	if r.Body == nil || r.Body == http.NoBody {
		return hb, nil
	}
	if r.ContentLength > h.cfg.MaxBodyBytes {
		return hb, fmt.Errorf("body is %d bytes, limit %d: %w", r.ContentLength, h.cfg.MaxBodyBytes, errBodyTooLarge)
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.budgetWait)
	defer cancel()
	grow := func(n int64) error {
		if err := h.budget.acquire(ctx, n); err != nil {
			if r.Context().Err() != nil {
				return fmt.Errorf("%w: %w", errBadBody, r.Context().Err())
			}
			return h.overBudget()
		}
		hb.n += n
		return nil
	}
	body := r.Body
	var err error
	if r.ContentLength > 0 {
		// One spare byte lets the final Read see EOF without growing.
		if err = grow(r.ContentLength + 1); err != nil {
			return hb, err
		}
		hb.data, err = readAll(body, r.ContentLength)
	} else {
		// Unknown length (chunked, or HTTP/2 without the header): bound
		// it here. With a Content-Length (checked above) net/http's body
		// already stops there.
		body = http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes)
		hb.data, err = readGrowing(body, h.cfg.MaxBodyBytes, hb.n, grow)
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
		case errors.Is(err, ErrOverloaded), errors.Is(err, errBadBody):
			return hb, err
		}
		return hb, fmt.Errorf("%w: %v", errBadBody, err)
	}
	return hb, nil
}

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

// readGrowing reads a body of unknown length, calling grow for more
// budget before the buffer outgrows what is held (held bytes so far), so
// the budget always covers the buffer.
func readGrowing(r io.Reader, limit, held int64, grow func(int64) error) ([]byte, error) {
	var b []byte
	for {
		if int64(len(b)) == held {
			step := max(held, budgetStep)
			step = min(step, limit+1-held)
			if step <= 0 {
				step = 1
			}
			if err := grow(step); err != nil {
				return nil, err
			}
			held += step
			nb := make([]byte, len(b), held)
			copy(nb, b)
			b = nb
		}
		n, err := r.Read(b[len(b):held])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
