package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"code.dny.dev/ssrf"
)

// StatusError is a non-2xx answer. It wraps ErrRateLimited for 429 and
// ErrHTTPStatus otherwise, so errors.Is on the sentinels and errors.As on
// *StatusError both work.
type StatusError struct {
	// URL is the URL that answered (after redirects).
	URL string
	// Code is the HTTP status code.
	Code int
	// RetryAfter is the server's Retry-After hint, 0 when absent.
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("%s: %d %s", e.URL, e.Code, http.StatusText(e.Code))
	if e.Code == http.StatusTooManyRequests {
		msg = fmt.Sprintf("%s: %v (429)", e.URL, ErrRateLimited)
		if e.RetryAfter > 0 {
			msg += fmt.Sprintf(", retry after %s", e.RetryAfter)
		}
	}
	return msg
}

// Unwrap returns the sentinel for the status.
func (e *StatusError) Unwrap() error {
	if e.Code == http.StatusTooManyRequests {
		return ErrRateLimited
	}
	return ErrHTTPStatus
}

// parseRetryAfter reads delay-seconds or an HTTP date (RFC 9110 section
// 10.2.3, https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3); anything else, or a value in the
// past, is no hint.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}

// classifyTransportError maps an error from the client or from reading a
// body to exactly one sentinel. ctx is the fetch's own context, whose
// deadline is the configured timeout.
func classifyTransportError(ctx context.Context, where string, err error) error {
	cause := unwrapURLError(err)
	switch {
	case errors.Is(err, ssrf.ErrProhibitedIP), errors.Is(err, ssrf.ErrProhibitedNetwork),
		errors.Is(err, ssrf.ErrProhibitedPort), errors.Is(err, ssrf.ErrInvalidHostPort):
		return fmt.Errorf("%s: %w: %v (set fetch.allow_private_networks to reach it)", where, ErrBlockedAddress, ssrfCause(err))
	case ctx.Err() != nil:
		return ctxError(ctx, where)
	case errors.Is(err, context.DeadlineExceeded), isNetTimeout(err):
		return fmt.Errorf("%s: %w: %v", where, ErrTimeout, cause)
	}
	return fmt.Errorf("%s: %w: %v", where, ErrUnreachable, cause)
}

// ctxError reports why the fetch's context ended. Cancellation by the caller
// is reported as ErrTimeout too (the fetch ran out of the time it was
// given) and also wraps context.Canceled so callers can tell them apart.
func ctxError(ctx context.Context, where string) error {
	if errors.Is(ctx.Err(), context.Canceled) && !errors.Is(context.Cause(ctx), errFetchDeadline) {
		return fmt.Errorf("%s: %w: %w", where, ErrTimeout, context.Canceled)
	}
	return fmt.Errorf("%s: %w", where, ErrTimeout)
}

// errFetchDeadline is the cause set on the fetch's timeout context, so a
// deadline is never mistaken for a caller's cancellation.
var errFetchDeadline = errors.New("fetch deadline reached")

func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// unwrapURLError drops the *url.Error layer, whose message repeats the
// method and the whole URL that the caller already names.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// ssrfCause finds the guardian's own message ("prohibited IP address: ...")
// under the dialer's layers.
func ssrfCause(err error) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch errors.Unwrap(e) {
		case ssrf.ErrProhibitedIP, ssrf.ErrProhibitedPort, ssrf.ErrProhibitedNetwork, ssrf.ErrInvalidHostPort:
			return e
		}
	}
	return unwrapURLError(err)
}
