package audit

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/webgate/webgate/guard"
	"github.com/webgate/webgate/policy"
	"github.com/webgate/webgate/search"
)

// BenchmarkLayerSearch is the audit layer's cost per search, around an
// engine that answers at once with ten results, with the default
// redaction (the query guard's detector): the record built, redacted,
// kept for Recent and queued. "file" adds the JSONL file sink; its
// writer goroutine runs beside the benchmark, so its cost is in the
// figure on a busy machine.
func BenchmarkLayerSearch(b *testing.B) {
	results := make([]search.Result, 10)
	for i := range results {
		results[i] = search.Result{Title: "A result title of average length", URL: "https://example.com/some/page", Snippet: "A snippet of about one hundred and sixty characters, which is what search providers usually return for a result on a page."}
	}
	next := fixedSearcher{resp: &search.Response{Provider: "brave", Results: results}}
	det := guard.NewDetector(guard.Options{HighEntropy: true})
	ctx := policy.WithCaller(context.Background(), policy.Caller{KeyID: "ci-bot", Surface: policy.SurfaceAPI})
	for _, bc := range []struct {
		name string
		file bool
	}{{"recent-only", false}, {"file", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var sinks []Sink
			if bc.file {
				fs, err := NewFileSink(FileOptions{Path: filepath.Join(b.TempDir(), "audit.jsonl")})
				if err != nil {
					b.Fatal(err)
				}
				sinks = append(sinks, fs)
			}
			lg := New(Options{Sinks: sinks, QueueSize: 1 << 16})
			s := NewLayer(lg, Redaction{Mode: QueriesRedact, Secrets: det.RedactSecrets}).Searcher(next)
			q := search.Query{Text: "golang generics type parameters tutorial"}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Search(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if err := lg.Close(context.Background()); err != nil {
				b.Fatal(err)
			}
			if st := lg.Stats(); st.Dropped > 0 || st.Failed > 0 {
				b.Fatalf("records lost: %+v", st)
			}
		})
	}
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
