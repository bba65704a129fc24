// Package websearch is Anthropic's web_search server tool on webgate's
// search engine, the one implementation both Messages surfaces use: the
// search fast path (package proxy, Claude Code's dedicated search
// request) and the emulated tool (package emulate/tools) are thin layers
// over it. It owns
//
//   - the validation of a call: the query, and allowed_domains and
//     blocked_domains through package domains;
//   - the search and the post-filter of its results by those rules;
//   - the payload each result seals into its encrypted_content (the
//     encoder is package seal's), so a result sealed by either surface is
//     restored alike by the other;
//   - the error codes of web_search_tool_result_error, the sentence the
//     model reads with each, and the one mapping from Go errors to them.
//
// The tool's contract is Anthropic's web search tool documentation:
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
package websearch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/search"
)

// MaxSearchTime is a backstop for Searchers without their own deadline
// (the Engine enforces search.timeout, 15s by default, well inside it), so
// no tool call can hang on a provider forever.
const MaxSearchTime = 60 * time.Second

// Tool is a web_search tool definition's members that shape its searches,
// validated.
type Tool struct {
	// AllowedDomains and BlockedDomains are the definition's lists as
	// given; the search engine is handed them unchanged.
	AllowedDomains, BlockedDomains []string
	// Location is the definition's user_location.
	Location search.Location

	filter *domains.Filter
}

// New validates a definition's domain lists with package domains, which
// implements the documented rules ("Domain filtering": no scheme,
// subdomains included, an optional path, never both lists). A bad entry or
// both lists given is an error wrapping domains.ErrInvalidRule or
// domains.ErrConflict, which Code maps to invalid_tool_input.
func New(allowed, blocked []string, loc search.Location) (*Tool, error) {
	f, err := domains.Parse(allowed, blocked)
	if err != nil {
		return nil, err
	}
	return &Tool{AllowedDomains: allowed, BlockedDomains: blocked, Location: loc, filter: f}, nil
}

// Filter is the tool's parsed domain rules.
func (t *Tool) Filter() *domains.Filter { return t.filter }

// CheckQuery validates a query before it is searched: an empty one wraps
// ErrInvalidInput, one longer than maxQueryLen characters
// search.ErrQueryTooLong (query_too_long).
func CheckQuery(query string, maxQueryLen int) error {
	if query == "" {
		return fmt.Errorf("empty query: %w", ErrInvalidInput)
	}
	if err := (search.Query{Text: query}).Validate(search.MessagesLimits(maxQueryLen)); errors.Is(err, search.ErrQueryTooLong) {
		return err
	}
	return nil
}

// Query is the search the tool runs for query.
func (t *Tool) Query(query string, maxResults int) search.Query {
	return search.Query{
		Text:           query,
		MaxResults:     maxResults,
		AllowedDomains: t.AllowedDomains,
		BlockedDomains: t.BlockedDomains,
		Location:       t.Location,
	}
}

// Search runs the search for query and returns the engine's response with
// the results the tool's domain rules allow. The caller bounds ctx (see
// MaxSearchTime).
func (t *Tool) Search(ctx context.Context, s search.Searcher, query string, maxResults int) (*search.Response, []search.Result, error) {
	resp, err := s.Search(ctx, t.Query(query, maxResults))
	if err != nil {
		return nil, nil, fmt.Errorf("search: %w", err)
	}
	return resp, t.Allowed(resp.Results), nil
}

// Allowed returns the results the tool's domain rules allow. The search
// engine enforces them too; doing it again here guarantees a model never
// sees a result the request excluded, whatever a provider or engine
// version does. Without rules it returns results itself; otherwise a new
// slice, so a response the engine shares from its cache is never changed.
func (t *Tool) Allowed(results []search.Result) []search.Result {
	if t.filter.Mode() == domains.ModeNone {
		return results
	}
	out := make([]search.Result, 0, len(results))
	for _, r := range results {
		if t.filter.Allow(r.URL) {
			out = append(out, r)
		}
	}
	return out
}
