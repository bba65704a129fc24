package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/webgate/webgate/internal/cache"
)

// fake is an in-test Provider whose behaviour is a function.
type fake struct {
	name  string
	fn    func(ctx context.Context, q Query) ([]Result, error)
	calls atomic.Int32
	mu    sync.Mutex
	last  Query
}

func (f *fake) Name() string { return f.name }

func (f *fake) Search(ctx context.Context, q Query) ([]Result, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.last = q
	f.mu.Unlock()
	return f.fn(ctx, q)
}

func (f *fake) lastQuery() Query {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

// ok returns a provider answering with one result per URL.
func ok(name string, urls ...string) *fake {
	return &fake{name: name, fn: func(context.Context, Query) ([]Result, error) {
		return results(name, urls...), nil
	}}
}

// fail returns a provider failing with kind every time.
func fail(name string, kind error) *fake {
	return &fake{name: name, fn: func(context.Context, Query) ([]Result, error) {
		return nil, &ProviderError{Provider: name, Kind: kind}
	}}
}

// blocking returns a provider that waits for ctx to end, then reports on
// done (if not nil) so tests can prove it was cancelled.
func blocking(name string, done chan<- error) *fake {
	return &fake{name: name, fn: func(ctx context.Context, _ Query) ([]Result, error) {
		<-ctx.Done()
		if done != nil {
			done <- context.Cause(ctx)
		}
		return nil, &ProviderError{Provider: name, Kind: ErrUnavailable, Err: ctx.Err()}
	}}
}

func results(provider string, urls ...string) []Result {
	out := make([]Result, len(urls))
	for i, u := range urls {
		out[i] = Result{Title: "T " + u, URL: u, Snippet: "s", Provider: provider, Rank: i + 1}
	}
	return out
}

func urls(r *Response) []string {
	var out []string
	for _, x := range r.Results {
		out = append(out, x.URL)
	}
	return out
}

// clock is a manually advanced fake clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newTestEngine builds an engine with a fake clock and a sleep that records
// waits instead of sleeping.
func newTestEngine(t *testing.T, opts Options) (*Engine, *clock, *[]time.Duration) {
	t.Helper()
	e, err := NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var mu sync.Mutex
	slept := &[]time.Duration{}
	e.now = c.now
	e.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*slept = append(*slept, d)
		mu.Unlock()
		c.add(d)
		return ctx.Err()
	}
	e.jitter = func() float64 { return 0 }
	return e, c, slept
}

func TestNewEngine(t *testing.T) {
	if _, err := NewEngine(Options{}); !errors.Is(err, ErrNoProviders) {
		t.Errorf("empty chain: %v", err)
	}
	if _, err := NewEngine(Options{Providers: []Provider{ok("a"), ok("a")}}); err == nil {
		t.Error("duplicate names accepted")
	}
	if _, err := NewEngine(Options{Providers: []Provider{ok("a")}, Mode: "bogus"}); err == nil {
		t.Error("unknown mode accepted")
	}
}

func TestValidation(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		want error
		msg  string
	}{
		{"empty", Query{Text: ""}, ErrInvalidQuery, "query is required"},
		{"blank", Query{Text: " \t\n"}, ErrInvalidQuery, "query is required"},
		{"too long", Query{Text: strings.Repeat("é", MaxQueryLen+1)}, ErrInvalidQuery, "query must be at most 2000 characters (got 2001)"},
		{"control", Query{Text: "a\x00b"}, ErrInvalidQuery, "control characters"},
		{"bad utf8", Query{Text: "a\xffb"}, ErrInvalidQuery, "UTF-8"},
		{"freshness", Query{Text: "x", Freshness: "hour"}, ErrInvalidQuery, "freshness"},
		{"safe search", Query{Text: "x", SafeSearch: "max"}, ErrInvalidQuery, "safe_search"},
		{"country", Query{Text: "x", Location: Location{Country: "USA"}}, ErrInvalidQuery, "two-letter"},
		{"both lists", Query{Text: "x", AllowedDomains: []string{"a.com"}, BlockedDomains: []string{"b.com"}}, ErrInvalidQuery, "blocked_domains cannot be combined with allowed_domains"},
		{"scheme rule", Query{Text: "x", AllowedDomains: []string{"https://a.com"}}, ErrInvalidQuery, "must not include a scheme"},
		{"wildcard host", Query{Text: "x", BlockedDomains: []string{"*.a.com"}}, ErrInvalidQuery, "wildcards are only allowed in the path"},
		{"control in rule", Query{Text: "x", BlockedDomains: []string{"a.com\x00"}}, ErrInvalidQuery, "control characters"},
		{"unknown provider", Query{Text: "x", Provider: "nope"}, ErrNoProviders, `"nope" is not configured`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok("a", "https://a.com/")
			e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
			_, err := e.Search(context.Background(), tt.q)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tt.want, tt.msg)
			}
			if p.calls.Load() != 0 {
				t.Error("provider called for an invalid query")
			}
		})
	}
}

func TestDefaultsAndPushDown(t *testing.T) {
	tests := []struct {
		name  string
		q     Query
		wantN int
		want  Query // fields checked: Text, MaxResults, AllowedDomains
		// askN is the count the provider is asked for, when domain rules
		// make the engine ask for more than it returns (see overfetch).
		askN int
	}{
		{"default count", Query{Text: "  go  "}, 10, Query{Text: "go", MaxResults: 10}, 0},
		{"clamped", Query{Text: "go", MaxResults: 500}, 50, Query{Text: "go", MaxResults: 50}, 0},
		{"canonical rules", Query{Text: "go", MaxResults: 3, AllowedDomains: []string{"Bücher.Example.", "go.dev/doc"}}, 3,
			Query{Text: "go", MaxResults: 3, AllowedDomains: []string{"xn--bcher-kva.example", "go.dev/doc"}}, 13},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok("a", "https://go.dev/doc/x")
			e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
			resp, err := e.Search(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := p.lastQuery()
			opt := cmpopts.IgnoreFields(Query{}, "BlockedDomains", "Location", "Language", "Freshness", "SafeSearch", "Provider")
			ask := tt.want
			if tt.askN != 0 {
				ask.MaxResults = tt.askN
			}
			if diff := cmp.Diff(ask, got, opt); diff != "" {
				t.Errorf("provider query (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, resp.Query, opt); diff != "" {
				t.Errorf("Response.Query (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFallbackChain(t *testing.T) {
	tests := []struct {
		name      string
		chain     []*fake
		provider  string // Query.Provider
		want      string // answering provider, "" for an error
		wantErrs  []error
		attempted []string
	}{
		{"first answers", []*fake{ok("a", "https://a.com"), ok("b", "https://b.com")}, "", "a", nil, []string{"a"}},
		{"unavailable falls back", []*fake{fail("a", ErrUnavailable), ok("b", "https://b.com")}, "", "b", nil, []string{"a", "b"}},
		{"auth and rate limit fall back", []*fake{fail("a", ErrAuth), fail("b", ErrRateLimited), ok("c", "https://c.com")}, "", "c", nil, []string{"a", "b", "c"}},
		{"blocked and quota fall back", []*fake{fail("a", ErrBlocked), fail("b", ErrQuota), ok("c", "https://c.com")}, "", "c", nil, []string{"a", "b", "c"}},
		{"invalid query stops", []*fake{fail("a", ErrInvalidQuery), ok("b", "https://b.com")}, "", "", []error{ErrInvalidQuery}, []string{"a"}},
		{"all fail", []*fake{fail("a", ErrUnavailable), fail("b", ErrAuth)}, "", "", []error{ErrUnavailable, ErrAuth}, []string{"a", "b"}},
		{"named provider only", []*fake{ok("a", "https://a.com"), ok("b", "https://b.com")}, "b", "b", nil, []string{"b"}},
		{"named provider no fallback", []*fake{ok("a", "https://a.com"), fail("b", ErrUnavailable)}, "b", "", []error{ErrUnavailable}, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ps []Provider
			for _, f := range tt.chain {
				ps = append(ps, f)
			}
			e, _, _ := newTestEngine(t, Options{Providers: ps})
			resp, err := e.Search(context.Background(), Query{Text: "q", Provider: tt.provider})
			var attempted []string
			for _, f := range tt.chain {
				if f.calls.Load() > 0 {
					attempted = append(attempted, f.name)
				}
			}
			if diff := cmp.Diff(tt.attempted, attempted); diff != "" {
				t.Errorf("attempted (-want +got):\n%s", diff)
			}
			if tt.want == "" {
				for _, w := range tt.wantErrs {
					if !errors.Is(err, w) {
						t.Errorf("err = %v, want it to wrap %v", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Provider != tt.want {
				t.Errorf("Provider = %q, want %q", resp.Provider, tt.want)
			}
			var got []string
			for _, a := range resp.Attempts {
				got = append(got, a.Provider)
			}
			if diff := cmp.Diff(tt.attempted, got); diff != "" {
				t.Errorf("Attempts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBreaker(t *testing.T) {
	a := fail("a", ErrUnavailable)
	b := ok("b", "https://b.com")
	e, clk, _ := newTestEngine(t, Options{Providers: []Provider{a, b}, BreakerFailures: 2, BreakerCooldown: 30 * time.Second})
	ctx := context.Background()
	search := func() *Response {
		t.Helper()
		r, err := e.Search(ctx, Query{Text: "q"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	search()
	if st := e.Status()[0]; st.State != BreakerClosed || st.ConsecutiveFailures != 1 || st.LastError == nil {
		t.Fatalf("after 1 failure: %+v", st)
	}
	search() // second consecutive failure opens it
	st := e.Status()[0]
	if st.State != BreakerOpen || !st.OpenUntil.Equal(clk.now().Add(30*time.Second)) {
		t.Fatalf("after 2 failures: %+v", st)
	}
	if r := search(); len(r.Attempts) != 1 || a.calls.Load() != 2 {
		t.Fatalf("open breaker still called a: calls=%d attempts=%v", a.calls.Load(), r.Attempts)
	}
	// After the cooldown one trial goes through; it fails and re-opens.
	clk.add(31 * time.Second)
	search()
	if a.calls.Load() != 3 || e.Status()[0].State != BreakerOpen {
		t.Fatalf("failed trial: calls=%d status=%+v", a.calls.Load(), e.Status()[0])
	}
	// Next trial succeeds and closes it.
	clk.add(31 * time.Second)
	a.fn = func(context.Context, Query) ([]Result, error) { return results("a", "https://a.com"), nil }
	if r := search(); r.Provider != "a" {
		t.Fatalf("trial answered by %q", r.Provider)
	}
	if st := e.Status()[0]; st.State != BreakerClosed || st.ConsecutiveFailures != 0 || !st.OpenUntil.IsZero() {
		t.Fatalf("after successful trial: %+v", st)
	}
	if st := e.Status()[1]; st.Name != "b" || st.State != BreakerClosed {
		t.Fatalf("b: %+v", st)
	}
}

func TestBreakerHalfOpenSingleTrial(t *testing.T) {
	now := time.Unix(0, 0)
	b := newBreaker(1, time.Second)
	b.failure(now, &ProviderError{Kind: ErrUnavailable})
	if b.allow(now) {
		t.Fatal("open breaker admitted a request")
	}
	later := now.Add(time.Second)
	if !b.allow(later) {
		t.Fatal("no trial after cooldown")
	}
	if b.allow(later) {
		t.Fatal("second concurrent trial admitted")
	}
	b.release() // trial gave no verdict (e.g. cancelled)
	if !b.allow(later) || b.status("x").State != BreakerHalfOpen {
		t.Fatal("released trial slot not reusable")
	}
	b.success()
	if !b.allow(later) || !b.allow(later) {
		t.Fatal("closed breaker refused")
	}
}

func TestBreakerTripsAndNeutralErrors(t *testing.T) {
	tests := []struct {
		kind     error
		wantOpen bool
		wantFail int
	}{
		{ErrAuth, true, 1},
		{ErrQuota, true, 1},
		{ErrBlocked, true, 1},
		{ErrUnavailable, false, 1},
		{ErrRateLimited, false, 1},
		{ErrInvalidQuery, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.kind.Error(), func(t *testing.T) {
			e, _, _ := newTestEngine(t, Options{Providers: []Provider{fail("a", tt.kind)}, BreakerFailures: 5})
			_, _ = e.Search(context.Background(), Query{Text: "q"})
			st := e.Status()[0]
			if (st.State == BreakerOpen) != tt.wantOpen || st.ConsecutiveFailures != tt.wantFail {
				t.Errorf("status = %+v, want open=%v failures=%d", st, tt.wantOpen, tt.wantFail)
			}
		})
	}
}

func TestAllBreakersOpen(t *testing.T) {
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{fail("a", ErrAuth)}})
	_, _ = e.Search(context.Background(), Query{Text: "q"})
	_, err := e.Search(context.Background(), Query{Text: "q2"})
	if !errors.Is(err, ErrNoProviders) || !strings.Contains(err.Error(), "circuit breaker open") {
		t.Fatalf("err = %v", err)
	}
}

func TestRetry(t *testing.T) {
	// seq makes a provider return the given errors in turn, then succeed.
	seq := func(name string, errs ...error) *fake {
		var n atomic.Int32
		return &fake{name: name, fn: func(context.Context, Query) ([]Result, error) {
			i := int(n.Add(1)) - 1
			if i < len(errs) {
				return nil, errs[i]
			}
			return results(name, "https://"+name+".com"), nil
		}}
	}
	unavailable := &ProviderError{Provider: "a", Kind: ErrUnavailable}
	tests := []struct {
		name      string
		a         *fake
		retries   int
		want      string
		wantSleep []time.Duration
		wantCalls int32
	}{
		{"backoff doubles", seq("a", unavailable, unavailable), 2, "a", []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, 3},
		{"retries exhausted", seq("a", unavailable, unavailable), 1, "b", []time.Duration{100 * time.Millisecond}, 2},
		{"retry-after honoured", seq("a", &ProviderError{Provider: "a", Kind: ErrRateLimited, RetryAfter: 3 * time.Second}), 1, "a", []time.Duration{3 * time.Second}, 2},
		{"retry-after past deadline falls back", seq("a", &ProviderError{Provider: "a", Kind: ErrRateLimited, RetryAfter: time.Hour}), 3, "b", nil, 1},
		{"not retryable", seq("a", &ProviderError{Provider: "a", Kind: ErrAuth}), 3, "b", nil, 1},
		{"no retries configured", seq("a", unavailable), 0, "b", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := ok("b", "https://b.com")
			e, _, slept := newTestEngine(t, Options{Providers: []Provider{tt.a, b}, Retries: tt.retries, RetryBackoff: 200 * time.Millisecond, BreakerFailures: 10})
			resp, err := e.Search(context.Background(), Query{Text: "q"})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Provider != tt.want {
				t.Errorf("Provider = %q, want %q", resp.Provider, tt.want)
			}
			if diff := cmp.Diff(tt.wantSleep, *slept, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("sleeps (-want +got):\n%s", diff)
			}
			if got := tt.a.calls.Load(); got != tt.wantCalls {
				t.Errorf("a called %d times, want %d", got, tt.wantCalls)
			}
		})
	}
}

func TestRetryAfterOpensBreaker(t *testing.T) {
	a := fail("a", ErrRateLimited)
	a.fn = func(context.Context, Query) ([]Result, error) {
		return nil, &ProviderError{Provider: "a", Kind: ErrRateLimited, RetryAfter: time.Hour}
	}
	b := ok("b", "https://b.com/")
	e, clk, slept := newTestEngine(t, Options{Providers: []Provider{a, b}, Retries: 3})
	for i, q := range []string{"q1", "q2"} {
		resp, err := e.Search(context.Background(), Query{Text: q})
		if err != nil || resp.Provider != "b" {
			t.Fatalf("search %d: %+v, %v", i, resp, err)
		}
	}
	// The first search was told to wait an hour: it fell back without
	// sleeping, and the second search left a alone.
	if a.calls.Load() != 1 || len(*slept) != 0 {
		t.Fatalf("a calls = %d, sleeps = %v", a.calls.Load(), *slept)
	}
	st := e.Status()[0]
	if st.State != BreakerOpen || !st.OpenUntil.Equal(clk.now().Add(time.Hour)) {
		t.Fatalf("status = %+v", st)
	}
	clk.add(time.Hour)
	a.fn = func(context.Context, Query) ([]Result, error) { return results("a", "https://a.com/"), nil }
	if resp, err := e.Search(context.Background(), Query{Text: "q3"}); err != nil || resp.Provider != "a" {
		t.Fatalf("after Retry-After: %+v, %v", resp, err)
	}
}

func TestBackoffJitter(t *testing.T) {
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{ok("a")}, RetryBackoff: 100 * time.Millisecond})
	for _, j := range []float64{0, 0.5, 0.999} {
		e.jitter = func() float64 { return j }
		for try := range 4 {
			d := e.backoff(try, errors.New("x"))
			base := 100 * time.Millisecond << try
			if d < base/2 || d >= base {
				t.Errorf("jitter %v try %d: backoff %v outside [%v, %v)", j, try, d, base/2, base)
			}
		}
	}
}

func TestDeadline(t *testing.T) {
	a := blocking("a", nil)
	b := ok("b", "https://b.com")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b}, Timeout: 20 * time.Millisecond})
	_, err := e.Search(context.Background(), Query{Text: "q"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "search deadline exceeded after 20ms") {
		t.Fatalf("err = %v, want the engine deadline", err)
	}
	if b.calls.Load() != 0 {
		t.Error("fell back after the deadline")
	}
	// Running out of the engine's time is the provider's fault.
	if st := e.Status()[0]; st.ConsecutiveFailures != 1 {
		t.Errorf("slow provider not counted: %+v", st)
	}
}

func TestCallerCancelDoesNotCount(t *testing.T) {
	entered := make(chan struct{})
	done := make(chan error, 1)
	a := &fake{name: "a", fn: func(ctx context.Context, _ Query) ([]Result, error) {
		close(entered)
		<-ctx.Done()
		done <- context.Cause(ctx)
		return nil, ctx.Err()
	}}
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{a}, Timeout: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := e.Search(ctx, Query{Text: "q"}); errc <- err }()
	<-entered
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The shared run is detached from the caller and ends with the engine
	// deadline, not leaking past it.
	if cause := <-done; !errors.Is(cause, errEngineTimeout) {
		t.Fatalf("provider context ended by %v, want the engine timeout", cause)
	}
}

func TestHedging(t *testing.T) {
	t.Run("slow provider is hedged and cancelled", func(t *testing.T) {
		done := make(chan error, 1)
		a := blocking("a", done)
		b := ok("b", "https://b.com")
		e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b}, Hedge: time.Millisecond})
		resp, err := e.Search(context.Background(), Query{Text: "q"})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Provider != "b" {
			t.Fatalf("Provider = %q", resp.Provider)
		}
		select {
		case cause := <-done:
			if !errors.Is(cause, errHedgeLost) {
				t.Errorf("loser cancelled with %v", cause)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("losing provider was never cancelled")
		}
		if st := e.Status()[0]; st.ConsecutiveFailures != 0 || st.State != BreakerClosed {
			t.Errorf("losing a hedge counted as a failure: %+v", st)
		}
	})
	t.Run("fast provider is not hedged", func(t *testing.T) {
		a := ok("a", "https://a.com")
		b := ok("b", "https://b.com")
		e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b}, Hedge: time.Hour})
		resp, err := e.Search(context.Background(), Query{Text: "q"})
		if err != nil || resp.Provider != "a" || b.calls.Load() != 0 {
			t.Fatalf("resp=%v err=%v b calls=%d", resp, err, b.calls.Load())
		}
	})
	t.Run("failure starts the next at once", func(t *testing.T) {
		a := fail("a", ErrUnavailable)
		b := ok("b", "https://b.com")
		e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b}, Hedge: time.Hour})
		resp, err := e.Search(context.Background(), Query{Text: "q"})
		if err != nil || resp.Provider != "b" {
			t.Fatalf("resp=%v err=%v", resp, err)
		}
		if len(resp.Attempts) != 2 {
			t.Errorf("attempts = %v", resp.Attempts)
		}
	})
	t.Run("all fail", func(t *testing.T) {
		e, _, _ := newTestEngine(t, Options{Providers: []Provider{fail("a", ErrUnavailable), fail("b", ErrQuota)}, Hedge: time.Millisecond})
		_, err := e.Search(context.Background(), Query{Text: "q"})
		if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrQuota) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestFanOut(t *testing.T) {
	a := &fake{name: "a", fn: func(context.Context, Query) ([]Result, error) {
		return []Result{
			{Title: "One", URL: "https://one.com/", Snippet: "short"},
			{Title: "Two (a)", URL: "https://two.com/x"},
			{Title: "Three", URL: "https://three.com/"},
		}, nil
	}}
	b := &fake{name: "b", fn: func(context.Context, Query) ([]Result, error) {
		return []Result{
			{Title: "Two (b)", URL: "http://www.two.com/x/?utm_source=b", Snippet: "the longer snippet"},
			{Title: "One (b)", URL: "https://www.one.com", Snippet: "a much longer snippet"},
			{Title: "Four", URL: "https://four.com/"},
			{Title: "Blocked", URL: "https://ads.example.com/"},
		}, nil
	}}
	c := fail("c", ErrUnavailable)
	d := ok("d", "https://never.com/") // beyond FanOut: never asked
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b, c, d}, Mode: ModeFanOut, FanOut: 3})
	resp, err := e.Search(context.Background(), Query{Text: "q", BlockedDomains: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		// one: 1/61+1/62, two: 1/62+1/61 -> tie, one seen first.
		{Title: "One", URL: "https://one.com/", Snippet: "a much longer snippet", Provider: "a", Rank: 1},
		{Title: "Two (b)", URL: "http://www.two.com/x/?utm_source=b", Snippet: "the longer snippet", Provider: "b", Rank: 2},
		// three and four both 1/63; three seen first.
		{Title: "Three", URL: "https://three.com/", Provider: "a", Rank: 3},
		{Title: "Four", URL: "https://four.com/", Provider: "b", Rank: 4},
	}
	if diff := cmp.Diff(want, resp.Results); diff != "" {
		t.Errorf("fused results (-want +got):\n%s", diff)
	}
	if resp.Provider != "a+b" {
		t.Errorf("Provider = %q, want a+b", resp.Provider)
	}
	if len(resp.Attempts) != 3 || d.calls.Load() != 0 {
		t.Errorf("attempts=%v d calls=%d", resp.Attempts, d.calls.Load())
	}

	// When every provider asked fails, the rest of the chain is tried.
	e3, _, _ := newTestEngine(t, Options{Providers: []Provider{fail("a", ErrUnavailable), fail("b", ErrBlocked), ok("c", "https://c.com/")}, Mode: ModeFanOut, FanOut: 2})
	if r, err := e3.Search(context.Background(), Query{Text: "q"}); err != nil || r.Provider != "c" || len(r.Attempts) != 3 {
		t.Fatalf("fan-out fallback: %+v, %v", r, err)
	}

	// Everything failing is an error; the providers' kinds are kept.
	e2, _, _ := newTestEngine(t, Options{Providers: []Provider{fail("a", ErrUnavailable), fail("b", ErrAuth)}, Mode: ModeFanOut})
	if _, err := e2.Search(context.Background(), Query{Text: "q"}); !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrAuth) {
		t.Fatalf("all failing: %v", err)
	}
}

func TestFuseRRFOrder(t *testing.T) {
	// x is second everywhere, but agreement across three lists beats being
	// first in one.
	lists := [][]Result{
		results("a", "https://a1.com/", "https://x.com/"),
		results("b", "https://b1.com/", "https://x.com/"),
		results("c", "https://c1.com/", "https://x.com/"),
	}
	got := fuse(lists)
	if got[0].URL != "https://x.com/" {
		t.Fatalf("first = %q, want the consensus result", got[0].URL)
	}
	if diff := cmp.Diff([]string{"https://x.com/", "https://a1.com/", "https://b1.com/", "https://c1.com/"}, urls(&Response{Results: got})); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestDomainRulesEnforced(t *testing.T) {
	p := ok("a",
		"https://evil.com/",
		"https://docs.example.com/a",
		"https://docs.example.com/a#dup",
		"https://example.com@evil.com/",
		"https://ex\u0430mple.com/",
		"javascript:alert(1)",
		"https://example.com/b",
		"https://www.example.com/c",
		"https://example.com/d",
	)
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
	resp, err := e.Search(context.Background(), Query{Text: "q", MaxResults: 3, AllowedDomains: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://docs.example.com/a", "https://example.com/b", "https://www.example.com/c"}, urls(resp)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	for i, r := range resp.Results {
		if r.Rank != i+1 {
			t.Errorf("result %d has rank %d", i, r.Rank)
		}
	}
}

func TestNonHTTPResultsDropped(t *testing.T) {
	p := ok("a", "javascript:alert(1)", "", "/relative", "ftp://x.com/f", "HTTPS://A.COM/", "http://b.com/x", "https://")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
	resp, err := e.Search(context.Background(), Query{Text: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"HTTPS://A.COM/", "http://b.com/x"}, urls(resp)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestCache(t *testing.T) {
	p := ok("a", "https://a.com/")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}, Cache: cache.NewLocal[*Response](100), CacheTTL: time.Minute})
	ctx := context.Background()
	first, err := e.Search(ctx, Query{Text: "Go  Generics", BlockedDomains: []string{"b.com", "a.org"}})
	if err != nil || first.Cached || len(first.Attempts) != 1 {
		t.Fatalf("miss: %+v, %v", first, err)
	}
	// Case, white space and domain order do not matter.
	hit, err := e.Search(ctx, Query{Text: " go generics ", BlockedDomains: []string{"a.org", "b.com"}})
	if err != nil || !hit.Cached || hit.Attempts != nil || p.calls.Load() != 1 {
		t.Fatalf("hit: %+v, %v, calls=%d", hit, err, p.calls.Load())
	}
	if diff := cmp.Diff(first.Results, hit.Results); diff != "" {
		t.Errorf("cached results differ:\n%s", diff)
	}
	// Different options miss.
	for _, q := range []Query{
		{Text: "go generics", MaxResults: 5, BlockedDomains: []string{"a.org", "b.com"}},
		{Text: "go generics", Freshness: FreshnessDay, BlockedDomains: []string{"a.org", "b.com"}},
		{Text: "go generics", BlockedDomains: []string{"a.org"}},
		{Text: "go generics", AllowedDomains: []string{"a.org", "b.com"}},
	} {
		if r, err := e.Search(ctx, q); err != nil || r.Cached {
			t.Errorf("%+v: cached=%v err=%v", q, r != nil && r.Cached, err)
		}
	}
	// Failures are not cached.
	f := fail("f", ErrUnavailable)
	e2, _, _ := newTestEngine(t, Options{Providers: []Provider{f}, Cache: cache.NewLocal[*Response](100), BreakerFailures: 10})
	for range 2 {
		_, _ = e2.Search(ctx, Query{Text: "q"})
	}
	if f.calls.Load() != 2 {
		t.Errorf("failed response was cached: calls=%d", f.calls.Load())
	}
}

func TestCoalescing(t *testing.T) {
	const n = 20
	release := make(chan struct{})
	p := &fake{name: "a", fn: func(ctx context.Context, _ Query) ([]Result, error) {
		<-release
		return results("a", "https://a.com/"), nil
	}}
	// No cache: only coalescing can keep this to one call.
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
	var joined sync.WaitGroup
	joined.Add(n)
	e.joined = joined.Done
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			r, err := e.Search(context.Background(), Query{Text: "same query"})
			if err == nil && len(r.Results) != 1 {
				err = fmt.Errorf("got %d results", len(r.Results))
			}
			errs <- err
		})
	}
	joined.Wait() // every caller is waiting on the shared run
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := p.calls.Load(); got != 1 {
		t.Errorf("provider called %d times, want 1", got)
	}
}

func TestCancelledLeaderDoesNotFailFollowers(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	p := &fake{name: "a", fn: func(ctx context.Context, _ Query) ([]Result, error) {
		close(entered)
		select {
		case <-release:
			return results("a", "https://a.com/"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
	var joined sync.WaitGroup
	joined.Add(2)
	e.joined = joined.Done
	leaderCtx, cancel := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() { _, err := e.Search(leaderCtx, Query{Text: "q"}); leaderErr <- err }()
	<-entered
	follower := make(chan error, 1)
	go func() { _, err := e.Search(context.Background(), Query{Text: "q"}); follower <- err }()
	joined.Wait()
	cancel()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader err = %v", err)
	}
	close(release)
	if err := <-follower; err != nil {
		t.Fatalf("follower failed because the leader gave up: %v", err)
	}
	if p.calls.Load() != 1 {
		t.Errorf("calls = %d", p.calls.Load())
	}
}

type fakeLimiter struct {
	mu   sync.Mutex
	keys []string
	deny map[string]bool
}

func (l *fakeLimiter) Wait(ctx context.Context, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.keys = append(l.keys, key)
	if l.deny[key] {
		return errors.New("would exceed deadline")
	}
	return ctx.Err()
}

func TestLimiter(t *testing.T) {
	a := ok("a", "https://a.com/")
	b := ok("b", "https://b.com/")
	lim := &fakeLimiter{deny: map[string]bool{"a": true}}
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b}, Limiter: lim})
	resp, err := e.Search(context.Background(), Query{Text: "q"})
	if err != nil || resp.Provider != "b" {
		t.Fatalf("resp=%+v err=%v", resp, err)
	}
	if a.calls.Load() != 0 {
		t.Error("rate-limited provider was called")
	}
	if diff := cmp.Diff([]string{"a", "b"}, lim.keys); diff != "" {
		t.Errorf("limiter keys (-want +got):\n%s", diff)
	}
	if st := e.Status()[0]; st.ConsecutiveFailures != 0 {
		t.Errorf("local rate limit counted as a provider failure: %+v", st)
	}
	// When every provider is throttled, the error says so.
	lim.deny["b"] = true
	_, err = e.Search(context.Background(), Query{Text: "q2"})
	if !errors.Is(err, ErrRateLimited) || !strings.Contains(err.Error(), "local rate limit") {
		t.Fatalf("err = %v", err)
	}
}

func TestProviderPanic(t *testing.T) {
	a := &fake{name: "a", fn: func(context.Context, Query) ([]Result, error) { panic("boom") }}
	b := ok("b", "https://b.com/")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{a, b}})
	resp, err := e.Search(context.Background(), Query{Text: "q"})
	if err != nil || resp.Provider != "b" {
		t.Fatalf("resp=%+v err=%v", resp, err)
	}
	if err := resp.Attempts[0].Err; !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "boom") {
		t.Errorf("panic attempt err = %v", err)
	}
}

func TestCacheKey(t *testing.T) {
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{ok("a")}})
	k := func(q Query) string {
		if err := e.normalize(&q); err != nil {
			t.Fatal(err)
		}
		return e.cacheKey(&q)
	}
	same := [][2]Query{
		{{Text: "Hello   World"}, {Text: "hello world"}},
		{{Text: "ÉCOLE\u00a0été"}, {Text: "école été"}},
		{{Text: "x", MaxResults: 0}, {Text: "x", MaxResults: 10}},
		{{Text: "x", AllowedDomains: []string{"b.com", " a.com"}}, {Text: "x", AllowedDomains: []string{"a.com", "b.com"}}},
	}
	for _, p := range same {
		if k(p[0]) != k(p[1]) {
			t.Errorf("keys differ for %+v and %+v", p[0], p[1])
		}
	}
	different := [][2]Query{
		{{Text: "a b"}, {Text: "ab"}},
		{{Text: "x", AllowedDomains: []string{"a.com"}}, {Text: "x", BlockedDomains: []string{"a.com"}}},
		{{Text: "x", AllowedDomains: []string{"a.com/B"}}, {Text: "x", AllowedDomains: []string{"a.com/b"}}},
		{{Text: "x", Language: "en"}, {Text: "x", Language: "de"}},
		{{Text: "x", Location: Location{City: "a", Region: "b"}}, {Text: "x", Location: Location{City: "ab"}}},
		{{Text: "x", SafeSearch: SafeSearchOff}, {Text: "x"}},
		{{Text: "x", Provider: "a"}, {Text: "x"}},
	}
	for _, p := range different {
		if k(p[0]) == k(p[1]) {
			t.Errorf("keys equal for %+v and %+v", p[0], p[1])
		}
	}
}

func TestFanOutPartialDeadline(t *testing.T) {
	done := make(chan error, 1)
	slow := blocking("slow", done)
	fast := ok("fast", "https://fast.com/")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{slow, fast}, Mode: ModeFanOut, Timeout: 30 * time.Millisecond})
	resp, err := e.Search(context.Background(), Query{Text: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Provider != "fast" || len(resp.Results) != 1 {
		t.Fatalf("resp = %+v", resp)
	}
	select {
	case <-done: // the slow provider's goroutine ended with the deadline
	case <-time.After(10 * time.Second):
		t.Fatal("slow fan-out provider never saw its context end")
	}
}

func TestHedgedInvalidQueryStops(t *testing.T) {
	c := ok("c", "https://c.com/")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{fail("a", ErrInvalidQuery), c}, Hedge: time.Hour})
	if _, err := e.Search(context.Background(), Query{Text: "q"}); !errors.Is(err, ErrInvalidQuery) {
		t.Fatalf("err = %v", err)
	}
	if c.calls.Load() != 0 {
		t.Error("invalid query was sent to the next provider")
	}
}

func TestStatusInitial(t *testing.T) {
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{ok("a"), ok("b")}})
	want := []ProviderStatus{{Name: "a", State: BreakerClosed}, {Name: "b", State: BreakerClosed}}
	if diff := cmp.Diff(want, e.Status()); diff != "" {
		t.Errorf("Status (-want +got):\n%s", diff)
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	p := ok("a", "https://a.com/")
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Search(ctx, Query{Text: "q"}); !errors.Is(err, context.Canceled) || p.calls.Load() != 0 {
		t.Fatalf("err = %v, calls = %d", err, p.calls.Load())
	}
}

// TestDefaultSafeSearch: a query that sets no filter gets the configured
// default (search.safe_search); one that sets it keeps its own.
func TestDefaultSafeSearch(t *testing.T) {
	for _, tt := range []struct {
		set, want SafeSearch
	}{{SafeSearchDefault, SafeSearchModerate}, {SafeSearchOff, SafeSearchOff}, {SafeSearchStrict, SafeSearchStrict}} {
		p := ok("a", "https://a.com/")
		e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}, SafeSearch: SafeSearchModerate})
		if _, err := e.Search(t.Context(), Query{Text: "go", SafeSearch: tt.set}); err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		got := p.last.SafeSearch
		p.mu.Unlock()
		if got != tt.want {
			t.Errorf("query with %q: provider got %q, want %q", tt.set, got, tt.want)
		}
	}
}

// TestDomainRulesKeepResultCount: a provider that ignores a blocked
// domain, as many backends ignore -site:, still leaves max_results
// results when enough allowed ones exist (3 asked, one domain blocked, 3
// returned, not 1).
func TestDomainRulesKeepResultCount(t *testing.T) {
	var asked []int
	p := &fake{name: "a", fn: func(_ context.Context, q Query) ([]Result, error) {
		asked = append(asked, q.MaxResults)
		var out []Result
		for i := range q.MaxResults {
			host := "blocked.example"
			if i%3 == 2 {
				host = fmt.Sprintf("ok%d.example", i)
			}
			out = append(out, Result{Title: "t", URL: fmt.Sprintf("https://%s/%d", host, i), Provider: "a"})
		}
		return out, nil
	}}
	e, _, _ := newTestEngine(t, Options{Providers: []Provider{p}})
	resp, err := e.Search(t.Context(), Query{Text: "go", MaxResults: 3, BlockedDomains: []string{"blocked.example"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 3 {
		t.Errorf("got %d results, want 3: %+v", len(resp.Results), resp.Results)
	}
	for _, r := range resp.Results {
		if strings.Contains(r.URL, "blocked.example") {
			t.Errorf("blocked result %s", r.URL)
		}
	}
	if resp.Query.MaxResults != 3 {
		t.Errorf("response query asks for %d", resp.Query.MaxResults)
	}
	// Without domain rules the provider is asked for exactly what the
	// caller asked.
	if _, err := e.Search(t.Context(), Query{Text: "rust", MaxResults: 3}); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || asked[0] <= 3 || asked[1] != 3 {
		t.Errorf("provider asked for %v results", asked)
	}
}
