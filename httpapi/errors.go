package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/webgate/webgate/search"
)

// badRequest is an invalid-input error detected by the API itself.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

// tooLarge marks a body over the size limit.
var errTooLarge = errors.New("request body too large")

// writeErr is the one place where the API maps errors to HTTP statuses and
// error types.
//
//	400 invalid_request   bad parameters or body, or a query a provider rejected
//	413 request_too_large body over server.max_request_bytes
//	429 rate_limited      every provider is rate limiting (with Retry-After)
//	499 -                 client went away (nothing is written)
//	502 provider_error    every provider failed (auth, quota, blocked, 5xx)
//	503 no_providers      no provider configured or all breakers open
//	504 timeout           the search deadline passed
func (a *API) writeErr(w http.ResponseWriter, r *http.Request, err error) {
	var br *badRequest
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &br):
		writeError(w, http.StatusBadRequest, "invalid_request", br.msg, 0)
	case errors.As(err, &mbe), errors.Is(err, errTooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, "request_too_large", "request body is larger than the server allows", 0)
	case errors.Is(err, search.ErrInvalidQuery):
		writeError(w, http.StatusBadRequest, "invalid_request", err.Error(), 0)
	case r.Context().Err() != nil:
		// The client is gone; there is no one to answer.
		a.log.DebugContext(r.Context(), "client went away", "path", r.URL.Path, "err", err)
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "timeout", err.Error(), 0)
	case errors.Is(err, search.ErrNoProviders):
		writeError(w, http.StatusServiceUnavailable, "no_providers", err.Error(), search.RetryAfterOf(err))
	case onlyRateLimited(err):
		wait := search.RetryAfterOf(err)
		if wait <= 0 {
			wait = time.Second // Retry-After is promised on every 429
		}
		writeError(w, http.StatusTooManyRequests, "rate_limited", err.Error(), wait)
	default:
		a.log.WarnContext(r.Context(), "search failed", "err", err)
		writeError(w, http.StatusBadGateway, "provider_error", err.Error(), 0)
	}
}

// onlyRateLimited reports whether the failure was rate limits alone; a mix
// with auth or outage errors is a provider failure that waiting won't fix.
func onlyRateLimited(err error) bool {
	return errors.Is(err, search.ErrRateLimited) &&
		!errors.Is(err, search.ErrAuth) && !errors.Is(err, search.ErrQuota) &&
		!errors.Is(err, search.ErrBlocked) && !errors.Is(err, search.ErrUnavailable)
}
