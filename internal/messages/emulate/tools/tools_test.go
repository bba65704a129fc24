package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/websearch"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

type fakeSearcher struct {
	res *search.Response
	err error
	got []search.Query
}

func (f *fakeSearcher) Search(_ context.Context, q search.Query) (*search.Response, error) {
	f.got = append(f.got, q)
	return f.res, f.err
}

type fakeGetter struct {
	res *fetch.Result
	err error
	got []fetch.Request
}

func (f *fakeGetter) Fetch(_ context.Context, r fetch.Request) (*fetch.Result, error) {
	f.got = append(f.got, r)
	if f.err != nil {
		return nil, f.err
	}
	res := *f.res
	res.URL = r.URL
	return &res, nil
}

func newBox(t *testing.T, s search.Searcher, g fetch.Getter) *Box {
	t.Helper()
	sealer, err := seal.New(seal.Key{ID: "k", Secret: bytes.Repeat([]byte{1}, seal.KeySize)})
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		s = &fakeSearcher{res: &search.Response{}}
	}
	b, err := New(Options{Searcher: s, Getter: g, Sealer: sealer, Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tool(t *testing.T, b *Box, def string) emulate.ServerTool {
	t.Helper()
	var d wire.Tool
	if err := json.Unmarshal([]byte(def), &d); err != nil {
		t.Fatal(err)
	}
	d.Raw = json.RawMessage(def)
	st, ok, err := b.Tool(d)
	if err != nil || !ok {
		t.Fatalf("Tool(%s) = %v, %v", def, ok, err)
	}
	return st
}

func TestVersions(t *testing.T) {
	b := newBox(t, nil, nil)
	for _, typ := range []string{"web_search_20250305", "web_search_20260209", "web_search_20260318",
		"web_fetch_20250910", "web_fetch_20260209", "web_fetch_20260309", "web_fetch_20260318", "web_search_20991231"} {
		st := tool(t, b, fmt.Sprintf(`{"type":%q,"name":"n"}`, typ))
		if st.Name() != "n" || !strings.HasPrefix(typ, st.Kind()) {
			t.Errorf("%s: name %q kind %q", typ, st.Name(), st.Kind())
		}
	}
	for _, typ := range []string{"web_search_2025", "code_execution_20250825", "", "web_fetch_20200101"} {
		if _, ok, err := b.Tool(wire.Tool{Type: typ, Name: "x", Raw: json.RawMessage(`{}`)}); ok || err != nil {
			t.Errorf("%q: ok %v err %v, want not emulated", typ, ok, err)
		}
	}
}

func TestSpecValidation(t *testing.T) {
	b := newBox(t, nil, nil)
	tests := []struct{ def, want string }{
		{`{"type":"web_fetch_20260309","name":"web_fetch","use_cache":false}`, ""},
		{`{"type":"web_fetch_20260318","name":"web_fetch","response_inclusion":"excluded","use_cache":true}`, ""},
		{`{"type":"web_search_20260209","name":"web_search","allowed_callers":["direct"],"cache_control":{"type":"ephemeral"}}`, ""},
		{`{"type":"web_fetch_20250910","name":"web_fetch","url_sources":{"user_input":{"type":"none"},"client_tool_results":{"type":"only","tools":[{"type":"tool_reference","name":"grep"}]}}}`, ""},
		{`{"type":"web_fetch_20250910","name":"web_fetch","use_cache":false}`, "use_cache: Extra inputs are not permitted"},
		{`{"type":"web_search_20260209","name":"web_search","response_inclusion":"full"}`, "response_inclusion: Extra inputs"},
		{`{"type":"web_search_20250305","name":"web_search","citations":{"enabled":true}}`, "citations: Extra inputs"},
		{`{"type":"web_fetch_20250910","name":"web_fetch","user_location":{"type":"approximate"}}`, "user_location: Extra inputs"},
		{`{"type":"web_search_20250305","name":"web_search","max_uses":-1}`, "must not be negative"},
		{`{"type":"web_fetch_20250910","name":"web_fetch","max_content_tokens":0}`, "must be positive"},
		{`{"type":"web_search_20250305","name":"web_search","allowed_domains":["https://a.com"]}`, "allowed_domains[0]"},
		{`{"type":"web_search_20250305","name":"web_search","blocked_domains":["ex*.com"]}`, "blocked_domains[0]"},
		{`{"type":"web_search_20260318","name":"web_search","response_inclusion":"some"}`, "must be full or excluded"},
		{`{"type":"web_fetch_20250910","name":"web_fetch","url_sources":{"user_input":{"type":"only","tools":[{"name":"x"}]}}}`, "must be all or none"},
		{`{"type":"web_fetch_20250910","name":"web_fetch","url_sources":{"server_tool_results":{"type":"except"}}}`, "must name at least one tool"},
	}
	for _, tt := range tests {
		var d wire.Tool
		_ = json.Unmarshal([]byte(tt.def), &d)
		d.Raw = json.RawMessage(tt.def)
		_, _, err := b.Tool(d)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.def, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, emulate.ErrInvalidRequest)):
			t.Errorf("%s: error %v, want one mentioning %q", tt.def, err, tt.want)
		}
	}
}

func conv(urls ...string) *emulate.Conversation {
	c := &emulate.Conversation{}
	for _, u := range urls {
		c.AddURL(u, emulate.URLSource{Origin: emulate.FromUser})
	}
	return c
}

func TestFetchChecks(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 231) // 251 characters
	g := &fakeGetter{res: &fetch.Result{Title: "T", ContentType: "text/html", Content: "body"}}
	b := newBox(t, nil, g)
	tests := []struct {
		name, def, url string
		conv           *emulate.Conversation
		want           string
	}{
		{"fetched", ``, "https://example.com/a", conv("https://example.com/a"), ""},
		{"not in prior context", ``, "https://example.com/b", conv("https://example.com/a"), CodeURLNotInPriorContext},
		{"too long", ``, long, conv(long), CodeURLTooLong},
		{"250 characters is fine", ``, long[:250], conv(long[:250]), ""},
		{"not http", ``, "ftp://example.com/a", conv("ftp://example.com/a"), CodeInvalidToolInput},
		{"allowed domain", `,"allowed_domains":["example.com"]`, "https://docs.example.com/a", conv("https://docs.example.com/a"), ""},
		{"outside allowed", `,"allowed_domains":["example.com"]`, "https://other.com/a", conv("https://other.com/a"), CodeURLNotAllowed},
		{"allowed entry with a path never matches", `,"allowed_domains":["example.com/docs"]`, "https://example.com/docs/a", conv("https://example.com/docs/a"), CodeURLNotAllowed},
		{"blocked domain", `,"blocked_domains":["example.com"]`, "https://example.com/a", conv("https://example.com/a"), CodeURLNotAllowed},
		{"blocked entry with a path never matches", `,"blocked_domains":["example.com/private"]`, "https://example.com/private/a", conv("https://example.com/private/a"), ""},
		{"user input excluded by url_sources", `,"url_sources":{"user_input":{"type":"none"}}`, "https://example.com/a", conv("https://example.com/a"), CodeURLNotInPriorContext},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := `{"type":"web_fetch_20250910","name":"web_fetch"` + tt.def + "}"
			st := tool(t, b, def)
			in, _ := json.Marshal(map[string]string{"url": tt.url})
			out := st.Run(context.Background(), emulate.Call{ID: "srvtoolu_1", Input: in, Conv: tt.conv})
			if out.ErrorCode != tt.want {
				t.Fatalf("error code %q, want %q (result %s)", out.ErrorCode, tt.want, out.Result)
			}
			if tt.want != "" && !strings.Contains(string(out.Result), `"error_code":"`+tt.want+`"`) {
				t.Errorf("result block %s", out.Result)
			}
		})
	}
}

func TestFetchParameters(t *testing.T) {
	g := &fakeGetter{res: &fetch.Result{Title: "T", ContentType: "text/html", Content: "body"}}
	b := newBox(t, nil, g)
	st := tool(t, b, `{"type":"web_fetch_20260309","name":"web_fetch","use_cache":false,"max_content_tokens":123}`)
	st.Run(context.Background(), emulate.Call{ID: "s", Input: json.RawMessage(`{"url":"https://a.test/"}`), Conv: conv("https://a.test/")})
	if r := g.got[0]; !r.NoCache || r.MaxTokens != 123 {
		t.Errorf("fetch request %+v", r)
	}
	st = tool(t, b, `{"type":"web_fetch_20250910","name":"web_fetch"}`)
	st.Run(context.Background(), emulate.Call{ID: "s", Input: json.RawMessage(`{"url":"https://a.test/"}`), Conv: conv("https://a.test/")})
	if r := g.got[1]; r.NoCache || r.MaxTokens != 100000 {
		t.Errorf("default fetch request %+v", r)
	}
}

func TestFetchErrorCodes(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("x: %w", fetch.ErrInvalidURL), CodeInvalidToolInput},
		{fetch.ErrURLTooLong, CodeURLTooLong},
		{fetch.ErrBlockedAddress, CodeURLNotAllowed},
		{fetch.ErrRobots, CodeURLNotAllowed},
		{&fetch.StatusError{Code: 404}, CodeURLNotAccessible},
		{&fetch.StatusError{Code: 429}, CodeTooManyRequests},
		{fetch.ErrUnreachable, CodeURLNotAccessible},
		{fetch.ErrTimeout, CodeURLNotAccessible},
		{fetch.ErrUnsupportedContentType, CodeUnsupportedContentType},
		{fetch.ErrTooLarge, CodeContentTooLarge},
		{errors.New("boom"), CodeUnavailable},
		{fmt.Errorf("key policy: %w", policy.ErrDomain), CodeURLNotAllowed},
		{fmt.Errorf("key policy: %w", policy.ErrRateLimited), CodeTooManyRequests},
		{fmt.Errorf("content guard: %w", guard.ErrSecret), CodeURLNotAllowed},
	}
	for _, tt := range tests {
		g := &fakeGetter{err: tt.err}
		st := tool(t, newBox(t, nil, g), `{"type":"web_fetch_20250910","name":"web_fetch"}`)
		out := st.Run(context.Background(), emulate.Call{ID: "s", Input: json.RawMessage(`{"url":"https://a.test/"}`), Conv: conv("https://a.test/")})
		if out.ErrorCode != tt.want || !out.Counted {
			t.Errorf("%v: code %q counted %v, want %q", tt.err, out.ErrorCode, out.Counted, tt.want)
		}
	}
}

func TestSearchErrorCodes(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&search.ProviderError{Kind: search.ErrRateLimited}, websearch.CodeTooManyRequests},
		{&search.ProviderError{Kind: search.ErrInvalidQuery, Err: errors.New("query too long")}, websearch.CodeQueryTooLong},
		{fmt.Errorf("%w: bad operator", search.ErrInvalidQuery), websearch.CodeInvalidToolInput},
		{&search.ProviderError{Kind: search.ErrUnavailable}, websearch.CodeUnavailable},
		{context.DeadlineExceeded, websearch.CodeUnavailable},
		{fmt.Errorf("key policy: %w", policy.ErrBudget), websearch.CodeTooManyRequests},
		{fmt.Errorf("query guard: %w", guard.ErrSecret), websearch.CodeInvalidToolInput},
		{fmt.Errorf("key policy: %w", policy.ErrTool), websearch.CodeUnavailable},
	}
	for _, tt := range tests {
		st := tool(t, newBox(t, &fakeSearcher{err: tt.err}, nil), `{"type":"web_search_20250305","name":"web_search"}`)
		out := st.Run(context.Background(), emulate.Call{ID: "s", Input: json.RawMessage(`{"query":"q"}`)})
		if out.ErrorCode != tt.want || out.Counted {
			t.Errorf("%v: code %q counted %v, want %q", tt.err, out.ErrorCode, out.Counted, tt.want)
		}
	}
	st := tool(t, newBox(t, nil, nil), `{"type":"web_search_20250305","name":"web_search"}`)
	for in, want := range map[string]string{`{"query":""}`: websearch.CodeInvalidToolInput, `"q"`: websearch.CodeInvalidToolInput,
		`{"query":"` + strings.Repeat("é", 501) + `"}`: websearch.CodeQueryTooLong} {
		if out := st.Run(context.Background(), emulate.Call{ID: "s", Input: json.RawMessage(in)}); out.ErrorCode != want {
			t.Errorf("input %.40s: %q, want %q", in, out.ErrorCode, want)
		}
	}
}

// TestSearchRestoreRoundTrip: what a client sends back restores exactly
// the report the model read, and the domain rules and location reached
// the searcher.
func TestSearchRestoreRoundTrip(t *testing.T) {
	s := &fakeSearcher{res: &search.Response{Provider: "p", Results: []search.Result{
		{Title: "A", URL: "https://a.example.com/1", Snippet: "Alpha  snippet\nwith breaks.", PageAge: "2 days ago"},
		{Title: "B", URL: "https://blocked.com/2", Snippet: "blocked"},
		{Title: "", URL: "https://c.example.com/3", Published: time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)},
	}}}
	b := newBox(t, s, nil)
	st := tool(t, b, `{"type":"web_search_20250305","name":"web_search","blocked_domains":["blocked.com"],"user_location":{"type":"approximate","city":"Oslo","country":"NO"}}`)
	out := st.Run(context.Background(), emulate.Call{ID: "srvtoolu_1", Input: json.RawMessage(`{"query":" go "}`)})
	if q := s.got[0]; q.Text != "go" || q.Location.City != "Oslo" || q.BlockedDomains[0] != "blocked.com" {
		t.Errorf("query %+v", q)
	}
	if len(out.Report.Sources) != 2 || out.Report.Sources[1].Title != "c.example.com" || out.Report.Sources[1].PageAge != "May 6, 2024" {
		t.Fatalf("sources %+v", out.Report.Sources)
	}
	rep, err := b.Restore(out.Input, out.Result)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(out.Report, rep); diff != "" {
		t.Errorf("restored report differs (-ran +restored):\n%s", diff)
	}
	failed := st.Fail(emulate.Call{ID: "srvtoolu_2", Input: json.RawMessage(`{"query":"go"}`)}, websearch.CodeMaxUsesExceeded)
	rep, err = b.Restore(failed.Input, failed.Result)
	if err != nil || rep.Error != failed.Report.Error || !strings.Contains(rep.Error, "max_uses_exceeded") {
		t.Errorf("restored failure %+v %v", rep, err)
	}
}

func TestCite(t *testing.T) {
	b := newBox(t, nil, nil)
	doc := "Ünïcödé title line.\nApples are red. Bananas are yellow and curved! Cherries are small."
	src := &emulate.Source{Kind: emulate.KindWebFetch, Title: "Fruit", Document: doc, Citations: true, DocumentIndex: 3}
	raw, err := b.Cite(src, "The bananas were yellow")
	if err != nil {
		t.Fatal(err)
	}
	var c charLocation
	_ = json.Unmarshal(raw, &c)
	if c.CitedText != "Bananas are yellow and curved!" || c.DocumentIndex != 3 || string([]rune(doc)[c.StartCharIndex:c.EndCharIndex]) != c.CitedText {
		t.Errorf("char_location %+v", c)
	}
	if raw, _ := b.Cite(&emulate.Source{Kind: emulate.KindWebFetch, Document: doc}, "x"); raw != nil {
		t.Error("cited a document without citations enabled")
	}
	long := strings.Repeat("word ", 60)
	ws := &emulate.Source{Kind: emulate.KindWebSearch, URL: "https://a.test/", Title: "A", Snippet: "unrelated", Passages: []string{long + "zebra"}, Citations: true, Number: 2}
	raw, _ = b.Cite(ws, "many word words")
	var w wire.Citation
	_ = json.Unmarshal(raw, &w)
	if n := utf8.RuneCountInString(w.CitedText); n > wire.MaxCitedText || !strings.HasPrefix(long, w.CitedText) || w.EncryptedIndex == "" {
		t.Errorf("cited_text %q (%d runes)", w.CitedText, n)
	}
	if err := b.VerifyCitation(raw); err != nil {
		t.Errorf("own citation does not verify: %v", err)
	}
	w.CitedText = "changed"
	forged, _ := json.Marshal(w)
	if err := b.VerifyCitation(forged); !errors.Is(err, emulate.ErrInvalidHistory) {
		t.Errorf("changed citation: %v", err)
	}
}
