package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/messages/wire"
)

// translated lists the top-level request members ToChat translates;
// known lists those it drops knowingly, having no Chat Completions
// equivalent every compatible server accepts (thinking and output_config
// are translated only for models whose reasoning style is configured).
// Any other member is unknown and dropped too: neither kind is ever
// forwarded blindly.
var (
	translated = map[string]bool{
		"model": true, "messages": true, "system": true, "max_tokens": true,
		"stream": true, "temperature": true, "top_p": true, "stop_sequences": true,
		"metadata": true, "tools": true, "tool_choice": true,
	}
	known = map[string]bool{
		"top_k": true, "thinking": true, "service_tier": true, "container": true,
		"mcp_servers": true, "context_management": true, "output_config": true,
		"output_format": true, "inference_geo": true, "speed": true,
	}
)

// inBlock is an input content block decoded in full. Source is an object
// for images and documents but a URL string for search results. Tool is
// the tool of a tool_addition or tool_removal block.
type inBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Source    json.RawMessage `json:"source"`
	Title     string          `json:"title"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	ToolName  string          `json:"tool_name"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Tool      json.RawMessage `json:"tool"`
}

// source is an image or document source.
type source struct {
	Type      string          `json:"type"`
	MediaType string          `json:"media_type"`
	Data      string          `json:"data"`
	URL       string          `json:"url"`
	Content   json.RawMessage `json:"content"`
}

// toolDef is a tool definition decoded in full.
type toolDef struct {
	Type         string          `json:"type"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	Strict       *bool           `json:"strict"`
	DeferLoading bool            `json:"defer_loading"`
}

// ToChat translates a Messages request into a Chat Completions request.
// See the package documentation for the mapping. It fails only on input
// Anthropic's API refuses as well (malformed members, an unknown role, a
// tool without a name); everything without a Chat Completions form is
// dropped or turned into text, logged at debug level and reported through
// Options.Degraded. ctx bounds reading PDF documents.
func ToChat(ctx context.Context, req *wire.Request, opts Options) (ChatRequest, error) {
	upModel, rule := opts.Models.Lookup(req.Model)
	t := &translator{ctx: ctx, opts: &opts, rule: rule, names: newToolNames()}
	out, err := t.translate(req, upModel)
	t.report()
	if err != nil {
		return ChatRequest{}, err
	}
	return out, nil
}

// translator holds one translation's state.
type translator struct {
	ctx   context.Context
	opts  *Options
	rule  config.ModelRule
	names *toolNames
	tools toolSet
	// system collects the system prompt and every system message found
	// inside messages, in order.
	system []string
	// degraded lists what was dropped or turned into text, once per item.
	degraded []string
	// notes are sentences added to the system prompt about what this
	// backend lacks.
	notes []string
}

// degrade records that item (a bounded label such as "block:thinking")
// was dropped or degraded.
func (t *translator) degrade(item string) {
	if !slices.Contains(t.degraded, item) {
		t.degraded = append(t.degraded, item)
	}
}

// report logs and counts what the translation degraded.
func (t *translator) report() {
	if len(t.degraded) == 0 {
		return
	}
	if t.opts.Logger != nil {
		t.opts.Logger.Debug("openai upstream: request parts dropped or degraded", "items", t.degraded)
	}
	if t.opts.Degraded != nil {
		for _, item := range t.degraded {
			t.opts.Degraded(item)
		}
	}
}

func (t *translator) translate(req *wire.Request, upModel string) (ChatRequest, error) {
	f := req.Fields
	for _, name := range slices.Sorted(maps.Keys(f)) {
		switch {
		case translated[name], name == "thinking", name == "output_config":
		case known[name]:
			t.degrade("member:" + name)
		default:
			t.degrade("member:other")
		}
	}
	out := ChatRequest{Model: upModel, Stream: req.Stream, Messages: []ChatMessage{}}
	if req.Stream {
		out.StreamOptions = &StreamOptions{IncludeUsage: true}
	}
	if req.MaxTokens > 0 {
		n := req.MaxTokens
		if t.rule.MaxTokens > 0 && n > t.rule.MaxTokens {
			n = t.rule.MaxTokens
		}
		if t.opts.MaxCompletionTokens {
			out.MaxCompletionTokens = &n
		} else {
			out.MaxTokens = &n
		}
	}
	if err := field(f, "temperature", &out.Temperature); err != nil {
		return ChatRequest{}, err
	}
	if err := field(f, "top_p", &out.TopP); err != nil {
		return ChatRequest{}, err
	}
	if err := field(f, "stop_sequences", &out.Stop); err != nil {
		return ChatRequest{}, err
	}
	var meta struct {
		UserID string `json:"user_id"`
	}
	if err := field(f, "metadata", &meta); err != nil {
		return ChatRequest{}, err
	}
	out.User = shortenUser(meta.UserID, t.rule.MaxUserLength)
	if err := t.reasoning(&out, f); err != nil {
		return ChatRequest{}, err
	}

	if err := t.tools.declare(t, req.Tools); err != nil {
		return ChatRequest{}, err
	}
	if err := t.addSystem(req.System, "system"); err != nil {
		return ChatRequest{}, err
	}
	var msgs []ChatMessage
	for i, m := range req.Messages {
		got, err := t.message(i, m)
		if err != nil {
			return ChatRequest{}, err
		}
		msgs = append(msgs, got...)
	}
	msgs = t.pairToolCalls(msgs)
	system := strings.Join(append(t.system, t.notes...), "\n\n")
	if system != "" {
		out.Messages = append(out.Messages, ChatMessage{Role: "system", Content: system})
	}
	out.Messages = append(out.Messages, mergeUsers(msgs)...)

	out.Tools = t.tools.chatTools(t)
	if err := t.toolChoice(&out, f); err != nil {
		return ChatRequest{}, err
	}
	out.toolNames = t.names.reverse
	return out, nil
}

func field(f map[string]json.RawMessage, name string, v any) error {
	raw, ok := f[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%w: %s: %v", wire.ErrInvalidRequest, name, err)
	}
	return nil
}

func (t *translator) toolChoice(out *ChatRequest, f map[string]json.RawMessage) error {
	var tc struct {
		Type                   string `json:"type"`
		Name                   string `json:"name"`
		DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
	}
	if err := field(f, "tool_choice", &tc); err != nil {
		return err
	}
	switch tc.Type {
	case "":
	case "auto":
		out.ToolChoice = "auto"
	case "any":
		out.ToolChoice = "required"
	case "none":
		out.ToolChoice = "none"
	case "tool":
		if tc.Name == "" {
			return fmt.Errorf("%w: tool_choice: type tool needs a name", wire.ErrInvalidRequest)
		}
		if e := t.tools.byName[tc.Name]; e != nil && !e.sent {
			// Forcing a deferred tool that was never loaded: the model
			// cannot call what it is not given, so it is given.
			e.loaded, e.removed = true, false
			out.Tools = t.tools.chatTools(t)
		}
		n := NamedToolChoice{Type: "function"}
		n.Function.Name = t.names.wire(tc.Name)
		out.ToolChoice = n
	default:
		t.degrade("tool_choice:other")
	}
	if tc.DisableParallelToolUse && len(out.Tools) > 0 {
		f := false
		out.ParallelToolCalls = &f
	}
	if len(out.Tools) == 0 && out.ToolChoice != nil && out.ToolChoice != "none" {
		// A tool choice without tools is refused by OpenAI and vLLM.
		out.ToolChoice = nil
	}
	return nil
}

// addSystem adds a system prompt (the top-level member, or the content of
// a system message inside messages) to the system text: text blocks are
// joined with a blank line, tool_addition and tool_removal blocks change
// the tools, and other blocks are dropped.
func (t *translator) addSystem(raw json.RawMessage, where string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("%w: %s: %v", wire.ErrInvalidRequest, where, err)
		}
		if s != "" {
			t.system = append(t.system, s)
		}
		return nil
	}
	var blocks []inBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return fmt.Errorf("%w: %s: %v", wire.ErrInvalidRequest, where, err)
	}
	var texts []string
	for i, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_addition", "tool_removal":
			if err := t.tools.change(t, b); err != nil {
				return fmt.Errorf("%s[%d]: %w", where, i, err)
			}
		default:
			t.degrade("system:" + blockLabel(b.Type))
		}
	}
	if s := strings.Join(texts, "\n\n"); s != "" {
		t.system = append(t.system, s)
	}
	return nil
}

func decodeBlocks(m wire.MessageParam) ([]inBlock, error) {
	if m.ContentIsString {
		return []inBlock{{Type: "text", Text: m.Text}}, nil
	}
	out := make([]inBlock, len(m.Blocks))
	for i, b := range m.Blocks {
		if err := json.Unmarshal(b.Raw, &out[i]); err != nil {
			return nil, fmt.Errorf("%w: content[%d]: %v", wire.ErrInvalidRequest, i, err)
		}
	}
	return out, nil
}

// message translates messages[i]. A system message is merged into the
// leading system message, where every chat template accepts it.
func (t *translator) message(i int, m wire.MessageParam) ([]ChatMessage, error) {
	var msgs []ChatMessage
	var err error
	switch m.Role {
	case "system":
		content, _ := messageContent(m.Raw)
		err = t.addSystem(content, fmt.Sprintf("messages[%d].content", i))
		return nil, err
	case "user", "assistant":
	default:
		return nil, fmt.Errorf("%w: messages[%d]: role %q", wire.ErrInvalidRequest, i, m.Role)
	}
	blocks, err := decodeBlocks(m)
	if err == nil {
		if m.Role == "user" {
			msgs, err = t.user(blocks)
		} else {
			msgs, err = t.assistant(blocks)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("messages[%d]: %w", i, err)
	}
	return msgs, nil
}

// messageContent returns a message's raw content member.
func messageContent(raw json.RawMessage) (json.RawMessage, error) {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	err := json.Unmarshal(raw, &m)
	return m.Content, err
}

// user emits one role "tool" message per tool_result, first and in order
// (they must directly follow the assistant's tool_calls), then one user
// message with the remaining text, images and documents, if any.
func (t *translator) user(blocks []inBlock) ([]ChatMessage, error) {
	var out []ChatMessage
	var parts []ContentPart
	for i, b := range blocks {
		switch {
		case b.Type == "tool_result":
			text, media, err := t.toolResultContent(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			out = append(out, ChatMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text})
			parts = append(parts, media...)
		case b.Type == "thinking" || b.Type == "redacted_thinking":
			// Never valid in user turns; dropped like assistant thinking.
			t.degrade("block:" + b.Type)
		case isServerBlock(b.Type):
			t.degrade("block:server_tool")
		default:
			p, ok, err := t.userPart(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			if ok {
				parts = append(parts, p)
			}
		}
	}
	if len(parts) > 0 {
		out = append(out, ChatMessage{Role: "user", Content: userContent(parts, "\n\n")})
	}
	return out, nil
}

// userPart converts a text, image, document, search_result or
// tool_reference block. ok is false for a block that is dropped.
func (t *translator) userPart(b inBlock) (ContentPart, bool, error) {
	switch b.Type {
	case "text":
		return ContentPart{Type: "text", Text: b.Text}, true, nil
	case "image":
		return t.imagePart(b)
	case "document":
		p, err := t.documentPart(b)
		return p, err == nil, err
	case "search_result":
		p, err := t.searchResultPart(b)
		return p, err == nil, err
	case "tool_reference":
		// Claude Code's ToolSearch answers with references to the tools it
		// loaded; the referenced tools are sent from now on (toolSet).
		t.tools.load(b.ToolName)
		return ContentPart{Type: "text", Text: "Tool loaded: " + b.ToolName + ". Call it directly."}, true, nil
	}
	t.degrade("block:" + blockLabel(b.Type))
	return ContentPart{}, false, nil
}

// userContent is a plain string when every part is text (the form every
// compatible server accepts), else the parts array.
func userContent(parts []ContentPart, sep string) any {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.Type != "text" {
			return parts
		}
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, sep)
}

func decodeSource(b inBlock) (source, error) {
	var s source
	if len(b.Source) == 0 || bytes.Equal(bytes.TrimSpace(b.Source), []byte("null")) {
		return s, fmt.Errorf("%w: %s without source", wire.ErrInvalidRequest, b.Type)
	}
	if err := json.Unmarshal(b.Source, &s); err != nil {
		return s, fmt.Errorf("%w: %s source: %v", wire.ErrInvalidRequest, b.Type, err)
	}
	return s, nil
}

// imagePart turns a base64 or URL image into an image_url part; an image
// uploaded through Anthropic's Files API cannot be read here and becomes
// a note.
func (t *translator) imagePart(b inBlock) (ContentPart, bool, error) {
	s, err := decodeSource(b)
	if err != nil {
		return ContentPart{}, false, err
	}
	var u string
	switch s.Type {
	case "base64":
		u = "data:" + s.MediaType + ";base64," + s.Data
	case "url":
		u = s.URL
	default:
		t.degrade("image:" + sourceLabel(s.Type))
		return ContentPart{Type: "text", Text: "[An image was attached here that this backend cannot receive.]"}, true, nil
	}
	return ContentPart{Type: "image_url", ImageURL: &ImageURL{URL: u}}, true, nil
}

// documentPart turns a document into text headed by its title: plain text
// and content documents as they are, a base64 PDF through webgate's own
// extractor (Options.PDFText), and a document this backend cannot read
// (a URL or a Files API upload, a PDF without a text layer) into a note
// saying so, so the model knows something was attached.
func (t *translator) documentPart(b inBlock) (ContentPart, error) {
	s, err := decodeSource(b)
	if err != nil {
		return ContentPart{}, err
	}
	var text string
	switch s.Type {
	case "text":
		text = s.Data
	case "content":
		var inner []inBlock
		if err := json.Unmarshal(s.Content, &inner); err != nil {
			return ContentPart{}, fmt.Errorf("%w: document content: %v", wire.ErrInvalidRequest, err)
		}
		texts := make([]string, 0, len(inner))
		for _, ib := range inner {
			if ib.Type != "text" {
				t.degrade("document:content_" + blockLabel(ib.Type))
				continue
			}
			texts = append(texts, ib.Text)
		}
		text = strings.Join(texts, "\n\n")
	case "base64":
		if text, err = t.pdfText(s); err != nil {
			t.degrade("document:pdf_unreadable")
			text = fmt.Sprintf("[A PDF document was attached here, but its text could not be read: %v]", err)
		}
	case "url":
		t.degrade("document:url")
		text = "[A document was attached here by URL, which this backend cannot open: " + s.URL + "]"
	default:
		t.degrade("document:" + sourceLabel(s.Type))
		text = "[A document was attached here that this backend cannot receive.]"
	}
	if b.Title != "" {
		text = b.Title + "\n\n" + text
	}
	return ContentPart{Type: "text", Text: text}, nil
}

// pdfText reads a base64 PDF's text with Options.PDFText.
func (t *translator) pdfText(s source) (string, error) {
	if s.MediaType != "application/pdf" {
		return "", fmt.Errorf("media type %q is not a PDF", s.MediaType)
	}
	if t.opts.PDFText == nil {
		return "", fmt.Errorf("no PDF reader is configured")
	}
	return t.opts.PDFText(t.ctx, s.Data)
}

// searchResultPart turns a search_result block into text: title, source
// URL, then the content.
func (t *translator) searchResultPart(b inBlock) (ContentPart, error) {
	var src string
	if len(b.Source) > 0 {
		if err := json.Unmarshal(b.Source, &src); err != nil {
			return ContentPart{}, fmt.Errorf("%w: search_result source: %v", wire.ErrInvalidRequest, err)
		}
	}
	var inner []inBlock
	if err := json.Unmarshal(b.Content, &inner); err != nil {
		return ContentPart{}, fmt.Errorf("%w: search_result content: %v", wire.ErrInvalidRequest, err)
	}
	texts := make([]string, 0, len(inner))
	for _, ib := range inner {
		if ib.Type != "text" {
			t.degrade("search_result:" + blockLabel(ib.Type))
			continue
		}
		texts = append(texts, ib.Text)
	}
	head := strings.TrimSpace(b.Title + "\n" + src)
	return ContentPart{Type: "text", Text: strings.TrimSpace(head + "\n\n" + strings.Join(texts, "\n\n"))}, nil
}

// toolResultContent flattens a tool_result's content to text; images in
// it are returned separately, to travel in the user message that follows
// (a tool message holds text only). A tool_reference loads the tool it
// names (see userPart).
func (t *translator) toolResultContent(b inBlock) (string, []ContentPart, error) {
	var text string
	var media []ContentPart
	c := bytes.TrimSpace(b.Content)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
	case c[0] == '"':
		if err := json.Unmarshal(c, &text); err != nil {
			return "", nil, fmt.Errorf("%w: tool_result content: %v", wire.ErrInvalidRequest, err)
		}
	default:
		var inner []inBlock
		if err := json.Unmarshal(c, &inner); err != nil {
			return "", nil, fmt.Errorf("%w: tool_result content: %v", wire.ErrInvalidRequest, err)
		}
		var texts []string
		for j, ib := range inner {
			p, ok, err := t.userPart(ib)
			if err != nil {
				return "", nil, fmt.Errorf("tool_result content[%d]: %w", j, err)
			}
			switch {
			case !ok:
			case p.Type == "text":
				texts = append(texts, p.Text)
			default:
				media = append(media, p)
			}
		}
		text = strings.Join(texts, "\n\n")
	}
	if b.IsError {
		text = "Error: " + text
	}
	return text, media, nil
}

// assistant joins text blocks (directly: they are one reply split for
// citations) and turns tool_use blocks into tool_calls. Thinking is
// dropped, except that reasoning webgate got from this kind of upstream
// (its signature says so) is replayed on a message that calls tools, in
// the field it came in: DeepSeek's thinking mode and Kimi answer 400 when
// a tool-calling turn's reasoning is missing, and other servers ignore
// it. Anthropic's own signed thinking cannot be replayed anywhere else.
func (t *translator) assistant(blocks []inBlock) ([]ChatMessage, error) {
	var text, reasoning strings.Builder
	var calls []ToolCall
	field := ""
	for i, b := range blocks {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			if b.ID == "" || b.Name == "" {
				return nil, fmt.Errorf("%w: content[%d]: tool_use needs an id and a name", wire.ErrInvalidRequest, i)
			}
			args, err := compactJSON(b.Input)
			if err != nil {
				return nil, fmt.Errorf("%w: content[%d]: tool_use input: %v", wire.ErrInvalidRequest, i, err)
			}
			calls = append(calls, ToolCall{ID: b.ID, Type: "function", Function: FunctionCall{Name: t.names.wire(b.Name), Arguments: Arguments(args)}})
		case "thinking":
			if f := replayField(b.Signature); f != "" && (field == "" || field == f) {
				field = f
				reasoning.WriteString(b.Thinking)
			} else {
				t.degrade("block:thinking")
			}
		case "redacted_thinking":
			t.degrade("block:redacted_thinking")
		default:
			if isServerBlock(b.Type) {
				t.degrade("block:server_tool")
			} else {
				t.degrade("block:" + blockLabel(b.Type))
			}
		}
	}
	if text.Len() == 0 && len(calls) == 0 {
		return nil, nil
	}
	m := ChatMessage{Role: "assistant", ToolCalls: calls}
	if text.Len() > 0 {
		m.Content = text.String()
	}
	if len(calls) > 0 && field != "" {
		r := reasoning.String()
		if field == fieldReasoning {
			m.Reasoning = &r
		} else {
			m.ReasoningContent = &r
		}
	}
	return []ChatMessage{m}, nil
}

// compactJSON is a tool_use input as compact JSON text; Anthropic takes
// only an object (or nothing) there.
func compactJSON(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "{}", nil
	}
	if raw[0] != '{' {
		return "", fmt.Errorf("input must be an object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", err
	}
	return b.String(), nil
}

// isServerBlock reports the block types of Anthropic's server tools. The
// emulation loop rewrites webgate's own into tool_use and tool_result
// before the translation; any other (from a conversation begun on
// Anthropic's API) has no Chat Completions form.
func isServerBlock(typ string) bool {
	switch typ {
	case "server_tool_use", "mcp_tool_use", "mcp_tool_result", "container_upload":
		return true
	}
	return typ != "tool_result" && strings.HasSuffix(typ, "_tool_result")
}

// knownBlocks are the block types a degrade label may name; any other
// is "other", so a client cannot grow the metric's label set.
var knownBlocks = map[string]bool{
	"text": true, "image": true, "document": true, "search_result": true,
	"thinking": true, "redacted_thinking": true, "tool_use": true, "tool_result": true,
	"tool_reference": true, "tool_addition": true, "tool_removal": true,
	"container_upload": true, "compaction": true,
}

func blockLabel(typ string) string {
	if knownBlocks[typ] {
		return typ
	}
	return "other"
}

func sourceLabel(typ string) string {
	switch typ {
	case "file", "url", "base64", "text", "content":
		return typ
	}
	return "other"
}
