package openai

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/config"
)

// ChatRequest is a Chat Completions request body
// (https://platform.openai.com/docs/api-reference/chat/create).
type ChatRequest struct {
	Model               string         `json:"model"`
	Messages            []ChatMessage  `json:"messages"`
	MaxTokens           *int           `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int           `json:"max_completion_tokens,omitempty"`
	Temperature         *float64       `json:"temperature,omitempty"`
	TopP                *float64       `json:"top_p,omitempty"`
	Stop                []string       `json:"stop,omitempty"`
	Stream              bool           `json:"stream,omitempty"`
	StreamOptions       *StreamOptions `json:"stream_options,omitempty"`
	Tools               []ChatTool     `json:"tools,omitempty"`
	// ToolChoice is "auto", "required", "none" or a named function.
	ToolChoice        any    `json:"tool_choice,omitempty"`
	ParallelToolCalls *bool  `json:"parallel_tool_calls,omitempty"`
	User              string `json:"user,omitempty"`
	// ReasoningEffort, Reasoning, Thinking and ChatTemplateKwargs carry
	// the request's thinking in the style configured for the model (see
	// config.ModelRule.Reasoning); at most one is set.
	ReasoningEffort    string           `json:"reasoning_effort,omitempty"`
	Reasoning          *ReasoningConfig `json:"reasoning,omitempty"`
	Thinking           *ThinkingSwitch  `json:"thinking,omitempty"`
	ChatTemplateKwargs map[string]any   `json:"chat_template_kwargs,omitempty"`

	// toolNames maps the function names sent back to the client's tool
	// names, for those that had to be changed (see toolNames).
	toolNames map[string]string
}

// ReasoningConfig is OpenRouter's reasoning object.
type ReasoningConfig struct {
	Effort    string `json:"effort,omitempty"`
	MaxTokens int    `json:"max_tokens,omitempty"`
	Enabled   *bool  `json:"enabled,omitempty"`
}

// ThinkingSwitch is the thinking switch of DeepSeek, GLM and Kimi.
type ThinkingSwitch struct {
	Type string `json:"type"`
}

// StreamOptions asks for a final usage chunk (stream_options.include_usage:
// a last chunk with empty choices carries the usage, https://platform.openai.com/docs/api-reference/chat-streaming).
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ChatMessage is one request message. Content is a string, a []ContentPart
// or nil (an assistant message that only calls tools).
type ChatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
	// ReasoningContent and Reasoning replay an earlier reply's reasoning on
	// an assistant message that called tools: DeepSeek's thinking mode and
	// Kimi answer 400 without it. Only the field the upstream itself used
	// is set (see [ReasoningSignature]).
	ReasoningContent *string    `json:"reasoning_content,omitempty"`
	Reasoning        *string    `json:"reasoning,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
}

// ContentPart is a text, image_url or file part of a user message.
type ContentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
	File     *FilePart `json:"file,omitempty"`
}

// ImageURL is an image reference: an http(s) URL or a data URL.
type ImageURL struct {
	URL string `json:"url"`
}

// FilePart is an inline file (a PDF document) as a data URL.
type FilePart struct {
	Filename string `json:"filename,omitempty"`
	FileData string `json:"file_data"`
}

// ToolCall is a function call made by the assistant.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the name and JSON-encoded arguments of a call.
type FunctionCall struct {
	Name      string    `json:"name"`
	Arguments Arguments `json:"arguments"`
}

// Arguments is a call's JSON-encoded arguments. The wire form is a string;
// a few servers send the object itself, which decodes to its compact text.
type Arguments string

// UnmarshalJSON accepts a string, an object or array (kept as compact
// JSON text) or null.
func (a *Arguments) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		*a = ""
	case b[0] == '"':
		s, err := unquote(b)
		if err != nil {
			return err
		}
		*a = Arguments(s)
	default:
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return err
		}
		*a = Arguments(buf.String())
	}
	return nil
}

// unquote decodes a JSON string. Streamed fragments are short and rarely
// escaped, so those are sliced out directly rather than decoded again by
// encoding/json (which already validated them), the main cost of a chunk.
func unquote(b []byte) (string, error) {
	if len(b) >= 2 && b[len(b)-1] == '"' {
		inner := b[1 : len(b)-1]
		plain := utf8.Valid(inner)
		for _, c := range inner {
			if c == '\\' || c == '"' || c < 0x20 {
				plain = false
				break
			}
		}
		if plain {
			return string(inner), nil
		}
	}
	var s string
	err := json.Unmarshal(b, &s)
	return s, err
}

// ChatTool is a function tool definition.
type ChatTool struct {
	Type     string       `json:"type"`
	Function ChatFunction `json:"function"`
}

// ChatFunction describes a callable function.
type ChatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// NamedToolChoice forces one function.
type NamedToolChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// ChatResponse is a non-streaming Chat Completions response
// (https://platform.openai.com/docs/api-reference/chat/object).
type ChatResponse struct {
	ID      string       `json:"id"`
	Model   string       `json:"model"`
	Choices []ChatChoice `json:"choices"`
	Usage   *ChatUsage   `json:"usage"`
	Error   *ChatError   `json:"error"`
	// Object and Message carry vLLM's bare error shape
	// ({"object":"error","message":...}).
	Object  string `json:"object"`
	Message string `json:"message"`
}

// ChatChoice is one completion choice.
type ChatChoice struct {
	Index        int             `json:"index"`
	Message      ResponseMessage `json:"message"`
	FinishReason string          `json:"finish_reason"`
	// StopReason (vLLM) and MatchedStop (SGLang) name the stop string that
	// ended the reply, or the stop token's id.
	StopReason  json.RawMessage `json:"stop_reason"`
	MatchedStop json.RawMessage `json:"matched_stop"`
	// Usage is where Moonshot (Kimi) reports usage.
	Usage *ChatUsage `json:"usage"`
}

// ResponseMessage is the assistant message of a response.
type ResponseMessage struct {
	Role    string      `json:"role"`
	Content FlexContent `json:"content"`
	// ReasoningContent is DeepSeek's (and Kimi's, GLM's, older vLLM's)
	// reasoning field; Reasoning is OpenRouter's (and Ollama's, newer
	// vLLM's).
	ReasoningContent string     `json:"reasoning_content"`
	Reasoning        string     `json:"reasoning"`
	Refusal          string     `json:"refusal"`
	ToolCalls        []ToolCall `json:"tool_calls"`
}

// FlexContent is message or delta content. The wire form is a string or
// null; Mistral's reasoning models send an array of parts instead, text
// parts and "thinking" parts whose thinking is a string or text parts.
type FlexContent struct {
	Text     string
	Thinking string
}

// UnmarshalJSON accepts null, a string or an array of parts; unknown part
// types are ignored.
func (c *FlexContent) UnmarshalJSON(b []byte) error {
	*c = FlexContent{}
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '"':
		var err error
		c.Text, err = unquote(b)
		return err
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking json.RawMessage `json:"thinking"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	var text, thinking strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text":
			text.WriteString(p.Text)
		case "thinking":
			var inner FlexContent
			if err := inner.UnmarshalJSON(p.Thinking); err != nil {
				return err
			}
			thinking.WriteString(inner.Text)
		}
	}
	c.Text, c.Thinking = text.String(), thinking.String()
	return nil
}

// ChatUsage is token accounting. DeepSeek reports cache hits in
// PromptCacheHitTokens, OpenAI and OpenRouter in
// PromptTokensDetails.CachedTokens (OpenRouter adds cache writes).
type ChatUsage struct {
	PromptTokens         int `json:"prompt_tokens"`
	CompletionTokens     int `json:"completion_tokens"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	PromptTokensDetails  *struct {
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
}

// ChatError is an error object, in an error response or a stream chunk.
// Code is a string or a number depending on the server.
type ChatError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// UnmarshalJSON accepts the object form and the bare string some servers
// send ({"error": "model not found"}).
func (e *ChatError) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*e = ChatError{}
		return json.Unmarshal(b, &e.Message)
	}
	type plain ChatError
	return json.Unmarshal(b, (*plain)(e))
}

// Chunk is one streamed chat.completion.chunk (or an error object).
type Chunk struct {
	ID      string        `json:"id"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
	Usage   *ChatUsage    `json:"usage"`
	Error   *ChatError    `json:"error"`
	// Object, Message, Type and Code carry vLLM's bare error shape.
	Object  string          `json:"object"`
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	// XGroq is where Groq reports usage in the final chunk.
	XGroq *struct {
		Usage *ChatUsage `json:"usage"`
	} `json:"x_groq"`
}

// err returns the chunk's error, in whichever shape it came.
func (c *Chunk) err() *ChatError {
	if c.Error != nil {
		return c.Error
	}
	if c.Object == "error" {
		return &ChatError{Message: c.Message, Type: c.Type, Code: c.Code}
	}
	return nil
}

// ChunkChoice is one choice of a chunk.
type ChunkChoice struct {
	Index        int        `json:"index"`
	Delta        ChunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
	// StopReason (vLLM) and MatchedStop (SGLang) name the stop string that
	// ended the reply.
	StopReason  json.RawMessage `json:"stop_reason"`
	MatchedStop json.RawMessage `json:"matched_stop"`
	// Usage is where Moonshot (Kimi) reports usage.
	Usage *ChatUsage `json:"usage"`
	// Error is OpenRouter's per-choice error, sent with finish_reason
	// "error".
	Error *ChatError `json:"error"`
}

// ChunkDelta is the incremental part of a chunk.
type ChunkDelta struct {
	Role             string          `json:"role"`
	Content          FlexContent     `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	Refusal          string          `json:"refusal"`
	ToolCalls        []ToolCallDelta `json:"tool_calls"`
}

// ToolCallDelta is a fragment of a streamed tool call. Index is nil for
// providers that send each call whole without one.
type ToolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string    `json:"name"`
		Arguments Arguments `json:"arguments"`
	} `json:"function"`
}

// DecodeChunk decodes one SSE data payload (not "[DONE]").
func DecodeChunk(data []byte) (Chunk, error) {
	var c Chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return Chunk{}, fmt.Errorf("openai: bad stream chunk: %w", err)
	}
	return c, nil
}

// ToolUseBlock is Anthropic's tool_use content block (the anthropic
// package has no client-tool block, so it is defined here).
type ToolUseBlock struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// BlockType implements anthropic.ContentBlock.
func (ToolUseBlock) BlockType() string { return "tool_use" }

// MarshalJSON adds the type member first.
func (b ToolUseBlock) MarshalJSON() ([]byte, error) {
	in := b.Input
	if len(in) == 0 {
		in = json.RawMessage(`{}`)
	}
	return json.Marshal(struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}{"tool_use", b.ID, b.Name, in})
}

// ThinkingBlock is Anthropic's thinking content block. Upstream reasoning
// carries no Anthropic signature; Signature holds webgate's marker instead
// (see [ReasoningSignature]).
type ThinkingBlock struct {
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

// BlockType implements anthropic.ContentBlock.
func (ThinkingBlock) BlockType() string { return "thinking" }

// MarshalJSON adds the type member first.
func (b ThinkingBlock) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type      string `json:"type"`
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
	}{"thinking", b.Thinking, b.Signature})
}

// SignaturePrefix starts the signature of every thinking block made from
// a Chat Completions upstream's reasoning. What follows names the field
// the reasoning came in ("reasoning_content" or "reasoning"), so that when
// the block comes back in the conversation it is replayed in that same
// field; an empty name (reasoning from <think> tags or Mistral's thinking
// parts) is never replayed. The value is opaque to clients, which send it
// back unchanged, and it is not an Anthropic signature: a real Anthropic
// upstream would reject it, as it rejects any thinking it did not sign.
const SignaturePrefix = "webgate-openai:"

// ReasoningSignature returns the signature for reasoning that arrived in
// field ("" when it is not to be replayed).
func ReasoningSignature(field string) string { return SignaturePrefix + field }

// replayField returns the field a thinking block's reasoning is replayed
// in, or "" for a block that is not ours or not to be replayed.
func replayField(signature string) string {
	f, ok := strings.CutPrefix(signature, SignaturePrefix)
	if !ok || (f != fieldReasoningContent && f != fieldReasoning) {
		return ""
	}
	return f
}

const (
	fieldReasoningContent = "reasoning_content"
	fieldReasoning        = "reasoning"
)

// ModelRule maps client model names to an upstream model and its
// settings; see config.ModelRule.
type ModelRule = config.ModelRule

// ModelMap is an ordered list of rules; the first match wins and an
// unmatched name passes through unchanged, with default settings.
// Patterns use path.Match syntax except that * and ? also match "/", so
// "*" catches every name, "anthropic/claude-sonnet-4" included.
type ModelMap []ModelRule

// Validate reports a malformed pattern.
func (m ModelMap) Validate() error {
	for i, r := range m {
		if _, err := path.Match(r.Pattern, ""); err != nil || r.Pattern == "" {
			return fmt.Errorf("model map[%d]: pattern %q is not a valid glob", i, r.Pattern)
		}
	}
	return nil
}

// Map returns the upstream model for name.
func (m ModelMap) Map(name string) string {
	up, _ := m.Lookup(name)
	return up
}

// Lookup returns the upstream model for name and the settings of the rule
// that matched, with defaults filled in.
func (m ModelMap) Lookup(name string) (string, ModelRule) {
	// path.Match stops * and ? at "/"; model names are not paths, so
	// slashes are swapped for a byte no model name or pattern contains.
	n := strings.ReplaceAll(name, "/", "\x00")
	for _, r := range m {
		if ok, err := path.Match(strings.ReplaceAll(r.Pattern, "/", "\x00"), n); err == nil && ok {
			up := r.Model
			if up == "" {
				up = name
			}
			return up, r.WithDefaults()
		}
	}
	return name, ModelRule{}.WithDefaults()
}

// Options configure the translation.
type Options struct {
	// Models maps client model names to upstream ones (requests only).
	Models ModelMap
	// MaxCompletionTokens sends max_tokens as max_completion_tokens, which
	// OpenAI's reasoning models require; most compatible servers want
	// max_tokens (the default).
	MaxCompletionTokens bool
	// Model, when set, is the model name reported back to the client
	// (the name the client asked for); otherwise the upstream's own model
	// name is reported.
	Model string
	// StopSequences are the request's stop_sequences. When the upstream
	// names the one that matched (vLLM's stop_reason, SGLang's
	// matched_stop), the reply reports stop_reason "stop_sequence" with it,
	// as Anthropic does; otherwise a stop is end_turn.
	StopSequences []string
	// KeepThinkTags leaves a reply that opens with <think>...</think> as
	// text. By default that leading section becomes a thinking block, the
	// form GLM-Z1, MiniMax and reasoning models served without a reasoning
	// parser use.
	KeepThinkTags bool
	// NewID returns a fresh id with the given prefix ("msg_", "toolu_").
	// Nil selects random ids; tests set it for deterministic output.
	NewID func(prefix string) string
	// Limits bound stream translation; zero fields select defaults.
	Limits Limits
	// Logger receives debug records about request parts dropped or
	// degraded in translation. Nil discards them.
	Logger *slog.Logger
	// Degraded, when set, is called once per request for each kind of
	// request part the translation dropped or degraded, with a label from
	// a fixed set ("member:thinking", "block:server_tool",
	// "document:url", ...), for the metrics.
	Degraded func(item string)
	// PDFText reads the text of a base64-encoded PDF document. Nil turns
	// PDF documents into a note that they could not be read.
	PDFText func(ctx context.Context, base64Data string) (string, error)
	// toolNames is the reverse tool-name map of the translated request.
	toolNames map[string]string
}

// toolName returns the client's name for a function name of the reply.
func (o *Options) toolName(wire string) string {
	if name, ok := o.toolNames[wire]; ok {
		return name
	}
	return wire
}

func (o *Options) newID(prefix string) string {
	if o.NewID != nil {
		return o.NewID(prefix)
	}
	return RandomID(prefix)
}

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomID returns prefix followed by 24 random base62 characters, the
// shape of Anthropic's ids.
func RandomID(prefix string) string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return prefix + string(b[:])
}
