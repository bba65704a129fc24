package wire

import (
	"encoding/json"
)

// Message is a Messages API response (type "message").
type Message struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []ContentBlock `json:"content"`
	StopReason   *string        `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        Usage          `json:"usage"`
}

// Usage is token and server-tool accounting. The cache fields are always
// present because Anthropic always sends them, and clients that compare
// streamed and non-streamed messages expect the same members in both.
type Usage struct {
	InputTokens              int              `json:"input_tokens"`
	CacheCreationInputTokens int              `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int              `json:"cache_read_input_tokens"`
	OutputTokens             int              `json:"output_tokens"`
	ServerToolUse            *ServerToolUsage `json:"server_tool_use,omitempty"`
}

// ServerToolUsage counts server tool invocations.
type ServerToolUsage struct {
	WebSearchRequests int `json:"web_search_requests"`
}

// ContentBlock is one output block. The concrete types below marshal to
// Anthropic's wire shapes.
type ContentBlock interface {
	BlockType() string
}

// TextBlock is a text block, optionally with citations.
type TextBlock struct {
	Type textTag `json:"type"`
	Text string  `json:"text"`
	// Citations is omitted when empty, matching a streamed text block whose
	// content_block_start carried none.
	Citations []Citation `json:"citations,omitempty"`
}

// BlockType implements ContentBlock.
func (TextBlock) BlockType() string { return "text" }

// ServerToolUseBlock is a server tool invocation (web_search).
type ServerToolUseBlock struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// BlockType implements ContentBlock.
func (ServerToolUseBlock) BlockType() string { return "server_tool_use" }

// MarshalJSON adds the type member.
func (b ServerToolUseBlock) MarshalJSON() ([]byte, error) {
	type plain ServerToolUseBlock
	if b.Input == nil {
		b.Input = json.RawMessage(`{}`)
	}
	return marshalTyped("server_tool_use", plain(b))
}

// WebSearchToolResultBlock carries either results or an error. Exactly one
// of Results (possibly empty) and Error is meaningful: Error non-nil wins.
type WebSearchToolResultBlock struct {
	ToolUseID string
	Results   []WebSearchResult
	Error     *WebSearchToolResultError
}

// BlockType implements ContentBlock.
func (WebSearchToolResultBlock) BlockType() string { return "web_search_tool_result" }

// MarshalJSON renders content as an array of results or an error object, the
// two shapes Anthropic uses.
func (b WebSearchToolResultBlock) MarshalJSON() ([]byte, error) {
	var content any = b.Error
	if b.Error == nil {
		r := b.Results
		if r == nil {
			r = []WebSearchResult{}
		}
		content = r
	}
	return marshalTyped("web_search_tool_result", struct {
		ToolUseID string `json:"tool_use_id"`
		Content   any    `json:"content"`
	}{b.ToolUseID, content})
}

// WebSearchResult is one search hit as Anthropic returns it.
type WebSearchResult struct {
	Type             resultTag `json:"type"`
	Title            string    `json:"title"`
	URL              string    `json:"url"`
	EncryptedContent string    `json:"encrypted_content"`
	// PageAge is null when the provider gave no age.
	PageAge *string `json:"page_age"`
}

// WebSearchToolResultError is the content of a failed web search. Its
// codes are package websearch's.
type WebSearchToolResultError struct {
	Type      resultErrorTag `json:"type"`
	ErrorCode string         `json:"error_code"`
}

// Citation is a web_search_result_location citation
// (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations).
type Citation struct {
	Type           citationTag `json:"type"`
	URL            string      `json:"url"`
	Title          string      `json:"title"`
	EncryptedIndex string      `json:"encrypted_index"`
	CitedText      string      `json:"cited_text"`
}

// Type tags: zero-size fields that always marshal to their constant, so
// the wire "type" member comes first and can never be wrong or forgotten,
// without a MarshalJSON on the whole struct (which encoding/json would
// re-validate byte by byte, a measurable cost on the fast path).
type (
	textTag        struct{}
	resultTag      struct{}
	resultErrorTag struct{}
	citationTag    struct{}
)

func (textTag) MarshalJSON() ([]byte, error)   { return []byte(`"text"`), nil }
func (resultTag) MarshalJSON() ([]byte, error) { return []byte(`"web_search_result"`), nil }
func (resultErrorTag) MarshalJSON() ([]byte, error) {
	return []byte(`"web_search_tool_result_error"`), nil
}
func (citationTag) MarshalJSON() ([]byte, error) { return []byte(`"web_search_result_location"`), nil }

// marshalTyped encodes v (a struct) with a leading "type" member. Encoding
// the type first mirrors Anthropic's output, which keeps golden files
// readable and diffs small.
func marshalTyped(typ string, v any) ([]byte, error) {
	body, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(typ)+12)
	out = append(out, `{"type":`...)
	out = appendJSONString(out, typ)
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// ErrorResponse is Anthropic's error envelope
// (https://docs.anthropic.com/en/api/errors#error-shapes).
type ErrorResponse struct {
	Type  string      `json:"type"`
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the error member of ErrorResponse and of SSE error events.
type ErrorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// NewError builds an error envelope.
func NewError(typ, msg string) ErrorResponse {
	return ErrorResponse{Type: "error", Error: ErrorDetail{Type: typ, Message: msg}}
}
