package cli

// Integration tests against a real redis-server. .ci/run installs Debian's
// redis-server, starts one on loopback and names it in
// WEBGATE_TEST_REDIS_ADDR; the restart test starts (and kills) its own
// from the same binary. Without them these tests skip, except on CI
// (CI=true), where they fail.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/ratelimit/countertest"
	"github.com/webgate/webgate/internal/redisstore"
)

// EnvTestRedis names a running Redis (host:port) the integration tests
// may use; each test writes under its own key prefix.
const EnvTestRedis = "WEBGATE_TEST_REDIS_ADDR"

func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (required on CI)", args...)
	}
	t.Skipf(format, args...)
}

// requireRedis returns the address of the shared test Redis.
func requireRedis(t *testing.T) string {
	t.Helper()
	addr := os.Getenv(EnvTestRedis)
	if addr == "" {
		skipOrFail(t, "%s is not set: no redis-server to test against", EnvTestRedis)
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr, DisableIdentity: true})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		skipOrFail(t, "redis at %s does not answer: %v", addr, err)
	}
	return addr
}

// uniquePrefix keeps each test's keys apart on the shared server.
func uniquePrefix(t *testing.T) string {
	name := strings.TrimPrefix(strings.ReplaceAll(t.Name(), "/", "_"), "TestRedisIntegration")
	return fmt.Sprintf("wgtest:%.24s:%d:", name, time.Now().UnixNano())
}

func redisURLFor(addr string) string { return "redis://" + addr + "/0" }

// redisServer is a redis-server child process this test owns.
type redisServer struct {
	bin, addr, dir string
	cmd            *exec.Cmd
}

// startRedisServer starts a private redis-server on a free loopback port,
// without persistence, and stops it when the test ends.
func startRedisServer(t *testing.T) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		skipOrFail(t, "redis-server is not installed (apt-get install -y redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &redisServer{bin: bin, addr: addr, dir: t.TempDir()}
	s.start(t)
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *redisServer) start(t *testing.T) {
	t.Helper()
	_, port, _ := net.SplitHostPort(s.addr)
	s.cmd = exec.Command(s.bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", s.dir, "--logfile", filepath.Join(s.dir, "redis.log"))
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: s.addr, DisableIdentity: true})
	defer rdb.Close()
	waitFor(t, "redis-server to answer", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return rdb.Ping(ctx).Err() == nil
	})
}

func (s *redisServer) stop(t *testing.T) {
	t.Helper()
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// TestRedisIntegrationCacheAcrossReplicas: a search and a fetch made on
// one replica are answered by the other from Redis.
func TestRedisIntegrationCacheAcrossReplicas(t *testing.T) {
	addr := requireRedis(t)
	searx, searches := searxngFake(t)
	page, downloads := pageServer(t)
	cfg := replicaYAML(searx.URL, redisURLFor(addr), "metrics: {public: true}\n", uniquePrefix(t))
	a, b := startReplica(t, cfg, nil), startReplica(t, cfg, nil)
	for i, r := range []*replica{a, b, a, b} {
		if code, body := r.search(t, "go generics"); code != 200 || !strings.Contains(body, "go.dev") {
			t.Fatalf("search %d = %d %s", i, code, body)
		}
		if code, body := r.fetch(t, page.URL+"/shared"); code != 200 || !strings.Contains(body, "Shared page") {
			t.Fatalf("fetch %d = %d %s", i, code, body)
		}
	}
	if n, m := searches.Load(), downloads.Load(); n != 1 || m != 1 {
		t.Errorf("provider asked %d times and page downloaded %d times for two replicas; want 1 and 1", n, m)
	}
	for _, c := range []string{"search", "fetch"} {
		if got := b.metric(t, `webgate_cache_requests_total{cache="`+c+`",result="hit",tier="redis"} `); got != "1" {
			t.Errorf("b's %s hits from redis = %q, want 1", c, got)
		}
	}
}

// TestRedisIntegrationSharedLimits: the replicas' counters (what per-key
// rate limits and daily budgets are counted in) enforce one limit across
// both: a 5-per-minute rate and a 7-per-day budget hold exactly, however
// the calls are spread over the replicas and however many run at once.
func TestRedisIntegrationSharedLimits(t *testing.T) {
	addr := requireRedis(t)
	searx, _ := searxngFake(t)
	cfg := replicaYAML(searx.URL, redisURLFor(addr), "", uniquePrefix(t))
	a, b := startReplica(t, cfg, nil), startReplica(t, cfg, nil)
	if _, ok := a.Svc.Counter.(*redisstore.Counter); !ok {
		t.Fatalf("the replica counts in %T, not Redis", a.Svc.Counter)
	}
	counters := []*replica{a, b}
	countertest.ClearOfWindowEdge(t, 20*time.Second, time.Minute, 24*time.Hour)
	for _, lim := range []struct {
		key   string
		limit int
		win   time.Duration
	}{{"rate:team", 5, time.Minute}, {"searches:team", 7, 24 * time.Hour}} {
		var allowed atomic.Int64
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Go(func() {
				d, err := counters[i%2].Svc.Counter.Allow(context.Background(), lim.key, 1, lim.limit, lim.win)
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		if got := allowed.Load(); got != int64(lim.limit) {
			t.Errorf("%s: %d of 40 calls over two replicas allowed, want exactly %d", lim.key, got, lim.limit)
		}
		d, err := b.Svc.Counter.Allow(context.Background(), lim.key, 1, lim.limit, lim.win)
		if err != nil || d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > lim.win {
			t.Errorf("%s after the limit: %+v %v", lim.key, d, err)
		}
	}
}

// TestRedisIntegrationAuditStream: records reach a real Redis stream and
// the stream stays bounded (XADD MAXLEN ~ as Redis implements it).
func TestRedisIntegrationAuditStream(t *testing.T) {
	addr := requireRedis(t)
	c, err := redisstore.New(redisstore.Options{URL: redisURLFor(addr), KeyPrefix: uniquePrefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := redisstore.NewSink(c, "audit", 100, 0)
	defer c.Redis().Del(context.Background(), s.Stream())
	for i := range 20 {
		batch := make([]audit.Record, 100)
		for j := range batch {
			batch[j] = audit.Record{Kind: audit.KindSearch, Query: fmt.Sprint("q", i*100+j), Outcome: audit.OutcomeOK}
		}
		if err := s.Write(context.Background(), batch); err != nil {
			t.Fatal(err)
		}
	}
	n, err := c.Redis().XLen(context.Background(), s.Stream()).Result()
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 || n > 300 {
		t.Errorf("stream holds %d entries after 2000 with MAXLEN ~ 100", n)
	}
	last, err := c.Redis().XRevRangeN(context.Background(), s.Stream(), "+", "-", 1).Result()
	if err != nil || len(last) != 1 || !strings.Contains(last[0].Values["record"].(string), `"query":"q1999"`) {
		t.Errorf("newest entry = %+v %v", last, err)
	}
}

// TestRedisIntegrationRestart: the replicas survive redis-server going
// away and coming back. While it is down they keep answering (from their
// local caches and the provider), /readyz reports Redis degraded and the
// metrics say down; once it is back they share their cache again.
func TestRedisIntegrationRestart(t *testing.T) {
	rs := startRedisServer(t)
	searx, searches := searxngFake(t)
	cfg := replicaYAML(searx.URL, redisURLFor(rs.addr), "metrics: {public: true}\n")
	a, b := startReplica(t, cfg, nil), startReplica(t, cfg, nil)
	search := func(r *replica, q string) {
		t.Helper()
		if code, body := r.search(t, q); code != 200 {
			t.Fatalf("search %q = %d %s", q, code, body)
		}
	}
	search(a, "before")
	search(b, "before")
	if n := searches.Load(); n != 1 {
		t.Fatalf("provider calls before the restart = %d, want 1", n)
	}

	rs.stop(t)
	for _, r := range []*replica{a, b} {
		waitFor(t, "the replica to notice redis is gone", func() bool { return r.metric(t, "webgate_redis_up ") == "0" })
		code, checks := r.ready(t)
		if code != 200 || checks["redis"].Status != "degraded" {
			t.Errorf("ready while redis is down = %d %+v", code, checks)
		}
	}
	for i := range 10 {
		search(a, fmt.Sprint("during ", i))
		search(b, fmt.Sprint("during ", i)) // no shared tier: b asks too
		search(a, "before")                 // a's local tier
	}
	if n := searches.Load(); n != 21 {
		t.Errorf("provider calls after the outage = %d, want 21 (1 + 10 per replica)", n)
	}

	rs.start(t)
	for _, r := range []*replica{a, b} {
		waitFor(t, "the replica to reconnect", func() bool { return r.metric(t, "webgate_redis_up ") == "1" })
		if code, checks := r.ready(t); code != 200 || checks["redis"].Status != "ok" {
			t.Errorf("ready after the restart = %d %+v", code, checks)
		}
	}
	search(a, "after")
	search(b, "after")
	if n := searches.Load(); n != 22 {
		t.Errorf("provider calls after the restart = %d, want 22: b should hit what a stored", n)
	}
}

// TestRedisIntegrationKeyLimitsAcrossReplicas: a gateway key's daily
// search budget and rate limit, enforced end to end through the JSON API
// of two replicas sharing Redis. Searches alternate between the replicas;
// exactly the budget (then the rate) is let through, the next request on
// either replica gets the API's 429 with Retry-After, and the refusals
// are audited as denied.
func TestRedisIntegrationKeyLimitsAcrossReplicas(t *testing.T) {
	addr := requireRedis(t)
	searx, searches := searxngFake(t)
	budgetKey, budgetHash := policy.GenerateKey()
	rateKey, rateHash := policy.GenerateKey()
	cfg := replicaYAML(searx.URL, redisURLFor(addr), fmt.Sprintf(`auth:
  keys:
    - {id: budgeted, hash: %q, policy: budget}
    - {id: limited, hash: %q, policy: rate}
  policies:
    budget: {daily_searches: 4}
    rate: {rate_limit: {requests: 3, per: 1m}}
`, budgetHash, rateHash), uniquePrefix(t))
	a, b := startReplica(t, cfg, nil), startReplica(t, cfg, nil)
	search := func(r *replica, key string, i int) (int, http.Header, string) {
		t.Helper()
		// Distinct queries: the cache must not hide a provider call.
		req, _ := http.NewRequest(http.MethodGet, r.URL+"/v1/search?q=limits+"+key[:8]+fmt.Sprint(i), nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(body)
	}
	for _, tc := range []struct {
		key, id, wantType string
		limit             int
	}{{budgetKey, "budgeted", "budget_exhausted", 4}, {rateKey, "limited", "rate_limited", 3}} {
		countertest.ClearOfWindowEdge(t, 20*time.Second, time.Minute, 24*time.Hour)
		before := searches.Load()
		for i := range tc.limit {
			if code, _, body := search([]*replica{a, b}[i%2], tc.key, i); code != 200 {
				t.Fatalf("%s: search %d of %d = %d %s", tc.id, i+1, tc.limit, code, body)
			}
		}
		for i, r := range []*replica{a, b} {
			code, h, body := search(r, tc.key, 100+i)
			if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(body, tc.wantType) || !strings.Contains(body, tc.id) {
				t.Errorf("%s: search over the limit on replica %d = %d (Retry-After %q) %s; want 429 %s", tc.id, i, code, h.Get("Retry-After"), body, tc.wantType)
			}
		}
		if n := searches.Load() - before; n != int32(tc.limit) {
			t.Errorf("%s: the provider was asked %d times, want %d (refused searches must not reach it)", tc.id, n, tc.limit)
		}
		denied := 0
		for _, r := range []*replica{a, b} {
			denied += len(r.Svc.Audit.Recent(audit.Filter{KeyID: tc.id, Outcome: audit.OutcomeDenied}))
		}
		if denied != 2 {
			t.Errorf("%s: %d denied audit records over both replicas, want 2", tc.id, denied)
		}
	}

	// Both replicas' records reach the one audit stream once flushed.
	sink, ok := a.Svc.AuditSinks[0].(*redisstore.Sink)
	if !ok {
		t.Fatalf("audit sink is %T, not the Redis stream", a.Svc.AuditSinks[0])
	}
	for _, r := range []*replica{a, b} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := r.Svc.Close(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	entries, err := a.Svc.Redis.Redis().XRange(context.Background(), sink.Stream(), "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]int{}
	for _, e := range entries {
		outcomes[fmt.Sprint(e.Values["key_id"], " ", e.Values["outcome"])]++
	}
	want := map[string]int{"budgeted ok": 4, "budgeted denied": 2, "limited ok": 3, "limited denied": 2}
	if diff := cmp.Diff(want, outcomes); diff != "" {
		t.Errorf("audit stream entries by key and outcome (-want +got):\n%s", diff)
	}
}
