// Package emulate runs Anthropic's server tools (web_search_*, web_fetch_*)
// in front of upstreams that lack them. The server tools in a request are
// replaced by client function tools of the same name; when the upstream
// calls one, webgate executes it, streams server_tool_use and the result
// block to the client, appends the call and its result to the upstream
// conversation and calls the upstream again, until the model ends its turn,
// calls a client tool, or the iteration cap yields pause_turn.
//
// The pieces meet at small interfaces:
//   - Model is an upstream that streams Messages API events (upstream kinds
//     anthropic and openai each provide one);
//   - Toolbox builds a request's ServerTools from its tool definitions and
//     knows their result blocks: it restores blocks a client sends back in
//     later turns (opening sealed content, rejecting forged or tampered
//     blocks) and builds citations (package internal/messages/emulate/tools implements it);
//   - ServerTool executes one emulated tool call.
//
// The Engine owns everything between them: the agentic loop, history
// conversion, source numbering, the [n] citation markers the model is asked
// to write, and one coherent client stream (or JSON message) with
// continuous block indices and summed usage.
package emulate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/webgate/webgate/internal/messages/wire"
)

// Model is an upstream model that speaks the Messages API as a stream.
type Model interface {
	// Stream sends body, a complete Messages request with "stream": true
	// and no server tools, and returns the upstream's events. hdr is the
	// client's request header (credentials, anthropic-version,
	// anthropic-beta); the Model forwards what its protocol needs. A
	// non-2xx upstream answer is returned as *UpstreamError. Once events
	// flow, an upstream failure is an "error" event; when ctx ends, Next
	// returns an error. The caller closes the Events.
	Stream(ctx context.Context, hdr http.Header, body []byte) (Events, error)
}

// Events is a stream of Messages API server-sent events: message_start,
// content_block_start/delta/stop, message_delta, message_stop, ping and
// error, each with its JSON data exactly as Anthropic defines it.
type Events interface {
	// Next returns the next event, or io.EOF after the last one.
	Next() (wire.Event, error)
	Close() error
}

// ErrorMapper is implemented by a Model whose upstream does not answer in
// the Messages API's shape (kind openai). ClientError maps a failure of
// Stream (an *UpstreamError in the upstream's own shape, a request it
// cannot translate, a transport error) to the status and Anthropic error
// the client gets; the Engine then reports it as a *StreamError with that
// Status. Without it an *UpstreamError is relayed as is.
type ErrorMapper interface {
	ClientError(err error) (status int, resp wire.ErrorResponse)
}

// UpstreamError is a non-2xx answer from the upstream, kept whole so the
// client can get the same status and body when nothing was streamed yet.
type UpstreamError struct {
	Status int
	Header http.Header
	Body   []byte
}

func (e *UpstreamError) Error() string {
	return fmt.Sprintf("upstream answered %d: %.200s", e.Status, e.Body)
}

// StreamError is an Anthropic error event the turn ended with (an upstream
// "error" event, or webgate's own failure mid-turn). A non-streaming
// client gets it as an error response; surfaces map Type to a status.
type StreamError struct {
	Type    string
	Message string
	// Status, when set, is the HTTP status for a client not answered yet
	// (an ErrorMapper's); zero lets the surface derive it from Type.
	Status int
}

func (e *StreamError) Error() string { return e.Type + ": " + e.Message }

var (
	// ErrInvalidHistory marks a client conversation webgate cannot accept:
	// forged or tampered encrypted_content / encrypted_index values, or
	// server tool blocks that do not pair up. Surfaces answer it with 400
	// invalid_request_error, as Anthropic does.
	ErrInvalidHistory = errors.New("invalid server tool history")
	// ErrInvalidRequest marks a request webgate refuses before calling the
	// upstream: a malformed body or an invalid server tool definition
	// (unknown version, both domain lists, a malformed domain). Surfaces
	// answer it with 400 invalid_request_error.
	ErrInvalidRequest = errors.New("invalid request")
)

// Tool kinds, for usage accounting and source rendering.
const (
	KindWebSearch = "web_search"
	KindWebFetch  = "web_fetch"
)

// Toolbox is the tool side of emulation, shared by every request.
type Toolbox interface {
	// Tool returns the ServerTool for one tool definition of a request,
	// ok false when def is not a server tool this Toolbox emulates (a
	// client tool, or another vendor tool, which then goes upstream as
	// is). An invalid definition of an emulated tool is an error wrapping
	// ErrInvalidRequest.
	Tool(def wire.Tool) (t ServerTool, ok bool, err error)
	// IsResult reports whether a content block type is a result block
	// this Toolbox produces (web_search_tool_result, web_fetch_tool_result).
	IsResult(blockType string) bool
	// Restore rebuilds, from a server_tool_use input and its result block
	// in the client's history, the report the model saw when the tool ran.
	// Blocks webgate sealed but that fail authentication are an error
	// wrapping ErrInvalidHistory.
	Restore(input, result json.RawMessage) (Report, error)
	// Cite returns the citation (a JSON object for a text block's
	// "citations") for a claim the model attributed to src, or nil when
	// src cannot be cited (web_fetch without citations enabled).
	Cite(src *Source, claim string) (json.RawMessage, error)
	// VerifyCitation checks a citation on an assistant text block in the
	// client's history; a forged or tampered one is an error wrapping
	// ErrInvalidHistory.
	VerifyCitation(citation json.RawMessage) error
}

// ServerTool executes one emulated server tool for one request. Run may
// be called concurrently for the calls of one upstream response.
type ServerTool interface {
	// Name is the tool's name as the client declared it (usually
	// "web_search" or "web_fetch"); the upstream sees a function tool of
	// this name.
	Name() string
	// Kind is KindWebSearch or KindWebFetch.
	Kind() string
	// MaxUses is the tool's max_uses, 0 when unlimited. The Engine counts
	// calls in order and answers those beyond it with Fail.
	MaxUses() int
	// Definition is the client (function) tool definition sent upstream in
	// place of the server tool: {"name","description","input_schema"}.
	Definition() json.RawMessage
	// Run executes one call. It never fails the turn: every tool-level
	// problem (bad input, provider down, URL not allowed) is an error
	// result inside the Outcome, as Anthropic returns it.
	Run(ctx context.Context, call Call) Outcome
	// Fail is the outcome of a call refused before it ran, with the given
	// error code (max_uses_exceeded).
	Fail(call Call, code string) Outcome
}

// Call is one invocation of a ServerTool by the upstream model.
type Call struct {
	// ID is the server_tool_use id (srvtoolu_...) shown to the client and
	// used as the tool_use id upstream.
	ID string
	// Input is the upstream's arguments, a JSON object (possibly invalid).
	Input json.RawMessage
	// Conv is the conversation so far. Tools only read it; the Engine does
	// not change it while calls run.
	Conv *Conversation
}

// Outcome is what one tool call produced.
type Outcome struct {
	// Input is the server_tool_use block's input as shown to the client,
	// a JSON object.
	Input json.RawMessage
	// Result is the complete client-facing result block, e.g.
	// {"type":"web_search_tool_result","tool_use_id":...,"content":[...]}.
	Result json.RawMessage
	// Report is what the model reads.
	Report Report
	// ErrorCode is the tool error code, "" on success.
	ErrorCode string
	// Counted reports whether the call counts toward usage
	// (server_tool_use.web_search_requests / web_fetch_requests).
	Counted bool
}

// Report is the content of one tool result as the model sees it. The
// Engine numbers its Sources in the conversation and renders it; the same
// Report is rebuilt from the client's history in later turns, so the
// model sees the same text every time.
type Report struct {
	// Kind is KindWebSearch or KindWebFetch.
	Kind string
	// Header introduces the result, e.g. `Web search results for "q"`.
	Header string
	// Error, when set, is the whole result: a sentence explaining a failed
	// call to the model.
	Error string
	// Sources are the results or the fetched document.
	Sources []Source
	// URLs are further URLs the result puts in context (links inside a
	// fetched page), which later fetches may use.
	URLs []string
}

// Source is something the model may cite: a search result or a fetched
// document.
type Source struct {
	// Kind is KindWebSearch or KindWebFetch.
	Kind    string
	URL     string
	Title   string
	PageAge string
	// Snippet and Passages are a search result's extract and the key
	// passages of its page.
	Snippet  string
	Passages []string
	// Document is a fetched document's text.
	Document string
	// Retrieved is when a document was fetched.
	Retrieved time.Time
	// Note, when set, is said to the model in place of an unavailable
	// text (a PDF whose text is no longer at hand).
	Note string
	// Citations reports whether the source may be cited (always for search
	// results; web_fetch's citations.enabled for documents).
	Citations bool
	// Number is the source's citation number, [Number], set by the
	// Conversation.
	Number int
	// DocumentIndex is, for fetched documents, the index a char_location
	// citation reports: documents are counted in conversation order.
	DocumentIndex int
}

// Origin says where a URL appeared in the conversation, for web fetch's
// rule that only URLs from prior context may be fetched (and its
// url_sources filter).
type Origin int

// Origins of URLs.
const (
	// FromUser is a user message's text or document.
	FromUser Origin = iota + 1
	// FromClientTool is the result of a client tool.
	FromClientTool
	// FromServerTool is a web search or web fetch result.
	FromServerTool
)

// URLSource is one appearance of a URL: its origin and, for tool results,
// the tool's name.
type URLSource struct {
	Origin Origin
	Tool   string
}
