package mcpserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/fetch"
)

// TestRealFetcher runs web_fetch through the real fetcher and extractor
// against a loopback page server, paging through the article.
func TestRealFetcher(t *testing.T) {
	article := "<p>" + strings.Repeat("Lorem ipsum dolor sit amet. ", 200) + "</p><p>THE-END-MARKER</p>"
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/article":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<!doctype html><html><head><title>Loopback article</title></head><body><nav>menu menu</nav><article><h1>Loopback article</h1>`+article+`</article></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer pages.Close()
	f, err := fetch.New(fetch.Options{AllowPrivateNetworks: true, IgnoreRobots: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := newEnv()
	e.opts.MaxOutputChars = 4000
	e.real = f
	session := e.connect(t, nil)

	url := pages.URL + "/article"
	res := call(t, session, ToolFetch, map[string]any{"url": url})
	text1 := text(res)
	if res.IsError || !strings.Contains(text1, "# Loopback article") || !strings.Contains(text1, "Lorem ipsum") {
		t.Fatalf("first part: isError=%v\n%s", res.IsError, text1)
	}
	if strings.Contains(text1, "THE-END-MARKER") || !strings.Contains(text1, "start_index=") {
		t.Fatalf("a 5600-character article fit a 4000-character cap:\n%s", text1)
	}
	if runeLen(text1) > e.opts.MaxOutputChars {
		t.Errorf("text is %d characters, over the cap", runeLen(text1))
	}
	next := structuredNext(t, res.StructuredContent)
	res = call(t, session, ToolFetch, map[string]any{"url": url, "start_index": next})
	if res.IsError || !strings.Contains(text(res), "THE-END-MARKER") {
		t.Errorf("second part from %d: isError=%v\n%s", next, res.IsError, text(res))
	}

	res = call(t, session, ToolFetch, map[string]any{"url": pages.URL + "/missing"})
	if !res.IsError || !strings.Contains(text(res), "Error (http_status)") || !strings.Contains(text(res), "does not exist") {
		t.Errorf("404: isError=%v\n%s", res.IsError, text(res))
	}
}

// structuredNext reads next_start_index of the first web_fetch result.
func structuredNext(t *testing.T, sc any) int {
	t.Helper()
	b, _ := json.Marshal(sc)
	var out struct {
		Results []fetch.JSONResult `json:"results"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Results) != 1 || !out.Results[0].Truncated || out.Results[0].NextStartIndex <= 0 {
		t.Fatalf("structured content %s (%v)", b, err)
	}
	return out.Results[0].NextStartIndex
}
