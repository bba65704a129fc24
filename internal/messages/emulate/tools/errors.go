package tools

import (
	"errors"
	"fmt"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
)

// The error codes of a web_fetch_tool_result error, as Anthropic's web
// fetch tool documentation lists them. The web_search tool's, and the
// mapping of a failed search to them, are package websearch's.
const (
	CodeInvalidToolInput       = "invalid_tool_input"
	CodeUnavailable            = "unavailable"
	CodeMaxUsesExceeded        = "max_uses_exceeded"
	CodeTooManyRequests        = "too_many_requests"
	CodeURLTooLong             = "url_too_long"
	CodeURLNotAllowed          = "url_not_allowed"
	CodeURLNotInPriorContext   = "url_not_in_prior_context"
	CodeURLNotAccessible       = "url_not_accessible"
	CodeUnsupportedContentType = "unsupported_content_type"
	CodeContentTooLarge        = "content_too_large"
)

// fetchErrorCode maps a failed fetch to its error code: the one place the
// emulated web fetch tool makes that mapping.
func fetchErrorCode(err error) string {
	switch {
	case errors.Is(err, policy.ErrRateLimited), errors.Is(err, policy.ErrBudget):
		return CodeTooManyRequests
	case errors.Is(err, policy.ErrDomain), errors.Is(err, guard.ErrSecret):
		// The key's policy forbids the domain, or the URL carries what
		// looks like a secret: either way the URL may not be fetched.
		return CodeURLNotAllowed
	case errors.Is(err, fetch.ErrInvalidURL), errors.Is(err, fetch.ErrInvalidRequest):
		return CodeInvalidToolInput
	case errors.Is(err, fetch.ErrURLTooLong):
		return CodeURLTooLong
	case errors.Is(err, fetch.ErrBlockedAddress), errors.Is(err, fetch.ErrRobots):
		// Anthropic's url_not_allowed covers its own restrictions such as
		// private addresses and robots.txt.
		return CodeURLNotAllowed
	case errors.Is(err, fetch.ErrRateLimited):
		return CodeTooManyRequests
	case errors.Is(err, fetch.ErrUnsupportedContentType):
		return CodeUnsupportedContentType
	case errors.Is(err, fetch.ErrTooLarge):
		return CodeContentTooLarge
	case errors.Is(err, fetch.ErrHTTPStatus), errors.Is(err, fetch.ErrUnreachable),
		errors.Is(err, fetch.ErrTimeout), errors.Is(err, fetch.ErrTooManyRedirects),
		errors.Is(err, fetch.ErrBadContent):
		return CodeURLNotAccessible
	default:
		return CodeUnavailable
	}
}

// fetchErrorText is the sentence the model reads after a failed fetch.
func fetchErrorText(url, code string) string {
	var why string
	switch code {
	case CodeInvalidToolInput:
		why = `the tool input must be {"url": "<absolute http or https URL>"}`
	case CodeURLTooLong:
		why = fmt.Sprintf("URLs longer than %d characters cannot be fetched", maxFetchURLLen)
	case CodeURLNotAllowed:
		why = "the URL is outside the domains this request allows, or the site does not allow automated access"
	case CodeURLNotInPriorContext:
		why = "only URLs that appeared earlier in the conversation (from the user, a tool result, or search and fetch results) can be fetched; search for the page first"
	case CodeURLNotAccessible:
		why = "the site could not be reached or answered with an error"
	case CodeTooManyRequests:
		why = "the site is rate limiting requests; try again later"
	case CodeUnsupportedContentType:
		why = "only HTML, text and PDF documents can be fetched"
	case CodeContentTooLarge:
		why = "the document is too large to fetch"
	case CodeMaxUsesExceeded:
		why = "this request allows no more fetches; answer with what you already have"
	default:
		why = "the fetch service is temporarily unavailable; try again shortly"
	}
	if url == "" {
		return fmt.Sprintf("The web fetch failed (%s): %s.", code, why)
	}
	return fmt.Sprintf("Fetching %s failed (%s): %s.", url, code, why)
}
