package proxy

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webgate/webgate/anthropic"
)

// FuzzDetect: the request decoder and shape detector never panic, and a
// detected request always yields a query that is trimmed, single-line and
// valid UTF-8, with the web search tool it came from.
func FuzzDetect(f *testing.F) {
	f.Add(oldStyleBody("golang generics", true, nil))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"Perform a web search for the query: \"x\""}]}],"tools":[{"type":"web_search_20250305","name":"web_search"}],"tool_choice":{"type":"tool","name":"web_search"}}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"Search the web for:   ‘q’  "}],"tools":[{"type":"web_search_x","name":"w","allowed_domains":["a"],"blocked_domains":["b"]}]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"perform a web search for the query:"}],"tools":[{"type":"web_search_","name":"w"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := anthropic.DecodeRequest(body)
		if err != nil {
			return
		}
		c, ok := detect(req)
		if !ok {
			return
		}
		if c.Query != strings.TrimSpace(c.Query) || strings.ContainsAny(c.Query, "\n\r\t") {
			t.Fatalf("query not normalised: %q", c.Query)
		}
		if utf8.ValidString(strings.Join(strings.Fields(c.Query), "")) != utf8.ValidString(c.Query) {
			t.Fatalf("normalisation changed UTF-8 validity: %q", c.Query)
		}
		if !isWebSearchTool(c.Tool) {
			t.Fatalf("detected with non-search tool %+v", c.Tool)
		}
		// The composer must cope with whatever was detected.
		h := newHandler(t, Options{Searcher: results(goResults...), Upstream: noEnrich()})
		o := h.execute(t.Context(), c)
		comp := &composer{sealer: h.sealer, maxQueryLen: h.ws.MaxQueryLength}
		if _, err := comp.resultBlock("srvtoolu_x", c.Query, o); err != nil {
			t.Fatal(err)
		}
		if _, err := comp.digest(c, o); err != nil {
			t.Fatal(err)
		}
	})
}
