package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
)

// requireAnthropicSDK returns the node binary, or skips (fails on CI) when
// the TypeScript Anthropic SDK is not installed.
func requireAnthropicSDK(t *testing.T) string {
	t.Helper()
	node := requireNode(t)
	if _, err := os.Stat(filepath.Join("node_modules", "@anthropic-ai", "sdk", "package.json")); err != nil {
		fail := t.Skipf
		if os.Getenv("CI") == "true" {
			fail = t.Fatalf
		}
		fail("e2e/node_modules/@anthropic-ai/sdk is missing; run `npm ci --prefix e2e`")
	}
	return node
}

// TestAnthropicSDKEmulation runs the real webgate binary in front of a
// scripted upstream that has no server tools, with the official
// TypeScript SDK as the client: webgate must run the web search and web
// fetch the model asks for (against a loopback SearXNG and page), stream
// one coherent message the SDK accumulates, answer the same without
// streaming, and restore the sealed conversation on the next turn. It
// runs over both upstream kinds: an Anthropic-compatible upstream, and an
// OpenAI-compatible one (Chat Completions, with a model map) playing the
// same script.
func TestAnthropicSDKEmulation(t *testing.T) {
	node := requireAnthropicSDK(t)
	for _, kind := range []string{"anthropic", "openai"} {
		t.Run(kind, func(t *testing.T) { testAnthropicSDKEmulation(t, node, kind) })
	}
}

func testAnthropicSDKEmulation(t *testing.T, node, kind string) {
	var hits atomic.Int64
	fake := searxngFake(t, &hits)
	page := fake.URL + "/page/one"

	toolCalls := up.Send(up.Message("tool_use", up.Usage{Input: 100, Output: 20},
		up.Text("Let me check."),
		up.ToolUse("toolu_s", "web_search", `{"query":"webgate e2e"}`),
		up.ToolUse("toolu_f", "web_fetch", fmt.Sprintf(`{"url":%q}`, page))))
	answer := func(req up.Request) up.Reply {
		if !req.Contains("First hit for webgate e2e", "SECOND-PART", "[4] Webgate test page") {
			t.Errorf("tool results missing from the upstream request:\n%s", req.Body)
		}
		return up.Reply{Events: up.Message("end_turn", up.Usage{Input: 900, Output: 30},
			up.Text("The page has a second part [4]. The search found it too [1]."))}
	}
	secondTurn := func(req up.Request) up.Reply {
		if req.Contains("wg1.") || req.Contains("wg2.") || req.Contains("server_tool_use") || !req.Contains("First hit for webgate e2e", "SECOND-PART") {
			t.Errorf("second turn not restored for the upstream:\n%s", req.Body)
		}
		return up.Reply{Events: up.Message("end_turn", up.Usage{Input: 1000, Output: 10}, up.Text("The search result came first [1]."))}
	}
	steps := []up.Step{toolCalls, answer, toolCalls, answer, secondTurn}
	upstream := up.New(t, steps...)
	upstreamCfg := "base_url: " + upstream.URL
	if kind == "openai" {
		upstream = up.NewOpenAI(t, steps...)
		upstreamCfg = fmt.Sprintf("kind: openai\n  base_url: %s/v1\n  models:\n    - {pattern: \"claude-*\", model: qwen3-coder}", upstream.URL)
	}

	path := writeServeConfig(t, fake.URL, fmt.Sprintf(`server:
  auth_tokens: [%s]
upstream:
  %s
  api_key: upstream-key
  web_search:
    enrich: false
`, token, upstreamCfg))
	srv := startServe(t, build(t), path)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "anthropic.mjs", srv.base, token, page)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node anthropic.mjs: %v\nstderr:\n%s\nwebgate:\n%s", err, stderr.String(), srv.logs())
	}
	var got struct {
		Events   []string       `json:"events"`
		Streamed map[string]any `json:"streamed"`
		Whole    map[string]any `json:"whole"`
		Second   map[string]any `json:"second"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}

	if got.Events[0] != "message_start" || got.Events[len(got.Events)-1] != "message_stop" {
		t.Errorf("event sequence %v", got.Events)
	}
	// The accumulated stream and the JSON message agree, modulo ids.
	if diff := cmp.Diff(anon(t, got.Whole), anon(t, got.Streamed)); diff != "" {
		t.Errorf("streamed message differs from the JSON one (-json +stream):\n%s", diff)
	}
	var types []string
	content := got.Streamed["content"].([]any)
	for _, b := range content {
		types = append(types, b.(map[string]any)["type"].(string))
	}
	want := []string{"text", "server_tool_use", "server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "text", "text"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Fatalf("blocks (-want +got):\n%s", diff)
	}
	cite := func(i int) map[string]any {
		c, _ := content[i].(map[string]any)["citations"].([]any)
		if len(c) != 1 {
			t.Fatalf("block %d citations %v", i, c)
		}
		return c[0].(map[string]any)
	}
	if c := cite(5); c["type"] != "char_location" || !strings.Contains(c["cited_text"].(string), "SECOND-PART") {
		t.Errorf("fetch citation %v", c)
	}
	if c := cite(6); c["type"] != "web_search_result_location" || c["url"] != page {
		t.Errorf("search citation %v", c)
	}
	usage := got.Streamed["usage"].(map[string]any)
	stu := usage["server_tool_use"].(map[string]any)
	if usage["input_tokens"] != 1000.0 || stu["web_search_requests"] != 1.0 || stu["web_fetch_requests"] != 1.0 {
		t.Errorf("usage %v", usage)
	}
	if sc := got.Second["content"].([]any); len(sc) != 1 || got.Second["stop_reason"] != "end_turn" {
		t.Errorf("second turn %v", got.Second)
	}
	reqs := upstream.Requests()
	if n := len(reqs); n != 5 {
		t.Errorf("upstream saw %d requests, want 5", n)
	}
	if kind == "openai" && len(reqs) > 0 && !strings.Contains(string(reqs[0].Raw), `"model":"qwen3-coder"`) {
		t.Errorf("model map not applied upstream:\n%s", reqs[0].Raw)
	}
	if got.Streamed["model"] != "claude-sonnet-4-5" {
		t.Errorf("model %v, want the client's name", got.Streamed["model"])
	}
	if hits.Load() != 2 {
		t.Errorf("SearXNG fake saw %d searches, want 2", hits.Load())
	}
}

var reRandom = regexp.MustCompile(`(msg|srvtoolu)_[0-9A-Za-z]{24}|wg[12]\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)

// anon is a message with random ids and sealed tokens blanked.
func anon(t *testing.T, m map[string]any) any {
	t.Helper()
	b, _ := json.Marshal(m)
	var v map[string]any
	if err := json.Unmarshal(reRandom.ReplaceAll(b, []byte("<x>")), &v); err != nil {
		t.Fatal(err)
	}
	// The TypeScript SDK adds parsed_output to what it accumulates.
	delete(v, "id")
	delete(v, "parsed_output")
	return v
}
