package openai

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"path"
)

// ChatRequest is a Chat Completions request body.
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
}

// StreamOptions asks for a final usage chunk.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ChatMessage is one request message. Content is a string, a []ContentPart
// or nil (an assistant message that only calls tools).
type ChatMessage struct {
	Role       string     `json:"role"`
	Content    any        `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ContentPart is a text or image_url part of a user message.
type ContentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// ImageURL is an image reference: an http(s) URL or a data URL.
type ImageURL struct {
	URL string `json:"url"`
}

// ToolCall is a function call made by the assistant.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the name and JSON-encoded arguments of a call.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
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
}

// NamedToolChoice forces one function.
type NamedToolChoice struct {
	Type     string `json:"type"`
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// ChatResponse is a non-streaming Chat Completions response.
type ChatResponse struct {
	ID      string       `json:"id"`
	Model   string       `json:"model"`
	Choices []ChatChoice `json:"choices"`
	Usage   *ChatUsage   `json:"usage"`
	Error   *ChatError   `json:"error"`
}

// ChatChoice is one completion choice.
type ChatChoice struct {
	Index        int             `json:"index"`
	Message      ResponseMessage `json:"message"`
	FinishReason string          `json:"finish_reason"`
}

// ResponseMessage is the assistant message of a response.
type ResponseMessage struct {
	Role    string  `json:"role"`
	Content *string `json:"content"`
	// ReasoningContent is DeepSeek's (and vLLM's, Kimi's, GLM's) reasoning
	// field; Reasoning is OpenRouter's (and Ollama's).
	ReasoningContent string     `json:"reasoning_content"`
	Reasoning        string     `json:"reasoning"`
	Refusal          string     `json:"refusal"`
	ToolCalls        []ToolCall `json:"tool_calls"`
}

// ChatUsage is token accounting. DeepSeek reports cache hits in
// PromptCacheHitTokens, OpenAI in PromptTokensDetails.CachedTokens.
type ChatUsage struct {
	PromptTokens         int `json:"prompt_tokens"`
	CompletionTokens     int `json:"completion_tokens"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	PromptTokensDetails  *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// ChatError is an error object, in an error response or a stream chunk.
type ChatError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// Chunk is one streamed chat.completion.chunk (or an error object).
type Chunk struct {
	ID      string        `json:"id"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
	Usage   *ChatUsage    `json:"usage"`
	Error   *ChatError    `json:"error"`
}

// ChunkChoice is one choice of a chunk.
type ChunkChoice struct {
	Index        int        `json:"index"`
	Delta        ChunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

// ChunkDelta is the incremental part of a chunk.
type ChunkDelta struct {
	Role             string          `json:"role"`
	Content          string          `json:"content"`
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
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
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
// carries no signature, so Signature is always empty.
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

// ModelRule maps client model names matching Pattern (path.Match syntax,
// e.g. "claude-*") to Model.
type ModelRule struct {
	Pattern string `yaml:"pattern" json:"pattern"`
	Model   string `yaml:"model" json:"model"`
}

// ModelMap is an ordered list of rules; the first match wins and an
// unmatched name passes through unchanged.
type ModelMap []ModelRule

// Validate reports a malformed pattern or an empty target.
func (m ModelMap) Validate() error {
	for i, r := range m {
		if _, err := path.Match(r.Pattern, ""); err != nil {
			return fmt.Errorf("model map[%d]: pattern %q: %w", i, r.Pattern, err)
		}
		if r.Model == "" {
			return fmt.Errorf("model map[%d]: pattern %q: empty model", i, r.Pattern)
		}
	}
	return nil
}

// Map returns the upstream model for name.
func (m ModelMap) Map(name string) string {
	for _, r := range m {
		if ok, err := path.Match(r.Pattern, name); err == nil && ok {
			return r.Model
		}
	}
	return name
}

// Options configure the translation.
type Options struct {
	// Models maps client model names to upstream ones (requests only).
	Models ModelMap
	// MaxCompletionTokens sends max_tokens as max_completion_tokens, which
	// OpenAI's reasoning models require; most compatible servers want
	// max_tokens (the default).
	MaxCompletionTokens bool
	// Model, when set, is the model name reported back to the client;
	// otherwise the upstream's own model name is reported.
	Model string
	// NewID returns a fresh id with the given prefix ("msg_", "toolu_").
	// Nil selects random ids; tests set it for deterministic output.
	NewID func(prefix string) string
	// Limits bound stream translation; zero fields select defaults.
	Limits Limits
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
