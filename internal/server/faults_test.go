package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/config"
	up "github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/messages/proxy"
	"github.com/webgate/webgate/internal/metrics"
)

// The fault-injection suite: a scripted upstream of each kind (Anthropic
// SSE; Chat Completions chunks for upstream kind openai) sends every
// malformed variant we know of, and each runs through every path of the
// whole server (auth, concurrency cap, access log, metrics, proxy): an
// emulated turn on kind anthropic and on kind openai, streaming and not,
// and passthrough. Each run must give an HTTP answer within a generous
// bound; a well-formed Anthropic answer (a message, an error response,
// or a stream ending with message_stop or an error event; passthrough
// relays the upstream's bytes faithfully and ends a broken stream with an
// error event); no panic; and, afterwards, no request in flight (so no
// slot held), no stream in the gauge and no goroutine beyond those
// before. Nothing here asserts on how long anything took: stalls are cut
// by a short idle timeout, and only an answer that never comes fails.

// faultCase is one upstream misbehaviour, scripted for both kinds.
type faultCase struct {
	name string
	// anthropic and openai are the bytes each kind of upstream sends.
	anthropic, openai []string
	// then is what the upstream does after them: "" ends the response,
	// "cut" drops the connection, "stall" keeps it open and silent.
	then string
	// stallHeaders sends nothing, not even headers.
	stallHeaders bool
	// status, when set, is an error answer with this status and an
	// Anthropic error body (which the openai fake rewrites in its shape).
	status int
	// emulated is the outcome an emulated turn must have; 0 accepts
	// either, as long as the answer is well formed.
	emulated up.Outcome
}

// Anthropic SSE pieces.
func sse(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }

var (
	aStart     = sse("message_start", `{"type":"message_start","message":{"id":"msg_up","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`)
	aPing      = sse("ping", `{"type":"ping"}`)
	aTextStart = sse("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	aText      = sse("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello."}}`)
	aTextStop  = sse("content_block_stop", `{"type":"content_block_stop","index":0}`)
	aDelta     = sse("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}`)
	aStop      = sse("message_stop", `{"type":"message_stop"}`)
	aError     = sse("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	aUnknown   = sse("future_event", `{"type":"future_event","detail":{"x":1}}`)
)

// Chat Completions stream pieces.
func chunk(delta, finish string) string {
	return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + "}]}\n\n"
}

var (
	oRole   = chunk(`{"role":"assistant","content":""}`, "null")
	oText   = chunk(`{"content":"Hello."}`, "null")
	oFinish = chunk(`{}`, `"stop"`)
	oUsage  = `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}` + "\n\n"
	oDone   = "data: [DONE]\n\n"
	oError  = `data: {"error":{"message":"Overloaded","type":"server_error","code":503}}` + "\n\n"
	oAlive  = ": keep-alive\n\n"
)

func faultCases() []faultCase {
	okA := []string{aStart, aPing, aTextStart, aText, aTextStop, aDelta, aStop}
	okO := []string{oRole, oText, oFinish, oUsage, oDone}
	return []faultCase{
		{name: "well formed", anthropic: okA, openai: okO, emulated: up.Complete},
		{name: "no message_start",
			anthropic: []string{aTextStart, aText, aTextStop, aDelta, aStop},
			openai:    []string{oText, oFinish, oUsage, oDone}},
		{name: "events out of order",
			anthropic: []string{aStart, aText, aTextStart, aTextStop, aDelta, aStop},
			openai:    []string{oFinish, oText, oUsage, oDone}},
		{name: "message_delta before message_start",
			anthropic: []string{aDelta, aStart, aTextStart, aText, aTextStop, aStop},
			openai:    []string{oUsage, oRole, oText, oFinish, oDone}},
		{name: "ping first",
			anthropic: append([]string{aPing}, okA...),
			openai:    append([]string{oAlive}, okO...), emulated: up.Complete},
		{name: "only a stop", anthropic: []string{aStop}, openai: []string{oDone}, emulated: up.Failed},
		{name: "nothing at all", anthropic: []string{}, openai: []string{}, emulated: up.Failed},
		{name: "unknown events",
			anthropic: []string{aStart, aUnknown, aTextStart, aText, aUnknown, aTextStop, aDelta, aStop, aUnknown},
			openai: []string{oRole, `data: {"object":"future.event","detail":{"x":1}}` + "\n\n", oText,
				chunk(`{"content":"","future_field":{"x":1}}`, "null"), oFinish, oUsage, oDone},
			emulated: up.Complete},
		{name: "truncated JSON",
			anthropic: []string{aStart, aTextStart, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_de\n\n", aTextStop, aDelta, aStop},
			openai:    []string{oRole, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\n\n", oFinish, oUsage, oDone},
			emulated:  up.Failed},
		{name: "duplicate indices",
			anthropic: []string{aStart, aTextStart, aText, aTextStop, aTextStart, aText, aTextStop, aDelta, aStop},
			openai: []string{oRole,
				chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"run","arguments":"{\"a\":"}}]}`, "null"),
				chunk(`{"tool_calls":[{"index":0,"id":"call_b","type":"function","function":{"name":"run","arguments":"{}"}}]}`, "null"),
				chunk(`{}`, `"tool_calls"`), oUsage, oDone}},
		{name: "error event mid-stream",
			anthropic: []string{aStart, aTextStart, aText, aError},
			openai:    []string{oRole, oText, oError}, emulated: up.Failed},
		{name: "error status", status: 529, emulated: up.Failed},
		{name: "stall before headers", stallHeaders: true, emulated: up.Failed},
		{name: "stall mid-stream",
			anthropic: []string{aStart, aTextStart, aText}, openai: []string{oRole, oText}, then: "stall", emulated: up.Failed},
		{name: "cut between events",
			anthropic: []string{aStart, aTextStart, aText}, openai: []string{oRole, oText}, then: "cut", emulated: up.Failed},
		{name: "cut mid-event",
			anthropic: []string{aStart, aTextStart, "event: content_block_delta\ndata: {\"type\":\"content_bl"},
			openai:    []string{oRole, "data: {\"choices\":[{\"ind"}, then: "cut", emulated: up.Failed},
	}
}

// faultPath is one way a request reaches the upstream.
type faultPath struct {
	name   string
	kind   string
	stream bool
	// passthrough requests declare no server tool, so kind anthropic
	// forwards them untouched.
	passthrough bool
}

var faultPaths = []faultPath{
	{"anthropic emulated stream", "anthropic", true, false},
	{"anthropic emulated json", "anthropic", false, false},
	{"openai emulated stream", "openai", true, false},
	{"openai emulated json", "openai", false, false},
	{"passthrough stream", "anthropic", true, true},
}

// faultIdle cuts the stalls: it is response_header_timeout, which also
// bounds every read once a reply has begun. Only the stall cases wait
// for it; everything else has a timeout no run reaches.
const faultIdle = time.Second

// faultBound is the generous bound on each answer: only a hang reaches
// it.
const faultBound = 60 * time.Second

func TestFaultInjection(t *testing.T) {
	rec := metrics.New(metrics.Options{})
	base := testOptions()
	// One server per upstream kind and idle timeout, made before any
	// goroutine is counted and shared by every run.
	envs := map[string]*faultEnv{}
	for _, kind := range []string{"anthropic", "openai"} {
		for _, stall := range []bool{false, true} {
			envs[envKey(kind, stall)] = newFaultEnv(t, kind, stall, rec, base)
		}
	}
	for _, fc := range faultCases() {
		for _, fp := range faultPaths {
			t.Run(fc.name+"/"+fp.name, func(t *testing.T) {
				runFault(t, envs[envKey(fp.kind, fc.stallHeaders || fc.then == "stall")], fc, fp, rec)
			})
		}
	}
	t.Run("every slot is free afterwards", func(t *testing.T) { checkSlotsFree(t, envs[envKey("anthropic", false)]) })
}

func envKey(kind string, stall bool) string { return fmt.Sprintf("%s/%v", kind, stall) }

// faultEnv is a server over one scripted upstream, whose reply each run
// sets.
type faultEnv struct {
	st       *state
	srv      *httptest.Server
	upstream *up.Upstream
	logs     *lockedBuffer
	errLog   *lockedBuffer
	mu       sync.Mutex
	reply    up.Step
}

// maxFaultRequests bounds the upstream requests of the whole suite.
const maxFaultRequests = 1000

func newFaultEnv(t *testing.T, kind string, stall bool, rec *metrics.Recorder, base Options) *faultEnv {
	t.Helper()
	e := &faultEnv{st: &state{}, logs: &lockedBuffer{}, errLog: &lockedBuffer{}}
	steps := make([]up.Step, maxFaultRequests)
	for i := range steps {
		steps[i] = func(req up.Request) up.Reply {
			e.mu.Lock()
			step := e.reply
			e.mu.Unlock()
			return step(req)
		}
	}
	// Only the stall cases may meet the idle timeout
	// (response_header_timeout, which also bounds every read once a
	// reply has begun); the others get one no run reaches.
	idle := time.Hour
	if stall {
		idle = faultIdle
	}
	cfg := config.Upstream{ResponseHeaderTimeout: idle}
	if kind == "openai" {
		e.upstream = up.NewOpenAI(t, steps...)
		cfg.Kind, cfg.BaseURL = "openai", e.upstream.URL+"/v1"
	} else {
		e.upstream = up.New(t, steps...)
		cfg.BaseURL = e.upstream.URL
	}
	off := false
	cfg.WebSearch.Enrich = &off
	logger := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	// No connection outlives its request, so goroutines can be counted.
	hc := &http.Client{
		Transport:     &http.Transport{DisableKeepAlives: true, ResponseHeaderTimeout: idle},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	msgs, err := proxy.New(proxy.Options{Searcher: fakeSearcher{}, Upstream: cfg, HTTPClient: hc, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	opts := base
	opts.Messages, opts.Observer, opts.Logger, opts.MaxConcurrent = msgs, rec, logger, 2
	e.srv = httptest.NewUnstartedServer(handler(opts, e.st))
	e.srv.Config.ErrorLog = log.New(e.errLog, "", 0)
	e.srv.Start()
	t.Cleanup(e.srv.Close)
	return e
}

func (e *faultEnv) setReply(step up.Step) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reply = step
}

// post sends a request down fp and reads the whole answer.
func (e *faultEnv) post(t *testing.T, ctx context.Context, fp faultPath) (int, http.Header, []byte, error) {
	t.Helper()
	body := map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": fp.stream,
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}}
	if !fp.passthrough {
		body["tools"] = []any{map[string]any{"type": "web_search_20250305", "name": "web_search"}}
	}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.srv.URL+"/v1/messages", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out, err
}

func runFault(t *testing.T, e *faultEnv, fc faultCase, fp faultPath, rec *metrics.Recorder) {
	raw := fc.anthropic
	if fp.kind == "openai" {
		raw = fc.openai
	}
	e.setReply(func(up.Request) up.Reply {
		rep := up.Reply{Raw: raw, StallHeaders: fc.stallHeaders, Cut: fc.then == "cut", Hold: fc.then == "stall"}
		if raw == nil {
			rep.Raw = []string{}
		}
		if fc.status != 0 {
			rep.Status, rep.Body = fc.status, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
		}
		return rep
	})
	logged, errLogged := len(e.logs.String()), len(e.errLog.String())
	goroutines := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(t.Context(), faultBound)
	status, hdr, body, err := e.post(t, ctx, fp)
	cancel()
	switch {
	case err != nil:
		t.Errorf("no complete answer: %v (status %d, %d bytes read: %.300q)", err, status, len(body), body)
	case fp.passthrough:
		checkPassthrough(t, fc, status, hdr, body)
	default:
		outcome, err := up.CheckAnswer(status, hdr, body)
		if err != nil {
			t.Errorf("malformed answer: %v\nstatus %d\n%s", err, status, body)
		} else if fc.emulated != 0 && outcome != fc.emulated {
			t.Errorf("outcome %s, want %s: status %d\n%s", outcome, fc.emulated, status, body)
		}
	}
	checkBaseline(t, e, rec, goroutines)
	if s := e.errLog.String()[errLogged:]; strings.Contains(s, "panic") {
		t.Errorf("the server panicked:\n%s", s)
	}
	if s := e.logs.String()[logged:]; strings.Contains(s, "level=ERROR") {
		t.Errorf("errors logged:\n%s", s)
	}
}

// checkPassthrough: passthrough relays the upstream's bytes as they are
// (however malformed), except that a stream that breaks off or goes
// silent ends, after its last complete event, with an error event; an
// upstream that never answers gets a timeout error.
func checkPassthrough(t *testing.T, fc faultCase, status int, hdr http.Header, body []byte) {
	t.Helper()
	sent := strings.Join(fc.anthropic, "")
	switch {
	case fc.stallHeaders || fc.status != 0:
		if outcome, err := up.CheckAnswer(status, hdr, body); err != nil || outcome != up.Failed {
			t.Errorf("status %d, %s: %v\n%s", status, outcome, err, body)
		}
	case fc.then == "":
		if status != http.StatusOK || string(body) != sent {
			t.Errorf("status %d, relayed:\n%q\nupstream sent:\n%q", status, body, sent)
		}
	default:
		whole := sent[:strings.LastIndex(sent, "\n\n")+2]
		rest, ok := strings.CutPrefix(string(body), whole)
		if status != http.StatusOK || !ok || !strings.HasPrefix(rest, "event: error\ndata: ") {
			t.Errorf("status %d, relayed:\n%q\nwant the upstream's complete events:\n%q\nand an error event", status, body, whole)
		}
		if outcome, err := up.CheckAnswer(status, hdr, body); err != nil || outcome != up.Failed {
			t.Errorf("the relayed stream does not end well formed: %s, %v\n%s", outcome, err, body)
		}
	}
}

// checkBaseline waits (generously) for a run to leave nothing behind:
// no handler running (so no concurrency slot taken), no stream counted
// as active, no goroutine beyond those before it.
func checkBaseline(t *testing.T, e *faultEnv, rec *metrics.Recorder, goroutines int) {
	t.Helper()
	deadline := time.Now().Add(faultBound)
	for {
		active, streams, n := e.st.active.Load(), activeStreams(t, rec), runtime.NumGoroutine()
		if active == 0 && streams == 0 && n <= goroutines {
			return
		}
		if time.Now().After(deadline) {
			var stacks bytes.Buffer
			_ = pprof.Lookup("goroutine").WriteTo(&stacks, 1)
			t.Fatalf("left behind: %d requests in flight, %v streams active, %d goroutines (before: %d)\n%s", active, streams, n, goroutines, stacks.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// activeStreams reads webgate_http_streams_active, all surfaces.
func activeStreams(t *testing.T, rec *metrics.Recorder) float64 {
	t.Helper()
	mfs, err := rec.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n float64
	for _, mf := range mfs {
		if mf.GetName() == "webgate_http_streams_active" {
			for _, m := range mf.GetMetric() {
				n += m.GetGauge().GetValue()
			}
		}
	}
	return n
}

// checkSlotsFree: the server's concurrency cap (2 in these runs) admits
// two requests at once, so none of the runs above kept a slot. Both
// requests wait at an upstream that never answers until their clients
// give up.
func checkSlotsFree(t *testing.T, e *faultEnv) {
	e.setReply(func(up.Request) up.Reply { return up.Reply{StallHeaders: true} })
	before := len(e.upstream.Requests())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan string, 2)
	for range 2 {
		go func() {
			status, _, body, err := e.post(t, ctx, faultPath{passthrough: true})
			done <- fmt.Sprintf("%d %s %v", status, body, err)
		}()
	}
	deadline := time.Now().Add(faultBound)
	for len(e.upstream.Requests()) < before+2 {
		select {
		case got := <-done:
			t.Fatalf("a request ended before both reached the upstream (a slot was taken): %s", got)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d requests reached the upstream", len(e.upstream.Requests())-before)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	<-done
}
