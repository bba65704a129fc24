package proxy

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
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
		req, err := decodeRequest(body)
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
		if _, err := comp.compose(c, o); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzTextHelpers pins the allocation-free helpers to the definitions
// they replace (websearch.FuzzOneLine does OneLine's).
func FuzzTextHelpers(f *testing.F) {
	for _, s := range []string{"", " ", "a  b", " a", "a ", "a\tb", "héllo wörld", "a\u00a0b", "\xff x", "Perform a web search for the query:   ", "Perform a web search for the query: go \n", "Perform a web search for the query: \v"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		for _, text := range []string{s, claudeCodeInstruction + s} {
			q, ok := instructionQuery(text)
			m := queryPattern.FindStringSubmatch(text)
			if ok != (m != nil) || ok && q != m[1] {
				t.Fatalf("instructionQuery(%q) = %q, %v; pattern gives %q", text, q, ok, m)
			}
		}
	})
}

// FuzzEventBuffer: however an upstream's event stream is cut into reads,
// the passthrough relay sends exactly its bytes, in order, and whenever
// it reports standing between two events, what it sent ends with a blank
// line (or nothing was sent).
func FuzzEventBuffer(f *testing.F) {
	f.Add([]byte("event: ping\ndata: {}\n\nevent: message_stop\ndata: {}\n\n"), []byte{3, 7, 200})
	f.Add([]byte("data: a\r\n\r\ndata: b\r\rdata: c"), []byte{1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, stream, cuts []byte) {
		var e eventBuffer
		var sent []byte
		rest := stream
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if i < len(cuts) {
				n = min(n, int(cuts[i])+1)
			}
			out := e.add(rest[:n], false)
			sent = append(sent, out...)
			e.sent()
			rest = rest[n:]
			if !e.partial && len(sent) > 0 && eventsEnd(sent) != len(sent) {
				t.Fatalf("between events, but sent %q", sent)
			}
		}
		sent = append(sent, e.add(nil, true)...)
		e.sent()
		if !bytes.Equal(sent, stream) {
			t.Fatalf("relayed %q, upstream sent %q", sent, stream)
		}
	})
}
