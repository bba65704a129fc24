package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/webgate/webgate/anthropic"
)

// ErrUnsupported wraps every request feature that has no Chat Completions
// equivalent; the proxy answers it with invalid_request_error.
var ErrUnsupported = errors.New("not supported by chat completions upstreams")

// ErrServerBlock marks a server tool block (server_tool_use,
// web_search_tool_result, web_fetch_tool_result, mcp_tool_use, ...) in the
// conversation. The emulation loop rewrites webgate's own into plain
// tool_use and tool_result blocks before the translation; one that still
// arrives has no Chat Completions form and is refused, never dropped.
var ErrServerBlock = errors.New("server tool block cannot be sent to a chat completions upstream")

// ServerBlockError is the error for a server tool block; it matches
// ErrServerBlock and ErrUnsupported with errors.Is.
type ServerBlockError struct {
	// Message and Block locate the block: messages[Message].content[Block].
	Message, Block int
	// Type is the block's type.
	Type string
}

func (e *ServerBlockError) Error() string {
	return fmt.Sprintf("messages[%d].content[%d]: %q block: %v (it must be rewritten into tool_use/tool_result first)", e.Message, e.Block, e.Type, ErrServerBlock)
}

// Is makes errors.Is match ErrServerBlock and ErrUnsupported.
func (e *ServerBlockError) Is(target error) bool {
	return target == ErrServerBlock || target == ErrUnsupported
}

// isServerBlock reports the block types of Anthropic's server tools.
func isServerBlock(typ string) bool {
	switch typ {
	case "server_tool_use", "mcp_tool_use", "mcp_tool_result", "container_upload":
		return true
	}
	return typ != "tool_result" && strings.HasSuffix(typ, "_tool_result")
}

// translated lists the top-level request members ToChat translates;
// known lists those it drops knowingly, having no Chat Completions
// equivalent every compatible server accepts. Any other member is unknown
// and dropped too: neither kind is ever forwarded blindly.
var (
	translated = map[string]bool{
		"model": true, "messages": true, "system": true, "max_tokens": true,
		"stream": true, "temperature": true, "top_p": true, "stop_sequences": true,
		"metadata": true, "tools": true, "tool_choice": true,
	}
	known = map[string]bool{
		"top_k": true, "thinking": true, "service_tier": true, "container": true,
		"mcp_servers": true, "context_management": true, "output_config": true,
		"output_format": true,
	}
)

// inBlock is an input content block decoded in full. Source is an object
// for images and documents but a URL string for search results.
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
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
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
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Strict      *bool           `json:"strict"`
}

// ToChat translates a Messages request into a Chat Completions request.
// See the package documentation for the mapping.
func ToChat(req *anthropic.Request, opts Options) (ChatRequest, error) {
	logDropped(opts.Logger, req.Fields)
	out := ChatRequest{Model: opts.Models.Map(req.Model), Stream: req.Stream, Messages: []ChatMessage{}}
	if req.Stream {
		out.StreamOptions = &StreamOptions{IncludeUsage: true}
	}
	if req.MaxTokens > 0 {
		n := req.MaxTokens
		if opts.MaxCompletionTokens {
			out.MaxCompletionTokens = &n
		} else {
			out.MaxTokens = &n
		}
	}
	f := req.Fields
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
	out.User = meta.UserID

	system, err := systemText(req.System)
	if err != nil {
		return ChatRequest{}, err
	}
	if system != "" {
		out.Messages = append(out.Messages, ChatMessage{Role: "system", Content: system})
	}
	for i, m := range req.Messages {
		msgs, err := convertMessage(i, m)
		if err != nil {
			return ChatRequest{}, err
		}
		out.Messages = append(out.Messages, msgs...)
	}

	for i, t := range req.Tools {
		var d toolDef
		if err := json.Unmarshal(t.Raw, &d); err != nil {
			return ChatRequest{}, fmt.Errorf("%w: tools[%d]: %v", anthropic.ErrInvalidRequest, i, err)
		}
		if d.Type != "" && d.Type != "custom" {
			return ChatRequest{}, fmt.Errorf("tools[%d]: server tool %q: %w", i, d.Type, ErrUnsupported)
		}
		if d.Name == "" {
			return ChatRequest{}, fmt.Errorf("%w: tools[%d]: name is required", anthropic.ErrInvalidRequest, i)
		}
		schema := bytes.TrimSpace(d.InputSchema)
		if len(schema) == 0 || bytes.Equal(schema, []byte("null")) {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, ChatTool{Type: "function", Function: ChatFunction{Name: d.Name, Description: d.Description, Parameters: schema, Strict: d.Strict}})
	}
	if err := toolChoice(&out, f); err != nil {
		return ChatRequest{}, err
	}
	return out, nil
}

// logDropped records, at debug level, the members ToChat leaves out.
func logDropped(log *slog.Logger, fields map[string]json.RawMessage) {
	if log == nil || !log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	var noEquivalent, unknown []string
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		switch {
		case translated[name]:
		case known[name]:
			noEquivalent = append(noEquivalent, name)
		default:
			unknown = append(unknown, name)
		}
	}
	if len(noEquivalent)+len(unknown) > 0 {
		log.Debug("openai upstream: request members dropped", "no_equivalent", noEquivalent, "unknown", unknown)
	}
}

func field(f map[string]json.RawMessage, name string, v any) error {
	raw, ok := f[name]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%w: %s: %v", anthropic.ErrInvalidRequest, name, err)
	}
	return nil
}

func toolChoice(out *ChatRequest, f map[string]json.RawMessage) error {
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
			return fmt.Errorf("%w: tool_choice: type tool needs a name", anthropic.ErrInvalidRequest)
		}
		n := NamedToolChoice{Type: "function"}
		n.Function.Name = tc.Name
		out.ToolChoice = n
	default:
		return fmt.Errorf("tool_choice type %q: %w", tc.Type, ErrUnsupported)
	}
	if tc.DisableParallelToolUse && len(out.Tools) > 0 {
		f := false
		out.ParallelToolCalls = &f
	}
	return nil
}

// systemText joins a string or text-block system prompt.
func systemText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("%w: system: %v", anthropic.ErrInvalidRequest, err)
		}
		return s, nil
	}
	var blocks []inBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", fmt.Errorf("%w: system: %v", anthropic.ErrInvalidRequest, err)
	}
	parts := make([]string, 0, len(blocks))
	for i, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Errorf("system[%d]: block type %q: %w", i, b.Type, ErrUnsupported)
		}
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n"), nil
}

func decodeBlocks(m anthropic.MessageParam) ([]inBlock, error) {
	if m.ContentIsString {
		return []inBlock{{Type: "text", Text: m.Text}}, nil
	}
	out := make([]inBlock, len(m.Blocks))
	for i, b := range m.Blocks {
		if err := json.Unmarshal(b.Raw, &out[i]); err != nil {
			return nil, fmt.Errorf("%w: content[%d]: %v", anthropic.ErrInvalidRequest, i, err)
		}
	}
	return out, nil
}

func convertMessage(i int, m anthropic.MessageParam) ([]ChatMessage, error) {
	blocks, err := decodeBlocks(m)
	if err == nil {
		for j, b := range blocks {
			if isServerBlock(b.Type) {
				return nil, &ServerBlockError{Message: i, Block: j, Type: b.Type}
			}
		}
	}
	var msgs []ChatMessage
	switch {
	case err != nil:
	case m.Role == "user":
		msgs, err = convertUser(blocks)
	case m.Role == "assistant":
		msgs, err = convertAssistant(blocks)
	default:
		err = fmt.Errorf("%w: role %q", anthropic.ErrInvalidRequest, m.Role)
	}
	if err != nil {
		return nil, fmt.Errorf("messages[%d]: %w", i, err)
	}
	return msgs, nil
}

// convertUser emits one role "tool" message per tool_result, first and in
// order (they must directly follow the assistant's tool_calls), then one
// user message with the remaining text, images and files, if any.
func convertUser(blocks []inBlock) ([]ChatMessage, error) {
	var out []ChatMessage
	var parts []ContentPart
	for i, b := range blocks {
		switch b.Type {
		case "tool_result":
			text, media, err := toolResultContent(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			out = append(out, ChatMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text})
			parts = append(parts, media...)
		case "thinking", "redacted_thinking":
			// Never valid in user turns; drop like assistant thinking.
		default:
			p, err := userPart(b)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", i, err)
			}
			parts = append(parts, p)
		}
	}
	if len(parts) > 0 {
		out = append(out, ChatMessage{Role: "user", Content: userContent(parts, "\n\n")})
	}
	return out, nil
}

// userPart converts a text, image, document or search_result block.
func userPart(b inBlock) (ContentPart, error) {
	switch b.Type {
	case "text":
		return ContentPart{Type: "text", Text: b.Text}, nil
	case "image":
		return imagePart(b)
	case "document":
		return documentPart(b)
	case "search_result":
		return searchResultPart(b)
	}
	return ContentPart{}, fmt.Errorf("block type %q: %w", b.Type, ErrUnsupported)
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
		return s, fmt.Errorf("%w: %s without source", anthropic.ErrInvalidRequest, b.Type)
	}
	if err := json.Unmarshal(b.Source, &s); err != nil {
		return s, fmt.Errorf("%w: %s source: %v", anthropic.ErrInvalidRequest, b.Type, err)
	}
	return s, nil
}

func imagePart(b inBlock) (ContentPart, error) {
	s, err := decodeSource(b)
	if err != nil {
		return ContentPart{}, err
	}
	var u string
	switch s.Type {
	case "base64":
		u = "data:" + s.MediaType + ";base64," + s.Data
	case "url":
		u = s.URL
	default:
		return ContentPart{}, fmt.Errorf("image source %q: %w", s.Type, ErrUnsupported)
	}
	return ContentPart{Type: "image_url", ImageURL: &ImageURL{URL: u}}, nil
}

// documentPart turns a plain-text or content document into text (headed
// by its title) and a base64 PDF into a file part, OpenAI's form; URL and
// file-id documents have no Chat Completions form.
func documentPart(b inBlock) (ContentPart, error) {
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
			return ContentPart{}, fmt.Errorf("%w: document content: %v", anthropic.ErrInvalidRequest, err)
		}
		if text, err = joinText(inner, "document content"); err != nil {
			return ContentPart{}, err
		}
	case "base64":
		if s.MediaType != "application/pdf" {
			return ContentPart{}, fmt.Errorf("document media type %q: %w", s.MediaType, ErrUnsupported)
		}
		name := b.Title
		if name == "" {
			name = "document.pdf"
		}
		return ContentPart{Type: "file", File: &FilePart{Filename: name, FileData: "data:application/pdf;base64," + s.Data}}, nil
	default:
		return ContentPart{}, fmt.Errorf("document source %q: %w", s.Type, ErrUnsupported)
	}
	if b.Title != "" {
		text = b.Title + "\n\n" + text
	}
	return ContentPart{Type: "text", Text: text}, nil
}

// searchResultPart turns a search_result block into text: title, source
// URL, then the content.
func searchResultPart(b inBlock) (ContentPart, error) {
	var src string
	if len(b.Source) > 0 {
		if err := json.Unmarshal(b.Source, &src); err != nil {
			return ContentPart{}, fmt.Errorf("%w: search_result source: %v", anthropic.ErrInvalidRequest, err)
		}
	}
	var inner []inBlock
	if err := json.Unmarshal(b.Content, &inner); err != nil {
		return ContentPart{}, fmt.Errorf("%w: search_result content: %v", anthropic.ErrInvalidRequest, err)
	}
	body, err := joinText(inner, "search_result content")
	if err != nil {
		return ContentPart{}, err
	}
	head := strings.TrimSpace(b.Title + "\n" + src)
	return ContentPart{Type: "text", Text: strings.TrimSpace(head + "\n\n" + body)}, nil
}

// joinText joins text blocks with a blank line; any other block is an
// error naming where.
func joinText(blocks []inBlock, where string) (string, error) {
	texts := make([]string, 0, len(blocks))
	for j, ib := range blocks {
		if ib.Type != "text" {
			return "", fmt.Errorf("%s[%d]: block type %q: %w", where, j, ib.Type, ErrUnsupported)
		}
		texts = append(texts, ib.Text)
	}
	return strings.Join(texts, "\n\n"), nil
}

// toolResultContent flattens a tool_result's content to text; images and
// files in it are returned separately, to travel in the user message that
// follows (a tool message holds text only).
func toolResultContent(b inBlock) (string, []ContentPart, error) {
	var text string
	var media []ContentPart
	c := bytes.TrimSpace(b.Content)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
	case c[0] == '"':
		if err := json.Unmarshal(c, &text); err != nil {
			return "", nil, fmt.Errorf("%w: tool_result content: %v", anthropic.ErrInvalidRequest, err)
		}
	default:
		var inner []inBlock
		if err := json.Unmarshal(c, &inner); err != nil {
			return "", nil, fmt.Errorf("%w: tool_result content: %v", anthropic.ErrInvalidRequest, err)
		}
		var texts []string
		for j, ib := range inner {
			p, err := userPart(ib)
			if err != nil {
				return "", nil, fmt.Errorf("tool_result content[%d]: %w", j, err)
			}
			if p.Type == "text" {
				texts = append(texts, p.Text)
			} else {
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

// convertAssistant joins text blocks (directly: they are one reply split
// for citations) and turns tool_use blocks into tool_calls. Thinking is
// dropped, except that reasoning webgate got from this kind of upstream
// (its signature says so) is replayed on a message that calls tools, in
// the field it came in: DeepSeek's thinking mode and Kimi answer 400 when
// a tool-calling turn's reasoning is missing, and other servers ignore
// it. Anthropic's own signed thinking cannot be replayed anywhere else.
func convertAssistant(blocks []inBlock) ([]ChatMessage, error) {
	var text, reasoning strings.Builder
	var calls []ToolCall
	field := ""
	for i, b := range blocks {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args, err := compactJSON(b.Input)
			if err != nil {
				return nil, fmt.Errorf("%w: content[%d]: tool_use input: %v", anthropic.ErrInvalidRequest, i, err)
			}
			calls = append(calls, ToolCall{ID: b.ID, Type: "function", Function: FunctionCall{Name: b.Name, Arguments: Arguments(args)}})
		case "thinking":
			if f := replayField(b.Signature); f != "" && (field == "" || field == f) {
				field = f
				reasoning.WriteString(b.Thinking)
			}
		case "redacted_thinking":
		default:
			return nil, fmt.Errorf("content[%d]: block type %q: %w", i, b.Type, ErrUnsupported)
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

func compactJSON(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "{}", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", err
	}
	return b.String(), nil
}
