package fetch

import (
	"context"
	"encoding/json"
	"errors"
)

// JSONResult is the stable JSON shape of one fetched URL, shared by
// `webgate fetch --json`, the HTTP API's POST /v1/fetch and the
// structured content of the MCP web_fetch tool, so a script can switch
// surfaces without re-parsing.
//
// A success carries every page field (url, final_url, status,
// content_type, title, content, truncated, next_start_index); a failure
// carries only url and error. MarshalJSON enforces that split.
type JSONResult struct {
	URL            string `json:"url"`
	FinalURL       string `json:"final_url"`
	Status         int    `json:"status"`
	ContentType    string `json:"content_type"`
	Title          string `json:"title"`
	Content        string `json:"content"`
	Truncated      bool   `json:"truncated"`
	NextStartIndex int    `json:"next_start_index"`
	// Incomplete is Result.Incomplete: the page was too large to
	// extract whole; omitted when false.
	Incomplete bool `json:"incomplete,omitempty"`
	// Injection is Result.Injection: passages flagged as likely prompt
	// injections, omitted when there are none.
	Injection []InjectionFlag `json:"injection,omitempty"`
	// Paywalled is Result.Metadata.Paywalled: the publisher marks the
	// page's article as for subscribers only, so the content may be only
	// its free part; omitted when false.
	Paywalled bool `json:"paywalled,omitempty"`
	// Rendered is Result.Rendered, omitted when false.
	Rendered bool       `json:"rendered,omitempty"`
	Error    *JSONError `json:"error,omitempty"`
}

// JSONError describes why one URL could not be fetched. Type is a stable,
// machine-readable name from ErrorType; Message is for people and models.
type JSONError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// MarshalJSON writes {"url","error"} for failures and the page fields,
// without "error", for successes.
func (r JSONResult) MarshalJSON() ([]byte, error) {
	if r.Error != nil {
		return json.Marshal(struct {
			URL   string     `json:"url"`
			Error *JSONError `json:"error"`
		}{r.URL, r.Error})
	}
	type page JSONResult // drops the method, avoiding recursion
	p := page(r)
	return json.Marshal(struct {
		page
		Error *JSONError `json:"error,omitempty"`
	}{page: p})
}

// NewJSONResult converts the outcome of fetching url into its wire shape:
// res when err is nil, else the error.
func NewJSONResult(url string, res *Result, err error) JSONResult {
	if err != nil {
		return JSONResult{URL: url, Error: &JSONError{Type: ErrorType(err), Message: err.Error()}}
	}
	return JSONResult{
		URL: url, FinalURL: res.FinalURL, Status: res.Status, ContentType: res.ContentType,
		Title: res.Title, Content: res.Content, Truncated: res.Truncated, NextStartIndex: res.NextStartIndex,
		Incomplete: res.Incomplete, Injection: res.Injection, Rendered: res.Rendered, Paywalled: res.Metadata.Paywalled,
	}
}

// ErrorType names the sentinel err wraps, for JSON error objects. The
// names are a public contract (documented in docs/http-api.md); errors that
// wrap no sentinel are "internal". Errors from the layers around the
// fetcher (a policy refusal, the query guard) name themselves through an
// ErrorType method.
func ErrorType(err error) string {
	var named interface{ ErrorType() string }
	if errors.As(err, &named) {
		return named.ErrorType()
	}
	for _, k := range errorTypes {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return "internal"
}

// errorTypes is ordered: cancellation first, because a cancelled fetch
// wraps both context.Canceled and ErrTimeout and the caller's intent is the
// more useful fact.
var errorTypes = []struct {
	err  error
	name string
}{
	{context.Canceled, "canceled"},
	{ErrInvalidURL, "invalid_url"},
	{ErrInvalidRequest, "invalid_request"},
	{ErrURLTooLong, "url_too_long"},
	{ErrBlockedAddress, "blocked_address"},
	{ErrRobots, "robots_disallowed"},
	{ErrTooManyRedirects, "too_many_redirects"},
	{ErrTooLarge, "too_large"},
	{ErrTimeout, "timeout"},
	{context.DeadlineExceeded, "timeout"},
	{ErrRateLimited, "rate_limited"},
	{ErrHTTPStatus, "http_status"},
	{ErrUnsupportedContentType, "unsupported_content_type"},
	{ErrUnreachable, "unreachable"},
	{ErrBadContent, "bad_content"},
	{ErrRender, "render_failed"},
}
