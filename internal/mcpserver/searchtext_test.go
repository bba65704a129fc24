package mcpserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/search"
)

// TestSearchTextIsTheToolText checks that SearchText, which the web
// console shows, is exactly what web_search gives a model, with and
// without include_content, caps included.
func TestSearchTextIsTheToolText(t *testing.T) {
	for _, tt := range []struct {
		max     int
		content bool
	}{{5000, false}, {120, false}, {5000, true}} {
		e := newEnv()
		e.opts.MaxOutputChars = tt.max
		e.get.pages["https://example.com/1"] = strings.Repeat("alpha ", 50)
		e.get.errs = map[string]error{"https://example.com/2": &fetch.StatusError{URL: "https://example.com/2", Code: 404}}
		res := call(t, e.connect(t, nil), ToolSearch, map[string]any{"query": "golang generics", "include_content": tt.content})
		resp, _ := results(3)(search.Query{Text: "golang generics"})
		opts := e.opts
		opts.Fetcher = e.get
		got := SearchText(t.Context(), resp, opts, tt.content)
		if diff := cmp.Diff(nonceRe.ReplaceAllString(text(res), "id NONCE"), nonceRe.ReplaceAllString(got, "id NONCE")); diff != "" {
			t.Errorf("max %d, content %v: SearchText differs from the tool's text (-tool +SearchText):\n%s", tt.max, tt.content, diff)
		}
		if tt.content && !strings.Contains(got, "--- Content of result 1 ---") {
			t.Errorf("include_content fetched nothing:\n%s", got)
		}
	}
}
