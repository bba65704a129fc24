package proxy

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/webgate/webgate/internal/messages/emulate"
	upstream "github.com/webgate/webgate/internal/messages/upstream/anthropic"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/policy"
)

// ErrOverloaded is a request refused because webgate is at one of its
// capacity limits (concurrent requests, request bytes held in memory). It
// is answered as Anthropic answers when its API is overloaded: 529
// overloaded_error, with Retry-After, which Anthropic's SDKs and Claude
// Code retry.
var ErrOverloaded = errors.New("webgate is overloaded")

// overloadedRetryAfter is the Retry-After of an ErrOverloaded answer.
const overloadedRetryAfter = time.Second

// Errors of the HTTP surface, mapped by apiError.
var (
	errBodyTooLarge        = errors.New("request body too large")
	errBadBody             = errors.New("request body could not be read")
	errNotFound            = errors.New("not found")
	errUpstreamUnreachable = errors.New("upstream unreachable")
)

// apiError maps a failure of the HTTP surface (before or instead of an
// upstream response) to a status and Anthropic's error envelope. It is the
// only place that mapping lives; upstream error responses are never
// rewritten and pass through with their own status and body.
func apiError(err error) (int, wire.ErrorResponse) {
	var mbe *http.MaxBytesError
	var d *policy.Denial
	var se *emulate.StreamError
	switch {
	case errors.Is(err, policy.ErrNoKey), errors.Is(err, policy.ErrBadKey):
		return http.StatusUnauthorized, wire.NewError("authentication_error", d2msg(err))
	case errors.Is(err, policy.ErrRateLimited), errors.Is(err, policy.ErrBudget):
		return http.StatusTooManyRequests, wire.NewError("rate_limit_error", d2msg(err))
	case errors.As(err, &d):
		return http.StatusForbidden, wire.NewError("permission_error", d.Msg)
	case errors.Is(err, errBodyTooLarge), errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge, wire.NewError("request_too_large", err.Error())
	case errors.Is(err, errBadBody), errors.Is(err, wire.ErrInvalidRequest),
		errors.Is(err, emulate.ErrInvalidRequest), errors.Is(err, emulate.ErrInvalidHistory):
		return http.StatusBadRequest, wire.NewError("invalid_request_error", err.Error())
	case errors.As(err, &se):
		status, ok := se.Status, se.Status != 0
		if !ok {
			status, ok = streamErrorStatus[se.Type]
		}
		if !ok {
			status = http.StatusInternalServerError
		}
		return status, wire.NewError(se.Type, se.Message)
	case errors.Is(err, errNotFound):
		return http.StatusNotFound, wire.NewError("not_found_error", err.Error())
	case errors.Is(err, ErrOverloaded):
		return statusOverloaded, wire.NewError("overloaded_error", err.Error())
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return http.StatusGatewayTimeout, wire.NewError("api_error", "upstream timed out")
	case errors.Is(err, errUpstreamUnreachable):
		// The underlying error may name internal hosts; keep it in logs.
		return http.StatusBadGateway, wire.NewError("api_error", "upstream unreachable")
	default:
		return http.StatusInternalServerError, wire.NewError("api_error", "internal error")
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// isEmulationError reports an error of the emulation that carries its
// own answer (mapped by apiError or relayed by writeError).
func isEmulationError(err error) bool {
	var ue *emulate.UpstreamError
	var se *emulate.StreamError
	return errors.As(err, &ue) || errors.As(err, &se) ||
		errors.Is(err, emulate.ErrInvalidRequest) || errors.Is(err, emulate.ErrInvalidHistory)
}

// streamErrorStatus is the HTTP status of each Anthropic error type, for
// an emulated turn that failed before anything was sent.
var streamErrorStatus = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"timeout_error":         http.StatusGatewayTimeout,
	"overloaded_error":      statusOverloaded,
}

// statusOverloaded is the status Anthropic's API answers overloaded_error
// with.
const statusOverloaded = 529

// d2msg is a refusal's message for the caller.
func d2msg(err error) string {
	var d *policy.Denial
	if errors.As(err, &d) {
		return d.Msg
	}
	return err.Error()
}

// WriteError writes err (typically a refusal by the server's
// authentication, before the proxy runs) as an Anthropic error response,
// with Retry-After on rate limits.
func WriteError(w http.ResponseWriter, _ *http.Request, err error) { writeError(w, err) }

// writeError writes err as an Anthropic error response. An upstream's own
// error answer to an emulated turn is relayed with its status, headers and
// body, as passthrough relays it.
func writeError(w http.ResponseWriter, err error) {
	var ue *emulate.UpstreamError
	if errors.As(err, &ue) {
		dst := w.Header()
		for k, v := range upstream.CleanHeader(ue.Header) {
			if k != "Content-Length" {
				dst[k] = v
			}
		}
		w.WriteHeader(ue.Status)
		_, _ = w.Write(ue.Body)
		return
	}
	status, body := apiError(err)
	b, _ := wire.Marshal(body)
	h := w.Header()
	ra := policy.RetryAfterOf(err)
	if errors.Is(err, ErrOverloaded) {
		ra = overloadedRetryAfter
	}
	if ra > 0 {
		h.Set("Retry-After", strconv.Itoa(int((ra+time.Second-1)/time.Second)))
	}
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
