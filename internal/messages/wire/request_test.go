package wire

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeRequest(t *testing.T) {
	body := `{"model":"m","stream":true,"max_tokens":10,"system":[{"type":"text","text":"s"}],
	"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{}}]}],
	"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":3,"allowed_domains":["go.dev"],"user_location":{"type":"approximate","city":"X"}},{"name":"Bash","input_schema":{}}],
	"tool_choice":{"type":"tool","name":"web_search"},"unknown":{"keep":[1,2]}}`
	r, err := DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	if r.Model != "m" || !r.Stream || r.MaxTokens != 10 || r.ToolChoice.Name != "web_search" {
		t.Errorf("scalars: %+v", r)
	}
	if !r.Messages[0].ContentIsString || r.Messages[0].Text != "hi" || len(r.Messages[1].Blocks) != 2 || r.Messages[1].Blocks[1].Type != "image" {
		t.Errorf("messages: %+v", r.Messages)
	}
	wantTool := Tool{Type: "web_search_20250305", Name: "web_search", MaxUses: &three, AllowedDomains: []string{"go.dev"}, UserLocation: &UserLocation{Type: "approximate", City: "X"}}
	if diff := cmp.Diff(wantTool, r.Tools[0], cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Raw" }, cmp.Ignore())); diff != "" {
		t.Errorf("tool (-want +got):\n%s", diff)
	}
	if string(r.Fields["unknown"]) != `{"keep":[1,2]}` {
		t.Errorf("unknown member not preserved: %s", r.Fields["unknown"])
	}
	for _, bad := range []string{`[]`, `null`, `{"model":1}`, `{"messages":[{"content":5}]}`, `{"tools":[1]}`, `{"messages":{}}`, `x`} {
		if _, err := DecodeRequest([]byte(bad)); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("DecodeRequest(%s) err = %v, want ErrInvalidRequest", bad, err)
		}
	}
}

func TestBlockJSON(t *testing.T) {
	age := "2 days ago"
	tests := []struct {
		block ContentBlock
		want  string
	}{
		{TextBlock{Text: "x"}, `{"type":"text","text":"x"}`},
		{ServerToolUseBlock{ID: "srvtoolu_1", Name: "web_search"}, `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`},
		{WebSearchToolResultBlock{ToolUseID: "t"}, `{"type":"web_search_tool_result","tool_use_id":"t","content":[]}`},
		{WebSearchToolResultBlock{ToolUseID: "t", Error: &WebSearchToolResultError{ErrorCode: "unavailable"}}, `{"type":"web_search_tool_result","tool_use_id":"t","content":{"type":"web_search_tool_result_error","error_code":"unavailable"}}`},
		{WebSearchToolResultBlock{ToolUseID: "t", Results: []WebSearchResult{{Title: "a&b", URL: "u", EncryptedContent: "e", PageAge: &age}}}, `{"type":"web_search_tool_result","tool_use_id":"t","content":[{"type":"web_search_result","title":"a&b","url":"u","encrypted_content":"e","page_age":"2 days ago"}]}`},
		{TextBlock{Text: "y", Citations: []Citation{{URL: "u", Title: "t", EncryptedIndex: "e", CitedText: "c"}}}, `{"type":"text","text":"y","citations":[{"type":"web_search_result_location","url":"u","title":"t","encrypted_index":"e","cited_text":"c"}]}`},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.block)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.block.BlockType(), got, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("invalid JSON %s", got)
		}
	}
}

// FuzzDecodeRequest: arbitrary bodies never panic, and a decoded request
// keeps every top-level member it was given.
func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"web_search_20250305","name":"web_search"}]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"x"}]}],"tool_choice":{"type":"any"}}`))
	f.Add([]byte(`{"tools":null,"messages":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := DecodeRequest(body)
		if err != nil {
			return
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(body, &top) == nil && len(top) != len(r.Fields) {
			t.Fatalf("fields lost: %d of %d kept", len(r.Fields), len(top))
		}
	})
}
