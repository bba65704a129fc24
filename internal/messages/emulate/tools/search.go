package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/websearch"
	"github.com/webgate/webgate/internal/messages/wire"
)

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
	return t.failure(call.ID, in, code, websearch.CodeText(in.Query, code, t.box.o.MaxQueryLength))
}

// fail is the outcome of a call that failed with err (see websearch.Code
// and websearch.Text).
func (t *searchTool) fail(id string, in searchInput, err error) emulate.Outcome {
	return t.failure(id, in, websearch.Code(err), websearch.Text(in.Query, err, t.box.o.MaxQueryLength))
}

func (t *searchTool) failure(id string, in searchInput, code, text string) emulate.Outcome {
	block := wire.WebSearchToolResultBlock{ToolUseID: id, Error: &wire.WebSearchToolResultError{ErrorCode: code}}
	return emulate.Outcome{
		Input:     in.inputJSON(),
		Result:    mustJSON(block),
		ErrorCode: code,
		Report:    emulate.Report{Kind: emulate.KindWebSearch, Error: text},
	}
}

// Run implements emulate.ServerTool.
func (t *searchTool) Run(ctx context.Context, call emulate.Call) emulate.Outcome {
	o := &t.box.o
	in, ok := parseSearchInput(call.Input)
	if !ok {
		return t.fail(call.ID, in, fmt.Errorf("input %s: %w", call.Input, websearch.ErrInvalidInput))
	}
	if err := websearch.CheckQuery(in.Query, o.MaxQueryLength); err != nil {
		return t.fail(call.ID, in, err)
	}
	sctx, cancel := context.WithTimeout(ctx, websearch.MaxSearchTime)
	_, results, err := t.spec.search.Search(sctx, o.Searcher, in.Query, o.MaxResults)
	cancel()
	if err != nil {
		t.box.log.WarnContext(ctx, "emulated web search failed", "error_code", websearch.Code(err), "err", err)
		return t.fail(call.ID, in, err)
	}
	var passages map[int][]string
	if o.Enrich != nil && len(results) > 0 {
		ectx, cancel := context.WithTimeout(ctx, o.EnrichTimeout)
		passages = o.Enrich(ectx, in.Query, results)
		cancel()
	}
	now := o.Now()
	block := wire.WebSearchToolResultBlock{ToolUseID: call.ID, Results: make([]wire.WebSearchResult, 0, len(results))}
	rep := emulate.Report{Kind: emulate.KindWebSearch, Header: searchHeader(in.Query), Sources: make([]emulate.Source, 0, len(results))}
	for i, r := range results {
		p := websearch.Payload(r, in.Query, passages[i], now)
		tok, err := o.Sealer.SealResult(p)
		if err != nil {
			// Sealing only fails if the system's randomness does.
			t.box.log.ErrorContext(ctx, "seal web search result", "err", err)
			return t.failure(call.ID, in, websearch.CodeUnavailable, websearch.CodeText(in.Query, websearch.CodeUnavailable, o.MaxQueryLength))
		}
		block.Results = append(block.Results, websearch.ResultBlock(&p, tok))
		rep.Sources = append(rep.Sources, resultSource(&p))
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
