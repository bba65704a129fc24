package openai

import (
	"os"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/config"

	"github.com/webgate/webgate/internal/repotest"
)

// The configuration example in docs/anthropic-proxy.md's kind openai
// section must load and give the Model it describes.
func TestDocsConfigExample(t *testing.T) {
	doc, err := os.ReadFile(repotest.File(t, "docs/anthropic-proxy.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## Upstream kind `openai`")
	if !ok {
		t.Fatal("no kind openai section")
	}
	_, block, ok := strings.Cut(sec, "```yaml\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("no yaml example")
	}
	cfg, err := config.Parse(strings.NewReader(block), func(k string) (string, bool) {
		if k == "DEEPSEEK_API_KEY" {
			return "sk-test", true
		}
		return "", false
	})
	if err != nil {
		t.Fatalf("example does not load: %v\n%s", err, block)
	}
	m, err := NewModel(cfg.Upstream, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.endpoint != "https://api.deepseek.com/v1/chat/completions" || m.apiKey != "sk-test" {
		t.Errorf("endpoint %s key %q", m.endpoint, m.apiKey)
	}
	for in, want := range map[string]string{"claude-3-5-haiku-latest": "deepseek-chat", "claude-sonnet-4-5": "deepseek-v4-pro", "gpt-4": "gpt-4"} {
		if got := m.opts.Models.Map(in); got != want {
			t.Errorf("%s maps to %s, want %s", in, got, want)
		}
	}
}
