package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/webgate/webgate/fetch"
	"github.com/webgate/webgate/search"
)

// This file is the one place where the MCP surface turns errors into text
// for the model. Each message says what happened and what to do next.

// searchErrorText explains a failed search.
func searchErrorText(err error) string {
	switch {
	case errors.Is(err, search.ErrInvalidQuery):
		return fmt.Sprintf("web_search rejected the query: %v. Fix the arguments and call web_search again.", err)
	case errors.Is(err, context.Canceled):
		return "web_search was cancelled before it finished."
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("web_search timed out (%v). Retry once, perhaps with a shorter query; if it times out again, tell the user web search is slow or unavailable.", err)
	case errors.Is(err, search.ErrNoProviders):
		return fmt.Sprintf("No search provider is available right now (%v). Do not retry immediately; answer from what you know and tell the user web search is unavailable.", err)
	case onlyRateLimited(err):
		wait := search.RetryAfterOf(err)
		if wait <= 0 {
			return fmt.Sprintf("Every search provider is rate limiting requests (%v). Wait a little before searching again, and search less often.", err)
		}
		return fmt.Sprintf("Every search provider is rate limiting requests (%v). Wait %d seconds before calling web_search again.", err, int(math.Ceil(wait.Seconds())))
	}
	return fmt.Sprintf("web_search failed: every search provider returned an error (%v). Retry once; if it fails again, tell the user web search is unavailable and answer from what you know.", err)
}

// onlyRateLimited reports whether the providers failed because of rate
// limits rather than anything a retry would not fix.
func onlyRateLimited(err error) bool {
	return errors.Is(err, search.ErrRateLimited) &&
		!errors.Is(err, search.ErrAuth) && !errors.Is(err, search.ErrQuota) &&
		!errors.Is(err, search.ErrBlocked) && !errors.Is(err, search.ErrUnavailable)
}

// fetchHint is the advice appended to a failed fetch, by error type.
func fetchHint(err error) string {
	var se *fetch.StatusError
	switch fetch.ErrorType(err) {
	case "invalid_url", "url_too_long":
		return "Pass a complete http:// or https:// URL."
	case "invalid_request":
		return "Fix the arguments (format must be markdown, text, html or raw; lengths must not be negative) and call again."
	case "blocked_address":
		return "The address is on a private or reserved network, which webgate does not fetch. Use a public URL."
	case "robots_disallowed":
		return "The site's robots.txt forbids automated access to this page. Find the information elsewhere with web_search."
	case "too_many_redirects":
		return "The page redirects in a loop. Try the site's home page or find the page with web_search."
	case "too_large":
		return "The document is larger than webgate's size limit. Look for a smaller or more specific page."
	case "timeout":
		return "The site did not answer in time. Retry once later or use another source."
	case "rate_limited":
		return "The site is rate limiting webgate. Do not retry now; use another source."
	case "http_status":
		if errors.As(err, &se) && (se.Code == 404 || se.Code == 410) {
			return "The page does not exist. Check the URL, or find the current page with web_search."
		}
		if errors.As(err, &se) && (se.Code == 401 || se.Code == 403) {
			return "The site refuses access without login or blocks automated clients. Use another source."
		}
		return "The site returned an error. Retry once later or use another source."
	case "unsupported_content_type":
		return "The URL is a binary file that cannot be turned into text. Look for an HTML or PDF version."
	case "unreachable":
		return "The site could not be reached (DNS, connection or TLS failure). Check the domain for typos or use another source."
	case "bad_content":
		return "The content could not be decoded. Try another format or another source."
	case "canceled":
		return "The request was cancelled."
	}
	return "Try another source."
}
