// Package emulate runs Anthropic's server tools (web_search_*, web_fetch_*)
// in front of upstreams that lack them. The server tools in a request are
// replaced by client function tools of the same name; when the upstream
// calls one, webgate executes it, streams server_tool_use and the result
// block to the client, appends the call and its result to the upstream
// conversation and calls the upstream again, until the model ends its turn,
// calls a client tool, or the iteration cap yields pause_turn.
//
// The pieces meet at three small interfaces:
//   - Model is an upstream that streams Messages API events (upstream kinds
//     anthropic and openai each provide one);
//   - ServerTool executes one emulated tool (package emulate/tools builds
//     them from a request's tool definitions);
//   - History (package emulate/tools) turns a client's conversation, which
//     may carry server_tool_use and *_tool_result blocks from earlier turns,
//     into plain tool_use/tool_result messages the upstream understands,
//     restoring sealed content and rejecting forged or tampered blocks.
package emulate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/webgate/webgate/anthropic"
)

// Model is an upstream model that speaks the Messages API as a stream.
type Model interface {
	// Stream sends body, a complete Messages request with "stream": true
	// and no server tools, and returns the upstream's events. hdr is the
	// client's request header (credentials, anthropic-version,
	// anthropic-beta); the Model forwards what its protocol needs. A
	// non-2xx upstream answer is returned as *UpstreamError. The caller
	// closes the Events.
	Stream(ctx context.Context, hdr http.Header, body []byte) (Events, error)
}

// Events is a stream of Messages API server-sent events: message_start,
// content_block_start/delta/stop, message_delta, message_stop, ping and
// error, each with its JSON data exactly as Anthropic defines it.
type Events interface {
	// Next returns the next event, or io.EOF after the last one.
	Next() (anthropic.Event, error)
	Close() error
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

// ErrInvalidHistory marks a client conversation webgate cannot accept:
// forged or tampered encrypted_content / encrypted_index values, or server
// tool blocks that do not pair up. Surfaces answer it with 400
// invalid_request_error, as Anthropic does.
var ErrInvalidHistory = errors.New("invalid server tool history")

// Tool kinds, for usage accounting.
const (
	KindWebSearch = "web_search"
	KindWebFetch  = "web_fetch"
)

// ServerTool executes one emulated server tool for one request. A
// ServerTool is built per request from the client's tool definition, so it
// may keep per-request state such as its use count for max_uses.
type ServerTool interface {
	// Name is the tool's name as the client declared it (usually
	// "web_search" or "web_fetch"); the upstream sees a function tool of
	// this name.
	Name() string
	// Kind is KindWebSearch or KindWebFetch.
	Kind() string
	// Definition is the client (function) tool definition sent upstream in
	// place of the server tool: {"name","description","input_schema"}.
	Definition() json.RawMessage
	// Run executes one call. It never fails the turn: every tool-level
	// problem (bad input, max_uses, provider down, URL not allowed) is an
	// error result block inside the Outcome, as Anthropic returns it.
	Run(ctx context.Context, call Call) Outcome
}

// Call is one invocation of a ServerTool by the upstream model.
type Call struct {
	// ID is the server_tool_use id (srvtoolu_...) shown to the client and
	// used as the tool_use id upstream.
	ID string
	// Input is the upstream's arguments, a JSON object (possibly invalid).
	Input json.RawMessage
	// Conv is the conversation state shared by every tool of the request.
	Conv *Conversation
}

// Outcome is what one tool call produced.
type Outcome struct {
	// Input is the server_tool_use block's input as shown to the client
	// (the upstream's arguments, normalised).
	Input json.RawMessage
	// Result is the complete client-facing result block, e.g.
	// {"type":"web_search_tool_result","tool_use_id":...,"content":[...]}
	// or a web_fetch_tool_result.
	Result json.RawMessage
	// ForModel is the tool_result content given to the upstream model: the
	// results or the page, with sources numbered so the model can cite
	// them as [n].
	ForModel string
	// IsError reports a tool-level error (Result carries the error code).
	IsError bool
	// Counted reports whether the call counts toward usage
	// (server_tool_use.web_search_requests / web_fetch_requests).
	Counted bool
}

// Conversation is the per-request state the tools share: the URLs the
// conversation has mentioned so far (web_fetch may only fetch those) and
// the numbered sources the model may cite.
type Conversation struct {
	// URLs seen so far: in user text, tool results, search results and
	// fetched documents. Keys are normalised URLs.
	URLs map[string]bool
	// Sources are numbered from 1 in order of appearance; Sources[i] is
	// cited as [i+1].
	Sources []Source
}

// Source is something the model may cite.
type Source struct {
	// Kind is KindWebSearch (a search result) or KindWebFetch (a fetched
	// document).
	Kind  string
	URL   string
	Title string
	// Text is the source's content used to pick cited_text.
	Text string
	// EncryptedIndex is the sealed value a web_search_result_location
	// citation carries for this source.
	EncryptedIndex string
	// DocumentIndex is, for fetched documents, the index the
	// char_location citation reports.
	DocumentIndex int
	// Citations reports whether citations are enabled for this source
	// (web_fetch's citations.enabled; always true for search results).
	Citations bool
}

// AddURL records u as seen in the conversation.
func (c *Conversation) AddURL(u string) {
	if c.URLs == nil {
		c.URLs = map[string]bool{}
	}
	c.URLs[u] = true
}

// AddSource appends s and returns its citation number (1-based).
func (c *Conversation) AddSource(s Source) int {
	c.Sources = append(c.Sources, s)
	return len(c.Sources)
}
