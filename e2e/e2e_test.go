// Package e2e runs the real webgate binary against real third-party MCP
// clients: the official TypeScript SDK over stdio and Streamable HTTP, with
// a loopback SearXNG fake as the only search provider. Nothing leaves the
// machine.
//
// The Node client needs `npm ci --prefix e2e`. Without node_modules the
// Node tests skip, except in CI (CI=true), where they fail so the suite
// cannot silently stop testing.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const token = "e2e-token-0123456789abcdef"

// page is the article the fake serves at /page/one and /page/two. Its
// marker stands in a <button> inside the sentence, as a glossary's term
// does: extraction must keep the button's words, or no client sees it.
// It declares itself an article, so the story rules run on it; its ad
// slot's label, its related stories and its second skip link are in a
// language no word list knows, and must go by their shape or their
// names (checkModelSaw). A word is hyphenated with soft hyphens, which
// must not reach the model, and a closed accordion section's answer must.
// Its last paragraph is Chinese, written without
// spaces, and must reach the model whole; the Russian consent notice
// after it, in a block whose name says nothing, must not (its words
// tell it).
const page = `<!doctype html><html><head><title>Webgate test page</title><meta property="og:type" content="article"></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Webgate test page</h1>
<p>The first paragraph explains what this page is about, at some length, so that extraction keeps it: web&shy;gate&shy;hyphen&shy;ated.</p>
<p class="usa-sr-only">SCREEN-READER-ONLY label for assistive technology.</p>
<p><a class="skip-link" href="#second">Skip to main content</a></p>
<a class="skip-link" href="#third">SOLTA-VIDU pala</a>
<div class="ad ad--mid-content"><span class="ad-label">MAINOZ-LABEL</span><div class="ad__slot"></div></div>
<p>The second paragraph carries the marker <button class="glossary-term">SECOND-PART</button> so the test can see paging work.</p>
<p><strong>NEPA-MISSU</strong><br><a href="/page/kwar">Kwar tobe dilu fenu magi hola sivu</a><br><a href="/page/pelo">Pelo zuna wiko dase ravi mutu leno</a></p>
<p>The third paragraph closes the story, at some length, so that the related stories sit inside it.</p>
<h3><button aria-expanded="false" aria-controls="faq-1">Does the reader see the answer?</button></h3><div id="faq-1" hidden><p>PANEL-ANSWER: a closed accordion section opens with a click.</p></div>
<p>第四段用中文写成，词与词之间没有空格，模型也要一字不差地读到它。</p>
<div class="pm-q7"><p>Мы и наши партнёры используем файлы cookie и обрабатываем персональные данные на вашем устройстве для рекламы.</p><p>Вы можете изменить настройки в политике конфиденциальности.</p></div>
</article><footer>Copyright nobody</footer></body></html>`

// searxngFake answers GET /search?format=json like a SearXNG instance and
// serves the pages its results point to, so include_content and web_fetch
// run through the real fetcher and extractor on loopback.
func searxngFake(t *testing.T, hits *atomic.Int64) *httptest.Server {
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/page/") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
			return
		}
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "unexpected request "+r.URL.String(), http.StatusBadRequest)
			return
		}
		hits.Add(1)
		q := r.URL.Query().Get("q")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":%q,"results":[
			{"url":"%[3]s/page/one","title":"First hit for %[2]s","content":"The first snippet.","publishedDate":"2025-06-01T00:00:00"},
			{"url":"%[3]s/page/two","title":"Second hit","content":"The second snippet."},
			{"url":"%[3]s/page/three","title":"Third hit","content":"The third snippet."}
		],"unresponsive_engines":[]}`, q, q, ts.URL)
	}))
	t.Cleanup(ts.Close)
	return ts
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// build compiles webgate once per test run; every test shares the binary.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "webgate-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "webgate")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		out, err := exec.Command(goBin, "build", "-o", binPath, "../cmd/webgate").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func writeConfig(t *testing.T, searxURL string) string {
	t.Helper()
	// client.mjs checks the structured content too, which is off by
	// default (see TestRealClients for what models read by default).
	return writeServeConfig(t, searxURL, `server:
  auth_tokens: [`+token+`]
log:
  level: debug
mcp:
  structured_output: true
`)
}

// writeServeConfig writes the configuration every end-to-end test shares
// (the SearXNG fake as the only provider, no search cache, fetches of the
// loopback fake's pages allowed), followed by the test's own sections,
// and returns its path.
func writeServeConfig(t *testing.T, searxURL, rest string) string {
	t.Helper()
	cfg := fmt.Sprintf(`search:
  providers: [searxng]
  cache_ttl: -1s
providers:
  searxng:
    base_url: %s
fetch:
  # The pages live on the loopback fake; production keeps this off.
  allow_private_networks: true
  ignore_robots: true
`, searxURL) + rest
	path := filepath.Join(t.TempDir(), "webgate.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// requireNode returns the node binary, or skips (fails on CI) when the
// client's dependencies are not installed.
func requireNode(t *testing.T) string {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("CI") == "true" {
		fail = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fail("node is not installed; install Node.js 18+ and run `npm ci --prefix e2e`")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		fail("e2e/node_modules is missing; run `npm ci --prefix e2e` to enable the end-to-end tests")
	}
	return node
}

type toolSummary struct {
	Name               string `json:"name"`
	ReadOnlyHint       bool   `json:"readOnlyHint"`
	OpenWorldHint      bool   `json:"openWorldHint"`
	MaxResultSizeChars int    `json:"maxResultSizeChars"`
	HasOutputSchema    bool   `json:"hasOutputSchema"`
}

type summary struct {
	Server struct {
		Name string `json:"name"`
	} `json:"server"`
	Tools  []toolSummary `json:"tools"`
	Search struct {
		IsError    bool   `json:"isError"`
		Text       string `json:"text"`
		Structured struct {
			Provider string `json:"provider"`
			Results  []struct {
				URL       string `json:"url"`
				Published string `json:"published"`
			} `json:"results"`
		} `json:"structured"`
	} `json:"search"`
	Progress []float64 `json:"progress"`
	Fetch    []struct {
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
		Result  struct {
			Title          string `json:"title"`
			Content        string `json:"content"`
			Truncated      bool   `json:"truncated"`
			NextStartIndex int    `json:"next_start_index"`
		} `json:"result"`
	} `json:"fetch"`
	BadFetch  result `json:"badFetch"`
	BadSearch result `json:"badSearch"`
}

type result struct {
	IsError bool   `json:"isError"`
	Text    string `json:"text"`
}

func runClient(t *testing.T, node, pageURL string, args ...string) summary {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"client.mjs"}, args...)...)
	cmd.Env = append(os.Environ(), "PAGE_URL="+pageURL)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs %v: %v\nstderr:\n%s", args, err, stderr.String())
	}
	var s summary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("client output is not JSON: %v\n%s", err, out)
	}
	return s
}

func checkSummary(t *testing.T, s summary, base string) {
	t.Helper()
	want := []toolSummary{
		{Name: "web_fetch", ReadOnlyHint: true, OpenWorldHint: true, MaxResultSizeChars: 90000, HasOutputSchema: true},
		{Name: "web_search", ReadOnlyHint: true, OpenWorldHint: true, MaxResultSizeChars: 90000, HasOutputSchema: true},
	}
	if diff := cmp.Diff(want, s.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if s.Server.Name != "webgate" {
		t.Errorf("server name %q", s.Server.Name)
	}
	for _, w := range []string{"First hit for webgate end to end", base + "/page/two", "--- Content of result 1 ---", "SECOND-PART"} {
		if s.Search.IsError || !strings.Contains(s.Search.Text, w) {
			t.Errorf("web_search text lacks %q:\n%s", w, s.Search.Text)
		}
	}
	if strings.Contains(s.Search.Text, "Copyright nobody") {
		t.Error("include_content kept the page footer; extraction did not run")
	}
	if strings.Contains(s.Search.Text, "Third hit") {
		t.Error("max_results 2 was not honoured")
	}
	if p := s.Search.Structured; p.Provider != "searxng" || len(p.Results) != 2 || p.Results[0].Published != "2025-06-01" {
		t.Errorf("structured content %+v", p)
	}
	// Progress is not checked here: the TypeScript client drops a
	// notification that arrives in the same read as the response, which
	// is timing-dependent. mcpserver's Go tests cover progress.
	if len(s.Fetch) != 2 {
		t.Fatalf("fetch results: %+v", s.Fetch)
	}
	p1, p2 := s.Fetch[0], s.Fetch[1]
	if p1.IsError || !p1.Result.Truncated || p1.Result.NextStartIndex != 40 || p1.Result.Title != "Webgate test page" ||
		!strings.Contains(p1.Text, "start_index=40") {
		t.Errorf("first part: %+v", p1)
	}
	if p2.IsError || !strings.Contains(p2.Text, "Part starting at character 40") || p2.Result.Content == p1.Result.Content {
		t.Errorf("second part: %+v", p2)
	}
	if !s.BadFetch.IsError || !strings.Contains(s.BadFetch.Text, "invalid_url") {
		t.Errorf("web_fetch with a bad URL = %+v", s.BadFetch)
	}
	if !s.BadSearch.IsError || !strings.Contains(s.BadSearch.Text, "at least 2 characters") {
		t.Errorf("web_search with a bad query = %+v", s.BadSearch)
	}
}

func TestNodeClientStdio(t *testing.T) {
	node := requireNode(t)
	var hits atomic.Int64
	fake := searxngFake(t, &hits)
	cfg := writeConfig(t, fake.URL)
	s := runClient(t, node, fake.URL+"/page/one", "stdio", build(t), cfg)
	checkSummary(t, s, fake.URL)
	if hits.Load() != 1 {
		t.Errorf("SearXNG fake saw %d searches, want 1", hits.Load())
	}
}

func TestNodeClientHTTP(t *testing.T) {
	node := requireNode(t)
	var hits atomic.Int64
	fake := searxngFake(t, &hits)
	cfg := writeConfig(t, fake.URL)
	bin := build(t)

	srv := startServe(t, bin, cfg)
	base := srv.base

	// Without the token the endpoint refuses the client.
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /mcp without a token = %d, want 401", resp.StatusCode)
	}

	s := runClient(t, node, fake.URL+"/page/one", "http", base+"/mcp", token)
	checkSummary(t, s, fake.URL)

	// The JSON API answers the same search the same way as the CLI.
	req, _ := http.NewRequest("GET", base+"/v1/search?q=golang&n=1", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"query":"golang","provider":"searxng","results":[{"title":"First hit for golang","url":"` + fake.URL + `/page/one","snippet":"The first snippet.","published":"2025-06-01","provider":"searxng"}]}` + "\n"
	if diff := cmp.Diff(want, string(body)); diff != "" {
		t.Errorf("/v1/search (-want +got):\n%s", diff)
	}

	// SIGINT shuts the server down cleanly.
	if err := srv.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-srv.exited:
		if err != nil {
			t.Errorf("webgate serve exited with %v after SIGINT\n%s", err, srv.logs())
		}
	case <-time.After(time.Minute):
		t.Fatal("webgate serve did not stop after SIGINT")
	}
}

// TestStdoutIsProtocolOnly runs `webgate mcp` with debug logging and checks
// that every line on stdout is a JSON-RPC message: a stray log line there
// would corrupt the stream for every client.
func TestStdoutIsProtocolOnly(t *testing.T) {
	var hits atomic.Int64
	cfg := writeConfig(t, searxngFake(t, &hits).URL)
	cmd := exec.Command(build(t), "--config", cfg, "--log-level", "debug", "mcp")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"web_search","arguments":{"query":"stdout check"}}}`,
	}
	for _, m := range msgs {
		fmt.Fprintln(in, m)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var ids []float64
	for len(ids) < 2 && sc.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg["jsonrpc"] != "2.0" {
			t.Fatalf("non-protocol line on stdout: %q", sc.Text())
		}
		if id, ok := msg["id"].(float64); ok {
			ids = append(ids, id)
		}
	}
	in.Close() // EOF ends the server
	if err := cmd.Wait(); err != nil {
		t.Errorf("webgate mcp exited with %v\n%s", err, stderr.String())
	}
	if diff := cmp.Diff([]float64{1, 2}, ids); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	if hits.Load() != 1 {
		t.Errorf("SearXNG fake saw %d searches, want 1", hits.Load())
	}
}

// TestSetupCommand runs `webgate setup` as a user would: printing, then
// writing into an existing config under a temporary HOME.
func TestSetupCommand(t *testing.T) {
	bin := build(t)
	resolved, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("webgate %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	printed := run("setup", "claude-code")
	if !strings.Contains(printed, "claude mcp add --scope user webgate -- "+resolved+" mcp") {
		t.Errorf("printed setup lacks the claude command:\n%s", printed)
	}
	path := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"other":{"command":"x"}},"keep":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := run("setup", "cursor", "--write"); !strings.Contains(out, "updated "+path+" (backup: ") {
		t.Errorf("setup --write said:\n%s", out)
	}
	var got map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"keep": true, "mcpServers": map[string]any{
		"other":   map[string]any{"command": "x"},
		"webgate": map[string]any{"command": resolved, "args": []any{"mcp"}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mcp.json (-want +got):\n%s", diff)
	}
	if out := run("setup", "cursor", "--write"); !strings.Contains(out, "unchanged "+path) {
		t.Errorf("second setup --write said:\n%s", out)
	}
}

// served is a running `webgate serve`.
type served struct {
	cmd    *exec.Cmd
	base   string
	exited chan error
	mu     sync.Mutex
	log    strings.Builder
}

func (s *served) logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// startServe runs `webgate serve` on a free loopback port and waits for it
// to report its address. The process is killed when the test ends.
func startServe(t *testing.T, bin, cfg string) *served {
	t.Helper()
	s := &served{cmd: exec.Command(bin, "--config", cfg, "serve", "--listen", "127.0.0.1:0"), exited: make(chan error, 1)}
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log.WriteString(line + "\n")
			s.mu.Unlock()
			if _, rest, ok := strings.Cut(line, "listening on http://"); ok {
				addr <- strings.Fields(rest)[0]
			}
		}
		s.exited <- s.cmd.Wait()
	}()
	t.Cleanup(func() { _ = s.cmd.Process.Kill() })
	select {
	case a := <-addr:
		s.base = "http://" + a
	case err := <-s.exited:
		t.Fatalf("webgate serve exited early: %v\n%s", err, s.logs())
	case <-time.After(time.Minute):
		t.Fatal("webgate serve did not report its address")
	}
	return s
}
