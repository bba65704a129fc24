package audit

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// memSink keeps what it is given; block, when set, holds every Write
// until closed.
type memSink struct {
	mu     sync.Mutex
	recs   []Record
	block  chan struct{}
	fail   bool
	closed bool
}

func (m *memSink) Write(ctx context.Context, recs []Record) error {
	if m.block != nil {
		select {
		case <-m.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return errors.New("disk full")
	}
	m.recs = append(m.recs, recs...)
	return nil
}

func (m *memSink) Close() error { m.mu.Lock(); m.closed = true; m.mu.Unlock(); return nil }

func (m *memSink) all() []Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Record(nil), m.recs...)
}

func TestLoggerRecentAndFlush(t *testing.T) {
	sink := &memSink{}
	l := New(Options{Sinks: []Sink{sink}, Recent: 4})
	for i := range 6 {
		l.Log(Record{KeyID: []string{"a", "b"}[i%2], Surface: "api", Kind: KindSearch, Query: fmt.Sprint(i), Outcome: OutcomeOK})
	}
	queries := func(rs []Record) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Query)
		}
		return out
	}
	if diff := cmp.Diff([]string{"5", "4", "3", "2"}, queries(l.Recent(Filter{}))); diff != "" {
		t.Errorf("Recent keeps the latest 4, newest first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"5", "3"}, queries(l.Recent(Filter{KeyID: "b"}))); diff != "" {
		t.Errorf("Recent(key b) (-want +got):\n%s", diff)
	}
	if got := queries(l.Recent(Filter{Limit: 1, Surface: "api", Outcome: OutcomeOK, Kind: KindSearch})); len(got) != 1 || got[0] != "5" {
		t.Errorf("Recent with Limit 1 = %v", got)
	}
	if len(l.Recent(Filter{Surface: "mcp"})) != 0 {
		t.Error("filter by surface")
	}
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(sink.all()) != 6 || !sink.closed {
		t.Errorf("after Close the sink has %d of 6 records (closed %v)", len(sink.all()), sink.closed)
	}
	if st := l.Stats(); st.Logged != 6 || st.Written != 6 || st.Dropped != 0 {
		t.Errorf("stats = %+v", st)
	}
	l.Log(Record{Query: "late"}) // after Close: dropped, no panic
	if st := l.Stats(); st.Dropped != 1 {
		t.Errorf("a record logged after Close is not counted as dropped: %+v", st)
	}
	var nilLogger *Logger
	nilLogger.Log(Record{})
	_ = nilLogger.Recent(Filter{})
}

// TestLoggerNeverBlocks: with the only sink stuck, Log keeps returning;
// what does not fit in the queue is dropped and counted.
func TestLoggerNeverBlocks(t *testing.T) {
	sink := &memSink{block: make(chan struct{})}
	l := New(Options{Sinks: []Sink{sink}, QueueSize: 8, BatchSize: 4})
	const n = 1000
	for i := range n {
		l.Log(Record{Query: fmt.Sprint(i)}) // would hang the test if it blocked
	}
	st := l.Stats()
	if st.Dropped == 0 || st.Logged+st.Dropped != n || st.Logged > 8+4 {
		t.Errorf("stats with a stuck sink = %+v; want at most queue+batch logged, the rest dropped", st)
	}
	if len(l.Recent(Filter{})) != 1000 {
		t.Error("Recent must not depend on the sinks")
	}
	close(sink.block)
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := uint64(len(sink.all())); got != st.Logged {
		t.Errorf("sink got %d records, %d were queued", got, st.Logged)
	}
}

func TestLoggerSinkFailure(t *testing.T) {
	bad, good := &memSink{fail: true}, &memSink{}
	l := New(Options{Sinks: []Sink{bad, good}})
	l.Log(Record{Query: "x"})
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := l.Stats(); st.Failed != 1 || st.Written != 0 || len(good.all()) != 1 {
		t.Errorf("stats = %+v, good sink %d records; a failing sink must not stop the others", st, len(good.all()))
	}
}

func TestLoggerConcurrent(t *testing.T) {
	sink := &memSink{}
	l := New(Options{Sinks: []Sink{sink}, QueueSize: 100000})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				l.Log(Record{KeyID: fmt.Sprint(g), Query: fmt.Sprint(i)})
				if i%50 == 0 {
					_ = l.Recent(Filter{KeyID: "3", Limit: 10})
				}
			}
		})
	}
	wg.Wait()
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(sink.all()) != 4000 {
		t.Errorf("%d of 4000 records written", len(sink.all()))
	}
}

func TestFileSink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "logs", "audit.jsonl")
	fs, err := NewFileSink(FileOptions{Path: path, MaxSizeMB: 1, MaxBackups: 2})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file not created at start-up with mode 0600: %v %v", st, err)
	}
	when := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := Record{Time: when, KeyID: "ci", Surface: "api", Kind: KindSearch, Query: strings.Repeat("q", 500) + " <&>", Provider: "brave", Results: 3, Bytes: 900, LatencyMS: 12.5, Outcome: OutcomeOK}
	batch := make([]Record, 100)
	for i := range batch {
		batch[i] = rec
	}
	for range 25 { // ~1.4 MB: one rotation
		if err := fs.Write(context.Background(), batch); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "logs", "audit-*.jsonl"))
	if len(files) != 1 {
		t.Errorf("rotated files = %v, want 1", files)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		var got Record
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("line %d is not a JSON record: %v", lines+1, err)
		}
		if diff := cmp.Diff(rec, got); diff != "" {
			t.Fatalf("record (-want +got):\n%s", diff)
		}
		if lines == 0 && !strings.Contains(sc.Text(), `<&>`) {
			t.Errorf("HTML-escaped JSON is harder to grep: %s", sc.Text()[500:])
		}
		lines++
	}
	if lines == 0 {
		t.Error("the current file is empty after rotation")
	}
	if _, err := NewFileSink(FileOptions{Path: filepath.Join(path, "x", "y")}); err == nil {
		t.Error("a path under a regular file must fail at start-up")
	}
}

type fixedSearcher struct {
	resp *search.Response
	err  error
}

func (f fixedSearcher) Search(context.Context, search.Query) (*search.Response, error) {
	return f.resp, f.err
}

type fixedGetter struct{ err error }

func (f fixedGetter) Fetch(_ context.Context, req fetch.Request) (*fetch.Result, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &fetch.Result{URL: req.URL, Content: "0123456789", Cached: true}, nil
}

func TestLayer(t *testing.T) {
	det := guard.NewDetector(guard.Options{HighEntropy: true})
	secret := "ghp_" + strings.Repeat("Ab3De5Gh7J", 4)[:36]
	ok := &search.Response{Provider: "brave", Cached: true, Results: []search.Result{{Title: "T", URL: "https://u/", Snippet: "s"}}}
	caller := policy.Caller{KeyID: "ci-bot", Surface: policy.SurfaceAPI}
	ctx := policy.WithCaller(context.Background(), caller)
	denied := &policy.Denial{Kind: policy.ErrRateLimited, Msg: "over the limit"}
	tests := []struct {
		name    string
		mode    string
		err     error
		query   string
		want    Record
		wantErr string
	}{
		{name: "ok, secrets redacted", mode: QueriesRedact, query: "token " + secret + " fails",
			want: Record{Query: "token [REDACTED:github_token] fails", Provider: "brave", Results: 1, Bytes: 12, Cached: true, Outcome: OutcomeOK}},
		{name: "full keeps the query", mode: QueriesFull, query: "golang generics",
			want: Record{Query: "golang generics", Provider: "brave", Results: 1, Bytes: 12, Cached: true, Outcome: OutcomeOK}},
		{name: "blocked is redacted even in full mode", mode: QueriesFull, query: "token " + secret, err: &guard.SecretError{What: "query", Kinds: []string{"a GitHub token"}},
			want: Record{Query: "token [REDACTED:github_token]", Outcome: OutcomeBlocked}, wantErr: "appears to contain a GitHub token"},
		{name: "denied, hashed", mode: QueriesHash, query: "golang generics", err: denied,
			want: Record{Query: "sha256:" + "a1e6d5de1d4ab9b3", Outcome: OutcomeDenied, Error: "denied: rate limit exceeded"}},
		{name: "provider error, omitted", mode: QueriesOmit, query: "golang", err: fmt.Errorf("search: %w", search.ErrUnavailable),
			want: Record{Outcome: OutcomeError, Error: "search: provider unavailable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := &memSink{}
			lg := New(Options{Sinks: []Sink{sink}})
			layer := NewLayer(lg, Redaction{Mode: tt.mode, Secrets: det.RedactSecrets})
			resp := ok
			if tt.err != nil {
				resp = nil
			}
			_, _ = layer.Searcher(fixedSearcher{resp, tt.err}).Search(ctx, search.Query{Text: tt.query})
			if err := lg.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := sink.all()
			if len(got) != 1 {
				t.Fatalf("%d records", len(got))
			}
			r := got[0]
			if r.Time.IsZero() || r.LatencyMS < 0 || r.KeyID != "ci-bot" || r.Surface != "api" || r.Kind != KindSearch {
				t.Errorf("common fields: %+v", r)
			}
			if tt.wantErr != "" {
				if !strings.Contains(r.Error, tt.wantErr) {
					t.Errorf("error = %q, want it to contain %q", r.Error, tt.wantErr)
				}
				r.Error = ""
			}
			if strings.Contains(fmt.Sprintf("%+v", r), secret) {
				t.Fatalf("the secret reached the audit record: %+v", r)
			}
			r.Time, r.LatencyMS, r.KeyID, r.Surface, r.Kind = time.Time{}, 0, "", "", ""
			if tt.mode == QueriesHash {
				tt.want.Query = r.Query // checked for shape below
				if !strings.HasPrefix(r.Query, "sha256:") || len(r.Query) != len("sha256:")+16 {
					t.Errorf("hashed query = %q", r.Query)
				}
			}
			if diff := cmp.Diff(tt.want, r); diff != "" {
				t.Errorf("record (-want +got):\n%s", diff)
			}
		})
	}

	// Fetches: URL recorded, bytes of content, a redirect-blocking denial.
	sink := &memSink{}
	lg := New(Options{Sinks: []Sink{sink}})
	layer := NewLayer(lg, Redaction{Mode: QueriesRedact, Secrets: det.RedactSecrets})
	_, _ = layer.Getter(fixedGetter{}).Fetch(ctx, fetch.Request{URL: "https://go.dev/?token=" + secret})
	_, _ = layer.Getter(fixedGetter{err: fmt.Errorf("x: %w", fetch.ErrTimeout)}).Fetch(ctx, fetch.Request{URL: "https://slow.example/"})
	_ = lg.Close(context.Background())
	got := sink.all()
	if len(got) != 2 || got[0].URL != "https://go.dev/?token=[REDACTED:github_token]" || got[0].Bytes != 10 || got[0].Results != 1 || !got[0].Cached || got[0].Kind != KindFetch {
		t.Errorf("fetch record = %+v", got[0])
	}
	if got[1].Outcome != OutcomeError || got[1].URL != "https://slow.example/" {
		t.Errorf("failed fetch record = %+v", got[1])
	}
}

// deferSink keeps every batch for later while down.
type deferSink struct {
	mu   sync.Mutex
	down bool
	n    int
}

func (d *deferSink) Write(_ context.Context, recs []Record) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.down {
		return fmt.Errorf("store down: %w", ErrDeferred)
	}
	d.n += len(recs)
	return nil
}

func (d *deferSink) Close() error { return nil }

// TestLoggerDeferred: batches a sink keeps for later are counted as
// deferred, not failed, and the deferral is logged once per outage.
func TestLoggerDeferred(t *testing.T) {
	var logs syncLog
	sink := &deferSink{down: true}
	l := New(Options{Sinks: []Sink{sink}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	flushOne := func(q string) {
		t.Helper()
		before := l.Stats()
		l.Log(Record{Kind: KindSearch, Query: q})
		deadline := time.Now().Add(10 * time.Second)
		for st := l.Stats(); st.Written+st.Deferred+st.Failed == before.Written+before.Deferred+before.Failed; st = l.Stats() {
			if time.Now().After(deadline) {
				t.Fatal("record never reached the sink")
			}
			time.Sleep(time.Millisecond)
		}
	}
	for i := range 5 {
		flushOne(fmt.Sprint("down ", i))
	}
	sink.mu.Lock()
	sink.down = false
	sink.mu.Unlock()
	flushOne("up")
	sink.mu.Lock()
	sink.down = true
	sink.mu.Unlock()
	flushOne("down again")
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := l.Stats()
	if st.Deferred != 6 || st.Written != 1 || st.Failed != 0 {
		t.Errorf("stats = %+v, want 6 deferred, 1 written, 0 failed", st)
	}
	if n, m := strings.Count(logs.String(), "audit sink failing; it keeps the records"), strings.Count(logs.String(), "audit sink writing again"); n != 2 || m != 1 {
		t.Errorf("deferral logged %d times and recovery %d times, want twice and once:\n%s", n, m, logs.String())
	}
}

// syncLog is a log destination safe for the writer goroutine and the test.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncLog) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Without sinks (the default) records only go to Recent: Log hands
// nothing to a writer, so a queue of one never overflows, and Close
// returns at once.
func TestLoggerWithoutSinks(t *testing.T) {
	l := New(Options{QueueSize: 1, Recent: 4})
	for i := range 10 {
		l.Log(Record{Kind: KindSearch, Query: fmt.Sprint("q", i)})
	}
	if got, want := l.Stats(), (Stats{Logged: 10, Written: 10}); got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
	if got := l.Recent(Filter{}); len(got) != 4 || got[0].Query != "q9" {
		t.Errorf("recent = %+v, want the last 4, newest first", got)
	}
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.Log(Record{Kind: KindSearch})
	if got := l.Stats().Dropped; got != 1 {
		t.Errorf("a record logged after Close: dropped = %d, want 1", got)
	}
}
