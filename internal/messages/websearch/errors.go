package websearch

import (
	"errors"
	"fmt"

	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// The error_code values of a web_search_tool_result_error, as Anthropic's
// web search tool documentation lists them ("Errors"; the SDKs' enum
// WebSearchToolResultErrorCode has the same values). A failed search is
// answered inside a 200 response with one of them, never as an HTTP
// error, so the model can read the failure and retry or rephrase.
const (
	CodeInvalidToolInput = "invalid_tool_input"
	CodeUnavailable      = "unavailable"
	CodeMaxUsesExceeded  = "max_uses_exceeded"
	CodeTooManyRequests  = "too_many_requests"
	CodeQueryTooLong     = "query_too_long"
)

// Errors of a call refused before any search. Code maps them, and the
// errors of search, policy, guard and domains, to the codes above.
var (
	// ErrInvalidInput: the call's input has no usable query.
	ErrInvalidInput = errors.New("invalid web search input")
	// ErrMaxUsesExceeded: the definition's max_uses allows no (further)
	// search.
	ErrMaxUsesExceeded = errors.New("max_uses exceeded")
)

// errNoSearchAllowed is ErrMaxUsesExceeded for a max_uses below 1, which
// allows no search at all (see CheckMaxUses).
var errNoSearchAllowed = fmt.Errorf("%w: none allowed", ErrMaxUsesExceeded)

// CheckMaxUses refuses the only search of a request whose definition's
// max_uses (nil: unlimited) is below 1.
func CheckMaxUses(maxUses *int) error {
	if maxUses != nil && *maxUses < 1 {
		return fmt.Errorf("max_uses is %d: %w", *maxUses, errNoSearchAllowed)
	}
	return nil
}

// Code maps any failure of a web search to its error_code. It is the only
// place that mapping lives.
func Code(err error) string {
	switch {
	case errors.Is(err, policy.ErrRateLimited), errors.Is(err, policy.ErrBudget):
		// The gateway key's own limits (policy), not the provider's.
		return CodeTooManyRequests
	case errors.Is(err, policy.ErrDomain), errors.Is(err, guard.ErrSecret):
		return CodeInvalidToolInput
	case policy.IsDenial(err):
		// Tool or surface not allowed for the key: no retry will help,
		// and Anthropic has no closer code.
		return CodeUnavailable
	case errors.Is(err, search.ErrQueryTooLong):
		// Validate's limit, or a provider that said so (search reads
		// providers' words in one place, ProviderError.Is).
		return CodeQueryTooLong
	case errors.Is(err, ErrMaxUsesExceeded):
		return CodeMaxUsesExceeded
	case errors.Is(err, ErrInvalidInput), errors.Is(err, search.ErrInvalidQuery),
		errors.Is(err, domains.ErrInvalidRule), errors.Is(err, domains.ErrConflict):
		return CodeInvalidToolInput
	case errors.Is(err, search.ErrRateLimited):
		return CodeTooManyRequests
	default:
		// Auth, quota, blocked, transport failures, an exhausted chain and
		// deadlines are all "the search service can't answer right now" to
		// the model; the detail goes to the log, not to the client.
		return CodeUnavailable
	}
}

// Text is the sentence the model reads after a search for query failed
// with err. Refusals by the key's policy or the query guard carry their
// own reason.
func Text(query string, err error, maxQueryLen int) string {
	code := Code(err)
	var d *policy.Denial
	var se *guard.SecretError
	var why string
	switch {
	case errors.As(err, &d):
		return fmt.Sprintf("The web search for %q was refused (%s): %s.", query, code, d.Msg)
	case errors.As(err, &se):
		// The query is not repeated: it holds what looks like a secret.
		return fmt.Sprintf("The web search was blocked (%s): %s.", code, se.Error())
	case errors.Is(err, errNoSearchAllowed):
		why = "this request's max_uses allows no search"
	case errors.Is(err, ErrInvalidInput):
		why = `the tool input must be {"query": "<non-empty search query>"}`
	default:
		return CodeText(query, code, maxQueryLen)
	}
	return fmt.Sprintf("The web search for %q failed (%s): %s.", query, code, why)
}

// CodeText is the sentence the model reads after a search for query
// failed with code, when only the code is known: a failed result restored
// from a client's history, or a call beyond max_uses.
func CodeText(query, code string, maxQueryLen int) string {
	var why string
	switch code {
	case CodeQueryTooLong:
		why = fmt.Sprintf("the query is longer than %d characters; search again with a shorter query", maxQueryLen)
	case CodeMaxUsesExceeded:
		why = "this request allows no more web searches; answer with the results you already have"
	case CodeInvalidToolInput:
		why = "the query or its domain filters were rejected; check that allowed_domains and blocked_domains are not both set and hold bare domains such as example.com"
	case CodeTooManyRequests:
		why = "the search provider is rate limiting requests; wait a moment before searching again"
	default:
		why = "the search service is temporarily unavailable; try again shortly"
	}
	return fmt.Sprintf("The web search for %q failed (%s): %s.", query, code, why)
}
