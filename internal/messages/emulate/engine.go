package emulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/messages/wire"
)

// Options configures an Engine.
type Options struct {
	// Model is the upstream. Required.
	Model Model
	// Toolbox builds and restores the server tools. Required.
	Toolbox Toolbox
	// MaxIterations caps the upstream calls of one request; a model that
	// still wants its server tools after that many gets pause_turn.
	// Default 10.
	MaxIterations int
	// PingInterval is how long a streaming client may go without an event
	// (while tools run or the upstream thinks) before a ping is sent.
	// Default 10s.
	PingInterval time.Duration
	// MaxConcurrentCalls bounds the server tool calls of one upstream
	// response that run at once. Default 4.
	MaxConcurrentCalls int
	// MaxUpstreamBody bounds the request sent upstream, which grows with
	// every tool result of the turn. Default 64 MiB.
	MaxUpstreamBody int
	// Untrusted marks each search or fetch result the model reads as
	// data from the web, not instructions; the zero value marks them
	// (guard.content.mark_untrusted). The boundary id is the call's id,
	// so a result replayed in later turns reads exactly the same.
	Untrusted guard.Wrapper
	// Logger receives request logs; nil discards them.
	Logger *slog.Logger
	// NewID makes message and tool use ids; nil is NewID. Tests set it to
	// get stable transcripts.
	NewID func(prefix string) string
}

// Engine runs emulated turns. It is safe for concurrent use.
type Engine struct {
	o   Options
	log *slog.Logger
}

// New validates o and returns an Engine.
func New(o Options) (*Engine, error) {
	if o.Model == nil || o.Toolbox == nil {
		return nil, errors.New("emulate: a model and a toolbox are required")
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = 10
	}
	if o.PingInterval <= 0 {
		o.PingInterval = 10 * time.Second
	}
	if o.MaxConcurrentCalls <= 0 {
		o.MaxConcurrentCalls = 4
	}
	if o.MaxUpstreamBody <= 0 {
		o.MaxUpstreamBody = 64 << 20
	}
	if o.NewID == nil {
		o.NewID = NewID
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Engine{o: o, log: log}, nil
}

// Turn is one client request, decoded, validated and converted for the
// upstream, ready to Serve.
type Turn struct {
	e   *Engine
	req *wire.Request
	// tools are the request's emulated server tools, by name.
	tools  []ServerTool
	byName map[string]ServerTool
	conv   *Conversation
	msgs   []upMessage
	// pending calls run before the first upstream call; their results go
	// into msgs[pendingInto], or a new user message when it is -1.
	pending     []pendingCall
	pendingInto int
	// prefix is the upstream body up to (not including) tool_choice and
	// messages, which change between iterations.
	prefix     []byte
	toolChoice json.RawMessage
	// relaxed is tool_choice after the first upstream call when the
	// client forced a server tool ("any", or "tool" naming one).
	relaxed       json.RawMessage
	sealed        bool
	serverHistory bool
}

// Prepare decodes a Messages request and prepares its turn. Errors wrap
// ErrInvalidRequest (a malformed body or server tool definition) or
// ErrInvalidHistory (forged, tampered or unpaired server tool blocks);
// both deserve a 400 invalid_request_error.
func (e *Engine) Prepare(body []byte) (*Turn, error) {
	req, err := wire.DecodeRequest(body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if len(req.Messages) == 0 {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRequest, errNoMessages)
	}
	t := &Turn{e: e, req: req, byName: map[string]ServerTool{}, conv: &Conversation{}}
	var tools []json.RawMessage
	for i, def := range req.Tools {
		st, ok, err := e.o.Toolbox.Tool(def)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			tools = append(tools, def.Raw)
			continue
		case t.byName[st.Name()] != nil:
			return nil, fmt.Errorf("%w: tools[%d]: tool name %q is used twice", ErrInvalidRequest, i, st.Name())
		}
		t.tools = append(t.tools, st)
		t.byName[st.Name()] = st
		tools = append(tools, st.Definition())
	}
	if err := t.convertHistory(); err != nil {
		return nil, err
	}
	if err := t.buildPrefix(tools); err != nil {
		return nil, err
	}
	// The conversation lives on in t.msgs (which share the messages' raw
	// bytes); the decoded copies are not needed for the rest of the turn,
	// which may last minutes while holding a request of up to 32 MiB.
	t.req.Messages = nil
	delete(t.req.Fields, "messages")
	return t, nil
}

// ServerTools reports whether the request declares an emulated server
// tool.
func (t *Turn) ServerTools() bool { return len(t.tools) > 0 }

// ServerHistory reports whether the conversation holds server tool blocks.
func (t *Turn) ServerHistory() bool { return t.serverHistory }

// Sealed reports whether the conversation holds values webgate sealed
// (encrypted_content, encrypted_index): only webgate can read them, so
// such a request must never reach another upstream as is.
func (t *Turn) Sealed() bool { return t.sealed }

// Streaming reports whether the client asked for a stream.
func (t *Turn) Streaming() bool { return t.req.Stream }

// cites reports whether citation markers are in play: the model was told
// about them and may have sources to cite.
func (t *Turn) cites() bool { return len(t.tools) > 0 || len(t.conv.Sources) > 0 }

// buildPrefix encodes the parts of the upstream request that stay the
// same across iterations: every member the client sent except messages,
// tools (server tools replaced by function tools), system (with the
// citation instruction) and tool_choice, plus "stream": true.
func (t *Turn) buildPrefix(tools []json.RawMessage) error {
	fields := make(map[string]json.RawMessage, len(t.req.Fields)+2)
	for k, v := range t.req.Fields {
		switch k {
		case "messages", "tool_choice", "stream":
		default:
			fields[k] = v
		}
	}
	fields["stream"] = json.RawMessage("true")
	if t.req.Fields["tools"] != nil {
		fields["tools"] = joinArray(tools)
	}
	if t.cites() {
		sys, err := withInstruction(t.req.System)
		if err != nil {
			return err
		}
		fields["system"] = sys
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidRequest, err)
	}
	t.prefix = b[:len(b)-1] // without the closing brace
	if tc := t.req.ToolChoice; tc != nil {
		t.toolChoice = t.req.Fields["tool_choice"]
		if tc.Type == "any" || (tc.Type == "tool" && t.byName[tc.Name] != nil) {
			// Forcing the server tool again after it ran would loop until
			// the cap; Anthropic forces only the turn's first call.
			if t.relaxed, err = setMembers(t.toolChoice, member{"type", jsonString("auto")}, member{"name", nil}); err != nil {
				return fmt.Errorf("%w: tool_choice: %v", ErrInvalidRequest, err)
			}
		}
	}
	return nil
}

// withInstruction adds the citation instruction to a system prompt given
// as a string, as text blocks, or not at all.
func withInstruction(sys json.RawMessage) (json.RawMessage, error) {
	s := bytes.TrimSpace(sys)
	switch {
	case len(s) == 0 || bytes.Equal(s, []byte("null")):
		return jsonString(citeInstruction), nil
	case s[0] == '"':
		var text string
		if err := json.Unmarshal(s, &text); err != nil {
			return nil, fmt.Errorf("%w: system: %v", ErrInvalidRequest, err)
		}
		return jsonString(text + "\n\n" + citeInstruction), nil
	case s[0] == '[':
		var blocks []json.RawMessage
		if err := json.Unmarshal(s, &blocks); err != nil {
			return nil, fmt.Errorf("%w: system: %v", ErrInvalidRequest, err)
		}
		return joinArray(append(blocks, textJSON(citeInstruction))), nil
	}
	return nil, fmt.Errorf("%w: system must be a string or an array of text blocks", ErrInvalidRequest)
}

// body encodes the upstream request for one iteration.
func (t *Turn) body(first bool) ([]byte, error) {
	b := make([]byte, 0, len(t.prefix)+4096)
	b = append(b, t.prefix...)
	if tc := t.toolChoice; tc != nil {
		b = append(b, `,"tool_choice":`...)
		if t.relaxed != nil && !first {
			tc = t.relaxed
		}
		b = append(b, tc...)
	}
	b = append(b, `,"messages":[`...)
	for i := range t.msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, t.msgs[i].json()...)
	}
	b = append(b, "]}"...)
	if len(b) > t.e.o.MaxUpstreamBody {
		return nil, &StreamError{Type: "invalid_request_error", Message: fmt.Sprintf("the conversation with this turn's tool results exceeds %d bytes", t.e.o.MaxUpstreamBody)}
	}
	return b, nil
}
