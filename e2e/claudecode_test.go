package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/messages/upstream/openai/chatcheck"

	"github.com/webgate/webgate/internal/repotest"
)

// The Claude Code compatibility suite runs the real Claude Code CLI, the
// releases pinned in package.json as claude-code-current and
// claude-code-previous, non-interactively (claude -p, stream-json) with a
// temporary HOME against `webgate serve`, in front of a scripted model
// backend of either kind: Chat Completions (upstream.kind openai: every
// request is translated) and Anthropic Messages (kind anthropic: requests
// pass through, WebSearch's own request takes the fast path). Every
// request the Chat backend receives is checked against OpenAI's published
// schema and the rules strict backends apply, and a scenario fails on any
// 4xx webgate itself answers.

// claudeCodeReleases are the package.json aliases of the pinned releases.
var claudeCodeReleases = []string{"claude-code-current", "claude-code-previous"}

// requireClaudeCode returns the CLI of one pinned release, or skips
// (fails on CI) when it is not installed.
func requireClaudeCode(t *testing.T, alias string) (bin, version string) {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("CI") == "true" {
		fail = t.Fatalf
	}
	dir := filepath.Join("node_modules", alias)
	var pkg struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || json.Unmarshal(b, &pkg) != nil {
		fail("e2e/node_modules/%s is missing; run `npm ci --prefix e2e`", alias)
	}
	bin, err = filepath.Abs(filepath.Join(dir, "bin", "claude.exe"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(bin); err != nil || st.Size() < 1<<20 {
		fail("%s has no native binary (its postinstall did not run); run `npm ci --prefix e2e`", bin)
	}
	return bin, pkg.Version
}

// Markers the scripted model and the checks look for.
const (
	secretPhrase  = "PURPLE-OCTOPUS-4417"
	subagentTask  = "SUBAGENT-TASK: reply with the magic number"
	subagentReply = "The magic number is 7331."
)

// notesPage is what the TLS page server serves to WebFetch.
const notesPage = `<!doctype html><html><head><title>Notes</title></head><body><article>
<h1>Team notes</h1><p>The secret verification phrase for this page is ` + secretPhrase + `.</p>
<p>Nothing else on this page matters, but it is long enough to be an article.</p></article></body></html>`

// brain is the scripted model. It decides every reply from the
// conversation it is sent (webgate and Claude Code decide how many
// requests a scenario takes, and in which order), so one script serves
// both kinds of backend: the OpenAI-compatible fake shows it a Messages
// API view of each Chat Completions request.
type brain struct {
	t       *testing.T
	imgPath string
	pageURL string
	schema  *chatcheck.Schema

	mu       sync.Mutex
	problems []string // Chat Completions requests that break the rules
	seen     []string // one line per request: what the brain saw and did
	images   int      // images the main agent received
	requests int
}

// view is a request as the brain reads it.
type view struct {
	System   json.RawMessage         `json:"system"`
	Tools    []struct{ Name string } `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// blocks returns a message's content as blocks.
func blocks(c json.RawMessage) []block {
	var s string
	if json.Unmarshal(c, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var out []block
	_ = json.Unmarshal(c, &out)
	return out
}

// textOf is every text in content, tool results' included.
func textOf(c json.RawMessage) string {
	var b strings.Builder
	for _, bl := range blocks(c) {
		b.WriteString(bl.Text)
		if bl.Type == "tool_result" {
			b.WriteString(textOf(bl.Content))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// countImages counts image blocks (and the Chat view's image_url parts),
// tool results' included.
func countImages(c json.RawMessage) int {
	n := 0
	for _, bl := range blocks(c) {
		switch bl.Type {
		case "image", "image_url":
			n++
		case "tool_result":
			n += countImages(bl.Content)
		}
	}
	return n
}

func (b *brain) step(req up.Request) up.Reply {
	b.mu.Lock()
	b.requests++
	b.mu.Unlock()
	if req.OpenAI {
		b.check(req.Raw)
	}
	var v view
	if err := json.Unmarshal(req.Body, &v); err != nil {
		b.problem("request is not JSON: %v", err)
		return reply(up.Text("?"))
	}
	act, note := b.decide(v)
	b.mu.Lock()
	b.seen = append(b.seen, note)
	b.mu.Unlock()
	return act
}

func (b *brain) check(raw []byte) {
	if err := b.schema.Validate(raw); err != nil {
		b.problem("schema: %v", err)
	}
	if err := chatcheck.Strict(raw); err != nil {
		b.problem("strict rules: %v", err)
	}
}

func (b *brain) problem(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, fmt.Sprintf(format, args...))
}

func reply(blocks ...up.Block) up.Reply {
	stop := "end_turn"
	for _, bl := range blocks {
		if fmt.Sprintf("%T", bl) != fmt.Sprintf("%T", up.Text("")) {
			stop = "tool_use"
		}
	}
	return up.Reply{Events: up.Message(stop, up.Usage{Input: 100, Output: 10}, blocks...)}
}

var callSeq atomic.Int64

func call(name string, input any) up.Block {
	b, _ := json.Marshal(input)
	return up.ToolUse(fmt.Sprintf("toolu_e2e%d", callSeq.Add(1)), name, string(b))
}

// decide picks the reply: the scenario is named in the user's first
// message; what was done so far is read off the tool results.
func (b *brain) decide(v view) (up.Reply, string) {
	var first, last string
	tools := map[string]bool{}
	for _, t := range v.Tools {
		tools[t.Name] = true
	}
	calls := map[string]string{} // tool_use id -> tool name
	results := map[string]string{}
	images := 0
	for _, m := range v.Messages {
		text := textOf(m.Content)
		if m.Role == "user" {
			if first == "" {
				first = text
			}
			last = text
			images += countImages(m.Content)
		}
		for _, bl := range blocks(m.Content) {
			switch bl.Type {
			case "tool_use":
				calls[bl.ID] = bl.Name
			case "tool_result":
				results[calls[bl.ToolUseID]] += textOf(bl.Content)
			}
		}
	}
	note := fmt.Sprintf("tools=%d results=%v", len(tools), keys(results))
	// loadThen calls name once it is loaded, asking ToolSearch for it
	// first when Claude Code defers it.
	loadThen := func(name string, input any) up.Reply {
		switch {
		case tools[name]:
			return reply(up.Text("Calling "+name+"."), call(name, input))
		case tools["ToolSearch"] && results["ToolSearch"] == "":
			return reply(call("ToolSearch", map[string]any{"query": "select:" + name, "max_results": 5}))
		}
		return reply(up.Text("NO-" + name + "-TOOL"))
	}
	switch {
	case strings.Contains(first, subagentTask):
		return reply(up.Text(subagentReply)), "subagent " + note
	case strings.Contains(textOf(v.System)+first, secretPhrase) && !strings.Contains(first, "SCENARIO-"):
		// WebFetch hands the page to the small model with the prompt.
		return reply(up.Text("SUMMARY: the secret verification phrase is " + secretPhrase + ".")), "webfetch-summary " + note
	case strings.Contains(first, "SCENARIO-PLAIN"):
		return reply(up.Text("PLAIN-ANSWER")), "plain " + note
	case strings.Contains(first, "SCENARIO-SEARCH"):
		if r := results["WebSearch"]; r != "" {
			return reply(up.Text("SEARCH-ANSWER from: " + firstLine(r, "First hit"))), "search-final " + note
		}
		return loadThen("WebSearch", map[string]any{"query": "webgate compatibility"}), "search " + note
	case strings.Contains(first, "SCENARIO-FETCH"):
		if r := results["WebFetch"]; r != "" {
			return reply(up.Text("FETCH-ANSWER: " + firstLine(r, secretPhrase))), "fetch-final " + note
		}
		return loadThen("WebFetch", map[string]any{"url": b.pageURL, "prompt": "What is the secret verification phrase on this page?"}), "fetch " + note
	case strings.Contains(first, "SCENARIO-SUBAGENT"):
		if r := results["Agent"] + results["Task"]; r != "" {
			return reply(up.Text("SUBAGENT-ANSWER: " + firstLine(r, "magic number"))), "subagent-final " + note
		}
		name := "Agent"
		if !tools[name] && tools["Task"] {
			name = "Task"
		}
		return loadThen(name, map[string]any{"description": "Find the magic number", "prompt": subagentTask, "subagent_type": "general-purpose", "run_in_background": false}), "subagent-main " + note
	case strings.Contains(first, "SCENARIO-IMAGE"):
		if results["Read"] != "" || images > 0 {
			b.mu.Lock()
			b.images = images
			b.mu.Unlock()
			return reply(up.Text(fmt.Sprintf("IMAGE-ANSWER: I received %d image(s).", images))), "image-final " + note
		}
		return loadThen("Read", map[string]any{"file_path": b.imgPath}), "image " + note
	case strings.Contains(first, "SCENARIO-CONTINUE"):
		if strings.Contains(last, "SECOND-QUESTION") {
			saw := 0
			for _, m := range v.Messages {
				if m.Role == "assistant" && strings.Contains(textOf(m.Content), "FIRST-ANSWER") {
					saw++
				}
			}
			return reply(up.Text(fmt.Sprintf("SECOND-ANSWER (the first answer is in the history %d time(s))", saw))), "continue-2 " + note
		}
		return reply(up.Text("FIRST-ANSWER")), "continue-1 " + note
	}
	// A request of Claude Code's own (a title, a summary): answer briefly.
	return reply(up.Text("OK")), "other " + note
}

func firstLine(s, containing string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, containing) {
			return strings.TrimSpace(l)
		}
	}
	return "(no line with " + containing + ")"
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ccEnv is one Claude Code installation's environment: a private HOME and
// project directory, settings that keep it off the network.
type ccEnv struct {
	bin, home, project string
	env                []string
}

func newCCEnv(t *testing.T, bin, baseURL, caFile string) *ccEnv {
	t.Helper()
	root := t.TempDir()
	e := &ccEnv{bin: bin, home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}
	for _, d := range []string{filepath.Join(e.home, ".claude"), e.project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// WebFetch asks api.anthropic.com whether a domain is safe before it
	// fetches; nothing here may leave the machine.
	settings := `{"skipWebFetchPreflight": true, "autoUpdates": false}`
	if err := os.WriteFile(filepath.Join(e.home, ".claude", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	e.env = []string{
		"HOME=" + e.home,
		"PATH=" + os.Getenv("PATH"),
		"ANTHROPIC_BASE_URL=" + baseURL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-client",
		"NODE_EXTRA_CA_CERTS=" + caFile,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1",
		"NO_COLOR=1",
	}
	return e
}

// ccResult is the outcome of one `claude -p` run.
type ccResult struct {
	Result  string
	IsError bool
	// ToolUses are the tools Claude Code ran, in order.
	ToolUses []string
	Output   string
}

// run runs `claude -p prompt` in stream-json mode.
func (e *ccEnv) run(t *testing.T, prompt string, extra ...string) ccResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	args := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--allowedTools", "WebSearch WebFetch Read Agent Task ToolSearch"}, extra...)
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Dir = e.project
	cmd.Env = e.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	r := ccResult{Output: string(out) + stderr.String()}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Result  string `json:"result"`
			IsError bool   `json:"is_error"`
			Message struct {
				Content []block `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch line.Type {
		case "result":
			r.Result, r.IsError = line.Result, line.IsError
		case "assistant":
			for _, bl := range line.Message.Content {
				if bl.Type == "tool_use" {
					r.ToolUses = append(r.ToolUses, bl.Name)
				}
			}
		}
	}
	if err != nil {
		t.Fatalf("claude %s: %v\n%s", strings.Join(args[:2], " "), err, tail(r.Output, 4000))
	}
	return r
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// pagesTLS serves the page WebFetch reads over TLS (Claude Code upgrades
// http to https) and writes its certificate where NODE_EXTRA_CA_CERTS
// points.
func pagesTLS(t *testing.T) (pageURL, caFile string) {
	t.Helper()
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, notesPage)
	}))
	t.Cleanup(ts.Close)
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	if err := os.WriteFile(caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return ts.URL + "/notes.html", caFile
}

func writePNG(t *testing.T, path string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for x := range 16 {
		for y := range 16 {
			img.Set(x, y, color.RGBA{200, uint8(x * 16), uint8(y * 16), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// clientErrors finds webgate's own 4xx answers in its log.
var clientErrors = regexp.MustCompile(`msg=request .*status=4\d\d.*`)

// TestClaudeCode runs the compatibility suite: each pinned Claude Code
// release, each upstream kind, each scenario.
func TestClaudeCode(t *testing.T) {
	schema, err := chatcheck.LoadSchema(repotest.Shared(t, "specs/openai-openapi/openapi.json"))
	if err != nil {
		t.Fatalf("%v (the spec lives in ../shared beside the repository)", err)
	}
	bin := build(t)
	for _, alias := range claudeCodeReleases {
		t.Run(alias, func(t *testing.T) {
			cc, version := requireClaudeCode(t, alias)
			t.Logf("Claude Code %s", version)
			for _, kind := range []string{"openai", "anthropic"} {
				t.Run(kind, func(t *testing.T) { testClaudeCode(t, bin, cc, kind, schema) })
			}
		})
	}
}

func testClaudeCode(t *testing.T, bin, cc, kind string, schema *chatcheck.Schema) {
	var hits atomic.Int64
	searx := searxngFake(t, &hits)
	pageURL, caFile := pagesTLS(t)
	b := &brain{t: t, pageURL: pageURL, schema: schema}

	var backend *up.Upstream
	var upstreamCfg string
	if kind == "openai" {
		backend = up.ServeOpenAI(t, b.step)
		upstreamCfg = fmt.Sprintf("upstream:\n  kind: openai\n  base_url: %s/v1\n  api_key: sk-backend\n  models:\n    - {pattern: \"claude-*\", model: backend-model}\n", backend.URL)
	} else {
		backend = up.Serve(t, b.step)
		upstreamCfg = fmt.Sprintf("upstream:\n  base_url: %s\n  api_key: sk-backend\n", backend.URL)
	}
	backend.Delay = 0
	cfg := writeServeConfig(t, searx.URL, upstreamCfg+"log:\n  level: info\n")
	srv := startServe(t, bin, cfg)
	env := newCCEnv(t, cc, srv.base, caFile)
	b.imgPath = filepath.Join(env.project, "picture.png")
	writePNG(t, b.imgPath)

	scenarios := []struct {
		name, prompt string
		extra        []string
		want         string // in Claude Code's final result
		check        func(t *testing.T, r ccResult)
	}{
		{name: "plain", prompt: "SCENARIO-PLAIN say hello", want: "PLAIN-ANSWER"},
		{name: "websearch", prompt: "SCENARIO-SEARCH what is new in webgate?", want: "SEARCH-ANSWER from:", check: func(t *testing.T, r ccResult) {
			if !strings.Contains(r.Result, "First hit for") {
				t.Errorf("the model did not get the search results: %q", r.Result)
			}
			if hits.Load() == 0 {
				t.Error("webgate's search provider was never called")
			}
		}},
		{name: "webfetch", prompt: "SCENARIO-FETCH what is the phrase on the notes page?", want: "FETCH-ANSWER: ", check: func(t *testing.T, r ccResult) {
			if !strings.Contains(r.Result, secretPhrase) {
				t.Errorf("the page's text did not come back through the small model: %q", r.Result)
			}
		}},
		{name: "subagent", prompt: "SCENARIO-SUBAGENT ask a helper for the magic number", want: "SUBAGENT-ANSWER: ", check: func(t *testing.T, r ccResult) {
			if !strings.Contains(r.Result, "7331") {
				t.Errorf("the sub-agent's answer did not come back: %q", r.Result)
			}
		}},
		{name: "continue", prompt: "SCENARIO-CONTINUE first question", want: "FIRST-ANSWER", check: func(t *testing.T, _ ccResult) {
			r := env.run(t, "SECOND-QUESTION now the second", "--continue")
			if r.IsError || !strings.Contains(r.Result, "SECOND-ANSWER (the first answer is in the history 1 time(s))") {
				t.Errorf("continued conversation: error %v, result %q", r.IsError, r.Result)
			}
		}},
		{name: "image", prompt: "SCENARIO-IMAGE describe picture.png", want: "IMAGE-ANSWER: I received 1 image(s).", check: func(t *testing.T, r ccResult) {}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			before := len(srv.logs())
			r := env.run(t, sc.prompt, sc.extra...)
			if r.IsError || !strings.Contains(r.Result, sc.want) {
				b.mu.Lock()
				seen := strings.Join(b.seen, "\n")
				b.mu.Unlock()
				t.Errorf("result %q (error %v), want it to contain %q\ntools used: %v\nthe scripted model saw:\n%s\nclaude output:\n%s\nwebgate log:\n%s",
					r.Result, r.IsError, sc.want, r.ToolUses, seen, tail(r.Output, 3000), tail(srv.logs()[before:], 3000))
			}
			if sc.check != nil {
				sc.check(t, r)
			}
			if bad := clientErrors.FindAllString(srv.logs()[before:], -1); len(bad) > 0 {
				t.Errorf("webgate answered with 4xx:\n%s", strings.Join(bad, "\n"))
			}
		})
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("backend request broke the rules: %s", tail(p, 2000))
	}
	t.Logf("%d backend requests; the scripted model saw:\n%s", b.requests, strings.Join(b.seen, "\n"))
}
