// Package mcpserver exposes webgate's search and fetch as MCP tools
// (web_search and web_fetch) on the official MCP Go SDK. The same *mcp.Server
// serves stdio (`webgate mcp`) and Streamable HTTP (`webgate serve`, /mcp).
//
// The tools are written for models: descriptions say when to use them,
// results are compact Markdown under a size cap, and every failure is a
// tool error (isError) whose text says what to do next, never a protocol
// error the model cannot see (MCP, Tools, "Error Handling":
// https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling).
//
// The text is the only form a model reads by default. The MCP spec
// (2025-11-25, server/tools "Output Schema":
// https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema)
// requires a tool that declares
// an outputSchema to return structuredContent, and lets a client hand
// either form to its model: Claude Code and Codex give their model
// JSON.stringify(structuredContent) and drop the text, and with it the
// untrusted-content boundaries, the citation guidance and the paging
// hints. So the tools declare no outputSchema and return no
// structuredContent unless Options.StructuredOutput (mcp.structured_output)
// asks for them, for programmatic clients that read the JSON themselves.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/search"
)

// Tool names. They match what agents expect from built-in web tools.
const (
	ToolSearch = "web_search"
	ToolFetch  = "web_fetch"
)

// MetaMaxResultSize is the tool _meta key Claude Code reads (from the
// tools/list entry) to raise its inline size limit for that tool's
// results; above the limit it saves the result to a file and shows the
// model a short preview. Claude Code caps the value at 500000.
const MetaMaxResultSize = "anthropic/maxResultSizeChars"

// Limits on arguments, so one call stays bounded whatever a model sends.
const (
	maxURLs = 20
)

// Options configures the tools. Zero values take the defaults documented on
// config.MCP.
type Options struct {
	// Searcher runs web_search; required.
	Searcher search.Searcher
	// Fetcher runs web_fetch and the include_content option of web_search;
	// required.
	Fetcher fetch.Getter
	// MaxOutputChars caps the text of one result (default 90000).
	MaxOutputChars int
	// FetchConcurrency caps the pages one call fetches at once (default 5).
	FetchConcurrency int
	// ContentTimeout bounds include_content fetching (default 20s).
	ContentTimeout time.Duration
	// ContentResults is how many top results include_content fetches
	// (default 3).
	ContentResults int
	// StructuredOutput declares outputSchema on both tools and returns
	// structuredContent beside the text (mcp.structured_output). Off by
	// default: some clients then show their model only the JSON, without
	// the text's untrusted-content boundaries.
	StructuredOutput bool
	// Untrusted marks web content in tool results as untrusted; the zero
	// value marks it (guard.content.mark_untrusted).
	Untrusted guard.Wrapper
	// Version is reported to clients in serverInfo.
	Version string
	// Logger receives debug logs; nil discards. Over stdio it must not
	// write to stdout, which belongs to the protocol.
	Logger *slog.Logger
}

func (o *Options) applyDefaults() {
	if o.MaxOutputChars <= 0 {
		o.MaxOutputChars = 90000
	}
	if o.FetchConcurrency <= 0 {
		o.FetchConcurrency = 5
	}
	if o.ContentTimeout <= 0 {
		o.ContentTimeout = 20 * time.Second
	}
	if o.ContentResults <= 0 {
		o.ContentResults = 3
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// instructions is sent at initialisation (the initialize result's
// instructions, https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#initialization);
// clients that show it to the model get one paragraph on choosing between
// the tools.
const instructions = `webgate gives you live web access. Use web_search to find current information, documentation, news or sources; it returns ranked results with titles, URLs, dates and snippets (set include_content to also read the top pages). Use web_fetch to read a specific URL as clean Markdown, including URLs found by web_search. Cite the URLs you rely on.`

// New returns an MCP server with web_search and web_fetch registered.
func New(opts Options) *mcp.Server {
	opts.applyDefaults()
	t := &tools{opts: opts, log: opts.Logger}
	s := mcp.NewServer(&mcp.Implementation{Name: "webgate", Title: "webgate web search and fetch", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       sdkLogger(opts.Logger),
		// Advertise tools only (MCP, Lifecycle, "Capability Negotiation":
		// https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle#capability-negotiation).
		// The SDK's historical default adds "logging", which these tools
		// never use.
		Capabilities: &mcp.ServerCapabilities{},
	})
	meta := mcp.Meta{MetaMaxResultSize: opts.MaxOutputChars}
	yes := true
	searchTool := &mcp.Tool{
		Name:        ToolSearch,
		Title:       "Web search",
		Description: searchDescription,
		InputSchema: json.RawMessage(searchInputSchema),
		Annotations: &mcp.ToolAnnotations{Title: "Web search", ReadOnlyHint: true, OpenWorldHint: &yes, IdempotentHint: true},
		Meta:        meta,
	}
	fetchTool := &mcp.Tool{
		Name:        ToolFetch,
		Title:       "Web fetch",
		Description: fetchDescription,
		InputSchema: json.RawMessage(fetchInputSchema),
		Annotations: &mcp.ToolAnnotations{Title: "Web fetch", ReadOnlyHint: true, OpenWorldHint: &yes, IdempotentHint: true},
		Meta:        meta,
	}
	if opts.StructuredOutput {
		searchTool.OutputSchema = json.RawMessage(searchOutputSchema)
		fetchTool.OutputSchema = json.RawMessage(fetchOutputSchema)
	}
	s.AddTool(searchTool, t.webSearch)
	s.AddTool(fetchTool, t.webFetch)
	return s
}

// HTTPHandler serves s over Streamable HTTP
// (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#streamable-http),
// stateless (no Mcp-Session-Id, which the transport makes optional:
// https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#session-management)
// so that any replica behind a load balancer can answer any request. The
// SDK's DNS-rebinding protection for loopback listeners stays on; package
// server adds Origin checks and authentication in front.
func HTTPHandler(s *mcp.Server, maxBodyBytes int64, log *slog.Logger) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless: true,
		// Replies stream as server-sent events (the default) so progress
		// notifications reach the client while a long call runs.
		Logger:              sdkLogger(log),
		MaxRequestBodyBytes: maxBodyBytes,
	})
}

// sdkLogger passes the SDK only warnings and errors: at info it logs every
// session's connect and disconnect, which in stateless HTTP mode means
// three lines per request.
func sdkLogger(log *slog.Logger) *slog.Logger {
	if log == nil {
		return nil
	}
	return slog.New(minLevel{log.Handler(), slog.LevelWarn})
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(a), h.min}
}
func (h minLevel) WithGroup(n string) slog.Handler { return minLevel{h.Handler.WithGroup(n), h.min} }

// tools holds the handlers' shared state.
type tools struct {
	opts Options
	log  *slog.Logger
}

// progress sends notifications/progress for one call when the client asked
// for them with a progress token. It is safe for concurrent use and keeps
// the reported progress strictly increasing, as the spec requires
// (https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress).
type progress struct {
	mu    sync.Mutex
	req   *mcp.CallToolRequest
	token any
	done  float64
	total float64
}

func newProgress(req *mcp.CallToolRequest, total int) *progress {
	p := &progress{req: req, total: float64(total)}
	if req != nil && req.Params != nil && req.Session != nil {
		p.token = req.Params.GetProgressToken()
	}
	return p
}

// step reports one more unit of work done.
func (p *progress) step(ctx context.Context, msg string) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	// A failed notification (client gone, stream closed) must not fail the
	// call; cancellation reaches the handler through ctx.
	_ = p.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: p.token, Progress: p.done, Total: p.total, Message: msg,
	})
}

// result is a successful call: the text for the model, and structured
// content only when the tools declare an output schema.
func (t *tools) result(text string, structured any) *mcp.CallToolResult {
	r := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if t.opts.StructuredOutput {
		r.StructuredContent = structured
	}
	return r
}

// toolError is a failed call the model can read and act on: a result with
// isError set, not a JSON-RPC error, so the model sees it
// (https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling).
func toolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// decodeArgs unmarshals a call's arguments into v, a pointer to an
// argument struct. An unknown argument is an error that names the valid
// ones: ignoring it would silently drop what the model asked for (a
// misspelt result count, say), and the model can fix the call from the
// message.
func decodeArgs(req *mcp.CallToolRequest, v any) error {
	raw := req.Params.Arguments
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return fmt.Errorf("unknown argument %s; the arguments are %s", f, argNames(v))
		}
		return err
	}
	return nil
}

// argNames lists the JSON names of an argument struct's fields, leaving
// out accepted aliases (fields tagged alias:"true").
func argNames(v any) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" && f.Tag.Get("alias") != "true" {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}
