package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// Tool error codes, as Anthropic defines them for web_search_tool_result
// and web_fetch_tool_result errors.
const (
	CodeInvalidToolInput       = "invalid_tool_input"
	CodeUnavailable            = "unavailable"
	CodeMaxUsesExceeded        = "max_uses_exceeded"
	CodeTooManyRequests        = "too_many_requests"
	CodeQueryTooLong           = "query_too_long"
	CodeURLTooLong             = "url_too_long"
	CodeURLNotAllowed          = "url_not_allowed"
	CodeURLNotInPriorContext   = "url_not_in_prior_context"
	CodeURLNotAccessible       = "url_not_accessible"
	CodeUnsupportedContentType = "unsupported_content_type"
	CodeContentTooLarge        = "content_too_large"
)

// searchErrorCode maps a failed search to its error code: the one place
// the emulated web search tool makes that mapping. A failure is reported
// inside a 200 response, so the model can read it and retry or rephrase.
func searchErrorCode(err error) string {
	switch {
	case errors.Is(err, policy.ErrRateLimited), errors.Is(err, policy.ErrBudget):
		// The gateway key's own limits (policy), not the provider's.
		return CodeTooManyRequests
	case errors.Is(err, policy.ErrDomain), errors.Is(err, guard.ErrSecret):
		return CodeInvalidToolInput
	case errors.Is(err, search.ErrInvalidQuery) && mentionsLength(err):
		// search has no dedicated sentinel for length; providers reject
		// long queries with a 400 whose message says so.
		return CodeQueryTooLong
	case errors.Is(err, search.ErrInvalidQuery):
		return CodeInvalidToolInput
	case errors.Is(err, search.ErrRateLimited):
		return CodeTooManyRequests
	default:
		// Auth, quota, blocked, transport failures, an exhausted chain and
		// deadlines are all "the search service can't answer right now";
		// the detail goes to the log.
		return CodeUnavailable
	}
}

func mentionsLength(err error) bool {
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "too long") || strings.Contains(m, "too many characters") || strings.Contains(m, "query length")
}

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

// searchErrorText is the sentence the model reads after a failed search.
func searchErrorText(query, code string, maxQueryLen int) string {
	var why string
	switch code {
	case CodeQueryTooLong:
		why = fmt.Sprintf("the query is longer than %d characters; search again with a shorter query", maxQueryLen)
	case CodeMaxUsesExceeded:
		why = "this request allows no more web searches; answer with the results you already have"
	case CodeInvalidToolInput:
		why = `the tool input must be {"query": "<non-empty search query>"}`
	case CodeTooManyRequests:
		why = "the search provider is rate limiting requests; wait a moment before searching again"
	default:
		why = "the search service is temporarily unavailable; try again shortly"
	}
	return fmt.Sprintf("The web search for %q failed (%s): %s.", query, code, why)
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
