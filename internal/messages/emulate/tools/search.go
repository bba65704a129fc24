package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

// maxSearchTime is a backstop for Searchers without their own deadline
// (the Engine enforces search.timeout, 15s by default, well inside it).
const maxSearchTime = 60 * time.Second

// searchTool is one request's web_search tool.
type searchTool struct {
	box  *Box
	spec *spec
}

func (t *searchTool) Name() string { return t.spec.Name }
func (t *searchTool) Kind() string { return emulate.KindWebSearch }
func (t *searchTool) MaxUses() int { return t.spec.maxUses() }

// Definition implements emulate.ServerTool: a function tool with the
// server tool's own input, {"query": ...}, so upstream arguments map onto
// server_tool_use inputs unchanged.
func (t *searchTool) Definition() json.RawMessage {
	desc := "Search the web for current information. Returns numbered results with their title, URL, " +
		"publication date, an extract and, for the top results, key passages of the page. Use it for anything " +
		"that may have changed after your training data or that you are unsure of, and cite the results you " +
		"rely on by their numbers, like [1]."
	switch f := t.spec.filter; {
	case len(t.spec.AllowedDomains) > 0:
		desc += " Results only come from: " + strings.Join(f.Strings(), ", ") + "."
	case len(t.spec.BlockedDomains) > 0:
		desc += " Results never come from: " + strings.Join(f.Strings(), ", ") + "."
	}
	return mustJSON(functionTool{
		Name:        t.spec.Name,
		Description: desc,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"The search query"}},"required":["query"]}`),
	})
}

// functionTool is a client tool definition as the upstream sees it.
type functionTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func mustJSON(v any) json.RawMessage {
	b, err := wire.Marshal(v)
	if err != nil {
		panic(err) // only called with static, always-encodable types
	}
	return b
}

type searchInput struct {
	Query string `json:"query"`
}

// parseSearchInput decodes the upstream's arguments; ok is false when they
// are not an object with a string query.
func parseSearchInput(raw json.RawMessage) (searchInput, bool) {
	var in searchInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, false
	}
	in.Query = strings.TrimSpace(in.Query)
	return in, in.Query != ""
}

// inputJSON is the server_tool_use input shown to the client.
func (in searchInput) inputJSON() json.RawMessage { return mustJSON(in) }

func (t *searchTool) Fail(call emulate.Call, code string) emulate.Outcome {
	in, _ := parseSearchInput(call.Input)
	return t.failure(call.ID, in, code)
}

func (t *searchTool) failure(id string, in searchInput, code string) emulate.Outcome {
	block := wire.WebSearchToolResultBlock{ToolUseID: id, Error: &wire.WebSearchToolResultError{ErrorCode: code}}
	return emulate.Outcome{
		Input:     in.inputJSON(),
		Result:    mustJSON(block),
		ErrorCode: code,
		Report: emulate.Report{
			Kind:  emulate.KindWebSearch,
			Error: searchErrorText(in.Query, code, t.box.o.MaxQueryLength),
		},
	}
}

// Run implements emulate.ServerTool.
func (t *searchTool) Run(ctx context.Context, call emulate.Call) emulate.Outcome {
	o := &t.box.o
	in, ok := parseSearchInput(call.Input)
	if !ok {
		return t.failure(call.ID, in, CodeInvalidToolInput)
	}
	if err := (search.Query{Text: in.Query}).Validate(search.MessagesLimits(o.MaxQueryLength)); search.IsProblem(err, "query", search.ProblemTooLong) {
		return t.failure(call.ID, in, CodeQueryTooLong)
	}
	q := search.Query{
		Text:           in.Query,
		MaxResults:     o.MaxResults,
		AllowedDomains: t.spec.AllowedDomains,
		BlockedDomains: t.spec.BlockedDomains,
	}
	if loc := t.spec.UserLocation; loc != nil {
		q.Location = search.Location{Country: loc.Country, Region: loc.Region, City: loc.City, Timezone: loc.Timezone}
	}
	sctx, cancel := context.WithTimeout(ctx, maxSearchTime)
	resp, err := o.Searcher.Search(sctx, q)
	cancel()
	if err != nil {
		code := searchErrorCode(err)
		t.box.log.WarnContext(ctx, "emulated web search failed", "error_code", code, "err", err)
		return t.failure(call.ID, in, code)
	}
	// The engine applies the domain rules too; doing it again guarantees
	// the model never sees a result the request excluded, whatever a
	// provider or engine version does.
	results := make([]search.Result, 0, len(resp.Results))
	for _, r := range resp.Results {
		if t.spec.filter.Allow(r.URL) {
			results = append(results, r)
		}
	}
	var passages map[int][]string
	if o.Enrich != nil && len(results) > 0 {
		ectx, cancel := context.WithTimeout(ctx, o.EnrichTimeout)
		passages = o.Enrich(ectx, in.Query, results)
		cancel()
	}
	now := o.Now().UTC().Truncate(time.Second) // as the fast path seals it
	block := wire.WebSearchToolResultBlock{ToolUseID: call.ID, Results: make([]wire.WebSearchResult, 0, len(results))}
	rep := emulate.Report{Kind: emulate.KindWebSearch, Header: searchHeader(in.Query), Sources: make([]emulate.Source, 0, len(results))}
	for i, r := range results {
		// The payload leaves out the url and title the block shows and
		// the query; the token is bound to them instead.
		sr := seal.Result{
			Version: seal.PayloadVersion, Snippet: oneLine(r.Snippet),
			PageAge: r.Age(), Passages: passages[i], Provider: r.Provider, Retrieved: now,
		}
		title := resultTitle(r.Title, r.URL)
		tok, err := sealJSON(t.box.o.Sealer, seal.PurposeResult, sr, r.URL, title, in.Query)
		if err != nil {
			// Sealing only fails if the system's randomness does.
			t.box.log.ErrorContext(ctx, "seal web search result", "err", err)
			return t.failure(call.ID, in, CodeUnavailable)
		}
		sr.URL, sr.Title, sr.Query = r.URL, title, in.Query
		wr := wire.WebSearchResult{Title: sr.Title, URL: r.URL, EncryptedContent: tok}
		if sr.PageAge != "" {
			age := sr.PageAge
			wr.PageAge = &age
		}
		block.Results = append(block.Results, wr)
		rep.Sources = append(rep.Sources, resultSource(&sr))
	}
	return emulate.Outcome{Input: in.inputJSON(), Result: mustJSON(block), Report: rep, Counted: true}
}

func searchHeader(query string) string { return fmt.Sprintf("Web search results for %q", query) }

// resultSource is the citable source a sealed result describes.
func resultSource(sr *seal.Result) emulate.Source {
	return emulate.Source{
		Kind: emulate.KindWebSearch, URL: sr.URL, Title: sr.Title, PageAge: sr.PageAge,
		Snippet: sr.Snippet, Passages: sr.Passages, Citations: true,
	}
}

// resultTitle never returns an empty title: clients show titles as the
// links' labels, and an empty one renders as nothing at all.
func resultTitle(title, rawURL string) string {
	if t := strings.TrimSpace(title); t != "" {
		return oneLine(t)
	}
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		return u.Host
	}
	return rawURL
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
