//go:build load

package cli

// The bounded load and fault suite. Run it with
//
//	go test -tags=load -run Load -v -count=1 ./internal/cli
//
// Everything is on loopback: the SearXNG and upstream fakes, the pages and
// the replicas. Every loop is bounded in count and every client in time.
// Each test prints one line per scenario with the load held and the
// errors seen; docs/benchmarks.md records them.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cacheGoroutines is how many goroutines one stopped replica may leave:
// each in-process cache (otter) runs a clean-up goroutine that ends only
// once the cache is garbage, and the test still holds the replica.
const cacheGoroutines = 3

// leftOver is the slack allowed for n stopped replicas.
func leftOver(n int) int { return n*cacheGoroutines + 2 }

// report prints a figure both to the test log and to stdout.
func report(t *testing.T, format string, args ...any) {
	t.Helper()
	line := fmt.Sprintf(format, args...)
	t.Log(line)
	fmt.Println("LOAD:", t.Name()+":", line)
}

// upstreamFake is an Anthropic-compatible upstream that streams events
// slowly: events message events, one every gap. mode "cut" drops the
// connection halfway through without finishing the stream.
func upstreamFake(t *testing.T, events int, gap time.Duration, mode string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fl := w.(http.Flusher)
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"m\",\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n")
		fmt.Fprint(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
		fl.Flush()
		for i := range events {
			if mode == "cut" && i == events/2 {
				if hj, ok := w.(http.Hijacker); ok {
					if c, _, err := hj.Hijack(); err == nil {
						c.Close()
					}
				}
				return
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
			fmt.Fprintf(w, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"chunk %d %s\"}}\n\n", i, strings.Repeat("x", 64))
			fl.Flush()
		}
		fmt.Fprint(w, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
		fmt.Fprint(w, "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":5}}\n\n")
		fmt.Fprint(w, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func fastPathBody(query string) string {
	b, _ := json.Marshal(map[string]any{
		"model": "claude-sonnet-4-20250514", "max_tokens": 32000, "stream": true,
		"system":   "You are an assistant for performing a web search tool use",
		"messages": []any{map[string]any{"role": "user", "content": "Perform a web search for the query: " + query}},
		"tools":    []any{map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": 8}},
	})
	return string(b)
}

func passthroughBody(i int) string {
	return fmt.Sprintf(`{"model":"claude-sonnet-4-20250514","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hello %d"}]}`, i)
}

// streamResult is what one client saw of one stream.
type streamResult struct {
	status   int
	complete bool // saw message_stop
	events   int
	took     time.Duration
	err      error
}

// stream posts body to /v1/messages and reads the SSE response to its end.
// readDelay, when set, sleeps between reads (a slow-drip client).
func stream(ctx context.Context, client *http.Client, base, body string, readDelay time.Duration) streamResult {
	start := time.Now()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/v1/messages", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("x-api-key", "sk-test")
	resp, err := client.Do(req)
	if err != nil {
		return streamResult{err: err, took: time.Since(start)}
	}
	defer resp.Body.Close()
	res := streamResult{status: resp.StatusCode}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "event: ") {
			res.events++
			if line == "event: message_stop" {
				res.complete = true
			}
		}
		if readDelay > 0 {
			time.Sleep(readDelay)
		}
	}
	res.err = sc.Err()
	res.took = time.Since(start)
	return res
}

// settle waits until the goroutine count stops falling (at most 10s) and
// returns it with the heap in use after a GC.
func settle() (goroutines int, heapMiB float64) {
	prev := -1
	for range 50 {
		goruntime.GC()
		n := goruntime.NumGoroutine()
		if n == prev {
			break
		}
		prev = n
		time.Sleep(200 * time.Millisecond)
	}
	var ms goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&ms)
	return goruntime.NumGoroutine(), float64(ms.HeapInuse) / (1 << 20)
}

func newLoadClient() *http.Client {
	return &http.Client{
		Timeout:   60 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 1000, MaxConnsPerHost: 0, IdleConnTimeout: 30 * time.Second},
	}
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// loadConfig is a replica behind a concurrency cap large enough for the
// suite, with the fast path on (enrichment off: its pages would be on
// the internet) and passthrough to upstream.
func loadConfig(searx, upstream, extra string) string {
	return replicaYAML(searx, "", fmt.Sprintf(`server: {max_concurrent_requests: 2000, shutdown_timeout: 2s}
upstream: {base_url: %q, api_key: sk-upstream, web_search: {enrich: false}}
`, upstream)+extra)
}

// TestLoadConcurrentStreams holds 500 concurrent SSE streams on
// /v1/messages, half Claude Code searches on the fast path, half
// passthrough streams from an upstream that drips 20 events over a second,
// twice; after each round it lets the process settle and compares
// goroutines and heap, so a leak shows as growth between rounds.
func TestLoadConcurrentStreams(t *testing.T) {
	searx, _ := searxngFake(t)
	up := upstreamFake(t, 20, 50*time.Millisecond, "")
	gStart, _ := settle()
	r := startReplica(t, loadConfig(searx.URL, up.URL, ""), nil)
	client := newLoadClient()
	const streams = 500
	g0, h0 := settle()
	var rounds [2]struct {
		goroutines int
		heap       float64
	}
	for round := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		results := make([]streamResult, streams)
		var peak atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		stopPeak := make(chan struct{})
		go func() {
			for {
				select {
				case <-stopPeak:
					return
				case <-time.After(50 * time.Millisecond):
					if n := int64(r.Svc.Metrics.Snapshot().ActiveStreams); n > peak.Load() {
						peak.Store(n)
					}
				}
			}
		}()
		for i := range streams {
			wg.Go(func() {
				body := passthroughBody(i)
				if i%2 == 0 {
					body = fastPathBody(fmt.Sprintf("go generics %d-%d", round, i))
				}
				results[i] = stream(ctx, client, r.URL, body, 0)
			})
		}
		wg.Wait()
		close(stopPeak)
		cancel()
		elapsed := time.Since(start)
		var ok, failed int
		var fast, pass []time.Duration
		var errs []string
		for i, res := range results {
			if res.err == nil && res.status == 200 && res.complete {
				ok++
				if i%2 == 0 {
					fast = append(fast, res.took)
				} else {
					pass = append(pass, res.took)
				}
				continue
			}
			failed++
			if len(errs) < 5 {
				errs = append(errs, fmt.Sprintf("#%d status=%d complete=%v err=%v", i, res.status, res.complete, res.err))
			}
		}
		client.CloseIdleConnections()
		g, h := settle()
		rounds[round].goroutines, rounds[round].heap = g, h
		report(t, "round %d: %d concurrent streams (%d fast path, %d passthrough) in %s: %d complete, %d failed; peak active streams %d; fast path p50 %s p99 %s; passthrough p50 %s p99 %s; goroutines %d -> %d, heap %.1f -> %.1f MiB",
			round+1, streams, streams/2, streams/2, elapsed.Round(time.Millisecond), ok, failed, peak.Load(),
			quantile(fast, .5).Round(time.Millisecond), quantile(fast, .99).Round(time.Millisecond),
			quantile(pass, .5).Round(time.Millisecond), quantile(pass, .99).Round(time.Millisecond), g0, g, h0, h)
		if failed > 0 {
			t.Errorf("round %d: %d streams failed: %s", round+1, failed, strings.Join(errs, "; "))
		}
	}
	if d := rounds[1].goroutines - rounds[0].goroutines; d > 20 {
		t.Errorf("goroutines grew by %d between identical rounds: a leak", d)
	}
	if d := rounds[1].heap - rounds[0].heap; d > 16 {
		t.Errorf("heap grew by %.1f MiB between identical rounds: a leak", d)
	}
	if n := r.Svc.Metrics.Snapshot().ActiveStreams; n != 0 {
		t.Errorf("%d streams still counted active", n)
	}
	if err := r.Stop(); err != nil {
		t.Error(err)
	}
	g, _ := settle()
	report(t, "after shutdown: goroutines %d (%d before the replica started)", g, gStart)
	if g-gStart > leftOver(1) {
		t.Errorf("%d goroutines left behind after shutdown", g-gStart)
	}
}

// faultProvider misbehaves as told by mode: a 429 storm with Retry-After,
// malformed 200 bodies, or hanging until the caller gives up.
func faultProvider(t *testing.T, mode *atomic.Value, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		switch mode.Load().(string) {
		case "429":
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":"rate limited"}`, http.StatusTooManyRequests)
		case "malformed":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"web": {"results": [ {"title": "trunc`)
		case "timeout":
			select {
			case <-r.Context().Done():
			case <-time.After(30 * time.Second):
			}
		case "500":
			http.Error(w, "boom", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestLoadProviderFaults: the first provider in the chain fails in each
// way a provider fails; the second (the SearXNG fake) keeps every search
// answered through fallback, hedging and the circuit breaker.
func TestLoadProviderFaults(t *testing.T) {
	searx, searxCalls := searxngFake(t)
	var mode atomic.Value
	var faultCalls atomic.Int64
	bad := faultProvider(t, &mode, &faultCalls)
	cfg := fmt.Sprintf(`search: {providers: [brave, searxng], retries: -1, hedge: 150ms, timeout: 5s, cache_ttl: -1s, breaker: {failures: 5, cooldown: 1s}}
providers: {brave: {api_key: test-key, base_url: %q}, searxng: {base_url: %q}}
server: {max_concurrent_requests: 2000}
metrics: {public: true}
`, bad.URL, searx.URL)
	r := startReplica(t, cfg, nil)
	client := newLoadClient()
	const requests, workers = 300, 20
	for _, m := range []string{"429", "malformed", "timeout", "500"} {
		mode.Store(m)
		faultCalls.Store(0)
		before := searxCalls.Load()
		var ok, failed atomic.Int64
		var lat []time.Duration
		var mu sync.Mutex
		jobs := make(chan int)
		var wg sync.WaitGroup
		start := time.Now()
		for range workers {
			wg.Go(func() {
				for i := range jobs {
					t0 := time.Now()
					resp, err := client.Get(fmt.Sprintf("%s/v1/search?q=fault+%s+%d", r.URL, m, i))
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
					if err != nil || resp.StatusCode != 200 {
						failed.Add(1)
						continue
					}
					ok.Add(1)
					mu.Lock()
					lat = append(lat, time.Since(t0))
					mu.Unlock()
				}
			})
		}
		for i := range requests {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		st := r.Svc.ProviderStatus()[0]
		report(t, "%s storm: %d searches by %d clients in %s: %d answered, %d failed; faulty provider asked %d times (breaker now %s), fallback answered %d; p50 %s p99 %s",
			m, requests, workers, time.Since(start).Round(time.Millisecond), ok.Load(), failed.Load(), faultCalls.Load(), st.State,
			searxCalls.Load()-before, quantile(lat, .5).Round(time.Millisecond), quantile(lat, .99).Round(time.Millisecond))
		if failed.Load() > 0 {
			t.Errorf("%s: %d searches failed although a healthy provider was in the chain", m, failed.Load())
		}
		if faultCalls.Load() >= requests {
			t.Errorf("%s: the faulty provider was asked %d times for %d searches: the breaker never opened", m, faultCalls.Load(), requests)
		}
		time.Sleep(1100 * time.Millisecond) // let the breaker's cooldown pass between scenarios
	}
	if got := r.metric(t, `webgate_provider_requests_total{outcome="rate_limited",provider="brave"} `); got == "" || got == "0" {
		t.Errorf("the 429 storm is not in the metrics: %q", got)
	}
}

// TestLoadUpstreamDisconnects: the upstream drops the connection in the
// middle of every stream. Clients see their streams end, nothing hangs,
// no goroutine is left behind, and the replica keeps serving.
func TestLoadUpstreamDisconnects(t *testing.T) {
	searx, _ := searxngFake(t)
	cut := upstreamFake(t, 10, 10*time.Millisecond, "cut")
	g0, _ := settle()
	r := startReplica(t, loadConfig(searx.URL, cut.URL, ""), nil)
	client := newLoadClient()
	const streams = 200
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	results := make([]streamResult, streams)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range streams {
		wg.Go(func() { results[i] = stream(ctx, client, r.URL, passthroughBody(i), 0) })
	}
	wg.Wait()
	var ended, complete, clientErrs, non200 int
	for _, res := range results {
		switch {
		case res.status != 200 && res.err == nil:
			non200++
		case res.complete:
			complete++
		case res.err != nil:
			clientErrs++
		default:
			ended++
		}
	}
	if code, _ := r.search(t, "still alive"); code != 200 {
		t.Errorf("search after the cuts = %d", code)
	}
	client.CloseIdleConnections()
	if err := r.Stop(); err != nil {
		t.Error(err)
	}
	g1, _ := settle()
	report(t, "%d passthrough streams cut mid-way by the upstream, in %s: %d ended early cleanly, %d ended with a client-side error, %d answered with an error status, %d complete (impossible); goroutines before the replica started %d, after it stopped %d",
		streams, time.Since(start).Round(time.Millisecond), ended, clientErrs, non200, complete, g0, g1)
	if complete > 0 {
		t.Errorf("%d streams claim completion although the upstream cut them", complete)
	}
	if d := g1 - g0; d > leftOver(1) {
		t.Errorf("%d goroutines left behind after cut streams", d)
	}
}

// TestLoadSlowDripClients: clients that send their request body a few
// bytes at a time, and clients that read their stream slowly (and some
// that give up half-way), while ordinary clients keep being served.
func TestLoadSlowDripClients(t *testing.T) {
	searx, _ := searxngFake(t)
	up := upstreamFake(t, 200, time.Millisecond, "")
	g0, _ := settle()
	r := startReplica(t, loadConfig(searx.URL, up.URL, ""), nil)
	client := newLoadClient()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	const slowSenders, slowReaders, quitters, normal = 50, 50, 25, 300
	var sendOK, readOK, quitOK, normalOK atomic.Int64
	start := time.Now()
	host := strings.TrimPrefix(r.URL, "http://")
	for i := range slowSenders {
		wg.Go(func() {
			body := fastPathBody(fmt.Sprintf("drip %d", i))
			c, err := net.DialTimeout("tcp", host, 5*time.Second)
			if err != nil {
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(c, "POST /v1/messages HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", host, len(body))
			for j := 0; j < len(body); j += 16 {
				c.Write([]byte(body[j:min(j+16, len(body))]))
				time.Sleep(20 * time.Millisecond)
			}
			b, _ := io.ReadAll(c)
			if strings.HasPrefix(string(b), "HTTP/1.1 200") && strings.Contains(string(b), "message_stop") {
				sendOK.Add(1)
			}
		})
	}
	for i := range slowReaders {
		wg.Go(func() {
			res := stream(ctx, client, r.URL, passthroughBody(i), 2*time.Millisecond)
			if res.complete {
				readOK.Add(1)
			}
		})
	}
	for i := range quitters {
		wg.Go(func() {
			qctx, qcancel := context.WithTimeout(ctx, 150*time.Millisecond)
			defer qcancel()
			res := stream(qctx, client, r.URL, passthroughBody(i), 5*time.Millisecond)
			if !res.complete && res.err != nil {
				quitOK.Add(1)
			}
		})
	}
	var lat []time.Duration
	var mu sync.Mutex
	for i := range normal {
		wg.Go(func() {
			t0 := time.Now()
			res := stream(ctx, client, r.URL, fastPathBody(fmt.Sprintf("normal %d", i%20)), 0)
			if res.complete {
				normalOK.Add(1)
				mu.Lock()
				lat = append(lat, time.Since(t0))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	client.CloseIdleConnections()
	if err := r.Stop(); err != nil {
		t.Error(err)
	}
	g1, _ := settle()
	report(t, "in %s: %d/%d slow senders answered, %d/%d slow readers got whole streams, %d/%d quitters cut off cleanly, %d/%d ordinary requests answered alongside (p50 %s, p99 %s); goroutines before the replica started %d, after it stopped %d",
		elapsed.Round(time.Millisecond), sendOK.Load(), slowSenders, readOK.Load(), slowReaders, quitOK.Load(), quitters,
		normalOK.Load(), normal, quantile(lat, .5).Round(time.Millisecond), quantile(lat, .99).Round(time.Millisecond), g0, g1)
	if sendOK.Load() != slowSenders || readOK.Load() != slowReaders || quitOK.Load() != quitters || normalOK.Load() != normal {
		t.Error("some clients were not served as expected (see the line above)")
	}
	if d := g1 - g0; d > leftOver(1) {
		t.Errorf("%d goroutines left behind after slow clients", d)
	}
}

// TestLoadShutdownDuringLoad: SIGTERM while 300 streams run, 100 of them
// longer than the drain deadline. Streams that fit the deadline finish,
// the rest are cancelled at it, new connections are refused from the
// start, and Serve returns with nothing left running.
func TestLoadShutdownDuringLoad(t *testing.T) {
	searx, _ := searxngFake(t)
	short := upstreamFake(t, 5, 100*time.Millisecond, "")  // ~0.5s
	long := upstreamFake(t, 1000, 10*time.Millisecond, "") // ~10s
	g0, _ := settle()
	var results [2][]streamResult
	var refused atomic.Int64
	var took time.Duration
	var serveErr error
	func() {
		rs := startReplica(t, loadConfig(searx.URL, short.URL, ""), nil)
		rl := startReplica(t, loadConfig(searx.URL, long.URL, ""), nil)
		client := newLoadClient()
		defer client.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		results[0], results[1] = make([]streamResult, 200), make([]streamResult, 100)
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Go(func() { results[0][i] = stream(ctx, client, rs.URL, passthroughBody(i), 0) })
		}
		for i := range 100 {
			wg.Go(func() { results[1][i] = stream(ctx, client, rl.URL, passthroughBody(i), 0) })
		}
		waitFor(t, "the streams to start", func() bool {
			return rs.Svc.Metrics.Snapshot().ActiveStreams >= 150 && rl.Svc.Metrics.Snapshot().ActiveStreams >= 90
		})
		start := time.Now()
		var swg sync.WaitGroup
		var errs [2]error
		swg.Go(func() { errs[0] = rs.Stop() })
		swg.Go(func() { errs[1] = rl.Stop() })
		// New requests during the drain are refused at connect.
		time.Sleep(50 * time.Millisecond)
		for range 20 {
			if _, err := client.Get(rl.URL + "/healthz"); err != nil {
				refused.Add(1)
			}
		}
		swg.Wait()
		took = time.Since(start)
		serveErr = errors.Join(errs[0], errs[1])
		wg.Wait()
	}()
	g1, _ := settle()
	var shortDone, longCut, longDone int
	for _, res := range results[0] {
		if res.complete {
			shortDone++
		}
	}
	for _, res := range results[1] {
		if res.complete {
			longDone++
		} else {
			longCut++
		}
	}
	report(t, "shutdown with 300 streams in flight took %s (drain deadline 2s): %d/200 short streams finished, %d/100 long streams cancelled at the deadline (%d finished), %d/20 new requests refused; Serve returned %v; goroutines before %d, after %d",
		took.Round(time.Millisecond), shortDone, longCut, longDone, refused.Load(), serveErr, g0, g1)
	if serveErr != nil || shortDone != 200 || longCut != 100 || refused.Load() != 20 {
		t.Error("shutdown did not drain and cancel as it should (see the line above)")
	}
	if d := g1 - g0; d > leftOver(2) {
		t.Errorf("%d goroutines left behind after the shutdown", d)
	}
}
