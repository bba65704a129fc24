package proxy

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/search"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// goldenCase drives the handler with one request and compares the
// normalised response with testdata/golden/<name>.
type goldenCase struct {
	name string
	// recording names a file in shared/protocol/claude-code; body is used
	// when it is empty.
	recording string
	body      []byte
	// edit, when set, rewrites the body (recorded or inline).
	edit     func(m map[string]any)
	searcher *fakeSearcher
	fetcher  *fakeFetcher
	upstream config.Upstream
	// check inspects the query the searcher saw; nil means the searcher
	// must not have been called.
	check func(t *testing.T, q search.Query)
}

func TestGolden(t *testing.T) {
	longQuery := strings.Repeat("very long query ", 40)
	sawQuery := func(want string) func(*testing.T, search.Query) {
		return func(t *testing.T, q search.Query) {
			if q.Text != want {
				t.Errorf("searched %q, want %q", q.Text, want)
			}
		}
	}
	cases := []goldenCase{
		{
			name: "success.sse", recording: "search-execution-request.json",
			searcher: results(goResults...), fetcher: &fakeFetcher{pages: goPages}, upstream: enrichNoDeadline(),
			check: sawQuery("golang generics tutorial"),
		},
		{
			name: "success_no_enrich.sse", recording: "search-execution-request.json",
			searcher: results(goResults...), upstream: noEnrich(),
			check: sawQuery("golang generics tutorial"),
		},
		{
			name: "nonstream.json", recording: "search-execution-request.json",
			edit:     func(m map[string]any) { m["stream"] = false },
			searcher: results(goResults...), fetcher: &fakeFetcher{pages: goPages}, upstream: enrichNoDeadline(),
			check: sawQuery("golang generics tutorial"),
		},
		{
			name: "allowed_domains.sse", recording: "search-execution-request-allowed-domains.json",
			searcher: results(goResults...), upstream: noEnrich(),
			check: func(t *testing.T, q search.Query) {
				if diff := cmp.Diff([]string{"go.dev", "pkg.go.dev"}, q.AllowedDomains); diff != "" {
					t.Errorf("allowed domains not passed to the searcher (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "blocked_domains.sse",
			body: oldStyleBody("golang generics tutorial", true, map[string]any{
				"type": "web_search_20250305", "name": "web_search", "max_uses": 5,
				"blocked_domains": []string{"go.dev"},
				"user_location":   map[string]any{"type": "approximate", "city": "Berlin", "country": "DE", "timezone": "Europe/Berlin"},
			}),
			searcher: results(goResults...), upstream: noEnrich(),
			check: func(t *testing.T, q search.Query) {
				want := search.Query{Text: "golang generics tutorial", BlockedDomains: []string{"go.dev"},
					Location: search.Location{City: "Berlin", Country: "DE", Timezone: "Europe/Berlin"}}
				if diff := cmp.Diff(want, q); diff != "" {
					t.Errorf("query (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "forced_tool_choice.sse",
			body: oldStyleBody(`  "rust async runtimes"  `, true, nil),
			edit: func(m map[string]any) {
				m["tool_choice"] = map[string]any{"type": "tool", "name": "web_search"}
				m["tools"] = append(m["tools"].([]any), map[string]any{"name": "Bash", "input_schema": map[string]any{"type": "object"}})
			},
			searcher: results(goResults[:1]...), upstream: noEnrich(),
			check: sawQuery("rust async runtimes"),
		},
		{
			name: "empty_results.sse", recording: "search-execution-request.json",
			searcher: results(), fetcher: &fakeFetcher{}, upstream: enrichNoDeadline(),
			check: sawQuery("golang generics tutorial"),
		},
		{
			name: "error_unavailable.sse", recording: "search-execution-request.json",
			searcher: failing(&search.ProviderError{Provider: "fake", Kind: search.ErrUnavailable, Status: 503}),
			check:    sawQuery("golang generics tutorial"),
		},
		{
			name: "error_too_many_requests.sse", recording: "search-execution-request.json",
			searcher: failing(fmt.Errorf("search: %w", &search.ProviderError{Provider: "fake", Kind: search.ErrRateLimited, Status: 429})),
			check:    sawQuery("golang generics tutorial"),
		},
		{
			name: "error_invalid_tool_input.sse", recording: "search-execution-request.json",
			searcher: failing(fmt.Errorf("search: %w: bad operator", search.ErrInvalidQuery)),
			check:    sawQuery("golang generics tutorial"),
		},
		{
			name: "error_invalid_domains.sse", recording: "search-execution-request-allowed-domains.json",
			edit: func(m map[string]any) {
				m["tools"].([]any)[0].(map[string]any)["blocked_domains"] = []string{"example.com"}
			},
			searcher: results(goResults...),
		},
		{
			name: "error_query_too_long.sse", body: oldStyleBody(longQuery, true, nil),
			searcher: results(goResults...),
		},
		{
			name:     "error_max_uses_exceeded.sse",
			body:     oldStyleBody("golang", true, map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": 0}),
			searcher: results(goResults...),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, headers, path := tc.body, map[string]string{"Content-Type": "application/json"}, "/v1/messages"
			if tc.recording != "" {
				rec := loadRecorded(t, tc.recording)
				body, path = rec.Body, rec.Path
				for k, v := range rec.Headers {
					headers[k] = v
				}
			}
			if tc.edit != nil {
				body = withBody(t, body, tc.edit)
			}
			// The goldens pin the digest itself; TestDigestMarksUntrusted
			// covers the untrusted-content boundaries.
			opts := Options{Searcher: tc.searcher, Upstream: tc.upstream, Untrusted: guard.Wrapper{Off: true}}
			if tc.fetcher != nil {
				opts.Fetcher = tc.fetcher
			}
			h := newHandler(t, opts)
			resp := post(t, h, path, headers, body)
			if resp.Code != http.StatusOK {
				t.Fatalf("status %d, body %s", resp.Code, resp.Body)
			}
			if tc.check != nil {
				tc.check(t, tc.searcher.last(t))
			} else if n := tc.searcher.calls(); n != 0 {
				t.Fatalf("searcher called %d times for a request rejected before searching", n)
			}
			checkSealed(t, resp.Body.Bytes())
			got := normalize(resp.Body.Bytes())
			wantCT := "text/event-stream; charset=utf-8"
			if strings.HasSuffix(tc.name, ".json") {
				wantCT = "application/json"
				var pretty bytes.Buffer
				if err := json.Indent(&pretty, got, "", "  "); err != nil {
					t.Fatalf("response is not JSON: %v\n%s", err, got)
				}
				got = append(pretty.Bytes(), '\n')
			}
			if ct := resp.Header().Get("Content-Type"); ct != wantCT {
				t.Errorf("Content-Type %q, want %q", ct, wantCT)
			}
			compareGolden(t, filepath.Join("testdata", "golden", tc.name), got)
		})
	}
}

// checkSealed opens every sealed token in a response, proving that
// encrypted_content and encrypted_index are real webgate-sealed payloads
// bound to the fields their blocks show.
func checkSealed(t *testing.T, body []byte) {
	t.Helper()
	s := testSealer(t)
	query := answeredQuery(t, body)
	const str = `"((?:[^"\\]|\\.)*)"`
	results := regexpAllSubmatch(`"title":`+str+`,"url":`+str+`,"encrypted_content":"([^"]+)"`, body)
	cites := regexpAllSubmatch(`"url":`+str+`,"title":`+str+`,"encrypted_index":"([^"]+)","cited_text":`+str, body)
	if bytes.Contains(body, []byte(`"encrypted_content"`)) != (len(results) > 0) || bytes.Contains(body, []byte(`"encrypted_index"`)) != (len(cites) > 0) {
		t.Fatalf("checkSealed found %d results and %d citations in a body that does not look that way", len(results), len(cites))
	}
	for _, m := range results {
		title, url := unquoteJSON(t, m[1]), unquoteJSON(t, m[2])
		r, err := s.OpenResult(m[3], url, title, query)
		if err != nil {
			t.Fatalf("encrypted_content of %s does not open: %v", url, err)
		}
		if r.Version != seal.PayloadVersion || r.URL != url || r.Title != title || r.Query != query {
			t.Errorf("sealed result %+v, shown as %q %q for %q", r, url, title, query)
		}
		if _, err := s.OpenResult(m[3], url, title+"!", query); err == nil {
			t.Errorf("encrypted_content of %s opens with another title", url)
		}
		if _, err := s.OpenResult(m[3], url, title, query+"!"); err == nil {
			t.Errorf("encrypted_content of %s opens for another query", url)
		}
	}
	for _, m := range cites {
		url, cited := unquoteJSON(t, m[1]), unquoteJSON(t, m[4])
		if _, err := s.OpenCitation(m[3], url, cited); err != nil {
			t.Fatalf("encrypted_index of %s does not open: %v", url, err)
		}
		if _, err := s.OpenCitation(m[3], url+"x", cited); err == nil {
			t.Errorf("encrypted_index of %s opens under another url", url)
		}
	}
}

// answeredQuery returns the query of the server_tool_use block in a
// response, streamed (its input_json_delta) or not, or "" if it has none.
func answeredQuery(t *testing.T, body []byte) string {
	t.Helper()
	var in struct{ Query string }
	if bytes.HasPrefix(body, []byte("{")) {
		var msg struct {
			Content []struct {
				Type  string
				Input json.RawMessage
			}
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			t.Fatalf("response: %v", err)
		}
		for _, b := range msg.Content {
			if b.Type == "server_tool_use" {
				if err := json.Unmarshal(b.Input, &in); err != nil {
					t.Fatalf("server_tool_use input: %v", err)
				}
			}
		}
		return in.Query
	}
	m := regexp.MustCompile(`"partial_json":"((?:[^"\\]|\\.)*)"`).FindSubmatch(body)
	if m == nil {
		return ""
	}
	if err := json.Unmarshal([]byte(unquoteJSON(t, string(m[1]))), &in); err != nil {
		t.Fatalf("input_json_delta: %v", err)
	}
	return in.Query
}

// unquoteJSON decodes the contents of a JSON string literal.
func unquoteJSON(t *testing.T, s string) string {
	t.Helper()
	var out string
	if err := json.Unmarshal([]byte(`"`+s+`"`), &out); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return out
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test ./internal/messages/proxy -run TestGolden -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got); rerun with -update if intended:\n%s", path, diff)
	}
}
