package mcpserver

import (
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkWebSearchInMemory measures the MCP layer's own cost per
// web_search call (argument decoding, formatting, structured content,
// JSON-RPC framing) with a fake searcher returning 10 results.
func BenchmarkWebSearchInMemory(b *testing.B) {
	e := newEnv()
	e.search.fn = results(10)
	e.opts.MaxOutputChars = 90000
	cs := e.connect(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: ToolSearch, Arguments: map[string]any{"query": "benchmark"}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWebSearchHTTP is the same call over stateless Streamable HTTP
// on loopback.
func BenchmarkWebSearchHTTP(b *testing.B) {
	e := newEnv()
	e.search.fn = results(10)
	e.opts.Searcher, e.opts.Fetcher = e.search, e.get
	ts := httptest.NewServer(HTTPHandler(New(e.opts), 1<<20, nil))
	defer ts.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(b.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: ToolSearch, Arguments: map[string]any{"query": "benchmark"}}); err != nil {
			b.Fatal(err)
		}
	}
}
