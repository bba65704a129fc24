package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/search"
)

// The emulation scenarios drive the proxy with raw client requests against
// emulatetest's scripted upstreams. Each scenario is a list of rounds
// (client requests); a round's body may build on the previous round's
// answer, as a client continuing a conversation does. Every scenario runs
// over both upstream kinds, the Anthropic-compatible fake and the
// OpenAI-compatible one playing the same script, and for each twice, once
// streaming (each stream rebuilt with anthropic-sdk-go's accumulator) and
// once not; the two answers must agree, and the transcripts (client
// answers and the requests the upstream received, byte for byte) are
// compared with testdata/golden/emulate/<name>.txt (kind anthropic) and
// testdata/golden/emulate_openai/<name>.txt (kind openai).

// upstreamKinds are the upstream kinds every scenario runs over.
var upstreamKinds = []string{"anthropic", "openai"}

// newFake starts the scripted upstream of kind and points cfg at it.
func newFake(t *testing.T, kind string, cfg *config.Upstream, steps ...emulatetest.Step) *emulatetest.Upstream {
	t.Helper()
	if kind == "openai" {
		u := emulatetest.NewOpenAI(t, steps...)
		cfg.Kind, cfg.BaseURL = "openai", u.URL+"/v1"
		cfg.Models = append(cfg.Models, config.ModelRule{Pattern: "claude-*", Model: "qwen3-coder"})
		return u
	}
	u := emulatetest.New(t, steps...)
	cfg.BaseURL = u.URL
	return u
}

// round is one client request of a scenario.
type round struct {
	// body builds the request from the previous round's message content
	// (nil for the first round).
	body func(prev []json.RawMessage) map[string]any
	// steps answer this round's upstream calls.
	steps []emulatetest.Step
	// status is the expected HTTP status; 0 means 200. jsonStatus, when
	// set, is the status expected of the non-streaming run instead (a
	// failure after a stream began is an error event in a 200).
	status, jsonStatus int
	// check inspects the round's outcome.
	check func(t *testing.T, r *roundResult)
}

// roundResult is what one round produced.
type roundResult struct {
	kind   string
	stream bool
	status int
	// raw is the response body (SSE or JSON).
	raw []byte
	// msg is the message: accumulated from the stream, or decoded.
	msg sdk.Message
	// events are the event types of a stream, in order.
	events []string
	// reqs are the upstream requests made during the round.
	reqs []emulatetest.Request
}

// content returns the message's blocks as raw JSON, as a client sends
// them back.
func (r *roundResult) content(t *testing.T) []json.RawMessage {
	t.Helper()
	var m struct {
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal([]byte(r.msg.RawJSON()), &m); err != nil {
		t.Fatalf("message content: %v", err)
	}
	return m.Content
}

// scenario is one emulation test.
type scenario struct {
	name     string
	rounds   []round
	searcher search.Searcher
	getter   fetch.Getter
	upstream config.Upstream
}

func (sc *scenario) run(t *testing.T, kind string, stream bool) []*roundResult {
	t.Helper()
	var steps []emulatetest.Step
	for _, r := range sc.rounds {
		steps = append(steps, r.steps...)
	}
	cfg := sc.upstream
	up := newFake(t, kind, &cfg, steps...)
	if cfg.WebSearch.Enrich == nil {
		off := false
		cfg.WebSearch.Enrich = &off
	}
	searcher := sc.searcher
	if searcher == nil {
		searcher = results(goResults...)
	}
	if r, ok := searcher.(interface{ reset() }); ok {
		r.reset()
	}
	h := newHandler(t, Options{Searcher: searcher, Fetcher: sc.getter, Upstream: cfg})
	srv := httptest.NewServer(h)
	defer srv.Close()
	var out []*roundResult
	var prev []json.RawMessage
	seen := 0
	for i, rd := range sc.rounds {
		body := rd.body(prev)
		body["stream"] = stream
		r := post2(t, srv.URL, body)
		r.stream, r.kind = stream, kind
		reqs := up.Requests()
		r.reqs = reqs[seen:]
		seen = len(reqs)
		want := rd.status
		if !stream && rd.jsonStatus != 0 {
			want = rd.jsonStatus
		}
		if want == 0 {
			want = http.StatusOK
		}
		if r.status != want {
			t.Fatalf("round %d: status %d, want %d: %s", i+1, r.status, want, r.raw)
		}
		if r.status == http.StatusOK {
			r.decode(t)
			prev = r.content(t)
		}
		if rd.check != nil {
			rd.check(t, r)
		}
		out = append(out, r)
	}
	return out
}

func post2(t *testing.T, base string, body map[string]any) *roundResult {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/messages", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", "sk-client")
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatalf("read response: %v", err)
	}
	return &roundResult{status: resp.StatusCode, raw: buf.Bytes()}
}

// decode fills msg: from the SSE stream through the SDK's accumulator, or
// from the JSON body.
func (r *roundResult) decode(t *testing.T) {
	t.Helper()
	if !r.stream {
		if err := json.Unmarshal(r.raw, &r.msg); err != nil {
			t.Fatalf("decode message: %v\n%s", err, r.raw)
		}
		return
	}
	for _, ev := range events(t, bytes.NewReader(r.raw)) {
		var e sdk.MessageStreamEventUnion
		if err := json.Unmarshal(ev.Data, &e); err != nil {
			t.Fatalf("decode %s event: %v", ev.Name, err)
		}
		if e.Type != ev.Name {
			t.Fatalf("event %q carries type %q", ev.Name, e.Type)
		}
		r.events = append(r.events, e.Type)
		if e.Type == "error" {
			continue
		}
		if err := r.msg.Accumulate(e); err != nil {
			t.Fatalf("SDK accumulator rejected %s: %v\n%s", ev.Name, err, ev.Data)
		}
	}
}

// runScenario runs sc over each upstream kind, streaming and not, checks
// the two agree and compares the transcript with the kind's golden file.
func runScenario(t *testing.T, sc scenario) {
	t.Helper()
	for _, kind := range upstreamKinds {
		t.Run(kind, func(t *testing.T) { runScenarioKind(t, sc, kind) })
	}
}

func runScenarioKind(t *testing.T, sc scenario, kind string) {
	t.Helper()
	streamed := sc.run(t, kind, true)
	whole := sc.run(t, kind, false)
	var golden bytes.Buffer
	ids := newIDNormalizer()
	for i := range streamed {
		s, w := streamed[i], whole[i]
		if s.status == http.StatusOK && w.status == http.StatusOK {
			sm, wm := normalizedMessage(t, s), normalizedMessage(t, w)
			if diff := cmp.Diff(wm, sm); diff != "" {
				t.Errorf("round %d: accumulated stream differs from the JSON message (-json +stream):\n%s", i+1, diff)
			}
		}
		for j, req := range s.reqs {
			fmt.Fprintf(&golden, "-- round %d: upstream request %d --\n", i+1, j+1)
			golden.Write(indentJSON(ids.apply(req.Raw)))
		}
		fmt.Fprintf(&golden, "-- round %d: response, streamed (status %d) --\n", i+1, s.status)
		golden.Write(ids.apply(s.raw))
		if !bytes.HasSuffix(s.raw, []byte("\n")) {
			golden.WriteByte('\n')
		}
		fmt.Fprintf(&golden, "-- round %d: response, JSON (status %d) --\n", i+1, w.status)
		golden.Write(indentJSON(ids.apply(w.raw)))
	}
	dir := "emulate"
	if kind != "anthropic" {
		dir += "_" + kind
	}
	compareGolden(t, filepath.Join("testdata", "golden", dir, sc.name+".txt"), golden.Bytes())
}

// normalizedMessage is a message as comparable JSON: ids and sealed
// tokens replaced, the message id dropped.
func normalizedMessage(t *testing.T, r *roundResult) any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(normalize([]byte(r.msg.RawJSON())), &v); err != nil {
		t.Fatalf("message JSON: %v", err)
	}
	delete(v, "id")
	return v
}

func indentJSON(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return append(b, '\n')
	}
	return append(out.Bytes(), '\n')
}

// idNormalizer replaces random ids and sealed tokens with numbered
// placeholders, the same id always by the same placeholder, so a golden
// transcript still shows which blocks pair up.
type idNormalizer struct {
	seen map[string]string
	n    map[string]int
}

func newIDNormalizer() *idNormalizer {
	return &idNormalizer{seen: map[string]string{}, n: map[string]int{}}
}

var reAnyID = regexp.MustCompile(`\b(msg|srvtoolu|req)_[0-9A-Za-z]{24}\b|wg[12]\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)

func (z *idNormalizer) apply(b []byte) []byte {
	return reAnyID.ReplaceAllFunc(b, func(m []byte) []byte {
		k := string(m)
		if p, ok := z.seen[k]; ok {
			return []byte(p)
		}
		kind := "sealed"
		if i := strings.IndexByte(k, '_'); i > 0 && !strings.HasPrefix(k, "wg") {
			kind = k[:i]
		}
		z.n[kind]++
		p := fmt.Sprintf("<%s-%d>", kind, z.n[kind])
		z.seen[k] = p
		return []byte(p)
	})
}

// blockTypes lists a message's block types.
func blockTypes(m *sdk.Message) []string {
	var out []string
	for _, b := range m.Content {
		out = append(out, b.Type)
	}
	return out
}

// queryResults answers each query with its own results, goResults
// otherwise.
type queryResults struct {
	mu      sync.Mutex
	byQuery map[string][]search.Result
	queries []string
	// block, when set, makes Search wait for ctx and report it.
	block   bool
	entered chan struct{}
	exited  chan error
}

func (q *queryResults) Search(ctx context.Context, query search.Query) (*search.Response, error) {
	q.mu.Lock()
	q.queries = append(q.queries, query.Text)
	q.mu.Unlock()
	if q.block {
		q.entered <- struct{}{}
		<-ctx.Done()
		q.exited <- ctx.Err()
		return nil, ctx.Err()
	}
	rs, ok := q.byQuery[query.Text]
	if !ok {
		rs = goResults
	}
	return &search.Response{Query: query, Provider: "fake", Results: rs}, nil
}

func (q *queryResults) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queries = nil
}

func (q *queryResults) seen() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]string(nil), q.queries...)
}

// docGetter serves fixed documents by URL.
type docGetter struct {
	mu   sync.Mutex
	docs map[string]*fetch.Result
	got  []fetch.Request
}

var retrievedAt = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func (g *docGetter) Fetch(_ context.Context, req fetch.Request) (*fetch.Result, error) {
	g.mu.Lock()
	g.got = append(g.got, req)
	g.mu.Unlock()
	d, ok := g.docs[req.URL]
	if !ok {
		return nil, &fetch.StatusError{URL: req.URL, Code: http.StatusNotFound}
	}
	r := *d
	r.URL, r.FinalURL, r.RetrievedAt = req.URL, req.URL, retrievedAt
	if max := req.MaxTokens * fetch.CharsPerToken; req.MaxTokens > 0 && len(r.Content) > max && r.ContentType != "application/pdf" {
		r.Content, r.Truncated = r.Content[:max], true
	}
	return &r, nil
}

// userMsg is a user message.
func userMsg(s string) map[string]any { return map[string]any{"role": "user", "content": s} }

// assistantContent is an assistant message with the given blocks.
func assistantContent(blocks []json.RawMessage) map[string]any {
	return map[string]any{"role": "assistant", "content": blocks}
}

// request builds a client request body.
func request(tools []any, messages ...any) map[string]any {
	return map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 1024, "tools": tools, "messages": messages}
}
