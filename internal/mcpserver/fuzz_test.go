package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webgate/webgate/internal/search"
)

// FuzzSearchArgs: any web_search arguments decode and validate without
// panicking, and a query that passes validation is within the limits the
// tool promises.
func FuzzSearchArgs(f *testing.F) {
	f.Add([]byte(`{"query":"golang generics","max_results":5,"allowed_domains":["go.dev"],"country":"de","freshness":"week","include_content":true}`))
	f.Add([]byte(`{"query":"x","blocked_domains":["a","b"],"language":"pt-BR"}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"query":123}`))
	f.Add([]byte(`{"query":"go","numResults":3,"safe_search":"strict"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: ToolSearch, Arguments: json.RawMessage(raw)}}
		var args searchArgs
		if err := decodeArgs(req, &args); err != nil {
			return
		}
		q, err := args.query()
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty validation message")
			}
			return
		}
		if n := utf8.RuneCountInString(q.Text); n < search.MinQueryLen || n > search.MaxQueryLen || q.Text != strings.TrimSpace(q.Text) {
			t.Fatalf("accepted query %q", q.Text)
		}
		if q.MaxResults < 0 || q.MaxResults > search.MaxResultsLimit || len(q.AllowedDomains) > 0 && len(q.BlockedDomains) > 0 ||
			len(q.AllowedDomains) > search.MaxDomainFilter || len(q.BlockedDomains) > search.MaxDomainFilter || !q.Freshness.Valid() || !q.SafeSearch.Valid() {
			t.Fatalf("accepted out-of-range query %+v", q)
		}
		if c := q.Location.Country; c != "" && len(c) != 2 {
			t.Fatalf("accepted country %q", c)
		}
	})
}

// FuzzFetchArgs: any web_fetch arguments decode without panicking, and
// the URL list that passes is non-empty, bounded, trimmed and free of
// duplicates.
func FuzzFetchArgs(f *testing.F) {
	f.Add([]byte(`{"url":"https://go.dev/","format":"markdown","max_length":500,"start_index":10}`))
	f.Add([]byte(`{"urls":["https://a.test/"," https://a.test/ ","https://b.test/"]}`))
	f.Add([]byte(`{"urls":"https://a.test/"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: ToolFetch, Arguments: json.RawMessage(raw)}}
		var args fetchArgs
		if err := decodeArgs(req, &args); err != nil {
			return
		}
		urls, err := args.urls()
		if err != nil {
			return
		}
		if len(urls) == 0 || len(urls) > maxURLs {
			t.Fatalf("%d URLs accepted", len(urls))
		}
		seen := map[string]bool{}
		for _, u := range urls {
			if u == "" || u != strings.TrimSpace(u) || seen[u] {
				t.Fatalf("bad URL list %q", urls)
			}
			seen[u] = true
		}
	})
}
