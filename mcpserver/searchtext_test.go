package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/search"
)

// TestSearchTextIsTheToolText checks that SearchText, which the web
// console shows, is exactly what web_search gives a model, caps included.
func TestSearchTextIsTheToolText(t *testing.T) {
	for _, max := range []int{5000, 120} {
		e := newEnv()
		e.opts.MaxOutputChars = max
		res := call(t, e.connect(t, nil), ToolSearch, map[string]any{"query": "golang generics"})
		resp, _ := results(3)(search.Query{Text: "golang generics"})
		got := SearchText(resp, e.opts)
		if diff := cmp.Diff(nonceRe.ReplaceAllString(text(res), "id NONCE"), nonceRe.ReplaceAllString(got, "id NONCE")); diff != "" {
			t.Errorf("max %d: SearchText differs from the tool's text (-tool +SearchText):\n%s", max, diff)
		}
	}
}
