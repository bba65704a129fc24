package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

const pageHTML = `<!doctype html><html><head><title>Shared page</title></head><body><main><article>
<h1>Shared page</h1><p>This page is fetched once and then served to every replica from the shared cache,
which is the point of running webgate behind Redis. It has enough prose to count as an article.</p>
</article></main></body></html>`

func pageServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, pageHTML)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestReplicasShareCachesOverMiniredis: what one replica searched or
// fetched, the other answers from Redis without asking the provider or the
// site again, and the metrics say which tier answered.
func TestReplicasShareCachesOverMiniredis(t *testing.T) {
	mr := miniredis.RunT(t)
	searx, searches := searxngFake(t)
	page, downloads := pageServer(t)
	cfg := replicaYAML(searx.URL, "redis://"+mr.Addr()+"/0", "metrics: {public: true}\n")
	a, b := startReplica(t, cfg, nil), startReplica(t, cfg, nil)

	if code, body := a.search(t, "go generics"); code != 200 || !strings.Contains(body, "go.dev") {
		t.Fatalf("search on a = %d %s", code, body)
	}
	if code, body := b.search(t, "go generics"); code != 200 || !strings.Contains(body, "go.dev") {
		t.Fatalf("search on b = %d %s", code, body)
	}
	if n := searches.Load(); n != 1 {
		t.Errorf("the provider was asked %d times, want once for two replicas", n)
	}
	for _, r := range []*replica{a, b} {
		if code, body := r.fetch(t, page.URL+"/p"); code != 200 || !strings.Contains(body, "Shared page") {
			t.Fatalf("fetch = %d %s", code, body)
		}
	}
	if n := downloads.Load(); n != 1 {
		t.Errorf("the page was downloaded %d times, want once for two replicas", n)
	}
	for _, c := range []struct{ cache, want string }{{"search", "1"}, {"fetch", "1"}} {
		if got := b.metric(t, `webgate_cache_requests_total{cache="`+c.cache+`",result="hit",tier="redis"} `); got != c.want {
			t.Errorf("b's %s redis hits = %q, want %s", c.cache, got, c.want)
		}
	}
	if got := a.metric(t, "webgate_fetch_bytes_total "); got == "" || got == "0" {
		t.Errorf("a's fetch bytes = %q", got)
	}
	snap := b.Svc.Metrics.Snapshot()
	if snap.Caches[0].Name != "search" || snap.Caches[0].Hits != 1 || !snap.Redis.Up {
		t.Errorf("b's snapshot: %+v, redis %+v", snap.Caches, snap.Redis)
	}
}

// TestRedisOutageDegradesAndRecovers: with Redis gone a replica keeps
// answering from its local tiers, /readyz says degraded (or not ready when
// configured so), the metrics say down; when Redis returns, so does the
// shared tier.
func TestRedisOutageDegradesAndRecovers(t *testing.T) {
	mr := miniredis.RunT(t)
	addr := mr.Addr()
	searx, searches := searxngFake(t)
	logs := &syncBuffer{}
	log := newJSONLogger(logs)
	a := startReplica(t, replicaYAML(searx.URL, "redis://"+addr+"/0", "metrics: {public: true}\n"), log)
	strict := startReplica(t, replicaYAML(searx.URL, "redis://"+addr+"/0", "metrics: {ready_requires_redis: true}\n"), nil)
	if code, checks := a.ready(t); code != 200 || checks["redis"].Status != "ok" || checks["providers"].Status != "ok" {
		t.Fatalf("ready before the outage = %d %+v", code, checks)
	}
	mr.Close()
	waitFor(t, "the replica to notice", func() bool { return a.metric(t, "webgate_redis_up ") == "0" })
	code, checks := a.ready(t)
	if code != 200 || checks["redis"].Status != "degraded" {
		t.Errorf("ready during the outage = %d %+v, want 200 with redis degraded", code, checks)
	}
	waitFor(t, "the strict replica to notice", func() bool { c, _ := strict.ready(t); return c == 503 })
	for i := range 20 {
		if code, body := a.search(t, "go generics"); code != 200 {
			t.Fatalf("search %d during the outage = %d %s", i, code, body)
		}
	}
	// The first search missed everywhere, the rest hit the local tier.
	if n := searches.Load(); n != 1 {
		t.Errorf("provider calls during the outage = %d, want 1", n)
	}
	// Once by the Redis client, once by the audit log for its stream sink;
	// not once per request. The audit log writes in the background, after
	// its sink's write timed out: wait for its line before counting.
	waitFor(t, "the audit sink's failure to be logged", func() bool { return strings.Contains(logs.String(), "audit sink failing") })
	for _, msg := range []string{"redis unreachable; serving from local", "audit sink failing"} {
		if n := strings.Count(logs.String(), msg); n != 1 {
			t.Errorf("%q was logged %d times, want once", msg, n)
		}
	}
	if err := mr.StartAddr(addr); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "recovery", func() bool { return a.metric(t, "webgate_redis_up ") == "1" })
	waitFor(t, "the strict replica to be ready again", func() bool {
		code, checks := strict.ready(t)
		return code == 200 && checks["redis"].Status == "ok"
	})
	if !strings.Contains(logs.String(), "redis reachable again") {
		t.Error("the recovery was not logged")
	}
}

// TestReadyzProviders: /readyz fails when every provider's breaker is
// open.
func TestReadyzProviders(t *testing.T) {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusUnauthorized) // opens the breaker at once
	}))
	t.Cleanup(down.Close)
	a := startReplica(t, replicaYAML(down.URL, "", ""), nil)
	if code, checks := a.ready(t); code != 200 || checks["providers"].Detail != "1 of 1 available" || checks["redis"].Name != "" {
		t.Fatalf("ready = %d %+v", code, checks)
	}
	if code, _ := a.search(t, "go"); code == 200 {
		t.Fatal("search against a provider refusing credentials succeeded")
	}
	code, checks := a.ready(t)
	if code != 503 || checks["providers"].Status != "fail" {
		t.Errorf("ready with every breaker open = %d %+v", code, checks)
	}
}

// TestServeJSONLogsAndMetrics runs the real command: with log.format
// json every log line is one JSON object, /metrics answers with a token,
// and SIGINT (the context) shuts it down cleanly.
func TestServeJSONLogsAndMetrics(t *testing.T) {
	searx, _ := searxngFake(t)
	const tok = "0123456789abcdef0123"
	path := writeConfig(t, replicaYAML(searx.URL, "", "log: {format: json}\nserver: {auth_tokens: ["+tok+"]}\n"))
	stderr := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"--config", path, "serve", "--listen", "127.0.0.1:0"}, IO{
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr,
			Getenv: func(string) (string, bool) { return "", false },
		})
	}()
	addrRE := regexp.MustCompile(`listening on (http://[0-9.:]+)`)
	var base string
	waitFor(t, "the listening line", func() bool {
		m := addrRE.FindStringSubmatch(stderr.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})
	req, _ := http.NewRequest("GET", base+"/v1/search?q=go", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("search = %v %v", resp, err)
	}
	req, _ = http.NewRequest("GET", base+"/metrics", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Fatalf("metrics without a token = %v %v, want 401", resp, err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`webgate_http_requests_total{code="200",surface="api"} 1`, `webgate_provider_requests_total{outcome="ok",provider="searxng"} 1`, `webgate_build_info{version="dev"} 1`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d:\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not shut down")
	}
	var n int
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if strings.HasPrefix(line, "webgate ") && strings.Contains(line, "listening on") {
			continue // the banner for people
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("not a JSON log line: %q", line)
			continue
		}
		if v["msg"] == "request" && v["surface"] == "api" {
			n++
		}
	}
	if n != 1 || !strings.Contains(stderr.String(), `"shutdown: drained"`) {
		t.Errorf("want one api request log and a drained shutdown:\n%s", stderr.String())
	}
}

func TestHealthcheckCommand(t *testing.T) {
	searx, _ := searxngFake(t)
	r := startReplica(t, replicaYAML(searx.URL, "", ""), nil)
	if code, out, errOut := run(t, nil, "healthcheck", "--url", r.URL+"/healthz"); code != 0 || !strings.Contains(out, `"ok"`) {
		t.Errorf("healthcheck of a live server = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := run(t, nil, "healthcheck", "--url", r.URL+"/nope"); code == 0 || !strings.Contains(errOut, "404") {
		t.Errorf("healthcheck of a 404 = %d %q", code, errOut)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	if code, _, _ := run(t, nil, "healthcheck", "--url", dead.URL+"/healthz", "--timeout", "1s"); code == 0 {
		t.Error("healthcheck of a dead server exited 0")
	}
}
