package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/ratelimit/countertest"
	"github.com/webgate/webgate/internal/search"
)

func TestClientDownUpLogsOnce(t *testing.T) {
	mr := miniredis.RunT(t)
	logs := &logBuf{}
	c := newClient(t, mr, logs)
	if !c.Up() || !c.Status().Up || !c.Status().Configured {
		t.Fatalf("status = %+v, want up", c.Status())
	}
	addr := mr.Addr()
	mr.Close()
	eventually(t, "down", func() bool { return !c.Up() })
	// Many failing requests while down: one log line, not one per request.
	kc := NewCache[*search.Response](c, "search", SearchCodec{}, 1<<20)
	for range 50 {
		kc.Get(context.Background(), "k")
	}
	time.Sleep(100 * time.Millisecond) // several failed pings
	if n := logs.count("redis unreachable"); n != 1 {
		t.Errorf("logged the outage %d times, want once:\n%s", n, logs.b.String())
	}
	if st := c.Status(); st.Up || st.LastError == "" {
		t.Errorf("status while down = %+v", st)
	}
	if err := mr.StartAddr(addr); err != nil {
		t.Fatal(err)
	}
	eventually(t, "up again", c.Up)
	if n := logs.count("redis reachable again"); n != 1 {
		t.Errorf("logged the recovery %d times, want once", n)
	}
}

func TestClientStartsDegraded(t *testing.T) {
	mr := miniredis.RunT(t)
	addr := mr.Addr()
	mr.Close()
	logs := &logBuf{}
	c := newClientAt(t, addr, logs)
	if c.Up() {
		t.Fatal("up without a server")
	}
	if logs.count("unreachable at start") != 1 {
		t.Errorf("no start-up warning:\n%s", logs.b.String())
	}
	if err := mr.StartAddr(addr); err != nil {
		t.Fatal(err)
	}
	eventually(t, "up", c.Up)
}

func TestNewRejectsBadURL(t *testing.T) {
	if _, err := New(Options{URL: "http://x"}); err == nil {
		t.Fatal("accepted a non-redis URL")
	}
}

func TestCacheSharedAcrossClients(t *testing.T) {
	mr := miniredis.RunT(t)
	a := NewCache[*search.Response](newClient(t, mr, nil), "search", SearchCodec{}, 1<<20)
	b := NewCache[*search.Response](newClient(t, mr, nil), "search", SearchCodec{}, 1<<20)
	ctx := context.Background()
	resp := &search.Response{Query: search.Query{Text: "go generics", MaxResults: 5}, Provider: "brave",
		Results: []search.Result{{Title: "Go", URL: "https://go.dev/", Snippet: "s", Provider: "brave", Rank: 1,
			Published: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), PageAge: "1 day"}}}
	if _, ok := b.Get(ctx, "key\x00with\x00nul"); ok {
		t.Fatal("hit before any Set")
	}
	a.Set(ctx, "key\x00with\x00nul", resp, time.Minute)
	got, ttl, ok := b.GetTTL(ctx, "key\x00with\x00nul")
	if !ok {
		t.Fatal("replica b missed what replica a stored")
	}
	if diff := cmp.Diff(resp, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if ttl <= 0 || ttl > time.Minute {
		t.Errorf("ttl = %s", ttl)
	}
	// Keys are versioned and hashed under the prefix.
	keys := mr.Keys()
	if len(keys) != 1 || !strings.HasPrefix(keys[0], "webgate:cache:search:s1:") || len(keys[0]) != len("webgate:cache:search:s1:")+32 {
		t.Errorf("keys = %q", keys)
	}
	mr.FastForward(2 * time.Minute)
	if _, ok := b.Get(ctx, "key\x00with\x00nul"); ok {
		t.Error("hit after the TTL")
	}
	// No write for a zero TTL.
	a.Set(ctx, "zero", resp, 0)
	if len(mr.Keys()) != 0 {
		t.Errorf("stored with ttl 0: %q", mr.Keys())
	}
}

func TestCacheBoundsAndCorruption(t *testing.T) {
	mr := miniredis.RunT(t)
	c := newClient(t, mr, nil)
	kc := NewCache[*search.Response](c, "search", SearchCodec{}, 1024)
	ctx := context.Background()
	big := &search.Response{Results: []search.Result{{Title: strings.Repeat("x", 2000)}}}
	kc.Set(ctx, "big", big, time.Minute)
	if len(mr.Keys()) != 0 {
		t.Fatal("an entry over the size limit was stored")
	}
	// A corrupt entry (or one written by a foreign tool) is a miss.
	small := &search.Response{Provider: "p"}
	kc.Set(ctx, "k", small, time.Minute)
	mr.Set(mr.Keys()[0], "{not json")
	if _, ok := kc.Get(ctx, "k"); ok {
		t.Error("a corrupt entry was returned")
	}
	if !c.Up() {
		t.Error("a corrupt entry marked Redis down")
	}
	// A wrong type is a Redis error: it marks the tier down (and the
	// health check brings it back).
	key := mr.Keys()[0]
	mr.Del(key)
	mr.Lpush(key, "x")
	if _, ok := kc.Get(ctx, "k"); ok {
		t.Error("a list was returned as an entry")
	}
}

func TestCacheWhileDownMakesNoCalls(t *testing.T) {
	mr := miniredis.RunT(t)
	c := newClient(t, mr, nil)
	kc := NewCache[*search.Response](c, "search", SearchCodec{}, 1<<20)
	c.setDown(fmt.Errorf("test"))
	c.Close() // stops the health check: it stays down
	before := mr.TotalConnectionCount()
	cmds := mr.CommandCount()
	kc.Set(context.Background(), "k", &search.Response{}, time.Minute)
	if _, ok := kc.Get(context.Background(), "k"); ok {
		t.Error("hit while down")
	}
	if mr.CommandCount() != cmds || mr.TotalConnectionCount() != before {
		t.Error("the cache talked to Redis while it was marked down")
	}
}

func TestTieredOverRedis(t *testing.T) {
	mr := miniredis.RunT(t)
	ctx := context.Background()
	tier := func() *cache.Tiered[*search.Response] {
		return &cache.Tiered[*search.Response]{Local: cache.NewLocal[*search.Response](10),
			Shared: NewCache[*search.Response](newClient(t, mr, nil), "search", SearchCodec{}, 1<<20)}
	}
	a, b := tier(), tier()
	a.Set(ctx, "q", &search.Response{Provider: "exa"}, time.Minute)
	if r, ok := b.Get(ctx, "q"); !ok || r.Provider != "exa" {
		t.Fatalf("b = %v %v", r, ok)
	}
	mr.FlushAll()
	if r, ok := b.Get(ctx, "q"); !ok || r.Provider != "exa" {
		t.Fatal("the shared hit was not backfilled into b's local tier")
	}
}

func TestCodecs(t *testing.T) {
	res := &fetch.Result{
		URL: "https://example.com/a", FinalURL: "https://example.com/b", Status: 200, ContentType: "text/html; charset=utf-8",
		Title: "T", Content: "# T\n\nbody ✓", Truncated: true, NextStartIndex: 10, TotalLength: 99,
		Metadata:    extract.Metadata{Title: "T", Author: "A", Published: time.Date(2023, 1, 2, 3, 4, 5, 0, time.UTC), Language: "en", CanonicalURL: "https://example.com/b", SiteName: "S", Description: "D"},
		RetrievedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		Body:        []byte("<html>\x00binary\xff</html>"),
	}
	fc := FetchCodec{MaxBodyBytes: 1 << 20}
	b, err := fc.Encode(res)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fc.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, got); diff != "" {
		t.Errorf("fetch round trip (-want +got):\n%s", diff)
	}
	// Bodies over the limit are left out; the text stays.
	b, _ = FetchCodec{MaxBodyBytes: 4}.Encode(res)
	if got, _ := fc.Decode(b); got.Body != nil || got.Content != res.Content {
		t.Errorf("over-limit body kept: %+v", got)
	}
	for _, bad := range [][]byte{nil, {0xff}, {200, 1, '{'}, {3, 'x', 'y', 'z'}} {
		if _, err := fc.Decode(bad); err == nil {
			t.Errorf("Decode(%q) accepted garbage", bad)
		}
	}
	if _, err := (SearchCodec{}).Decode([]byte("[")); err == nil {
		t.Error("search codec accepted garbage")
	}
	if _, err := (SearchCodec{}).Encode(nil); err == nil {
		t.Error("encoded nil")
	}
}

func TestCounterSharedAcrossClients(t *testing.T) {
	mr := miniredis.RunT(t)
	mr.SetTime(time.Date(2025, 6, 1, 23, 59, 0, 0, time.UTC))
	a := NewCounter(newClient(t, mr, nil), ratelimit.Counter(nil))
	b := NewCounter(newClient(t, mr, nil), ratelimit.Counter(nil))
	ctx := context.Background()
	day := 24 * time.Hour
	for i, c := range []*Counter{a, b, a} {
		d, err := c.Allow(ctx, "searches:alice", 1, 3, day)
		if err != nil || !d.Allowed || d.Remaining != 2-i {
			t.Fatalf("call %d = %+v, %v", i, d, err)
		}
	}
	d, err := b.Allow(ctx, "searches:alice", 1, 3, day)
	if err != nil || d.Allowed || d.Remaining != 0 {
		t.Fatalf("4th call across replicas = %+v, %v: want refused", d, err)
	}
	// The day is the server's: it ends at midnight UTC, a minute away.
	if d.RetryAfter != time.Minute {
		t.Errorf("RetryAfter = %s, want 1m (until midnight UTC by Redis's clock)", d.RetryAfter)
	}
	// A refusal does not consume; a bigger n that does not fit is refused.
	if d, _ := a.Allow(ctx, "searches:bob", 2, 3, day); !d.Allowed || d.Remaining != 1 {
		t.Errorf("bob n=2: %+v", d)
	}
	if d, _ := a.Allow(ctx, "searches:bob", 2, 3, day); d.Allowed || d.Remaining != 1 {
		t.Errorf("bob n=2 again: %+v", d)
	}
	if d, _ := a.Allow(ctx, "searches:bob", 1, 3, day); !d.Allowed || d.Remaining != 0 {
		t.Errorf("bob n=1 after a refusal: %+v", d)
	}
	// The same key in another window is another count.
	if d, _ := a.Allow(ctx, "searches:alice", 1, 3, time.Minute); !d.Allowed {
		t.Errorf("alice per minute limited by her day: %+v", d)
	}
	// A zero limit refuses.
	if d, _ := a.Allow(ctx, "z", 1, 0, time.Minute); d.Allowed {
		t.Errorf("limit 0 allowed: %+v", d)
	}
	// Past midnight (by Redis's clock) the budget is whole again.
	mr.SetTime(time.Date(2025, 6, 2, 0, 0, 1, 0, time.UTC))
	mr.FastForward(2 * time.Minute)
	if d, _ := b.Allow(ctx, "searches:alice", 3, 3, day); !d.Allowed {
		t.Errorf("after midnight: %+v", d)
	}
}

func TestCounterArguments(t *testing.T) {
	mr := miniredis.RunT(t)
	c := NewCounter(newClient(t, mr, nil), nil)
	if _, err := c.Allow(context.Background(), "k", 0, 5, time.Minute); err == nil {
		t.Error("n=0 accepted")
	}
	if _, err := c.Allow(context.Background(), "k", 1, 5, time.Microsecond); err == nil {
		t.Error("a sub-millisecond window accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Allow(ctx, "k", 1, 5, time.Minute); err == nil {
		t.Error("a cancelled context was not reported")
	}
}

func TestCounterConcurrentNeverOvershoots(t *testing.T) {
	mr := miniredis.RunT(t)
	counters := []*Counter{NewCounter(newClientTimeout(t, mr.Addr(), nil, 5*time.Second), nil), NewCounter(newClientTimeout(t, mr.Addr(), nil, 5*time.Second), nil)}
	const workers, limit = 64, 37
	countertest.ClearOfWindowEdge(t, 20*time.Second, time.Hour)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			d, err := counters[i%2].Allow(context.Background(), "shared", 1, limit, time.Hour)
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
	if got := allowed.Load(); got != limit {
		t.Fatalf("%d of %d calls across two replicas allowed, want exactly %d", got, workers, limit)
	}
}

// countingFallback records calls, standing in for the local counter.
type countingFallback struct{ calls atomic.Int64 }

func (f *countingFallback) Allow(context.Context, string, int, int, time.Duration) (ratelimit.Decision, error) {
	f.calls.Add(1)
	return ratelimit.Decision{Allowed: true, Remaining: 99}, nil
}

func TestCounterFallsBackWhileDown(t *testing.T) {
	mr := miniredis.RunT(t)
	fb := &countingFallback{}
	c := newClient(t, mr, nil)
	k := NewCounter(c, fb)
	addr := mr.Addr()
	mr.Close()
	// The first call finds Redis gone and falls back; later ones do not
	// even try Redis.
	for range 5 {
		d, err := k.Allow(context.Background(), "rate:k", 1, 1, time.Minute)
		if err != nil || !d.Allowed || d.Remaining != 99 {
			t.Fatalf("fallback decision = %+v, %v", d, err)
		}
	}
	if fb.calls.Load() != 5 || c.Up() {
		t.Fatalf("fallback calls = %d, up = %v", fb.calls.Load(), c.Up())
	}
	if err := mr.StartAddr(addr); err != nil {
		t.Fatal(err)
	}
	eventually(t, "up", c.Up)
	if d, _ := k.Allow(context.Background(), "rate:k", 1, 1, time.Minute); d.Remaining != 0 || fb.calls.Load() != 5 {
		t.Errorf("after recovery the shared counter was not used: %+v, fallback calls %d", d, fb.calls.Load())
	}
}

func TestSinkStreamAndBacklog(t *testing.T) {
	mr := miniredis.RunT(t)
	c := newClient(t, mr, nil)
	s := NewSink(c, "audit", 1000, 3)
	if s.Stream() != "webgate:audit" {
		t.Fatalf("stream = %q", s.Stream())
	}
	rec := func(i int) audit.Record {
		return audit.Record{Time: time.Unix(int64(i), 0).UTC(), KeyID: "k", Surface: "api", Kind: audit.KindSearch, Query: fmt.Sprint("q", i), Outcome: audit.OutcomeOK}
	}
	ctx := context.Background()
	if err := s.Write(ctx, []audit.Record{rec(1), rec(2)}); err != nil {
		t.Fatal(err)
	}
	addr := mr.Addr()
	mr.Close()
	eventually(t, "down", func() bool { return !c.Up() })
	// While down: records wait, the oldest beyond the backlog are dropped.
	for i := 3; i <= 6; i++ {
		if err := s.Write(ctx, []audit.Record{rec(i)}); err == nil {
			t.Fatal("Write succeeded while Redis was down")
		}
	}
	if w, d := s.Pending(); w != 3 || d != 1 {
		t.Fatalf("pending = %d waiting, %d dropped; want 3 and 1", w, d)
	}
	if err := mr.StartAddr(addr); err != nil {
		t.Fatal(err)
	}
	eventually(t, "up", c.Up)
	if err := s.Write(ctx, []audit.Record{rec(7)}); err != nil {
		t.Fatal(err)
	}
	// miniredis keeps its data across a restart, like a Redis with
	// persistence. The new record joined the full backlog, pushing out q4.
	entries, err := c.Redis().XRange(ctx, "webgate:audit", "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		var r audit.Record
		if err := json.Unmarshal([]byte(e.Values["record"].(string)), &r); err != nil {
			t.Fatal(err)
		}
		if e.Values["kind"] != "search" || e.Values["outcome"] != "ok" || e.Values["key_id"] != "k" {
			t.Errorf("entry fields = %v", e.Values)
		}
		got = append(got, r.Query)
	}
	if want := "[q1 q2 q5 q6 q7]"; fmt.Sprint(got) != want {
		t.Errorf("stream = %v, want %s (q3 and q4 dropped from the full backlog)", got, want)
	}
	if w, d := s.Pending(); w != 0 || d != 2 {
		t.Errorf("%d records still waiting, %d dropped; want 0 and 2", w, d)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

func TestSinkTrimsStream(t *testing.T) {
	mr := miniredis.RunT(t)
	s := NewSink(newClient(t, mr, nil), "audit", 10, 0)
	for i := range 50 {
		if err := s.Write(context.Background(), []audit.Record{{Kind: audit.KindFetch, URL: fmt.Sprint("https://e/", i), Outcome: audit.OutcomeOK}}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.c.Redis().XLen(context.Background(), s.Stream()).Result()
	if err != nil {
		t.Fatal(err)
	}
	// MAXLEN ~ trims in whole macro nodes on a real Redis; miniredis trims
	// exactly. Either way the stream is bounded.
	if n > 10+100 {
		t.Errorf("stream length %d: not trimmed", n)
	}
}
