package proxy

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"
)

// TestOfficialSDKAccumulator drives the fast path with Anthropic's own Go
// SDK: what its stream accumulator rebuilds from our events must equal,
// block for block, the message our non-streaming JSON returns, and both
// must parse into the SDK's typed server_tool_use, web_search_tool_result,
// cited text and usage.
func TestOfficialSDKAccumulator(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(goResults...), Fetcher: &fakeFetcher{pages: goPages}, Upstream: enrichNoDeadline()})
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	params := sdk.MessageNewParams{
		Model:     "claude-opus-5-5",
		MaxTokens: 1024,
		Messages:  []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("Perform a web search for the query: golang generics tutorial"))},
		Tools:     []sdk.ToolUnionParam{{OfWebSearchTool20250305: &sdk.WebSearchTool20250305Param{MaxUses: sdk.Int(8)}}},
	}
	ctx := context.Background()

	stream := client.Messages.NewStreaming(ctx, params)
	var acc sdk.Message
	var kinds []string
	for stream.Next() {
		ev := stream.Current()
		kinds = append(kinds, ev.Type)
		if err := acc.Accumulate(ev); err != nil {
			t.Fatalf("accumulate %s: %v", ev.Type, err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if kinds[0] != "message_start" || kinds[len(kinds)-1] != "message_stop" {
		t.Fatalf("event sequence %v", kinds)
	}

	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatalf("non-streaming: %v", err)
	}

	// Same message, modulo random ids and sealed tokens.
	var streamed, whole any
	if err := json.Unmarshal(normalize([]byte(acc.RawJSON())), &streamed); err != nil {
		t.Fatalf("accumulated JSON: %v", err)
	}
	if err := json.Unmarshal(normalize([]byte(msg.RawJSON())), &whole); err != nil {
		t.Fatalf("message JSON: %v", err)
	}
	if diff := cmp.Diff(whole, streamed); diff != "" {
		t.Fatalf("accumulated stream differs from non-streaming message (-json +stream):\n%s", diff)
	}

	for name, m := range map[string]*sdk.Message{"stream": &acc, "json": msg} {
		if len(m.Content) != 3 {
			t.Fatalf("%s: %d blocks, want 3", name, len(m.Content))
		}
		use := m.Content[0].AsServerToolUse()
		input, _ := json.Marshal(use.Input)
		if use.Name != "web_search" || string(input) != `{"query":"golang generics tutorial"}` {
			t.Errorf("%s: server_tool_use = %s %s", name, use.Name, input)
		}
		res := m.Content[1].AsWebSearchToolResult()
		if res.ToolUseID != use.ID {
			t.Errorf("%s: tool_use_id %q, server_tool_use id %q", name, res.ToolUseID, use.ID)
		}
		got := res.Content.OfWebSearchResultBlockArray
		if len(got) != len(goResults) {
			t.Fatalf("%s: %d results, want %d", name, len(got), len(goResults))
		}
		for i, r := range got {
			if r.URL != goResults[i].URL || r.EncryptedContent == "" {
				t.Errorf("%s: result %d = %+v", name, i, r)
			}
		}
		text := m.Content[2].AsText()
		if len(text.Citations) == 0 {
			t.Errorf("%s: text block has no citations", name)
		}
		for _, c := range text.Citations {
			loc := c.AsWebSearchResultLocation()
			if loc.URL == "" || loc.CitedText == "" || loc.EncryptedIndex == "" {
				t.Errorf("%s: incomplete citation %+v", name, loc)
			}
		}
		if m.StopReason != sdk.StopReasonEndTurn {
			t.Errorf("%s: stop_reason %q", name, m.StopReason)
		}
		if m.Usage.ServerToolUse.WebSearchRequests != 1 || m.Usage.OutputTokens <= 1 || m.Usage.InputTokens <= 0 {
			t.Errorf("%s: usage %+v", name, m.Usage)
		}
	}
}
