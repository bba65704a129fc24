package audit

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// BenchmarkLayerSearch is the audit layer's cost per search, around an
// engine that answers at once with ten results, with the default
// redaction (the query guard's detector): the record built, redacted,
// kept for Recent and queued. Sinks write on their own goroutine (see
// BenchmarkFileSink).
func BenchmarkLayerSearch(b *testing.B) {
	results := make([]search.Result, 10)
	for i := range results {
		results[i] = search.Result{Title: "A result title of average length", URL: "https://example.com/some/page", Snippet: "A snippet of about one hundred and sixty characters, which is what search providers usually return for a result on a page."}
	}
	next := fixedSearcher{resp: &search.Response{Provider: "brave", Results: results}}
	det := guard.NewDetector(guard.Options{HighEntropy: true})
	ctx := policy.WithCaller(context.Background(), policy.Caller{KeyID: "ci-bot", Surface: policy.SurfaceAPI})
	lg := New(Options{QueueSize: 1 << 16})
	defer lg.Close(context.Background())
	s := NewLayer(lg, Redaction{Mode: QueriesRedact, Secrets: det.RedactSecrets}).Searcher(next)
	q := search.Query{Text: "golang generics type parameters tutorial"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Search(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileSink is the JSONL file sink's cost per record, written in
// the writer's batches of 256: its inverse is how many records a second a
// replica can audit to disk before the queue fills and records are
// dropped (and counted).
func BenchmarkFileSink(b *testing.B) {
	fs, err := NewFileSink(FileOptions{Path: filepath.Join(b.TempDir(), "audit.jsonl")})
	if err != nil {
		b.Fatal(err)
	}
	defer fs.Close()
	batch := make([]Record, 256)
	for i := range batch {
		batch[i] = Record{Time: time.Now().UTC(), KeyID: "ci-bot", Surface: "api", Kind: KindSearch, Query: "golang generics type parameters tutorial",
			Provider: "brave", Results: 10, Bytes: 2400, LatencyMS: 312.4, Outcome: OutcomeOK}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if err := fs.Write(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
		n += len(batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/record")
}

// BenchmarkRecent is what the console's audit view costs: the 100 latest
// records of one key out of a full ring of 1,000.
func BenchmarkRecent(b *testing.B) {
	lg := New(Options{})
	defer lg.Close(context.Background())
	for i := range 1000 {
		key := "a"
		if i%2 == 0 {
			key = "b"
		}
		lg.Log(Record{KeyID: key, Kind: KindSearch, Outcome: OutcomeOK, Query: "q"})
	}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(lg.Recent(Filter{KeyID: "a", Limit: 100})); n != 100 {
			b.Fatalf("got %d records", n)
		}
	}
}
