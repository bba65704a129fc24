package openai

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/messages/wire"
)

// codeExecutionNote is said to the model in place of Anthropic's
// code_execution tool, which dynamic filtering (web_search_20260209 and
// later) pairs with the web tools: no Chat Completions backend runs it.
const codeExecutionNote = "Code execution is not available on this backend: there is no code_execution tool. Work with the web_search and web_fetch results directly."

// toolEntry is one client tool the request declares.
type toolEntry struct {
	def toolDef
	// deferred marks a defer_loading tool: it is sent only once loaded.
	deferred bool
	// loaded reports that a tool_reference named the tool or a
	// tool_addition added it.
	loaded bool
	// removed reports a tool_removal of the tool.
	removed bool
	// sent reports that the last chatTools call included it.
	sent bool
}

// toolSet is the request's tools as the conversation shapes them.
// Anthropic sends a defer_loading tool to the model only once a
// tool_reference in the conversation has named it (tool search), and a
// system message may add or remove tools mid-conversation
// (tool_addition, tool_removal). A Chat Completions request has one tool
// list, so it holds the tools the conversation has made available by its
// end.
type toolSet struct {
	byName map[string]*toolEntry
	order  []*toolEntry
	// codeExecution reports a code_execution tool, answered with a note.
	codeExecution bool
}

// declare decodes the request's tools. Client tools are kept; a
// code_execution tool is replaced by a note in the system prompt; other
// typed tools (Anthropic's server tools and its schema-less client tools
// such as bash_20250124) have no function form here and are dropped.
func (s *toolSet) declare(t *translator, tools []wire.Tool) error {
	for i, tool := range tools {
		var d toolDef
		if err := json.Unmarshal(tool.Raw, &d); err != nil {
			return fmt.Errorf("%w: tools[%d]: %v", wire.ErrInvalidRequest, i, err)
		}
		if err := s.add(t, d, fmt.Sprintf("tools[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

// add adds (or replaces, keeping its place) the tool d. It returns nil
// and adds nothing for a typed tool (see declare).
func (s *toolSet) add(t *translator, d toolDef, where string) error {
	switch {
	case d.Type == "" || d.Type == "custom":
	case strings.HasPrefix(d.Type, "code_execution_"):
		t.degrade("tool:code_execution")
		if !s.codeExecution {
			s.codeExecution = true
			t.notes = append(t.notes, codeExecutionNote)
		}
		return nil
	default:
		t.degrade("tool:typed")
		return nil
	}
	if d.Name == "" {
		return fmt.Errorf("%w: %s: name is required", wire.ErrInvalidRequest, where)
	}
	if s.byName == nil {
		s.byName = map[string]*toolEntry{}
	}
	e := s.byName[d.Name]
	if e == nil {
		e = &toolEntry{}
		s.byName[d.Name] = e
		s.order = append(s.order, e)
	}
	*e = toolEntry{def: d, deferred: d.DeferLoading}
	return nil
}

// change applies a system message's tool_addition or tool_removal block:
// {"type": "tool_addition", "tool": {"type": "tool_definition",
// "definition": {...}}} or {"type": "tool_removal", "tool": {"type":
// "tool_reference", "name": ...}}.
func (s *toolSet) change(t *translator, b inBlock) error {
	var ref struct {
		Type       string          `json:"type"`
		Name       string          `json:"name"`
		ToolName   string          `json:"tool_name"`
		Definition json.RawMessage `json:"definition"`
	}
	if len(b.Tool) == 0 || json.Unmarshal(b.Tool, &ref) != nil {
		return fmt.Errorf("%w: %s: tool must be an object", wire.ErrInvalidRequest, b.Type)
	}
	if b.Type == "tool_removal" {
		name := cmpOr(ref.Name, ref.ToolName)
		if e := s.byName[name]; e != nil {
			e.removed = true
		}
		return nil
	}
	def := ref.Definition
	if len(def) == 0 {
		def = b.Tool // the definition given directly
	}
	var d toolDef
	if err := json.Unmarshal(def, &d); err != nil {
		return fmt.Errorf("%w: tool_addition: %v", wire.ErrInvalidRequest, err)
	}
	if err := s.add(t, d, "tool_addition"); err != nil {
		return err
	}
	if e := s.byName[d.Name]; e != nil {
		e.loaded = true
	}
	return nil
}

// load marks the tool a tool_reference names as loaded.
func (s *toolSet) load(name string) {
	if e := s.byName[name]; e != nil {
		e.loaded = true
	}
}

// chatTools returns the function tools to send: every tool not removed,
// deferred ones only once loaded.
func (s *toolSet) chatTools(t *translator) []ChatTool {
	var out []ChatTool
	for _, e := range s.order {
		e.sent = !e.removed && (!e.deferred || e.loaded)
		if !e.sent {
			continue
		}
		d := e.def
		schema := bytes.TrimSpace(d.InputSchema)
		if len(schema) == 0 || bytes.Equal(schema, []byte("null")) {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		desc := d.Description
		if n := t.rule.MaxToolDescription; n > 0 && utf8.RuneCountInString(desc) > n {
			desc = shorten(desc, n)
			t.degrade("tool:description_shortened")
		}
		out = append(out, ChatTool{Type: "function", Function: ChatFunction{Name: t.names.wire(d.Name), Description: desc, Parameters: schema, Strict: d.Strict}})
	}
	return out
}

// shorten cuts s to at most n characters, ending at the last sentence
// end, or else the last space, in its second half, and marks the cut.
func shorten(s string, n int) string {
	const mark = " …"
	if n <= len(mark) {
		return string([]rune(s)[:n])
	}
	r := []rune(s)[:n-2]
	cut := string(r)
	half := len(cut) / 2
	if i := strings.LastIndexAny(cut, ".\n"); i >= half {
		return cut[:i+1] + mark
	}
	if i := strings.LastIndexByte(cut, ' '); i >= half {
		return cut[:i] + mark
	}
	return cut + mark
}

// maxToolName is the longest function name Chat Completions accepts.
const maxToolName = 64

// toolNames maps tool names to names Chat Completions accepts
// (^[a-zA-Z0-9_-]{1,64}$, OpenAI's rule for a function's name,
// https://platform.openai.com/docs/api-reference/chat/create, which most servers and chat
// templates share) and back: an MCP tool may be called "mcp__srv__a.b",
// or be longer. Valid names map to themselves; only changed ones are
// recorded, so replies can report the client's own names.
type toolNames struct {
	forward map[string]string // client name -> wire name, changed ones
	reverse map[string]string // wire name -> client name, changed ones
	taken   map[string]string // wire name -> client name, all
}

func newToolNames() *toolNames {
	return &toolNames{taken: map[string]string{}}
}

// wire returns the name sent for the client's tool name.
func (n *toolNames) wire(name string) string {
	if w, ok := n.forward[name]; ok {
		return w
	}
	w := sanitizeName(name)
	if owner, ok := n.taken[w]; ok && owner != name {
		w = hashedName(w, name)
	}
	n.taken[w] = name
	if w != name {
		if n.forward == nil {
			n.forward, n.reverse = map[string]string{}, map[string]string{}
		}
		n.forward[name], n.reverse[w] = w, name
	}
	return w
}

// sanitizeName replaces characters outside [a-zA-Z0-9_-] with '_' and
// shortens a name beyond 64 characters, keeping it unique with a hash.
func sanitizeName(name string) string {
	valid := len(name) > 0 && len(name) <= maxToolName
	for i := 0; valid && i < len(name); i++ {
		valid = isNameByte(name[i])
	}
	if valid {
		return name
	}
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		if c := name[i]; isNameByte(c) {
			b = append(b, c)
		} else if c < utf8.RuneSelf || utf8.RuneStart(c) {
			b = append(b, '_')
		}
	}
	w := string(b)
	if w == "" || len(w) > maxToolName {
		return hashedName(w, name)
	}
	return w
}

// hashedName is w cut to leave room for a hash of name, then the hash.
func hashedName(w, name string) string {
	sum := sha256.Sum256([]byte(name))
	h := hex.EncodeToString(sum[:4])
	if len(w) > maxToolName-len(h)-1 {
		w = w[:maxToolName-len(h)-1]
	}
	if w == "" {
		w = "tool"
	}
	return w + "_" + h
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
