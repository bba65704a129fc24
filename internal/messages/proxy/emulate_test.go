package proxy

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/search"
)

var (
	searchTool = map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": 5}
	fetchTool  = map[string]any{"type": "web_fetch_20250910", "name": "web_fetch", "citations": map[string]any{"enabled": true}, "max_content_tokens": 1000}
	cmdTool    = map[string]any{"name": "run_command", "description": "Run a shell command.",
		"input_schema": map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}}}
)

// first returns a round body that is the same request whatever came before.
func first(b map[string]any) func([]json.RawMessage) map[string]any {
	return func([]json.RawMessage) map[string]any { return clone(b) }
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// expect returns a step that checks the upstream request with fn, then
// answers with events.
func expect(t *testing.T, fn func(t *testing.T, req up.Request), events []up.Event) up.Step {
	return func(req up.Request) up.Reply {
		if fn != nil {
			fn(t, req)
		}
		return up.Reply{Events: events}
	}
}

// lastUserBlocks returns the blocks of the request's final message, which
// must be a user message. Steps run on the fake's goroutines, so failures
// are reported with Errorf and an empty result.
func lastUserBlocks(t *testing.T, req up.Request) []map[string]any {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil || len(body.Messages) == 0 {
		t.Errorf("upstream request: %v", err)
		return nil
	}
	last := body.Messages[len(body.Messages)-1]
	var blocks []map[string]any
	if last.Role != "user" || json.Unmarshal(last.Content, &blocks) != nil {
		t.Errorf("last upstream message is not a user message of blocks: %s %s", last.Role, last.Content)
		return nil
	}
	return blocks
}

// str returns a block member as a string ("" when absent).
func str(b []map[string]any, i int, key string) string {
	if i >= len(b) {
		return ""
	}
	s, _ := b[i][key].(string)
	return s
}

func TestEmulateSearchThenAnswer(t *testing.T) {
	var searches *queryResults
	sc := scenario{
		name: "search_then_answer",
		rounds: []round{{
			body: first(request([]any{searchTool}, userMsg("What changed in Go generics?"))),
			steps: []up.Step{
				expect(t, func(t *testing.T, req up.Request) {
					m := req.JSON(t)
					tools := m["tools"].([]any)
					tool := tools[0].(map[string]any)
					if tool["name"] != "web_search" || tool["type"] != nil || tool["input_schema"] == nil {
						t.Errorf("server tool not replaced by a function tool: %v", tool)
					}
					if m["stream"] != true || !strings.Contains(m["system"].(string), "square brackets") {
						t.Errorf("stream %v, system %q", m["stream"], m["system"])
					}
					// upstream.models maps the client's model name for kind
					// openai; kind anthropic sends it as is.
					if want := map[bool]string{false: "claude-sonnet-4-5", true: "qwen3-coder"}[req.OpenAI]; m["model"] != want {
						t.Errorf("upstream model %v, want %s", m["model"], want)
					}
				}, up.Message("tool_use", up.Usage{Input: 120, Output: 30},
					up.Text("I'll look that up."),
					up.ToolUse("toolu_up_1", "web_search", `{"query": "go generics"}`))),
				expect(t, func(t *testing.T, req up.Request) {
					blocks := lastUserBlocks(t, req)
					if len(blocks) != 1 || blocks[0]["type"] != "tool_result" {
						t.Errorf("tool results %v", blocks)
					}
					c := str(blocks, 0, "content")
					for _, want := range []string{`Web search results for "go generics"`, "[1] Tutorial: Getting started with generics",
						"URL: https://go.dev/blog/intro-generics", "[4] pkg.go.dev"} {
						if !strings.Contains(c, want) {
							t.Errorf("tool result lacks %q:\n%s", want, c)
						}
					}
				}, up.Message("end_turn", up.Usage{Input: 400, Output: 50},
					up.Text("Go 1.18 added generics [2]. The tutorial walks through type parameters [1][2].\n\nIndexing in code stays as is: `a[1]`."))),
			},
			check: func(t *testing.T, r *roundResult) {
				m := &r.msg
				want := []string{"text", "server_tool_use", "web_search_tool_result", "text", "text", "text"}
				if diff := cmp.Diff(want, blockTypes(m)); diff != "" {
					t.Fatalf("blocks (-want +got):\n%s", diff)
				}
				use := m.Content[1].AsServerToolUse()
				in, _ := json.Marshal(use.Input)
				if use.Name != "web_search" || string(in) != `{"query":"go generics"}` || !strings.HasPrefix(use.ID, "srvtoolu_") {
					t.Errorf("server_tool_use %s %s %s", use.ID, use.Name, in)
				}
				res := m.Content[2].AsWebSearchToolResult()
				if res.ToolUseID != use.ID || len(res.Content.OfWebSearchResultBlockArray) != len(goResults) {
					t.Errorf("result for %s with %d results", res.ToolUseID, len(res.Content.OfWebSearchResultBlockArray))
				}
				cited := m.Content[3].AsText()
				if cited.Text != "Go 1.18 added generics." || len(cited.Citations) != 1 {
					t.Fatalf("cited block %q with %d citations", cited.Text, len(cited.Citations))
				}
				loc := cited.Citations[0].AsWebSearchResultLocation()
				if loc.URL != goResults[1].URL || !strings.HasPrefix(goResults[1].Snippet, loc.CitedText) || len(loc.CitedText) > 150 || loc.EncryptedIndex == "" {
					t.Errorf("citation %+v", loc)
				}
				two := m.Content[4].AsText()
				if two.Text != " The tutorial walks through type parameters." || len(two.Citations) != 2 {
					t.Errorf("second cited block %q, %d citations", two.Text, len(two.Citations))
				}
				if tail := m.Content[5].AsText(); tail.Text != "\n\nIndexing in code stays as is: `a[1]`." || len(tail.Citations) != 0 {
					t.Errorf("uncited tail %q %v", tail.Text, tail.Citations)
				}
				u := m.Usage
				if u.InputTokens != 520 || u.OutputTokens != 80 || u.ServerToolUse.WebSearchRequests != 1 || u.ServerToolUse.WebFetchRequests != 0 {
					t.Errorf("usage %+v", u)
				}
				if m.StopReason != sdk.StopReasonEndTurn || m.Model != "claude-sonnet-4-5" {
					t.Errorf("stop_reason %q, model %q", m.StopReason, m.Model)
				}
				if got := searches.seen(); len(got) == 0 || got[len(got)-1] != "go generics" {
					t.Errorf("searched %v", got)
				}
			},
		}},
	}
	searches = &queryResults{}
	sc.searcher = searches
	runScenario(t, sc)
}

func TestEmulateSeveralSearches(t *testing.T) {
	searches := &queryResults{byQuery: map[string][]search.Result{
		"rust traits":  {{Title: "Traits - The Rust Book", URL: "https://doc.rust-lang.org/book/ch10-02-traits.html", Snippet: "A trait defines functionality a particular type has and can share with other types."}},
		"zig comptime": {{Title: "Zig comptime", URL: "https://ziglang.org/documentation/master/#comptime", Snippet: "Zig places importance on the concept of whether an expression is known at compile-time."}},
	}}
	tool := map[string]any{"type": "web_search_20260209", "name": "web_search"}
	runScenario(t, scenario{
		name:     "several_searches",
		searcher: searches,
		rounds: []round{{
			body: first(request([]any{tool}, userMsg("Compare generics in Go, Rust and Zig."))),
			steps: []up.Step{
				up.Send(up.Message("tool_use", up.Usage{Input: 100, Output: 40},
					up.Thinking("Two searches at once, then one more.", "sig-1"),
					up.Text("Searching."),
					up.ToolUse("toolu_a", "web_search", `{"query":"go generics"}`),
					up.ToolUse("toolu_b", "web_search", `{"query":"rust traits"}`))),
				expect(t, func(t *testing.T, req up.Request) {
					// Over Chat Completions the reasoning goes back in the
					// field it came in (reasoning_content).
					sig := `"signature":"sig-1"`
					if req.OpenAI {
						sig = `"signature":"reasoning_content"`
					}
					if !req.Contains(`"type":"thinking"`, sig) {
						t.Error("thinking block with its signature not sent back upstream")
					}
					blocks := lastUserBlocks(t, req)
					if len(blocks) != 2 || !strings.Contains(str(blocks, 1, "content"), "[5] Traits - The Rust Book") {
						t.Errorf("tool results %v", blocks)
					}
				}, up.Message("tool_use", up.Usage{Input: 300, Output: 10},
					up.ToolUse("toolu_c", "web_search", `{"query":"zig comptime"}`))),
				expect(t, func(t *testing.T, req up.Request) {
					if b := lastUserBlocks(t, req); !strings.Contains(str(b, 0, "content"), "[6] Zig comptime") {
						t.Errorf("third search numbered wrongly: %v", b)
					}
				}, up.Message("end_turn", up.Usage{Input: 500, Output: 60},
					up.Text("Go has type parameters [1]. Rust has traits [5], and Zig has comptime [6]."))),
			},
			check: func(t *testing.T, r *roundResult) {
				m := &r.msg
				want := []string{"thinking", "text", "server_tool_use", "server_tool_use", "web_search_tool_result", "web_search_tool_result",
					"server_tool_use", "web_search_tool_result", "text", "text", "text"}
				if diff := cmp.Diff(want, blockTypes(m)); diff != "" {
					t.Fatalf("blocks (-want +got):\n%s", diff)
				}
				sig := "sig-1"
				if r.kind == "openai" {
					sig = "webgate-openai:reasoning_content"
				}
				if th := m.Content[0].AsThinking(); th.Thinking != "Two searches at once, then one more." || th.Signature != sig {
					t.Errorf("thinking %+v", th)
				}
				urls := []string{goResults[0].URL, "https://doc.rust-lang.org/book/ch10-02-traits.html", "https://ziglang.org/documentation/master/#comptime"}
				for i, b := range m.Content[8:] {
					c := b.AsText().Citations
					if len(c) != 1 || c[0].AsWebSearchResultLocation().URL != urls[i] {
						t.Errorf("text %d cites %+v, want %s", i, c, urls[i])
					}
				}
				if u := m.Usage; u.ServerToolUse.WebSearchRequests != 3 || u.InputTokens != 900 || u.OutputTokens != 110 {
					t.Errorf("usage %+v", u)
				}
			},
		}},
	})
}

// fetchDocs are the documents behind the fetch scenario.
var fetchDocs = map[string]*fetch.Result{
	"https://example.com/article": {Title: "An Article", ContentType: "text/html",
		Content: "First sentence about apples. Second sentence mentions bananas and their yellow colour.\n\nSee https://example.com/related for more."},
	"https://example.com/paper.pdf": {Title: "paper.pdf", ContentType: "application/pdf", Body: []byte("%PDF-1.4 fake"),
		Content: "Extracted PDF text about cherries."},
}

func TestEmulateFetchPriorContext(t *testing.T) {
	getter := &docGetter{docs: fetchDocs}
	runScenario(t, scenario{
		name:   "fetch_prior_context",
		getter: getter,
		rounds: []round{{
			body: first(request([]any{fetchTool}, userMsg("Summarize https://example.com/article and https://example.com/paper.pdf please."))),
			steps: []up.Step{
				up.Send(up.Message("tool_use", up.Usage{Input: 90, Output: 30},
					up.ToolUse("toolu_f1", "web_fetch", `{"url":"https://example.com/article"}`),
					up.ToolUse("toolu_f2", "web_fetch", `{"url":"https://example.com/paper.pdf"}`),
					up.ToolUse("toolu_f3", "web_fetch", `{"url":"https://unmentioned.example/secret"}`))),
				expect(t, func(t *testing.T, req up.Request) {
					b := lastUserBlocks(t, req)
					if len(b) != 3 {
						t.Errorf("tool results %v", b)
						return
					}
					if c := str(b, 0, "content"); !strings.Contains(c, "[1] An Article") || !strings.Contains(c, "bananas") {
						t.Errorf("article result %q", c)
					}
					if c := str(b, 1, "content"); !strings.Contains(c, "Extracted PDF text about cherries.") {
						t.Errorf("pdf result %q", c)
					}
					if c := str(b, 2, "content"); !strings.Contains(c, "url_not_in_prior_context") || b[2]["is_error"] != true {
						t.Errorf("unmentioned URL result %v", b[2])
					}
				}, up.Message("end_turn", up.Usage{Input: 700, Output: 40},
					up.Text("Bananas are yellow [1]. The paper covers cherries [2]."))),
			},
			check: func(t *testing.T, r *roundResult) {
				m := &r.msg
				want := []string{"server_tool_use", "server_tool_use", "server_tool_use", "web_fetch_tool_result", "web_fetch_tool_result", "web_fetch_tool_result", "text", "text"}
				if diff := cmp.Diff(want, blockTypes(m)); diff != "" {
					t.Fatalf("blocks (-want +got):\n%s", diff)
				}
				doc := m.Content[3].AsWebFetchToolResult().Content.AsResponseWebFetchResultBlock()
				if doc.URL != "https://example.com/article" || doc.RetrievedAt != "2026-03-04T05:06:07Z" ||
					doc.Content.Title != "An Article" || !doc.Content.Citations.Enabled ||
					doc.Content.Source.Type != "text" || doc.Content.Source.Data != fetchDocs["https://example.com/article"].Content {
					t.Errorf("fetched document %+v", doc)
				}
				pdf := m.Content[4].AsWebFetchToolResult().Content.AsResponseWebFetchResultBlock()
				if pdf.Content.Source.Type != "base64" || pdf.Content.Source.MediaType != "application/pdf" ||
					pdf.Content.Source.Data != base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 fake")) {
					t.Errorf("pdf document %+v", pdf.Content.Source)
				}
				if pdf.Content.Citations.Enabled {
					t.Error("the PDF document says citations are enabled, but webgate cannot cite its pages")
				}
				if e := m.Content[5].AsWebFetchToolResult().Content.AsResponseWebFetchToolResultError(); e.ErrorCode != "url_not_in_prior_context" {
					t.Errorf("unmentioned URL: %+v", e)
				}
				cited := m.Content[6].AsText()
				if cited.Text != "Bananas are yellow." || len(cited.Citations) != 1 {
					t.Fatalf("cited text %q %d", cited.Text, len(cited.Citations))
				}
				loc := cited.Citations[0].AsCharLocation()
				content := fetchDocs["https://example.com/article"].Content
				if loc.CitedText != "Second sentence mentions bananas and their yellow colour." || loc.DocumentIndex != 0 ||
					loc.DocumentTitle != "An Article" || string([]rune(content)[loc.StartCharIndex:loc.EndCharIndex]) != loc.CitedText {
					t.Errorf("char_location %+v", loc)
				}
				if pdfText := m.Content[7].AsText(); pdfText.Text != " The paper covers cherries." || len(pdfText.Citations) != 0 {
					t.Errorf("pdf sentence %q %v (PDF citations are page locations webgate cannot give)", pdfText.Text, pdfText.Citations)
				}
				if u := m.Usage.ServerToolUse; u.WebFetchRequests != 2 || u.WebSearchRequests != 0 {
					t.Errorf("usage %+v", u)
				}
			},
		}},
	})
}

func TestEmulateMaxUsesExceeded(t *testing.T) {
	searches := &queryResults{}
	tool := map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": 1}
	runScenario(t, scenario{
		name:     "max_uses_exceeded",
		searcher: searches,
		rounds: []round{{
			body: first(request([]any{tool}, userMsg("Search twice."))),
			steps: []up.Step{
				up.Send(up.Message("tool_use", up.Usage{Input: 50, Output: 20},
					up.ToolUse("toolu_1", "web_search", `{"query":"first"}`),
					up.ToolUse("toolu_2", "web_search", `{"query":"second"}`))),
				expect(t, func(t *testing.T, req up.Request) {
					b := lastUserBlocks(t, req)
					if c := str(b, 1, "content"); !strings.Contains(c, "max_uses_exceeded") || len(b) < 2 || b[1]["is_error"] != true {
						t.Errorf("second search result %v", b)
					}
				}, up.Message("end_turn", up.Usage{Input: 80, Output: 5}, up.Text("One search was enough."))),
			},
			check: func(t *testing.T, r *roundResult) {
				m := &r.msg
				if e := m.Content[3].AsWebSearchToolResult().Content.AsResponseWebSearchToolResultError(); e.ErrorCode != "max_uses_exceeded" {
					t.Errorf("second result %+v", e)
				}
				if m.Usage.ServerToolUse.WebSearchRequests != 1 {
					t.Errorf("usage %+v", m.Usage)
				}
				if got := searches.seen(); len(got) != 1 || got[0] != "first" {
					t.Errorf("searches run %v", got)
				}
			},
		}},
	})
}

func TestEmulateClientToolSameTurn(t *testing.T) {
	searches := &queryResults{}
	tools := []any{searchTool, cmdTool}
	user := userMsg("Look up Go generics and run uname.")
	var deferredID string
	runScenario(t, scenario{
		name:     "client_tool_same_turn",
		searcher: searches,
		rounds: []round{
			{
				body: first(request(tools, user)),
				steps: []up.Step{up.Send(up.Message("tool_use", up.Usage{Input: 70, Output: 25},
					up.Text("Doing both."),
					up.ToolUse("toolu_s", "web_search", `{"query":"go generics"}`),
					up.ToolUse("toolu_cmd", "run_command", `{"command":"uname -a"}`)))},
				check: func(t *testing.T, r *roundResult) {
					m := &r.msg
					if diff := cmp.Diff([]string{"text", "server_tool_use", "tool_use"}, blockTypes(m)); diff != "" {
						t.Fatalf("blocks (-want +got):\n%s", diff)
					}
					if m.StopReason != sdk.StopReasonToolUse || m.Usage.ServerToolUse.WebSearchRequests != 0 {
						t.Errorf("stop %q usage %+v", m.StopReason, m.Usage)
					}
					if cmd := m.Content[2].AsToolUse(); cmd.ID != "toolu_cmd" || cmd.Name != "run_command" {
						t.Errorf("client tool_use %+v", cmd)
					}
					if n := len(searches.seen()); n != 0 {
						t.Errorf("the deferred search ran early (%d searches)", n)
					}
					deferredID = m.Content[1].AsServerToolUse().ID
				},
			},
			{
				body: func(prev []json.RawMessage) map[string]any {
					return request(tools, user, assistantContent(prev), map[string]any{"role": "user", "content": []any{
						map[string]any{"type": "tool_result", "tool_use_id": "toolu_cmd", "content": "Linux demo 6.8.0"}}})
				},
				steps: []up.Step{expect(t, func(t *testing.T, req up.Request) {
					b := lastUserBlocks(t, req)
					if len(b) != 2 || str(b, 0, "tool_use_id") != deferredID || str(b, 1, "tool_use_id") != "toolu_cmd" ||
						!strings.Contains(str(b, 0, "content"), "[1] Tutorial") {
						t.Errorf("results sent upstream %v", b)
					}
				}, up.Message("end_turn", up.Usage{Input: 400, Output: 20}, up.Text("It runs Linux, and Go has generics [1].")))},
				check: func(t *testing.T, r *roundResult) {
					m := &r.msg
					if diff := cmp.Diff([]string{"web_search_tool_result", "text"}, blockTypes(m)); diff != "" {
						t.Fatalf("blocks (-want +got):\n%s", diff)
					}
					if id := m.Content[0].AsWebSearchToolResult().ToolUseID; id != deferredID {
						t.Errorf("deferred result answers %s, want %s", id, deferredID)
					}
					if m.Usage.ServerToolUse.WebSearchRequests != 1 || len(m.Content[1].AsText().Citations) != 1 {
						t.Errorf("usage %+v, citations %v", m.Usage, m.Content[1].AsText().Citations)
					}
				},
			},
		},
	})
}

func TestEmulatePauseTurn(t *testing.T) {
	tools := []any{map[string]any{"type": "web_search_20260318", "name": "web_search"}}
	user := userMsg("Research Go generics thoroughly.")
	cfg := config.Upstream{MaxIterations: 2}
	runScenario(t, scenario{
		name:     "pause_turn",
		upstream: cfg,
		rounds: []round{
			{
				body: first(request(tools, user)),
				steps: []up.Step{
					up.Send(up.Message("tool_use", up.Usage{Input: 10, Output: 5}, up.ToolUse("toolu_1", "web_search", `{"query":"go generics"}`))),
					up.Send(up.Message("tool_use", up.Usage{Input: 20, Output: 5}, up.ToolUse("toolu_2", "web_search", `{"query":"go generics proposal"}`))),
				},
				check: func(t *testing.T, r *roundResult) {
					m := &r.msg
					if m.StopReason != "pause_turn" || m.Usage.ServerToolUse.WebSearchRequests != 2 {
						t.Errorf("stop %q usage %+v", m.StopReason, m.Usage)
					}
					want := []string{"server_tool_use", "web_search_tool_result", "server_tool_use", "web_search_tool_result"}
					if diff := cmp.Diff(want, blockTypes(m)); diff != "" {
						t.Errorf("blocks (-want +got):\n%s", diff)
					}
				},
			},
			{
				// Anthropic's documented continuation: the paused content
				// sent back as is.
				body: func(prev []json.RawMessage) map[string]any { return request(tools, user, assistantContent(prev)) },
				steps: []up.Step{expect(t, func(t *testing.T, req up.Request) {
					var body struct {
						Messages []struct {
							Role string `json:"role"`
						} `json:"messages"`
					}
					_ = json.Unmarshal(req.Body, &body)
					var roles []string
					for _, m := range body.Messages {
						roles = append(roles, m.Role)
					}
					if diff := cmp.Diff([]string{"user", "assistant", "user", "assistant", "user"}, roles); diff != "" {
						t.Errorf("continuation roles (-want +got):\n%s", diff)
					}
					if !req.Contains("This tutorial introduces the basics of generics in Go", "[5] Tutorial") {
						t.Error("restored results missing from the continuation")
					}
				}, up.Message("end_turn", up.Usage{Input: 60, Output: 9}, up.Text("Generics arrived in Go 1.18 [2].")))},
				check: func(t *testing.T, r *roundResult) {
					m := &r.msg
					if m.StopReason != sdk.StopReasonEndTurn || len(m.Content) != 1 || len(m.Content[0].AsText().Citations) != 1 {
						t.Errorf("continuation %s %v", m.StopReason, blockTypes(m))
					}
				},
			},
		},
	})
}

func TestEmulateSealedRoundTrip(t *testing.T) {
	tools := []any{searchTool}
	user := userMsg("What changed in Go generics?")
	// firstResult is the search result as the model read it in the first
	// turn; restored from the sealed history it must read the same, byte
	// for byte (untrusted-content boundaries included), so the upstream's
	// prompt cache stays valid.
	var firstResult string
	runScenario(t, scenario{
		name: "sealed_round_trip",
		rounds: []round{
			{
				body: first(request(tools, user)),
				steps: []up.Step{
					up.Send(up.Message("tool_use", up.Usage{Input: 10, Output: 5}, up.ToolUse("toolu_1", "web_search", `{"query":"go generics"}`))),
					expect(t, func(t *testing.T, req up.Request) {
						firstResult = str(lastUserBlocks(t, req), 0, "content")
						if !strings.HasPrefix(firstResult, "[webgate: untrusted web search results, id srvtoolu_") ||
							!strings.Contains(firstResult, "\n[webgate: end of untrusted web search results, id srvtoolu_") {
							t.Errorf("search result not marked as untrusted:\n%s", firstResult)
						}
					}, up.Message("end_turn", up.Usage{Input: 20, Output: 5}, up.Text("Generics came with Go 1.18 [2]."))),
				},
			},
			{
				body: func(prev []json.RawMessage) map[string]any {
					return request(tools, user, assistantContent(prev), userMsg("And where is the tutorial?"))
				},
				steps: []up.Step{expect(t, func(t *testing.T, req up.Request) {
					var body struct {
						Messages []struct {
							Content []struct {
								Content string `json:"content"`
							} `json:"content"`
						} `json:"messages"`
					}
					_ = json.Unmarshal(req.Body, &body)
					if len(body.Messages) < 3 || len(body.Messages[2].Content) != 1 {
						t.Errorf("restored conversation: %s", req.Body)
					} else if got := body.Messages[2].Content[0].Content; got != firstResult || got == "" {
						t.Errorf("restored result differs from the one the model read:\nfirst: %s\nrestored: %s", firstResult, got)
					}
					for _, bad := range []string{"wg1.", "wg2.", "server_tool_use", "web_search_tool_result", "encrypted_", "citations"} {
						if req.Contains(bad) {
							t.Errorf("upstream got %q:\n%s", bad, req.Body)
						}
					}
					for _, want := range []string{`"type":"tool_use"`, `"type":"tool_result"`,
						"This tutorial introduces the basics of generics in Go", "Generics came with Go 1.18. [2]"} {
						if !req.Contains(want) {
							t.Errorf("restored history lacks %q:\n%s", want, req.Body)
						}
					}
				}, up.Message("end_turn", up.Usage{Input: 30, Output: 5}, up.Text("The tutorial is on go.dev [1].")))},
				check: func(t *testing.T, r *roundResult) {
					c := r.msg.Content[0].AsText().Citations
					if len(c) != 1 || c[0].AsWebSearchResultLocation().URL != goResults[0].URL {
						t.Errorf("citation of a restored source: %+v", c)
					}
				},
			},
		},
	})
}

func TestEmulateUpstreamErrorMidStream(t *testing.T) {
	events := append(up.Start(up.Usage{Input: 10}), up.Blocks(0, up.Text("Partial answer"))...)
	events = append(events, up.Error("overloaded_error", "Overloaded"))
	runScenario(t, scenario{
		name: "upstream_error_mid_stream",
		rounds: []round{{
			body: first(request([]any{searchTool}, userMsg("Search then fail."))),
			steps: []up.Step{
				up.Send(up.Message("tool_use", up.Usage{Input: 10, Output: 5}, up.ToolUse("toolu_1", "web_search", `{"query":"go generics"}`))),
				up.Send(events),
			},
			jsonStatus: 529,
			check: func(t *testing.T, r *roundResult) {
				if !r.stream {
					if !strings.Contains(string(r.raw), `"overloaded_error"`) {
						t.Errorf("error body %s", r.raw)
					}
					return
				}
				if last := r.events[len(r.events)-1]; last != "error" || slices.Contains(r.events, "message_stop") {
					t.Errorf("stream events %v", r.events)
				}
				if diff := cmp.Diff([]string{"server_tool_use", "web_search_tool_result", "text"}, blockTypes(&r.msg)); diff != "" {
					t.Errorf("blocks before the error (-want +got):\n%s", diff)
				}
			},
		}},
	})
}

func TestEmulateUpstreamErrorStatus(t *testing.T) {
	errBody := `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`
	runScenario(t, scenario{
		name: "upstream_error_status",
		rounds: []round{{
			body:   first(request([]any{searchTool}, userMsg("Hello"))),
			steps:  []up.Step{func(up.Request) up.Reply { return up.Reply{Status: http.StatusTooManyRequests, Body: errBody} }},
			status: http.StatusTooManyRequests,
			check: func(t *testing.T, r *roundResult) {
				if string(r.raw) != errBody {
					t.Errorf("upstream error body not relayed: %s", r.raw)
				}
			},
		}},
	})
}
