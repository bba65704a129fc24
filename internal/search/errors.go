package search

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinel error kinds. Providers wrap exactly one of them (usually through
// *ProviderError) so callers can use errors.Is without knowing the backend.
var (
	// ErrAuth means the credentials were missing, wrong or revoked.
	ErrAuth = errors.New("authentication failed")
	// ErrRateLimited means the provider asked us to slow down; see
	// ProviderError.RetryAfter.
	ErrRateLimited = errors.New("rate limited")
	// ErrQuota means a plan or billing quota is exhausted; retrying soon will
	// not help.
	ErrQuota = errors.New("quota exhausted")
	// ErrBlocked means the provider refused to serve us, for example
	// DuckDuckGo's bot "anomaly" page. It is not the same as "no results".
	ErrBlocked = errors.New("blocked by provider")
	// ErrUnavailable means a transport failure, timeout, 5xx or a response we
	// could not parse.
	ErrUnavailable = errors.New("provider unavailable")
	// ErrInvalidQuery means the query itself was rejected (empty, too long,
	// bad options). It is never retried or failed over.
	ErrInvalidQuery = errors.New("invalid query")
	// ErrQueryTooLong is the kind of ErrInvalidQuery that a shorter query
	// fixes. errors.Is finds it through the error that carries the
	// rejection: a *ValidationError with a "query" ProblemTooLong, or a
	// *ProviderError whose provider rejected the query as too long. The
	// Anthropic Messages surfaces answer it with query_too_long.
	ErrQueryTooLong = errors.New("query too long")
	// ErrNoProviders means the engine had nothing to ask, e.g. every breaker
	// is open or the named provider is not configured.
	ErrNoProviders = errors.New("no search provider available")
)

// ProviderError is the error a Provider returns for a failed request.
type ProviderError struct {
	// Provider is the provider's Name.
	Provider string
	// Kind is one of the sentinel errors above.
	Kind error
	// Status is the HTTP status, when there was a response.
	Status int
	// RetryAfter is how long the provider asked us to wait, when it said.
	RetryAfter time.Duration
	// Err is the underlying cause, if any.
	Err error
}

func (e *ProviderError) Error() string {
	msg := e.Provider + ": " + e.Kind.Error()
	if e.Status != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(", retry after %s", e.RetryAfter.Round(time.Second))
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap exposes both the kind and the cause to errors.Is / errors.As.
func (e *ProviderError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// Is makes errors.Is(err, ErrQueryTooLong) true for a provider's
// rejection of the query (Kind ErrInvalidQuery) that says the query is too
// long. Providers have no code for that, only words in their 400 answer,
// so this is the one place webgate reads them.
func (e *ProviderError) Is(target error) bool {
	return target == ErrQueryTooLong && e.Kind == ErrInvalidQuery && e.Err != nil && saysTooLong(e.Err.Error())
}

// saysTooLong reports whether a provider's message rejects a query for its
// length.
func saysTooLong(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "too long") || strings.Contains(m, "too many characters") || strings.Contains(m, "query length")
}

// Retryable reports whether trying the same provider again may succeed.
func Retryable(err error) bool {
	return errors.Is(err, ErrRateLimited) || errors.Is(err, ErrUnavailable)
}

// RetryAfterOf returns the provider-requested wait carried by err, or 0.
func RetryAfterOf(err error) time.Duration {
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe.RetryAfter
	}
	return 0
}

// StatusError classifies a non-2xx HTTP response from a provider into a
// *ProviderError. Providers call it for every unexpected status so the
// mapping from HTTP to error kinds lives in one place; body is a short
// excerpt of the response used only for the message.
func StatusError(provider string, resp *http.Response, body []byte) *ProviderError {
	e := &ProviderError{Provider: provider, Status: resp.StatusCode}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		e.Kind = ErrAuth
	case resp.StatusCode == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		e.RetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	case resp.StatusCode == http.StatusPaymentRequired:
		e.Kind = ErrQuota
	case resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnprocessableEntity:
		e.Kind = ErrInvalidQuery
	default:
		e.Kind = ErrUnavailable
		if ra := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ra > 0 {
			e.RetryAfter = ra
		}
	}
	if msg := excerpt(body); msg != "" {
		e.Err = errors.New(msg)
	}
	return e
}

// ParseRetryAfter parses an HTTP Retry-After value (delta-seconds or an
// HTTP date) relative to now. It returns 0 for empty or invalid values and
// caps the result at one hour so a hostile header cannot park a provider.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.Atoi(v); err == nil {
		if secs <= 0 {
			return 0
		}
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d < 0 {
		return 0
	}
	return min(d, time.Hour)
}

// excerpt trims a response body to a single short line for error messages.
func excerpt(b []byte) string {
	const max = 200
	s := make([]rune, 0, max)
	for _, r := range string(b) {
		if len(s) >= max {
			s = append(s, '…')
			break
		}
		if r == '\n' || r == '\r' || r == '\t' {
			r = ' '
		}
		s = append(s, r)
	}
	return string(trimSpace(s))
}

func trimSpace(s []rune) []rune {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == ' ' {
		s = s[:len(s)-1]
	}
	return s
}
