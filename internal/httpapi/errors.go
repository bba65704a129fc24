package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// badRequest is an invalid-input error detected by the API itself.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

// tooLarge marks a body over the size limit.
var errTooLarge = errors.New("request body too large")

// writeError is the one place where the API maps errors to HTTP statuses
// and error types (WriteError for other packages, writeErrorBody for the
// body, writeJSON for success bodies).
//
//	400 invalid_request      bad parameters or body, or a query a provider rejected
//	400 secret_detected      the query guard found a secret in the query or URL
//	401 authentication_error missing or invalid API key (WWW-Authenticate: Bearer, RFC 6750 section 3)
//	403 surface_not_allowed  the key may not use the JSON API
//	403 tool_not_allowed     the key may not search (or fetch)
//	403 domain_not_allowed   the request's domains are outside the key's
//	413 request_too_large    body over server.max_request_bytes
//	429 rate_limited         the key's rate limit, or every provider's (with Retry-After)
//	429 budget_exhausted     the key's daily search budget (Retry-After: until midnight UTC)
//	499 -                    client went away (nothing is written; 499 is nginx's convention, not an HTTP status)
//	502 provider_error       every provider failed (auth, quota, blocked, 5xx)
//	503 no_providers         no provider configured or all breakers open
//	504 timeout              the search deadline passed
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var br *badRequest
	var mbe *http.MaxBytesError
	var denial *policy.Denial
	switch {
	case errors.As(err, &denial):
		status := http.StatusForbidden
		typ := denial.ErrorType()
		switch {
		case errors.Is(err, policy.ErrNoKey), errors.Is(err, policy.ErrBadKey):
			status, typ = http.StatusUnauthorized, "authentication_error"
			w.Header().Set("WWW-Authenticate", `Bearer realm="webgate"`)
		case errors.Is(err, policy.ErrRateLimited), errors.Is(err, policy.ErrBudget):
			status = http.StatusTooManyRequests
		}
		writeErrorBody(w, status, typ, denial.Msg, max(denial.RetryAfter, 0))
	case errors.Is(err, guard.ErrSecret):
		writeErrorBody(w, http.StatusBadRequest, "secret_detected", err.Error(), 0)
	case errors.As(err, &br):
		writeErrorBody(w, http.StatusBadRequest, "invalid_request", br.msg, 0)
	case errors.As(err, &mbe), errors.Is(err, errTooLarge):
		writeErrorBody(w, http.StatusRequestEntityTooLarge, "request_too_large", "request body is larger than the server allows", 0)
	case errors.Is(err, search.ErrInvalidQuery):
		writeErrorBody(w, http.StatusBadRequest, "invalid_request", err.Error(), 0)
	case r.Context().Err() != nil:
		// The client is gone; there is no one to answer.
		a.log.DebugContext(r.Context(), "client went away", "path", r.URL.Path, "err", err)
	case errors.Is(err, context.DeadlineExceeded):
		writeErrorBody(w, http.StatusGatewayTimeout, "timeout", err.Error(), 0)
	case errors.Is(err, search.ErrNoProviders):
		writeErrorBody(w, http.StatusServiceUnavailable, "no_providers", err.Error(), search.RetryAfterOf(err))
	case onlyRateLimited(err):
		wait := search.RetryAfterOf(err)
		if wait <= 0 {
			wait = time.Second // Retry-After is promised on every 429
		}
		writeErrorBody(w, http.StatusTooManyRequests, "rate_limited", err.Error(), wait)
	default:
		a.log.WarnContext(r.Context(), "search failed", "err", err)
		writeErrorBody(w, http.StatusBadGateway, "provider_error", err.Error(), 0)
	}
}

// onlyRateLimited reports whether the failure was rate limits alone; a mix
// with auth or outage errors is a provider failure that waiting won't fix.
func onlyRateLimited(err error) bool {
	return errors.Is(err, search.ErrRateLimited) &&
		!errors.Is(err, search.ErrAuth) && !errors.Is(err, search.ErrQuota) &&
		!errors.Is(err, search.ErrBlocked) && !errors.Is(err, search.ErrUnavailable)
}

// WriteError writes err (typically a policy refusal raised before the API
// runs, by the server's authentication) exactly as the API's own handlers
// would.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	(&API{log: slog.New(slog.DiscardHandler)}).writeError(w, r, err)
}
