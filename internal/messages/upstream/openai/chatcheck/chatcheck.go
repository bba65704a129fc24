// Package chatcheck checks Chat Completions request bodies the way real
// backends do, for tests: [Strict] applies the rules strict servers and
// chat templates enforce beyond OpenAI's schema, and a [Schema] validates
// a body against OpenAI's published OpenAPI description
// (CreateChatCompletionRequest), the oracle for what webgate sends.
package chatcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// functionName is the rule OpenAI documents for function names ("a-z,
// A-Z, 0-9, or contain underscores and dashes, with a maximum length of
// 64"), which most compatible servers and chat templates share.
var functionName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

type message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type request struct {
	Messages []message `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ToolChoice json.RawMessage `json:"tool_choice"`
}

// Strict reports every way body breaks the rules that strict backends
// and chat templates apply (vLLM, SGLang, llama.cpp and Ollama templates,
// OpenAI itself):
//   - system (and developer) messages only at the start;
//   - each assistant tool call answered by a tool message, in call order,
//     directly after the assistant message and before any other message;
//     no tool message anywhere else;
//   - tool call arguments a JSON string holding a JSON object;
//   - function names matching ^[a-zA-Z0-9_-]{1,64}$, unique among tools;
//   - no tool_choice without tools;
//   - no message without content unless it is an assistant message that
//     calls tools.
func Strict(body []byte) error {
	var r request
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	start := true
	for i := 0; i < len(r.Messages); i++ {
		m := r.Messages[i]
		switch m.Role {
		case "system", "developer":
			if !start {
				bad("messages[%d]: a %s message after the conversation started", i, m.Role)
			}
			continue
		case "user", "assistant":
		case "tool":
			bad("messages[%d]: tool message %q does not follow the assistant message that called it", i, m.ToolCallID)
			continue
		default:
			bad("messages[%d]: role %q", i, m.Role)
		}
		start = false
		empty := len(bytes.TrimSpace(m.Content)) == 0 || string(bytes.TrimSpace(m.Content)) == "null"
		if empty && (m.Role != "assistant" || len(m.ToolCalls) == 0) {
			bad("messages[%d]: %s message without content", i, m.Role)
		}
		for j, c := range m.ToolCalls {
			if c.ID == "" {
				bad("messages[%d].tool_calls[%d]: no id", i, j)
			}
			if !functionName.MatchString(c.Function.Name) {
				bad("messages[%d].tool_calls[%d]: function name %q", i, j, c.Function.Name)
			}
			var args string
			var obj map[string]any
			if err := json.Unmarshal(c.Function.Arguments, &args); err != nil {
				bad("messages[%d].tool_calls[%d]: arguments are not a JSON string: %s", i, j, c.Function.Arguments)
			} else if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
				bad("messages[%d].tool_calls[%d]: arguments %q are not a JSON object", i, j, args)
			}
			n := i + 1 + j
			if n >= len(r.Messages) || r.Messages[n].Role != "tool" {
				bad("messages[%d].tool_calls[%d]: call %q is not answered by messages[%d]", i, j, c.ID, n)
				continue
			}
			if got := r.Messages[n].ToolCallID; got != c.ID {
				bad("messages[%d]: tool message answers %q where call %q comes in order", n, got, c.ID)
			}
		}
		for k := 0; k < len(m.ToolCalls) && i+1 < len(r.Messages) && r.Messages[i+1].Role == "tool"; k++ {
			i++
		}
	}
	seen := map[string]bool{}
	for i, t := range r.Tools {
		if !functionName.MatchString(t.Function.Name) {
			bad("tools[%d]: function name %q", i, t.Function.Name)
		}
		if seen[t.Function.Name] {
			bad("tools[%d]: function name %q declared twice", i, t.Function.Name)
		}
		seen[t.Function.Name] = true
	}
	if len(r.ToolChoice) > 0 && len(r.Tools) == 0 && string(r.ToolChoice) != `"none"` {
		bad("tool_choice %s without tools", r.ToolChoice)
	}
	return errors.Join(errs...)
}

// Schema validates request bodies against CreateChatCompletionRequest.
type Schema struct {
	s *jsonschema.Schema
}

// LoadSchema compiles CreateChatCompletionRequest from an OpenAPI 3.1
// description (openapi.json), whose schemas are JSON Schema 2020-12.
func LoadSchema(path string) (*Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "file:///openapi.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(url + "#/components/schemas/CreateChatCompletionRequest")
	if err != nil {
		return nil, fmt.Errorf("compile CreateChatCompletionRequest: %w", err)
	}
	return &Schema{s: s}, nil
}

// Validate reports how body breaks the schema.
func (s *Schema) Validate(body []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("body: %w", err)
	}
	return s.s.Validate(v)
}
