package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// This file is the one place where the MCP surface turns errors into text
// for the model. Each message says what happened and what to do next.

// searchErrorText explains a failed search.
func searchErrorText(err error) string {
	if text, ok := refusalText("web_search", err); ok {
		return text
	}
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

// refusalText explains a refusal by the key's policy or the query guard,
// which no retry fixes except waiting out a limit.
func refusalText(tool string, err error) (string, bool) {
	var d *policy.Denial
	switch {
	case errors.As(err, &d) && (errors.Is(err, policy.ErrRateLimited) || errors.Is(err, policy.ErrBudget)):
		return fmt.Sprintf("%s was refused: %s. Wait %d seconds before calling %s again; meanwhile answer from what you already have.",
			tool, d.Msg, int(math.Ceil(d.RetryAfter.Seconds())), tool), true
	case errors.As(err, &d):
		return fmt.Sprintf("%s was refused by the gateway's policy for this API key: %s. Retrying will not help; tell the user if the task needs it.", tool, d.Msg), true
	case errors.Is(err, guard.ErrSecret):
		return fmt.Sprintf("%s was blocked: %v. Never put credentials, tokens or internal host names in web searches or URLs.", tool, err), true
	}
	return "", false
}

// fetchHint is the advice appended to a failed fetch, by error type.
func fetchHint(err error) string {
	var se *fetch.StatusError
	if _, ok := refusalText("web_fetch", err); ok {
		switch fetch.ErrorType(err) {
		case "rate_limited", "budget_exhausted":
			return fmt.Sprintf("This API key's rate limit is used up; wait %d seconds before fetching again.", int(math.Ceil(policy.RetryAfterOf(err).Seconds())))
		case "secret_detected":
			return "Never put credentials, tokens or internal host names in URLs."
		}
		return "The gateway's policy for this API key does not allow this; retrying will not help."
	}
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

// WriteError (the name every surface gives the writer that server's
// authentication calls) answers an MCP request over HTTP that was refused
// before reaching the MCP server (a missing or invalid key, a key not allowed on
// MCP, or over its rate limit), the way MCP clients expect from a
// protected resource (MCP, Authorization, "Error Handling":
// https://modelcontextprotocol.io/specification/2025-06-18/basic/authorization#error-handling;
// RFC 6750 section 3, https://www.rfc-editor.org/rfc/rfc6750#section-3,
// as the official SDKs do): a status, a WWW-Authenticate challenge on 401
// and 403 with RFC 6750's error codes, and an OAuth-style JSON error body.
func WriteError(w http.ResponseWriter, _ *http.Request, err error) {
	status, code := http.StatusForbidden, "insufficient_scope"
	var d *policy.Denial
	msg := err.Error()
	if errors.As(err, &d) {
		msg = d.Msg
	}
	switch {
	case errors.Is(err, policy.ErrNoKey), errors.Is(err, policy.ErrBadKey):
		status, code = http.StatusUnauthorized, "invalid_token"
	case errors.Is(err, policy.ErrRateLimited), errors.Is(err, policy.ErrBudget):
		status, code = http.StatusTooManyRequests, "rate_limited"
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(policy.RetryAfterOf(err).Seconds()))))
	case !policy.IsDenial(err):
		status, code = http.StatusInternalServerError, "server_error"
	}
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="webgate", error=%q, error_description=%q`, code, msg))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": msg})
}
