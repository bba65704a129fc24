package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/search"
)

type searchArgs struct {
	Query          string   `json:"query"`
	MaxResults     int      `json:"max_results"`
	AllowedDomains []string `json:"allowed_domains"`
	BlockedDomains []string `json:"blocked_domains"`
	Country        string   `json:"country"`
	Language       string   `json:"language"`
	Freshness      string   `json:"freshness"`
	SafeSearch     string   `json:"safe_search"`
	IncludeContent bool     `json:"include_content"`
	// numResults is what some agent prompts call the result count; it is
	// read as max_results rather than ignored.
	NumResults  *int `json:"numResults" alias:"true"`
	NumResults2 *int `json:"num_results" alias:"true"`
}

// SearchOutput is web_search's structuredContent (with
// Options.StructuredOutput) and what its text is rendered from.
type SearchOutput struct {
	Query    string         `json:"query"`
	Provider string         `json:"provider"`
	Results  []SearchResult `json:"results"`
}

// SearchResult is one hit in SearchOutput. The first fields match
// search.JSONResult; the content fields are filled by include_content.
type SearchResult struct {
	Title            string `json:"title"`
	URL              string `json:"url"`
	Snippet          string `json:"snippet"`
	Published        string `json:"published,omitempty"`
	Provider         string `json:"provider"`
	Content          string `json:"content,omitempty"`
	ContentTruncated bool   `json:"content_truncated,omitempty"`
	NextStartIndex   int    `json:"next_start_index,omitempty"`
	ContentError     string `json:"content_error,omitempty"`
}

// query validates the arguments with the search package's contract
// (search.DefaultLimits) and builds the search query. Its errors are
// written for the model, naming the tool's own arguments.
func (a *searchArgs) query() (search.Query, error) {
	var problems []string
	for _, alias := range []*int{a.NumResults, a.NumResults2} {
		switch {
		case alias == nil:
		case *alias < 1 || *alias > search.MaxResultsLimit:
			problems = append(problems, fmt.Sprintf("numResults must be between 1 and %d (got %d)", search.MaxResultsLimit, *alias))
		case a.MaxResults == 0:
			a.MaxResults = *alias
		case a.MaxResults != *alias:
			problems = append(problems, fmt.Sprintf("max_results (%d) and numResults (%d) disagree; pass only max_results", a.MaxResults, *alias))
		}
	}
	q := search.Query{
		Text:           strings.TrimSpace(a.Query),
		MaxResults:     a.MaxResults,
		AllowedDomains: a.AllowedDomains,
		BlockedDomains: a.BlockedDomains,
		Language:       strings.TrimSpace(a.Language),
		Location:       search.Location{Country: strings.ToUpper(strings.TrimSpace(a.Country))},
		Freshness:      search.Freshness(strings.TrimPrefix(a.Freshness, "any")),
		SafeSearch:     search.SafeSearch(a.SafeSearch),
	}
	if err := q.Validate(search.DefaultLimits); err != nil {
		var ve *search.ValidationError
		if !errors.As(err, &ve) {
			return q, err
		}
		problems = append(problems, ve.Describe(searchArgLabel))
	}
	if len(problems) > 0 {
		return q, errors.New(strings.Join(problems, "; "))
	}
	return q, nil
}

// searchArgLabel names a query field by web_search's argument.
func searchArgLabel(field string) string {
	if field == "user_location.country" {
		return "country"
	}
	return field
}

func (t *tools) webSearch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args searchArgs
	if err := decodeArgs(req, &args); err != nil {
		return toolError(fmt.Sprintf("web_search arguments are malformed: %v. Pass an object like {\"query\": \"golang generics tutorial\"}.", err)), nil
	}
	q, err := args.query()
	if err != nil {
		return toolError(fmt.Sprintf("web_search arguments are invalid: %v. Fix them and call web_search again.", err)), nil
	}
	steps := 1
	if args.IncludeContent {
		steps += t.opts.ContentResults
	}
	prog := newProgress(req, steps)

	resp, err := t.opts.Searcher.Search(ctx, q)
	if err != nil {
		t.log.DebugContext(ctx, "web_search failed", "err", err)
		return toolError(searchErrorText(err)), nil
	}
	out := searchOutput(q.Text, resp)
	prog.step(ctx, fmt.Sprintf("%d results from %s", len(out.Results), resp.Provider))

	if args.IncludeContent && len(out.Results) > 0 {
		t.enrich(ctx, &out, prog)
	}
	text := capText(renderSearch(&out, t.opts.Untrusted), t.opts.MaxOutputChars)
	return t.result(text, out), nil
}

// searchOutput is the structured result for resp, before include_content.
func searchOutput(query string, resp *search.Response) SearchOutput {
	out := SearchOutput{Query: query, Provider: resp.Provider, Results: make([]SearchResult, len(resp.Results))}
	for i, r := range resp.Results {
		out.Results[i] = SearchResult{
			Title: oneLine(r.Title), URL: r.URL, Snippet: oneLine(r.Snippet),
			Published: r.PublishedString(), Provider: r.Provider,
		}
	}
	return out
}

// SearchText is the text web_search gives a model for resp, so another
// surface, such as the web console's playground, can show exactly what an
// agent reads. opts supplies the untrusted-content marking and the output
// cap; with includeContent, the top results' pages are fetched through
// opts.Fetcher within opts.ContentTimeout, as include_content does.
func SearchText(ctx context.Context, resp *search.Response, opts Options, includeContent bool) string {
	opts.applyDefaults()
	out := searchOutput(resp.Query.Text, resp)
	if includeContent && len(out.Results) > 0 && opts.Fetcher != nil {
		(&tools{opts: opts, log: opts.Logger}).enrich(ctx, &out, newProgress(nil, 0))
	}
	return capText(renderSearch(&out, opts.Untrusted), opts.MaxOutputChars)
}

// enrich fetches the top results' content within ContentTimeout, sharing
// the output budget between them. A page that fails or is too slow keeps
// its snippet and says why, so one bad site never fails the search.
func (t *tools) enrich(ctx context.Context, out *SearchOutput, prog *progress) {
	n := min(t.opts.ContentResults, len(out.Results))
	// What the listing itself takes, plus room for per-page notes.
	budget := (t.opts.MaxOutputChars - runeLen(renderSearch(out, t.opts.Untrusted)) - 300*n) / n
	if budget < 500 {
		return // not enough room to be useful; snippets will have to do
	}
	ctx, cancel := context.WithTimeout(ctx, t.opts.ContentTimeout)
	defer cancel()
	reqs := make([]fetch.Request, n)
	for i := range reqs {
		reqs[i] = fetch.Request{URL: out.Results[i].URL, Format: extract.Markdown, MaxLength: budget}
	}
	fetch.Each(ctx, t.opts.Fetcher, reqs, t.opts.FetchConcurrency, func(i int, res *fetch.Result, err error) {
		r := &out.Results[i]
		if err != nil {
			r.ContentError = fmt.Sprintf("%v (%s)", err, fetch.ErrorType(err))
			prog.step(ctx, "failed "+r.URL)
			return
		}
		// The fetcher honours MaxLength; cutting again guards the
		// output cap against a Getter that does not.
		content, cut := cutRunes(res.Content, budget)
		r.Content = content
		switch {
		case cut:
			r.ContentTruncated, r.NextStartIndex = true, runeLen(content)
		case res.Truncated:
			r.ContentTruncated, r.NextStartIndex = true, res.NextStartIndex
		}
		prog.step(ctx, "fetched "+r.URL)
	}, func(i int) {
		out.Results[i].ContentError = "not fetched: the content deadline passed"
	})
}

// renderSearch formats results as a numbered Markdown list for the model.
// Titles, snippets and page content come from the web, so the list sits
// between untrusted-content boundaries (see guard.Wrapper).
func renderSearch(out *SearchOutput, w guard.Wrapper) string {
	var b strings.Builder
	if len(out.Results) == 0 {
		fmt.Fprintf(&b, "No results for %q (provider: %s). Try broader or different words, or remove domain and freshness filters.", out.Query, out.Provider)
		return b.String()
	}
	fmt.Fprintf(&b, "Search results for %q (provider: %s):\n", out.Query, out.Provider)
	var list strings.Builder
	renderResults(&list, out)
	if w.Off {
		b.WriteString(list.String())
	} else {
		b.WriteString("\n")
		b.WriteString(w.Wrap("search results", "", strings.TrimPrefix(list.String(), "\n")))
		b.WriteString("\n")
	}
	b.WriteString("\nUse web_fetch to read a result in full. Cite the URLs you use.")
	return b.String()
}

// renderResults writes the numbered results.
func renderResults(b *strings.Builder, out *SearchOutput) {
	for i, r := range out.Results {
		fmt.Fprintf(b, "\n%d. %s\n   URL: %s\n", i+1, r.Title, r.URL)
		if r.Published != "" {
			fmt.Fprintf(b, "   Published: %s\n", r.Published)
		}
		if r.Snippet != "" {
			fmt.Fprintf(b, "   %s\n", r.Snippet)
		}
		switch {
		case r.Content != "":
			fmt.Fprintf(b, "\n   --- Content of result %d ---\n%s\n", i+1, r.Content)
			if r.ContentTruncated {
				fmt.Fprintf(b, "   [Content truncated. Call web_fetch with url=%q and start_index=%d to read on.]\n", r.URL, r.NextStartIndex)
			}
			fmt.Fprintf(b, "   --- End of result %d ---\n", i+1)
		case r.ContentError != "":
			fmt.Fprintf(b, "   [Content not included: %s. Call web_fetch with this URL to try again.]\n", r.ContentError)
		}
	}
}
