package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/messages/wire"
)

func TestDetect(t *testing.T) {
	ws := `{"type":"web_search_20250305","name":"web_search","max_uses":8}`
	user := func(content string) string { return `[{"role":"user","content":` + content + `}]` }
	text := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	body := func(messages, tools, extra string) []byte {
		b := `{"model":"m","max_tokens":100,"stream":true,"messages":` + messages + `,"tools":[` + tools + `]` + extra + `}`
		return []byte(b)
	}
	tests := []struct {
		name  string
		body  []byte
		want  string // query; "" means not a search-execution request
		isHit bool
	}{
		{"blocks", body(user(`[{"type":"text","text":"Perform a web search for the query: golang generics"}]`), ws, ""), "golang generics", true},
		{"string content", body(user(text("Perform a web search for the query: golang generics")), ws, ""), "golang generics", true},
		{"extra whitespace and newlines", body(user(text("  \n Perform  a web search for the query:\n\n  golang   generics \n")), ws, ""), "golang generics", true},
		{"double quoted", body(user(text(`Perform a web search for the query: "golang generics"`)), ws, ""), "golang generics", true},
		{"curly quoted", body(user(text("Perform a web search for the query: “golang generics”")), ws, ""), "golang generics", true},
		{"two quoted phrases kept", body(user(text(`Perform a web search for the query: "a" and "b"`)), ws, ""), `"a" and "b"`, true},
		{"lower case", body(user(text("perform a web search for the query: x y")), ws, ""), "x y", true},
		{"split across blocks", body(user(`[{"type":"text","text":"Perform a web search for the query:"},{"type":"text","text":"split query","cache_control":{"type":"ephemeral"}}]`), ws, ""), "split query", true},
		{"paraphrase", body(user(text("Please run a web search for the following query: weather")), ws, ""), "weather", true},
		{"search the web", body(user(text("Search the web for: weather")), ws, ""), "weather", true},
		{"newer tool version", body(user(text("Perform a web search for the query: q1")), `{"type":"web_search_20260209","name":"web_search"}`, ""), "q1", true},
		{"forced with other tools", body(user(text("Perform a web search for the query: q")), ws+`,{"name":"Bash","input_schema":{}}`, `,"tool_choice":{"type":"tool","name":"web_search"}`), "q", true},
		{"tool_choice any", body(user(text("Perform a web search for the query: q")), ws, `,"tool_choice":{"type":"any"}`), "q", true},
		{"empty quoted query", body(user(text(`Perform a web search for the query: ""`)), ws, ""), "", true},

		{"other tools not forced", body(user(text("Perform a web search for the query: q")), ws+`,{"name":"Bash","input_schema":{}}`, ""), "", false},
		{"tool_choice none", body(user(text("Perform a web search for the query: q")), ws, `,"tool_choice":{"type":"none"}`), "", false},
		{"tool_choice other tool", body(user(text("Perform a web search for the query: q")), ws, `,"tool_choice":{"type":"tool","name":"Bash"}`), "", false},
		{"two web search tools", body(user(text("Perform a web search for the query: q")), ws+`,`+strings.Replace(ws, `"web_search"`, `"ws2"`, 1), ""), "", false},
		{"no tools", body(user(text("Perform a web search for the query: q")), "", ""), "", false},
		{"client tool only", body(user(text("Perform a web search for the query: q")), `{"name":"WebSearch","input_schema":{}}`, ""), "", false},
		{"free-form question", body(user(text("What is the weather in Paris?")), ws, ""), "", false},
		{"instruction not at start", body(user(text("Summarise this. Perform a web search for the query: q")), ws, ""), "", false},
		{"multi-turn", []byte(`{"model":"m","messages":[{"role":"user","content":"Perform a web search for the query: q"},{"role":"assistant","content":"ok"},{"role":"user","content":"Perform a web search for the query: q"}],"tools":[` + ws + `]}`), "", false},
		{"assistant turn", body(`[{"role":"assistant","content":"Perform a web search for the query: q"}]`, ws, ""), "", false},
		{"image block", body(user(`[{"type":"text","text":"Perform a web search for the query: q"},{"type":"image","source":{}}]`), ws, ""), "", false},
		{"tool result", body(user(`[{"type":"tool_result","tool_use_id":"x","content":"Perform a web search for the query: q"}]`), ws, ""), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := wire.DecodeRequest(tt.body)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			c, ok := detect(req)
			if ok != tt.isHit {
				t.Fatalf("detect = %v, want %v", ok, tt.isHit)
			}
			if ok && c.Query != tt.want {
				t.Errorf("query %q, want %q", c.Query, tt.want)
			}
		})
	}
}

// TestDetectRecorded checks that the real Claude Code 2.1.330 requests
// are routed to the fast path (detectBody, the proxy's own decoding and
// detection), and that the system prompt plays no part: replacing it with
// older or unrelated wording must not change the verdict.
func TestDetectRecorded(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	for _, name := range []string{"search-execution-request.json", "search-execution-request-allowed-domains.json"} {
		rec := loadRecorded(t, name)
		for _, system := range []any{nil, "You are an assistant for performing a web search tool use", "Anything at all"} {
			body := rec.Body
			if system != nil {
				body = withBody(t, body, func(m map[string]any) { m["system"] = system })
			}
			c, ok := h.detectBody(body)
			if !ok || c.Query != "golang generics tutorial" || !c.Stream || c.Model != "claude-opus-5-5" {
				t.Errorf("%s with system %v: detect = %+v, %v", name, system, c, ok)
			}
		}
	}
}

func TestKeyPassages(t *testing.T) {
	content := "Home | Docs | Blog\n\n" +
		"Cookie notice: we use cookies to improve your experience on this website.\n\n" +
		"Generics let you write functions that work with any of a set of types, using type parameters and constraints.\n\n" +
		"Unrelated paragraph about the history of the project and its logo, which is a gopher.\n\n" +
		"A generic function declares its type parameters in square brackets before its ordinary parameters."
	got := keyPassages("golang generics type parameters", content, 2)
	want := []string{
		"Generics let you write functions that work with any of a set of types, using type parameters and constraints.",
		"A generic function declares its type parameters in square brackets before its ordinary parameters.",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("keyPassages = %q, want %q", got, want)
	}
	if got := keyPassages("zzz", content, 2); len(got) != 1 || !strings.HasPrefix(got[0], "Cookie notice") {
		t.Errorf("no match should yield the lead paragraph, got %q", got)
	}
	long := strings.Repeat("Generics are great. ", 100)
	for _, p := range keyPassages("generics", long, 3) {
		if n := len([]rune(p)); n > maxPassageRunes {
			t.Errorf("passage of %d runes exceeds the cap", n)
		}
	}
	if got := keyPassages("x", "", 2); got != nil {
		t.Errorf("empty content gave %q", got)
	}
}
