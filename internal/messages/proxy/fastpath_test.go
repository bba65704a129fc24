package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/search"
)

// TestFastPathWholeAnswerHasLength: an answer ready before anything was
// sent goes out as one body with a Content-Length (not chunked), and the
// SSE stream inside it is complete.
func TestFastPathWholeAnswerHasLength(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", bytes.NewReader(oldStyleBody("golang", true, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if id := resp.Header.Get("request-id"); !regexp.MustCompile(`^req_[0-9A-Za-z]{24}$`).MatchString(id) {
		t.Errorf("request-id %q", id)
	}
	if len(resp.TransferEncoding) != 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("transfer encoding %v, Content-Length %q for a %d-byte body", resp.TransferEncoding, resp.Header.Get("Content-Length"), len(body))
	}
	evs := events(t, bytes.NewReader(body))
	if len(evs) == 0 || evs[0].Name != "message_start" || evs[len(evs)-1].Name != "message_stop" {
		t.Errorf("incomplete stream: %d events", len(evs))
	}
}

// TestAnswerReuse: a repeated search (one the engine answers from its
// cache) reuses the sealed tokens of the answer composed for it, with
// fresh ids; a one-off search's answer is not kept; a search that differs
// in query, domain filter or results gets its own answer.
func TestAnswerReuse(t *testing.T) {
	var current []search.Result
	seen := map[string]bool{}
	searcher := &fakeSearcher{fn: func(_ context.Context, q search.Query) (*search.Response, error) {
		k := fmt.Sprint(q.Text, q.BlockedDomains)
		cached := seen[k]
		seen[k] = true
		return &search.Response{Query: q, Provider: "fake", Results: current, Cached: cached}, nil
	}}
	h := newHandler(t, Options{Searcher: searcher, Upstream: noEnrich()})
	answer := func(body []byte) (ids, tokens []string, text string) {
		rec := post(t, h, "/v1/messages", nil, body)
		checkSealed(t, rec.Body.Bytes())
		tool := ""
		for _, m := range reMsgID.FindAll(rec.Body.Bytes(), -1) {
			ids = append(ids, string(m))
			if id := string(m); strings.HasPrefix(id, `"srvtoolu_`) {
				// The server_tool_use id and the result's tool_use_id.
				if tool != "" && id != tool || id == `"`+placeholderToolID+`"` {
					t.Fatalf("tool use ids %s and %s in one response", tool, id)
				}
				tool = id
			}
		}
		tokens = reSealedID.FindAllString(rec.Body.String(), -1)
		return ids, tokens, string(normalize(rec.Body.Bytes()))
	}
	current = goResults
	body := oldStyleBody("golang generics", true, nil)
	_, tok0, text0 := answer(body) // provider call: composed, not kept
	ids1, tok1, text1 := answer(body)
	ids2, tok2, text2 := answer(body)
	if len(tok1) == 0 || slices.Equal(tok0, tok1) {
		t.Errorf("the answer to a search not answered from the cache was kept")
	}
	if !slices.Equal(tok1, tok2) {
		t.Errorf("a repeated search did not reuse its sealed tokens")
	}
	if text0 != text1 || text1 != text2 {
		t.Errorf("a repeated search answered differently:\n%s\n%s", text1, text2)
	}
	if slices.Equal(ids1, ids2) {
		t.Errorf("a reused answer kept its message and tool ids: %v", ids1)
	}
	for name, b := range map[string][]byte{
		"query":  oldStyleBody("golang generic", true, nil),
		"filter": oldStyleBody("golang generics", true, map[string]any{"type": "web_search_20250305", "name": "web_search", "blocked_domains": []string{"nothing.example"}}),
	} {
		answer(b)
		if _, tok, _ := answer(b); len(tok) == 0 || tok[0] == tok1[0] {
			t.Errorf("a search with another %s reused the first answer's tokens", name)
		}
	}
	current = slices.Clone(goResults)
	current[0].Snippet += " More."
	if _, tok, text := answer(body); tok[0] == tok1[0] || !strings.Contains(text, "More.") {
		t.Errorf("the same query with new results reused the old answer")
	}
}

// TestConcurrentAnswersIntact: answers composed into pooled memory at the
// same time never leak into each other: every sealed result opens and
// names the query of the response it came in.
func TestConcurrentAnswersIntact(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	srv := httptest.NewServer(h)
	defer srv.Close()
	s := testSealer(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				q := fmt.Sprintf("query %d %d", g, i)
				resp, err := http.Post(srv.URL+"/v1/messages", "application/json", bytes.NewReader(oldStyleBody(q, i%2 == 0, nil)))
				if err != nil {
					t.Error(err)
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				toks := regexpAllSubmatch(`"title":"([^"\\]*)","url":"([^"]+)","encrypted_content":"([^"]+)"`, body)
				if len(toks) != len(goResults) {
					t.Errorf("%q: %d results", q, len(toks))
					return
				}
				for _, m := range toks {
					r, err := s.OpenResult(m[3], m[2], m[1], q)
					if err != nil || r.Query != q {
						t.Errorf("%q: sealed result for %+v (%v)", q, r, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestFastPathSearchBackstop: a search that never returns on its own is
// cancelled at maxSearchTime, streaming or not, and answered with
// "unavailable" inside a complete response.
func TestFastPathSearchBackstop(t *testing.T) {
	defer func(d time.Duration) { maxSearchTime = d }(maxSearchTime)
	maxSearchTime = 20 * time.Millisecond
	causes := make(chan error, 2)
	searcher := &fakeSearcher{fn: func(ctx context.Context, q search.Query) (*search.Response, error) {
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return nil, ctx.Err()
	}}
	up := noEnrich()
	up.WebSearch.PingInterval = time.Millisecond
	h := newHandler(t, Options{Searcher: searcher, Upstream: up})
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, stream := range []bool{true, false} {
		ctx, cancel := context.WithTimeout(context.Background(), safety)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(oldStyleBody("golang", stream, nil)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		if !strings.Contains(string(body), `"error_code":"unavailable"`) || stream && !strings.HasSuffix(string(body), "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
			t.Errorf("stream=%v: %s", stream, body)
		}
		if cause := <-causes; stream && !errors.Is(cause, errSearchTimeout) || !stream && !errors.Is(cause, context.DeadlineExceeded) {
			t.Errorf("stream=%v: search cancelled by %v", stream, cause)
		}
	}
}

func TestNewIDs(t *testing.T) {
	seen := map[string]bool{}
	chars := map[rune]bool{}
	for range 2000 {
		ids := [3]string{}
		ids[0], ids[1], ids[2] = newIDs()
		for i, prefix := range []string{"req_", "msg_", "srvtoolu_"} {
			id := ids[i]
			rest, ok := strings.CutPrefix(id, prefix)
			if !ok || len(rest) != 24 {
				t.Fatalf("id %q: want %s and 24 characters", id, prefix)
			}
			for _, c := range rest {
				if !strings.ContainsRune(idAlphabet, c) {
					t.Fatalf("id %q: %q is not base62", id, c)
				}
				chars[c] = true
			}
			if seen[rest] {
				t.Fatalf("id %q drawn twice", id)
			}
			seen[rest] = true
		}
	}
	if id := newID("req_"); !strings.HasPrefix(id, "req_") || len(id) != 4+idLen || seen[id[4:]] {
		t.Errorf("newID = %q: want req_ and %d fresh characters", id, idLen)
	}
	// 144,000 draws cover every character of the alphabet.
	if len(chars) != len(idAlphabet) {
		t.Errorf("ids use %d of the %d base62 characters", len(chars), len(idAlphabet))
	}
}
