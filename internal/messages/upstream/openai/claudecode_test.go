package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webgate/webgate/internal/messages/upstream/openai/chatcheck"
	"github.com/webgate/webgate/internal/messages/wire"

	"github.com/webgate/webgate/internal/repotest"
)

// recordings is where the main-conversation requests of the real Claude
// Code CLI are kept, inside ../shared beside the repository (in CI as
// well).
const recordings = "protocol/claude-code/2.1.332"

var (
	schemaOnce sync.Once
	schema     *chatcheck.Schema
	schemaErr  error
)

// checkChat validates a translated request against OpenAI's published
// schema and the rules strict backends apply.
func checkChat(t testing.TB, out ChatRequest) []byte {
	t.Helper()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	schemaOnce.Do(func() {
		schema, schemaErr = chatcheck.LoadSchema(repotest.Shared(t, "specs/openai-openapi/openapi.json"))
	})
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	if err := schema.Validate(b); err != nil {
		t.Errorf("schema: %v", err)
	}
	if err := chatcheck.Strict(b); err != nil {
		t.Errorf("strict rules: %v", err)
	}
	return b
}

func readRecording(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repotest.Shared(t, recordings), name))
	if err != nil {
		t.Fatalf("%v (the recordings live in ../shared beside the repository)", err)
	}
	return b
}

// Claude Code 2.1.332's main turns, as recorded, translate into requests
// OpenAI's schema and strict chat templates accept: system messages from
// inside messages merged into the leading one, deferred tools held back
// until ToolSearch loads them, thinking and context management dropped,
// max_tokens clamped and the long user id shortened.
func TestClaudeCodeMainTurns(t *testing.T) {
	for _, c := range []struct {
		file string
		// tools that must and must not be sent
		sent, held []string
		// texts the leading system message must hold, in order
		system []string
	}{
		{
			file:   "main-turn-first.json",
			sent:   []string{"Agent", "Bash", "ToolSearch", "Write"},
			held:   []string{"DeferredToolPlaceholder", "WebFetch", "WebSearch"},
			system: []string{"You are a Claude agent", "# Environment"},
		},
		{
			file:   "main-turn-after-toolsearch.json",
			sent:   []string{"ToolSearch", "WebFetch"},
			held:   []string{"DeferredToolPlaceholder"},
			system: []string{"You are a Claude agent", "# Environment"},
		},
		{
			file:   "main-turn-two-system-messages.json",
			sent:   []string{"WebFetch", "WebSearch", "Monitor"},
			system: []string{"You are a Claude agent", "# Environment", "ToolSearch is no longer available"},
		},
	} {
		t.Run(c.file, func(t *testing.T) {
			req, err := wire.DecodeRequest(readRecording(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			var degraded []string
			out, err := ToChat(context.Background(), req, Options{Models: ModelMap{{Pattern: "claude-*", Model: "qwen3-coder"}}, Degraded: func(s string) { degraded = append(degraded, s) }})
			if err != nil {
				t.Fatal(err)
			}
			b := checkChat(t, out)
			var names []string
			for _, tool := range out.Tools {
				names = append(names, tool.Function.Name)
			}
			for _, n := range c.sent {
				if !slices.Contains(names, n) {
					t.Errorf("tool %s not sent; sent %v", n, names)
				}
			}
			for _, n := range c.held {
				if slices.Contains(names, n) {
					t.Errorf("deferred tool %s sent before it was loaded", n)
				}
			}
			sys, _ := out.Messages[0].Content.(string)
			at := 0
			for _, want := range c.system {
				i := strings.Index(sys[at:], want)
				if out.Messages[0].Role != "system" || i < 0 {
					t.Fatalf("leading system message lacks %q after offset %d", want, at)
				}
				at += i
			}
			if *out.MaxTokens != 8192 || len(out.User) > 64 || out.User == "" {
				t.Errorf("max_tokens %d, user %q: want the clamp and a short user", *out.MaxTokens, out.User)
			}
			for _, leaked := range []string{`"thinking"`, `"context_management"`, `"output_config"`, `"defer_loading"`, `"tool_reference"`, `"cache_control"`} {
				if bytes.Contains(b, []byte(leaked)) {
					t.Errorf("%s reached the Chat Completions request", leaked)
				}
			}
			for _, want := range []string{"member:thinking", "member:context_management", "member:output_config"} {
				if !slices.Contains(degraded, want) {
					t.Errorf("degraded %v lacks %s", degraded, want)
				}
			}
		})
	}
}

// A tool_reference reads as a short sentence in the tool message, and the
// text Claude Code puts beside it follows as a user message.
func TestClaudeCodeToolReference(t *testing.T) {
	req, err := wire.DecodeRequest(readRecording(t, "main-turn-after-toolsearch.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := ToChat(context.Background(), req, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkChat(t, out)
	n := len(out.Messages)
	if m := out.Messages[n-2]; m.Role != "tool" || m.ToolCallID != "call_1" || m.Content != "Tool loaded: WebFetch. Call it directly." {
		t.Errorf("tool message %+v", m)
	}
	if m := out.Messages[n-1]; m.Role != "user" || m.Content != "Tool loaded." {
		t.Errorf("last message %+v", m)
	}
}

// BenchmarkToChatRecordedTurn measures what translating one recorded
// Claude Code main turn (106 KB, 22 tools, two system messages inside
// messages) costs: decoding the Messages request, translating it and
// encoding the Chat Completions body, as Model.Stream does.
func BenchmarkToChatRecordedTurn(b *testing.B) {
	body := readRecording(b, "main-turn-two-system-messages.json")
	opts := Options{Models: ModelMap{{Pattern: "claude-*", Model: "qwen3-coder"}}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req, err := wire.DecodeRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		out, err := ToChat(context.Background(), req, opts)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			b.Fatal(err)
		}
	}
}
