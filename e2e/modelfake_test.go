package e2e

// Scripted fakes of the four model APIs the real MCP clients talk to
// (Anthropic Messages, OpenAI Responses, the Gemini API and OpenAI Chat
// Completions). Each one decodes a client's request into the same
// conversation summary, asks the shared script what the model does next,
// and answers in its own wire format, streaming where the client streams.
// The script records what each client put in front of its model: the tools
// it offered and the text of every tool result.

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Webgate's tools are recognised by their descriptions (see
// internal/mcpserver/schema.go), because each client names MCP tools its own way:
// mcp__webgate__web_search, webgate_web_search, web_search, ...
const (
	searchDescPrefix = "Search the web and return ranked results"
	fetchDescPrefix  = "Fetch web pages and return their main content"
)

// toolDef is one tool a client offered its model.
type toolDef struct {
	Name        string
	Description string
}

// toolResult is one tool result a client sent back to its model.
type toolResult struct {
	CallID string
	Name   string // Gemini's functionResponse carries the name, not our id
	Text   string
}

// convo is a client's request reduced to what the script needs.
type convo struct {
	Tools   []toolDef
	Text    string // system and message text, where deferred tool names appear
	Results []toolResult
}

// action is the model's next move: a tool call, or a final answer.
type action struct {
	CallID string
	Tool   string
	Args   map[string]any
	Answer string
}

// finalAnswer is what the fake model says once it has read both results.
const finalAnswer = "FINAL-ANSWER: the page carries SECOND-PART."

// modelScript is the conversation every fake model plays: search with
// webgate's web_search, fetch the first result's page with web_fetch,
// answer. Requests without webgate's tools (titles, summaries, routing)
// get a short plain answer.
type modelScript struct {
	t       *testing.T
	pageURL string

	mu sync.Mutex
	// offered is the union of the tool names offered in requests that
	// carried webgate's tools: the main conversation's tool list.
	offered map[string]string // name -> description
	// deferredText is the text of those requests, where clients with tool
	// search (Claude Code) list tools whose schemas are not loaded yet.
	deferredText []string
	// search and fetch are the tool results the model received.
	search, fetch []string
	calls         int
	answered      bool
	requests      int
}

func newModelScript(t *testing.T, pageURL string) *modelScript {
	return &modelScript{t: t, pageURL: pageURL, offered: map[string]string{}}
}

var deferredName = regexp.MustCompile(`[A-Za-z0-9_.-]*webgate[A-Za-z0-9_.-]*web_(?:search|fetch)\b`)

// next decides the model's move for one request.
func (s *modelScript) next(c convo) action {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	var searchTool, fetchTool string
	names := map[string]bool{}
	for _, d := range c.Tools {
		names[d.Name] = true
		switch {
		case strings.Contains(d.Description, searchDescPrefix):
			searchTool = d.Name
		case strings.Contains(d.Description, fetchDescPrefix):
			fetchTool = d.Name
		}
	}
	kind := func(r toolResult) string {
		switch {
		case strings.HasPrefix(r.CallID, "wg_search"), r.Name != "" && r.Name == searchTool:
			return "search"
		case strings.HasPrefix(r.CallID, "wg_fetch"), r.Name != "" && r.Name == fetchTool:
			return "fetch"
		case strings.HasPrefix(r.CallID, "wg_toolsearch"):
			return "toolsearch"
		}
		return ""
	}
	var gotSearch, gotFetch, gotToolSearch bool
	var searchText, fetchText []string
	for _, r := range c.Results {
		switch kind(r) {
		case "search":
			gotSearch = true
			searchText = append(searchText, r.Text)
		case "fetch":
			gotFetch = true
			fetchText = append(fetchText, r.Text)
		case "toolsearch":
			gotToolSearch = true
		}
	}
	if searchTool == "" || fetchTool == "" {
		// Claude Code defers MCP tools behind ToolSearch: the model sees
		// only their names until it loads them.
		deferred := slices.Compact(sortStrings(deferredName.FindAllString(c.Text, -1)))
		if len(deferred) > 0 && names["ToolSearch"] && !gotToolSearch {
			s.calls++
			return action{CallID: fmt.Sprintf("wg_toolsearch_%d", s.calls), Tool: "ToolSearch", Args: map[string]any{"query": "select:" + strings.Join(deferred, ",")}}
		}
		s.t.Logf("model request %d offers no webgate tools (tools: %v); answering OK", s.requests, slices.Sorted(maps.Keys(names)))
		return action{Answer: "OK"}
	}
	for _, d := range c.Tools {
		s.offered[d.Name] = d.Description
	}
	s.deferredText = append(s.deferredText, c.Text)
	if gotSearch {
		s.search = searchText
	}
	if gotFetch {
		s.fetch = fetchText
	}
	s.calls++
	switch {
	case gotFetch:
		s.answered = true
		return action{Answer: finalAnswer}
	case gotSearch && fetchTool != "":
		return action{CallID: fmt.Sprintf("wg_fetch_%d", s.calls), Tool: fetchTool, Args: map[string]any{"url": s.pageURL}}
	case searchTool != "":
		return action{CallID: fmt.Sprintf("wg_search_%d", s.calls), Tool: searchTool, Args: map[string]any{"query": "webgate matrix", "max_results": 2}}
	}
	return action{Answer: "OK"}
}

func sortStrings(s []string) []string { slices.Sort(s); return s }

// seen returns what the model received, for the test's checks.
func (s *modelScript) seen() (offered map[string]string, deferredText, search, fetch string, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.offered), strings.Join(s.deferredText, "\n"), strings.Join(s.search, "\n"), strings.Join(s.fetch, "\n"), s.answered
}

// stringsIn collects every string inside a decoded JSON value, in order: the
// text a model would read from a tool result, whatever shape the client
// wrapped it in.
func stringsIn(v any) string {
	var parts []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			parts = append(parts, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	walk(v)
	return strings.Join(parts, "\n")
}

// fakeServer starts h on loopback, logging unexpected paths so a client
// that calls something the fake does not know shows up in the test log.
func fakeServer(t *testing.T, name string, h func(w http.ResponseWriter, r *http.Request, body []byte) bool) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if !h(w, r, body) {
			t.Logf("%s fake: unhandled %s %s", name, r.Method, r.URL)
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

func sse(w http.ResponseWriter) func(event string, data any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return func(event string, data any) {
		b, _ := json.Marshal(data)
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
		if f != nil {
			f.Flush()
		}
	}
}

func argsJSON(a action) string {
	b, _ := json.Marshal(a.Args)
	return string(b)
}

// anthropicFake serves the Messages API for Claude Code
// (ANTHROPIC_BASE_URL).
func anthropicFake(t *testing.T, s *modelScript) *httptest.Server {
	return fakeServer(t, "anthropic", func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		switch r.URL.Path {
		case "/v1/messages/count_tokens":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"input_tokens":100}`)
			return true
		case "/v1/messages":
		default:
			return false
		}
		var req struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			System   any    `json:"system"`
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
			Tools []toolDef `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return true
		}
		c := convo{Tools: req.Tools}
		var text []string
		text = append(text, stringsIn(req.System))
		for _, m := range req.Messages {
			blocks, ok := m.Content.([]any)
			if !ok {
				text = append(text, stringsIn(m.Content))
				continue
			}
			for _, b := range blocks {
				bm, _ := b.(map[string]any)
				if bm["type"] == "tool_result" {
					id, _ := bm["tool_use_id"].(string)
					c.Results = append(c.Results, toolResult{CallID: id, Text: stringsIn(bm["content"])})
					continue
				}
				text = append(text, stringsIn(bm["text"]))
			}
		}
		c.Text = strings.Join(text, "\n")
		a := s.next(c)
		block := map[string]any{"type": "text", "text": ""}
		stop := "end_turn"
		if a.Tool != "" {
			block = map[string]any{"type": "tool_use", "id": a.CallID, "name": a.Tool, "input": map[string]any{}}
			stop = "tool_use"
		}
		if !req.Stream {
			if a.Tool != "" {
				block["input"] = a.Args
			} else {
				block["text"] = a.Answer
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": req.Model,
				"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}})
			return true
		}
		send := sse(w)
		send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_fake", "type": "message", "role": "assistant",
			"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
		if a.Tool != "" {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": argsJSON(a)}})
		} else {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": a.Answer}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		send("message_stop", map[string]any{"type": "message_stop"})
		return true
	})
}

// responsesFake serves the OpenAI Responses API for Codex (a custom model
// provider with wire_api = "responses").
func responsesFake(t *testing.T, s *modelScript) *httptest.Server {
	return fakeServer(t, "responses", func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if r.URL.Path == "/v1/models" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[],"models":[]}`)
			return true
		}
		if r.URL.Path != "/v1/responses" {
			return false
		}
		var req struct {
			Model        string           `json:"model"`
			Instructions string           `json:"instructions"`
			Input        []map[string]any `json:"input"`
			Tools        []map[string]any `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return true
		}
		c := convo{}
		var collect func(prefix string, tools []map[string]any)
		collect = func(prefix string, tools []map[string]any) {
			for _, tl := range tools {
				name, _ := tl["name"].(string)
				desc, _ := tl["description"].(string)
				typ, _ := tl["type"].(string)
				if name == "" {
					name = typ // hosted tools: {"type": "web_search"}
				}
				if sub, ok := tl["tools"].([]any); ok { // a namespace of tools
					var subs []map[string]any
					for _, x := range sub {
						if m, ok := x.(map[string]any); ok {
							subs = append(subs, m)
						}
					}
					collect(prefix+name+"/", subs)
					continue
				}
				c.Tools = append(c.Tools, toolDef{Name: prefix + name, Description: desc})
			}
		}
		collect("", req.Tools)
		var text []string
		text = append(text, req.Instructions)
		for _, it := range req.Input {
			switch it["type"] {
			case "function_call_output", "custom_tool_call_output", "mcp_tool_call_output":
				id, _ := it["call_id"].(string)
				c.Results = append(c.Results, toolResult{CallID: id, Text: stringsIn(it["output"])})
			case "message":
				text = append(text, stringsIn(it["content"]))
			}
		}
		c.Text = strings.Join(text, "\n")
		a := s.next(c)
		send := sse(w)
		send("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_fake"}})
		var item map[string]any
		if a.Tool != "" {
			item = map[string]any{"type": "function_call", "id": "fc_" + a.CallID, "call_id": a.CallID, "name": a.Tool, "arguments": argsJSON(a), "status": "completed"}
			// A namespaced tool is called by its own name within its namespace.
			for _, tl := range req.Tools {
				ns, _ := tl["name"].(string)
				if tl["type"] == "namespace" && ns != "" && strings.HasPrefix(a.Tool, ns+"/") {
					item["namespace"] = ns
					item["name"] = strings.TrimPrefix(a.Tool, ns+"/")
				}
			}
		} else {
			item = map[string]any{"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": a.Answer, "annotations": []any{}}}}
			send("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
				"item": map[string]any{"type": "message", "id": "msg_fake", "role": "assistant", "status": "in_progress", "content": []any{}}})
			send("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": "msg_fake", "output_index": 0, "content_index": 0, "delta": a.Answer})
		}
		send("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		send("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_fake", "status": "completed",
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 5,
				"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}})
		return true
	})
}

// geminiFake serves the Gemini API (generateContent and
// streamGenerateContent) for Gemini CLI (GOOGLE_GEMINI_BASE_URL).
func geminiFake(t *testing.T, s *modelScript) *httptest.Server {
	return fakeServer(t, "gemini", func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		_, method, ok := strings.Cut(r.URL.Path, ":")
		if !ok || !strings.Contains(r.URL.Path, "/models/") {
			return false
		}
		if method == "countTokens" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"totalTokens":100}`)
			return true
		}
		if method != "generateContent" && method != "streamGenerateContent" {
			return false
		}
		var req struct {
			Contents []struct {
				Role  string           `json:"role"`
				Parts []map[string]any `json:"parts"`
			} `json:"contents"`
			SystemInstruction any `json:"systemInstruction"`
			Tools             []struct {
				FunctionDeclarations []toolDef `json:"functionDeclarations"`
			} `json:"tools"`
			GenerationConfig struct {
				ResponseMimeType string `json:"responseMimeType"`
			} `json:"generationConfig"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return true
		}
		c := convo{}
		for _, tl := range req.Tools {
			c.Tools = append(c.Tools, tl.FunctionDeclarations...)
		}
		text := []string{stringsIn(req.SystemInstruction)}
		for _, m := range req.Contents {
			for _, p := range m.Parts {
				if fr, ok := p["functionResponse"].(map[string]any); ok {
					id, _ := fr["id"].(string)
					name, _ := fr["name"].(string)
					c.Results = append(c.Results, toolResult{CallID: id, Name: name, Text: stringsIn(fr["response"])})
					continue
				}
				text = append(text, stringsIn(p["text"]))
			}
		}
		c.Text = strings.Join(text, "\n")
		var a action
		if req.GenerationConfig.ResponseMimeType == "application/json" {
			// Gemini CLI's side calls (next-speaker check, routing) want
			// JSON; saying the user speaks next ends the turn.
			a = action{Answer: `{"reasoning":"done","next_speaker":"user","model_choice":"flash","complexity_reasoning":"simple","complexity_score":10}`}
		} else {
			a = s.next(c)
		}
		part := map[string]any{"text": a.Answer}
		if a.Tool != "" {
			part = map[string]any{"functionCall": map[string]any{"id": a.CallID, "name": a.Tool, "args": a.Args}}
		}
		chunk := map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
			"modelVersion":  "gemini-fake",
		}
		if method == "generateContent" {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(chunk)
			return true
		}
		sse(w)("", chunk)
		return true
	})
}

// chatFake serves OpenAI Chat Completions for OpenCode (a provider built
// on @ai-sdk/openai-compatible).
func chatFake(t *testing.T, s *modelScript) *httptest.Server {
	return fakeServer(t, "chat", func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if r.URL.Path != "/v1/chat/completions" {
			return false
		}
		var req struct {
			Model    string           `json:"model"`
			Stream   bool             `json:"stream"`
			Messages []map[string]any `json:"messages"`
			Tools    []struct {
				Function toolDef `json:"function"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return true
		}
		c := convo{}
		for _, tl := range req.Tools {
			c.Tools = append(c.Tools, tl.Function)
		}
		var text []string
		for _, m := range req.Messages {
			if m["role"] == "tool" {
				id, _ := m["tool_call_id"].(string)
				c.Results = append(c.Results, toolResult{CallID: id, Text: stringsIn(m["content"])})
				continue
			}
			text = append(text, stringsIn(m["content"]))
		}
		c.Text = strings.Join(text, "\n")
		a := s.next(c)
		delta := map[string]any{"role": "assistant", "content": a.Answer}
		finish := "stop"
		if a.Tool != "" {
			delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": a.CallID, "type": "function",
				"function": map[string]any{"name": a.Tool, "arguments": argsJSON(a)}}}}
			finish = "tool_calls"
		}
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		if !req.Stream {
			msg := map[string]any{"role": "assistant", "content": a.Answer}
			if a.Tool != "" {
				msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": delta["tool_calls"]}
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
			return true
		}
		send := sse(w)
		send("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}})
		send("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, "usage": usage})
		io.WriteString(w, "data: [DONE]\n\n")
		return true
	})
}
