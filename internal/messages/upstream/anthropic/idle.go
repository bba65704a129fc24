package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// IdleError is the cause of an upstream reply cut because the upstream
// sent nothing for D once it had begun answering. Anthropic's API sends a
// ping at least every few seconds while a stream is open (ping events:
// https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types), so a silence
// of response_header_timeout (default 10m) is a dead connection, not a
// model thinking.
type IdleError struct{ D time.Duration }

func (e *IdleError) Error() string { return fmt.Sprintf("the upstream sent nothing for %s", e.D) }

// Timeout reports true: an IdleError is a timeout, as net.Error defines.
func (e *IdleError) Timeout() bool { return true }

// idleBody is an upstream response body whose every Read is bounded by d:
// when one waits longer, the upstream request is cancelled with an
// IdleError, which that Read (and every later one) returns. Only time
// spent waiting on the upstream counts, not time the reader takes
// between reads.
type idleBody struct {
	rc     io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	d      time.Duration
	t      *time.Timer
}

// newIdleBody guards rc, the body of a request made with ctx, which
// cancel cancels.
func newIdleBody(ctx context.Context, cancel context.CancelCauseFunc, rc io.ReadCloser, d time.Duration) *idleBody {
	b := &idleBody{rc: rc, ctx: ctx, cancel: cancel, d: d}
	b.t = time.AfterFunc(d, func() { cancel(&IdleError{D: d}) })
	b.t.Stop()
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.t.Reset(b.d)
	n, err := b.rc.Read(p)
	b.t.Stop()
	if err != nil && !errors.Is(err, io.EOF) {
		var ie *IdleError
		if cause := context.Cause(b.ctx); errors.As(cause, &ie) {
			err = ie
		}
	}
	return n, err
}

// Close closes the body and releases the request's context.
func (b *idleBody) Close() error {
	b.t.Stop()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
