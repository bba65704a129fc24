package emulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
)

// upMessage is one message of the conversation sent upstream. raw, when
// set, is the client's message passed on untouched; otherwise the message
// is role plus blocks.
type upMessage struct {
	role   string
	raw    json.RawMessage
	blocks []json.RawMessage
}

func (m *upMessage) json() json.RawMessage {
	if m.raw != nil {
		return m.raw
	}
	b := append([]byte(`{"role":`), jsonString(m.role)...)
	b = append(b, `,"content":`...)
	b = append(b, joinArray(m.blocks)...)
	return append(b, '}')
}

// pendingCall is a server tool call from the client's history that has no
// result yet: deferred because the model called a client tool in the same
// response, or left by a pause. It runs at the start of the next request.
type pendingCall struct {
	id    string
	tool  ServerTool
	input json.RawMessage
}

// serverUse is a server_tool_use block met while converting history.
type serverUse struct {
	name     string
	input    json.RawMessage
	msg      int // index of the client message holding it
	upMsg    int // index of the upstream message holding its tool_use, -1 while unflushed
	answered bool
}

// historyBlock is the union of the block members conversion looks at.
type historyBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	Citations json.RawMessage `json:"citations"`
	Text      string          `json:"text"`
	Source    *struct {
		Type string `json:"type"`
		Data string `json:"data"`
		URL  string `json:"url"`
	} `json:"source"`
}

// converter turns the client's messages into the upstream's.
type converter struct {
	t   *Turn
	out []upMessage
	// cur collects the blocks of the assistant message being converted
	// since the last tool_use/tool_result split.
	cur        []json.RawMessage
	uses       map[string]*serverUse
	order      []string // server_tool_use ids in order
	clientUses map[string]string
	sealed     bool
	server     bool
}

func (t *Turn) convertHistory() error {
	c := &converter{t: t, uses: map[string]*serverUse{}, clientUses: map[string]string{}}
	msgs := t.req.Messages
	for i := range msgs {
		m := &msgs[i]
		var err error
		switch m.Role {
		case "assistant":
			err = c.assistant(i, m)
		default:
			err = c.user(m)
		}
		if err != nil {
			return fmt.Errorf("messages[%d]: %w", i, err)
		}
	}
	if err := c.pending(); err != nil {
		return err
	}
	t.msgs = mergeRoles(c.out)
	t.sealed, t.serverHistory = c.sealed, c.server
	// Pending results go into the final user message (a deferral) or a
	// new one after the paused assistant message.
	t.pendingInto = -1
	if n := len(t.msgs); len(t.pending) > 0 && n > 0 && t.msgs[n-1].role == "user" {
		t.pendingInto = n - 1
	}
	return nil
}

func (c *converter) push(m upMessage) { c.out = append(c.out, m) }

// user passes a user message on untouched, noting the URLs it mentions.
func (c *converter) user(m *wire.MessageParam) error {
	conv := c.t.conv
	if m.ContentIsString {
		conv.AddText(m.Text, URLSource{Origin: FromUser})
		c.push(upMessage{role: m.Role, raw: m.Raw})
		return nil
	}
	for _, b := range m.Blocks {
		switch b.Type {
		case "text":
			conv.AddText(b.Text, URLSource{Origin: FromUser})
		case "tool_result":
			var hb historyBlock
			if err := json.Unmarshal(b.Raw, &hb); err != nil {
				return fmt.Errorf("%w: tool_result: %v", ErrInvalidRequest, err)
			}
			src := URLSource{Origin: FromClientTool, Tool: c.clientUses[hb.ToolUseID]}
			conv.AddText(contentText(hb.Content), src)
		case "document":
			var hb historyBlock
			if err := json.Unmarshal(b.Raw, &hb); err == nil && hb.Source != nil {
				switch hb.Source.Type {
				case "text":
					conv.AddText(hb.Source.Data, URLSource{Origin: FromUser})
				case "url":
					conv.AddURL(hb.Source.URL, URLSource{Origin: FromUser})
				}
			}
		}
	}
	c.push(upMessage{role: m.Role, raw: m.Raw})
	return nil
}

// contentText is the text of a tool_result's content: a string, or the
// text members of its blocks.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// assistant converts one assistant message: server_tool_use blocks become
// tool_use blocks, their results tool_result blocks in a user message
// right after, and cited text carries [n] markers instead of citations.
func (c *converter) assistant(i int, m *wire.MessageParam) error {
	if m.ContentIsString || len(m.Blocks) == 0 {
		c.push(upMessage{role: m.Role, raw: m.Raw})
		return nil
	}
	touched := false
	for _, b := range m.Blocks {
		switch {
		case b.Type == "server_tool_use":
			if err := c.serverToolUse(i, b.Raw); err != nil {
				return err
			}
			touched = true
		case c.t.e.o.Toolbox.IsResult(b.Type):
			if err := c.result(b.Raw); err != nil {
				return err
			}
			touched = true
		case b.Type == "text" && bytes.Contains(b.Raw, []byte(`"citations"`)):
			nb, changed, err := c.citedText(b.Raw)
			if err != nil {
				return err
			}
			touched = touched || changed
			c.cur = append(c.cur, nb)
		case b.Type == "tool_use":
			var hb historyBlock
			if err := json.Unmarshal(b.Raw, &hb); err == nil {
				c.clientUses[hb.ID] = hb.Name
			}
			c.cur = append(c.cur, b.Raw)
		default:
			c.cur = append(c.cur, b.Raw)
		}
	}
	if !touched {
		// Nothing of webgate's in it: pass the message on byte for byte.
		c.cur = c.cur[:0]
		c.push(upMessage{role: m.Role, raw: m.Raw})
		return nil
	}
	c.flush()
	return nil
}

// flush ends the assistant message being built.
func (c *converter) flush() {
	if len(c.cur) == 0 {
		return
	}
	idx := len(c.out)
	c.push(upMessage{role: "assistant", blocks: c.cur})
	c.cur = nil
	for _, id := range c.order {
		if u := c.uses[id]; u.upMsg < 0 {
			u.upMsg = idx
		}
	}
}

func (c *converter) serverToolUse(i int, raw json.RawMessage) error {
	var hb historyBlock
	if err := json.Unmarshal(raw, &hb); err != nil || hb.ID == "" {
		return fmt.Errorf("%w: server_tool_use block without an id", ErrInvalidHistory)
	}
	if _, dup := c.uses[hb.ID]; dup {
		return fmt.Errorf("%w: server_tool_use id %s is used twice", ErrInvalidHistory, hb.ID)
	}
	c.server = true
	input := hb.Input
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage(`{}`)
	}
	c.uses[hb.ID] = &serverUse{name: hb.Name, input: input, msg: i, upMsg: -1}
	c.order = append(c.order, hb.ID)
	if c.t.byName[hb.Name] == nil {
		// A tool this request no longer declares: the upstream must not
		// see a tool_use for a function it is not given, so the call and
		// its result become text (see result).
		return nil
	}
	c.cur = append(c.cur, toolUseJSON(hb.ID, hb.Name, input))
	return nil
}

func toolUseJSON(id, name string, input json.RawMessage) json.RawMessage {
	b := append([]byte(`{"type":"tool_use","id":`), jsonString(id)...)
	b = append(b, `,"name":`...)
	b = append(b, jsonString(name)...)
	b = append(b, `,"input":`...)
	b = append(b, input...)
	return append(b, '}')
}

func toolResultJSON(id, content string, isError bool) json.RawMessage {
	b := append([]byte(`{"type":"tool_result","tool_use_id":`), jsonString(id)...)
	b = append(b, `,"content":`...)
	b = append(b, jsonString(content)...)
	if isError {
		b = append(b, `,"is_error":true`...)
	}
	return append(b, '}')
}

// result restores a result block and places its tool_result.
func (c *converter) result(raw json.RawMessage) error {
	var hb historyBlock
	if err := json.Unmarshal(raw, &hb); err != nil {
		return fmt.Errorf("%w: result block: %v", ErrInvalidHistory, err)
	}
	u := c.uses[hb.ToolUseID]
	if u == nil || u.answered {
		return fmt.Errorf("%w: %s block with tool_use_id %q has no matching server_tool_use", ErrInvalidHistory, hb.Type, hb.ToolUseID)
	}
	u.answered = true
	c.server = true
	if seal.Contains(raw) {
		c.sealed = true
	}
	rep, err := c.t.e.o.Toolbox.Restore(u.input, raw)
	if err != nil {
		return err
	}
	conv := c.t.conv
	rep.Sources = conv.AddSources(u.name, rep.Sources)
	for _, url := range rep.URLs {
		conv.AddURL(url, URLSource{Origin: FromServerTool, Tool: u.name})
	}
	text := c.t.e.renderResult(hb.ToolUseID, &rep)
	if c.t.byName[u.name] == nil {
		c.cur = append(c.cur, textJSON(fmt.Sprintf("(%s %s)\n%s", u.name, compactJSON(u.input), text)))
		return nil
	}
	tr := toolResultJSON(hb.ToolUseID, text, rep.Error != "")
	if u.upMsg < 0 {
		// Same assistant message: split it around the result.
		c.flush()
		c.push(upMessage{role: "user", blocks: []json.RawMessage{tr}})
		return nil
	}
	// The call was deferred past a client tool: its result belongs with
	// the client's tool_result blocks in the user message that followed.
	switch at := u.upMsg + 1; {
	case at < len(c.out) && c.out[at].role == "user":
		c.out[at] = prepend(c.out[at], tr)
	case at == len(c.out) && len(c.cur) == 0:
		// A paused call answered at the start of the continuation.
		c.push(upMessage{role: "user", blocks: []json.RawMessage{tr}})
	default:
		return fmt.Errorf("%w: %s for %s is not in the turn of its server_tool_use", ErrInvalidHistory, hb.Type, hb.ToolUseID)
	}
	return nil
}

func textJSON(s string) json.RawMessage {
	return append(append([]byte(`{"type":"text","text":`), jsonString(s)...), '}')
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// prepend puts tool_result blocks before a user message's own blocks, as
// Anthropic requires tool results to come first.
func prepend(m upMessage, blocks ...json.RawMessage) upMessage {
	own := m.blocks
	if m.raw != nil {
		own = messageBlocks(m.raw)
	}
	return upMessage{role: m.role, blocks: append(blocks, own...)}
}

// messageBlocks returns a message's content as blocks (a string content
// becomes one text block).
func messageBlocks(raw json.RawMessage) []json.RawMessage {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &m)
	c := bytes.TrimSpace(m.Content)
	if len(c) > 0 && c[0] == '"' {
		var s string
		_ = json.Unmarshal(c, &s)
		return []json.RawMessage{textJSON(s)}
	}
	var blocks []json.RawMessage
	_ = json.Unmarshal(c, &blocks)
	return blocks
}

// citedText verifies the citations of an assistant text block and
// replaces them with [n] markers appended to the text, the form the model
// was asked to write, so the upstream sees a conversation consistent with
// its instructions.
func (c *converter) citedText(raw json.RawMessage) (json.RawMessage, bool, error) {
	var hb historyBlock
	if err := json.Unmarshal(raw, &hb); err != nil {
		return nil, false, fmt.Errorf("%w: text block: %v", ErrInvalidRequest, err)
	}
	var cites []json.RawMessage
	if err := json.Unmarshal(hb.Citations, &cites); err != nil || len(cites) == 0 {
		return raw, false, nil
	}
	var nums []int
	for _, ci := range cites {
		if seal.Contains(ci) {
			c.sealed = true
		}
		if err := c.t.e.o.Toolbox.VerifyCitation(ci); err != nil {
			return nil, false, err
		}
		if n := c.t.conv.sourceOf(ci); n > 0 && !containsInt(nums, n) {
			nums = append(nums, n)
		}
	}
	text := hb.Text
	if len(nums) > 0 {
		var b strings.Builder
		b.WriteString(strings.TrimRight(text, " "))
		b.WriteByte(' ')
		for _, n := range nums {
			b.WriteString("[" + strconv.Itoa(n) + "]")
		}
		text = b.String()
	}
	out, err := setMembers(raw, member{"text", jsonString(text)}, member{"citations", nil})
	return out, true, err
}

func containsInt(s []int, n int) bool {
	for _, x := range s {
		if x == n {
			return true
		}
	}
	return false
}

// sourceOf finds the source a citation refers to: the latest search
// result with its URL, or the fetched document with its index.
func (c *Conversation) sourceOf(citation json.RawMessage) int {
	var ci struct {
		Type          string `json:"type"`
		URL           string `json:"url"`
		DocumentIndex *int   `json:"document_index"`
	}
	if json.Unmarshal(citation, &ci) != nil {
		return 0
	}
	for i := len(c.Sources) - 1; i >= 0; i-- {
		s := &c.Sources[i]
		switch {
		case ci.Type == "web_search_result_location" && s.Kind == KindWebSearch && s.URL == ci.URL:
			return s.Number
		case ci.Type == "char_location" && s.Kind == KindWebFetch && ci.DocumentIndex != nil && *ci.DocumentIndex == s.DocumentIndex:
			return s.Number
		}
	}
	return 0
}

// pending finds server tool calls without results. Anthropic leaves one
// open in two cases only, and runs it at the start of the next request:
// a pause_turn response (the call ends the final, assistant message), and
// a response where the model also called a client tool (the call is in
// the assistant message before a final user message made only of
// tool_result blocks). Anywhere else it is an error, with Anthropic's
// wording.
func (c *converter) pending() error {
	msgs := c.t.req.Messages
	last := len(msgs) - 1
	for _, id := range c.order {
		u := c.uses[id]
		if u.answered {
			continue
		}
		tool := c.t.byName[u.name]
		ok := u.msg == last || (u.msg == last-1 && msgs[last].Role == "user" && onlyToolResults(&msgs[last]))
		switch {
		case !ok:
			return fmt.Errorf("%w: `%s` tool use with id `%s` was found without a corresponding `%s_tool_result` block", ErrInvalidHistory, u.name, id, u.name)
		case tool == nil:
			return fmt.Errorf("%w: `%s` tool use with id `%s` is waiting for its result, but no %s tool was provided", ErrInvalidHistory, u.name, id, u.name)
		}
		c.t.pending = append(c.t.pending, pendingCall{id: id, tool: tool, input: u.input})
	}
	return nil
}

func onlyToolResults(m *wire.MessageParam) bool {
	if m.ContentIsString || len(m.Blocks) == 0 {
		return false
	}
	for _, b := range m.Blocks {
		if b.Type != "tool_result" {
			return false
		}
	}
	return true
}

// mergeRoles joins consecutive messages of the same role (a pause_turn
// continuation leaves two assistant messages in a row, a split result a
// user message before the client's next one), which every upstream
// accepts more readily than repeated roles.
func mergeRoles(in []upMessage) []upMessage {
	out := in[:0]
	for _, m := range in {
		if n := len(out); n > 0 && out[n-1].role == m.role {
			prev := out[n-1]
			pb := prev.blocks
			if prev.raw != nil {
				pb = messageBlocks(prev.raw)
			}
			mb := m.blocks
			if m.raw != nil {
				mb = messageBlocks(m.raw)
			}
			out[n-1] = upMessage{role: m.role, blocks: append(append([]json.RawMessage(nil), pb...), mb...)}
			continue
		}
		out = append(out, m)
	}
	return out
}

// errNoMessages is returned for a request without messages.
var errNoMessages = errors.New("messages: at least one message is required")
