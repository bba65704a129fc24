package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"

	"github.com/webgate/webgate/internal/repotest"
)

// fakeSearcher answers with a fixed response or error and records queries.
type fakeSearcher struct {
	mu      sync.Mutex
	queries []search.Query
	fn      func(ctx context.Context, q search.Query) (*search.Response, error)
}

func (f *fakeSearcher) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	return f.fn(ctx, q)
}

func (f *fakeSearcher) last(t *testing.T) search.Query {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.queries) == 0 {
		t.Fatal("searcher was not called")
	}
	return f.queries[len(f.queries)-1]
}

func (f *fakeSearcher) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queries)
}

func results(rs ...search.Result) *fakeSearcher {
	return &fakeSearcher{fn: func(_ context.Context, q search.Query) (*search.Response, error) {
		return &search.Response{Query: q, Provider: "fake", Results: rs}, nil
	}}
}

func failing(err error) *fakeSearcher {
	return &fakeSearcher{fn: func(context.Context, search.Query) (*search.Response, error) { return nil, err }}
}

// goResults are three plausible results for "golang generics tutorial".
var goResults = []search.Result{
	{Title: "Tutorial: Getting started with generics", URL: "https://go.dev/doc/tutorial/generics", Snippet: "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types.", PageAge: "March 1, 2022", Provider: "fake", Rank: 1},
	{Title: "An Introduction To Generics - The Go Programming Language", URL: "https://go.dev/blog/intro-generics", Snippet: "The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.", Provider: "fake", Rank: 2},
	{Title: "Go generics <by example> & more", URL: "https://example.com/go/generics", Snippet: "Learn Go generics with runnable examples: type parameters, constraints & the any interface.", Provider: "fake", Rank: 3},
	{Title: "", URL: "https://pkg.go.dev/golang.org/x/exp/constraints", Snippet: "", Provider: "fake", Rank: 4},
}

// fakeFetcher serves page text by URL; unknown URLs fail.
type fakeFetcher struct {
	pages map[string]string
	// block, when set for a URL, makes Fetch wait for ctx to end.
	block map[string]bool
	// exited, when set, receives each URL as its Fetch returns.
	exited chan string
	// started, when set, receives each URL as its Fetch begins.
	started chan string
}

func (f *fakeFetcher) Fetch(ctx context.Context, req fetch.Request) (*fetch.Result, error) {
	if f.started != nil {
		f.started <- req.URL
	}
	if f.exited != nil {
		defer func() { f.exited <- req.URL }()
	}
	if f.block[req.URL] {
		<-ctx.Done()
		return nil, errors.Join(fetch.ErrTimeout, ctx.Err())
	}
	c, ok := f.pages[req.URL]
	if !ok {
		return nil, fetch.ErrUnreachable
	}
	return &fetch.Result{URL: req.URL, FinalURL: req.URL, Status: 200, Content: c}, nil
}

var goPages = map[string]string{
	"https://go.dev/doc/tutorial/generics": "Skip to Main Content\n\nTutorial: Getting started with generics\n\n" +
		"This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code.\n\n" +
		"In this tutorial, you'll declare two simple non-generic functions, then capture the same logic in a single generic function.\n\n" +
		"Note: For other tutorials, see Tutorials.\n\n" +
		"To support values of either type, that single function will need a way to declare what types it supports. Calling code, on the other hand, will need a way to specify whether it is calling with an integer or float map. To support this, you'll write a function that declares type parameters in addition to its ordinary function parameters.",
	"https://go.dev/blog/intro-generics": "The Go Blog\n\nAn Introduction To Generics\n\nRobert Griesemer and Ian Lance Taylor\n\n" +
		"Introduction. This blog post is based on our talk at GopherCon 2021. The Go 1.18 release adds support for generics. Generics are the biggest change we've made to Go since the first open source release.\n\n" +
		"Generics adds three new big things to the language: type parameters for function and types, defining interface types as sets of types, and type inference.",
}

// testSealer is shared so tests can open what the handler sealed.
func testSealer(t testing.TB) *seal.Sealer {
	t.Helper()
	s, err := seal.New(seal.Key{ID: "test", Secret: bytes.Repeat([]byte{42}, seal.KeySize)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newHandler(t testing.TB, opts Options) *Handler {
	t.Helper()
	if opts.Upstream.BaseURL == "" {
		// Nothing listens here; tests that must not reach the upstream
		// would see a 502 rather than a hang.
		opts.Upstream.BaseURL = "http://127.0.0.1:9"
	}
	if opts.Sealer == nil {
		opts.Sealer = testSealer(t)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// enrichNoDeadline enables enrichment with a deadline no in-memory fake
// can hit, so outputs never depend on machine speed.
func enrichNoDeadline() config.Upstream {
	return config.Upstream{WebSearch: config.UpstreamWebSearch{EnrichTimeout: time.Minute}}
}

func noEnrich() config.Upstream {
	f := false
	return config.Upstream{WebSearch: config.UpstreamWebSearch{Enrich: &f}}
}

// recorded is one request captured from the real Claude Code CLI.
type recorded struct {
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
}

// sharedDir locates ../shared/protocol/claude-code beside the repository.
// The recordings are read in place, never copied into the repo. In CI
// (CI=true) their absence is a failure; on a developer machine without
// shared/ the tests that need them are skipped with the reason.
func sharedDir(t testing.TB) string {
	t.Helper()
	return repotest.Shared(t, "protocol/claude-code")
}

func loadRecorded(t testing.TB, name string) recorded {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedDir(t), name))
	if err != nil {
		t.Fatalf("read recording: %v", err)
	}
	var r recorded
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decode recording %s: %v", name, err)
	}
	return r
}

// withBody rewrites a JSON body through fn.
func withBody(t testing.TB, body []byte, fn func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// oldStyleBody is a search-execution request as older Claude Code versions
// sent it: a different system prompt and the user text as a bare string.
func oldStyleBody(query string, stream bool, tool map[string]any) []byte {
	if tool == nil {
		tool = map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": 8}
	}
	b, _ := json.Marshal(map[string]any{
		"model":      "claude-sonnet-4-20250514",
		"max_tokens": 32000,
		"stream":     stream,
		"system":     "You are an assistant for performing a web search tool use",
		"messages":   []any{map[string]any{"role": "user", "content": "Perform a web search for the query: " + query}},
		"tools":      []any{tool},
	})
	return b
}

func post(t testing.TB, h http.Handler, path string, headers map[string]string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var (
	reMsgID    = regexp.MustCompile(`"(msg|srvtoolu)_[0-9A-Za-z]{24}"`)
	reSealed   = regexp.MustCompile(`"(encrypted_content|encrypted_index)":"wg[12]\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"`)
	reSealedID = regexp.MustCompile(`wg[12]\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)
	// reNonce matches the random id of untrusted-content boundaries.
	reNonce = regexp.MustCompile(`untrusted ([a-z ]+), id [0-9a-f]{12}`)
)

// normalize replaces random ids and sealed tokens with fixed markers so a
// transcript can be compared with a golden file byte for byte otherwise.
func normalize(b []byte) []byte {
	b = reMsgID.ReplaceAll(b, []byte(`"${1}_<id>"`))
	b = reNonce.ReplaceAll(b, []byte(`untrusted ${1}, id <nonce>`))
	return reSealed.ReplaceAll(b, []byte(`"${1}":"<sealed>"`))
}

// events parses an SSE transcript with the package's own bounded reader.
func events(t testing.TB, r io.Reader) []wire.Event {
	t.Helper()
	rd := wire.NewReader(r, 0, 0)
	var out []wire.Event
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("parse SSE: %v", err)
		}
		out = append(out, ev)
	}
}

func regexpAllSubmatch(pattern string, b []byte) [][]string {
	var out [][]string
	for _, m := range regexp.MustCompile(pattern).FindAllSubmatch(b, -1) {
		s := make([]string, len(m))
		for i, x := range m {
			s[i] = string(x)
		}
		out = append(out, s)
	}
	return out
}
