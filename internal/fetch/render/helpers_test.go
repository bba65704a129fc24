package render_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/fetch/render"
)

// requireBrowser skips the test when no Chromium is installed, except in
// CI (CI=true), where a missing browser fails it: .ci/run installs one,
// and the coverage must not vanish silently.
func requireBrowser(t testing.TB) {
	t.Helper()
	if err := render.New(render.Options{}).Available(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no browser in CI: %v", err)
		}
		t.Skipf("no browser: %v", err)
	}
}

// testLogger writes debug logs to the test's output when -v is set.
func testLogger(t testing.TB) *slog.Logger {
	if !testing.Verbose() {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// newFetcher returns a fetcher that renders with its own browser, which
// the test's cleanup stops. mod may change either's options.
func newFetcher(t testing.TB, modR func(*render.Options), modF func(*fetch.Options)) (*fetch.Fetcher, *render.Renderer) {
	t.Helper()
	requireBrowser(t)
	ro := render.Options{Logger: testLogger(t), PageTimeout: 20 * time.Second}
	if modR != nil {
		modR(&ro)
	}
	r := render.New(ro)
	fo := fetch.Options{
		AllowPrivateNetworks: true,
		Timeout:              90 * time.Second, // a race-enabled test on a busy 2-core machine is slow
		Renderer:             r,
		Logger:               testLogger(t),
		CacheTTL:             -1,
	}
	if modF != nil {
		modF(&fo)
	}
	f, err := fetch.New(fo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f, r
}

// Paragraphs of the test applications' data. Each carries a marker the
// tests look for in the extracted text.
var (
	articleData = map[string]any{
		"title": "Rendered Article",
		"paragraphs": []string{
			"MARKER-XHR-ONE: this paragraph arrived through XMLHttpRequest, after the page's shell had been served with no text of its own, which is how single-page applications load their documents.",
			"A second paragraph gives the extractor enough prose to recognise an article rather than a fragment of navigation, with several ordinary sentences about nothing in particular.",
		},
	}
	moreData = map[string]any{"paragraphs": []string{
		"MARKER-FETCH-TWO: this paragraph arrived through the fetch API and was appended to the article before it was shown, so both kinds of request have to go through the page's proxy.",
	}}
	routeData = map[string]map[string]any{
		"first": {"title": "First Route", "paragraphs": []string{
			"MARKER-ROUTE-FIRST: the hash router showed the first route, whose text is only in its own document and never in the page that was downloaded.",
			"Another sentence or two make this a proper article for the extractor, which ignores short fragments of text that look like navigation or buttons.",
		}},
		"second": {"title": "Second Route", "paragraphs": []string{
			"MARKER-ROUTE-SECOND: the hash router showed the second route because the address asked for it after the hash sign, which the server never sees.",
			"Another sentence or two make this a proper article for the extractor, which ignores short fragments of text that look like navigation or buttons.",
		}},
	}
)

// appServer serves the applications in testdata and their data. hits
// counts requests per path.
type appServer struct {
	*httptest.Server
	hits sync.Map // path -> *atomic.Int64
	// hang is closed at cleanup, releasing requests that never answer.
	hang chan struct{}
}

func (s *appServer) count(path string) int64 {
	v, ok := s.hits.Load(path)
	if !ok {
		return 0
	}
	return v.(*atomic.Int64).Load()
}

func newAppServer(t testing.TB) *appServer {
	t.Helper()
	s := &appServer{hang: make(chan struct{})}
	files := http.FileServer(http.Dir("testdata"))
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/api/article.json", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, articleData) })
	mux.HandleFunc("/api/more.json", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, moreData) })
	mux.HandleFunc("/api/route-first.json", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, routeData["first"]) })
	mux.HandleFunc("/api/route-second.json", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, routeData["second"]) })
	mux.HandleFunc("/api/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-s.hang:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/static.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, staticHTML)
	})
	mux.Handle("/", files)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, _ := s.hits.LoadOrStore(r.URL.Path, new(atomic.Int64))
		v.(*atomic.Int64).Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(s.hang)
		s.Close()
	})
	return s
}

// staticHTML is an ordinary server-rendered article: it extracts without
// a browser.
const staticHTML = `<!doctype html><html><head><meta charset="utf-8"><title>Static Article</title></head>
<body><main><article><h1>Static Article</h1>
<p>MARKER-STATIC: this article is in the HTML the server sends, so it extracts without running any script at all, which is the common case.</p>
<p>A second paragraph gives the extractor enough prose to recognise an article rather than a fragment of navigation.</p>
</article></main></body></html>`

// browserProcesses counts this test process's children that are a
// browser: a static page must start none.
func browserProcesses(t testing.TB) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	self := os.Getpid()
	n := 0
	for _, e := range entries {
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == self && strings.Contains(s[open+1:end], "chrom") {
			n++
		}
	}
	return n
}
