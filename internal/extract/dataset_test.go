package extract

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/repotest"
)

// benchPage is one page of the shared extraction datasets.
type benchPage struct {
	set, id, url string
	body         []byte
	// ref is the expected main content (text), typ the WCXB page type.
	ref, typ string
	// with and without are WCXB's snippets: text the main content must
	// hold, and text (page furniture) it must not.
	with, without []string
}

// benchDir finds ../shared/extraction-bench beside the repository root.
// Without it the calling test is skipped locally and fails in CI, where
// the datasets must be present.
func benchDir(tb testing.TB) string {
	tb.Helper()
	return repotest.Shared(tb, "extraction-bench")
}

// loadPages reads the first n pages (in name order) of each dataset.
func loadPages(tb testing.TB, n int) []benchPage {
	tb.Helper()
	root := benchDir(tb)
	var pages []benchPage

	var aeb map[string]struct {
		URL  string `json:"url"`
		Body string `json:"articleBody"`
	}
	if b, err := os.ReadFile(filepath.Join(root, "aeb", "ground-truth.json")); err == nil {
		if err := json.Unmarshal(b, &aeb); err != nil {
			tb.Fatalf("aeb ground truth: %v", err)
		}
	}
	ids := make([]string, 0, len(aeb))
	for id := range aeb {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids[:min(n, len(ids))] {
		pages = append(pages, benchPage{set: "aeb", id: id, url: aeb[id].URL, ref: aeb[id].Body,
			body: readMaybeGz(tb, filepath.Join(root, "aeb", "html", id+".html.gz"))})
	}

	gts, _ := filepath.Glob(filepath.Join(root, "wcxb-dev", "ground-truth", "*.json"))
	sort.Strings(gts)
	for _, f := range gts[:min(n, len(gts))] {
		var d struct {
			URL      string `json:"url"`
			Internal struct {
				PageType struct {
					Primary string `json:"primary"`
				} `json:"page_type"`
			} `json:"_internal"`
			GroundTruth struct {
				MainContent string   `json:"main_content"`
				With        []string `json:"with"`
				Without     []string `json:"without"`
			} `json:"ground_truth"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if err := json.Unmarshal(b, &d); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		typ := d.Internal.PageType.Primary
		if typ == "" {
			typ = "unknown"
		}
		pages = append(pages, benchPage{set: "wcxb-dev", id: id, url: d.URL, ref: d.GroundTruth.MainContent, typ: typ,
			with: d.GroundTruth.With, without: d.GroundTruth.Without,
			body: readMaybeGz(tb, filepath.Join(root, "wcxb-dev", "html", id+".html.gz"))})
	}

	dirs, _ := os.ReadDir(filepath.Join(root, "mozilla", "pages"))
	for _, d := range dirs[:min(n, len(dirs))] {
		dir := filepath.Join(root, "mozilla", "pages", d.Name())
		exp, err := os.ReadFile(filepath.Join(dir, "expected.html"))
		if err != nil {
			continue // extract-eval skips pages without an expected output too
		}
		pages = append(pages, benchPage{set: "mozilla", id: d.Name(), url: "http://fakehost/test/page.html",
			ref: evalHTMLText(exp), body: readMaybeGz(tb, filepath.Join(dir, "source.html"))})
	}
	if len(pages) == 0 {
		tb.Fatalf("no pages found under %s", root)
	}
	return pages
}

func readMaybeGz(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		g, err := gzip.NewReader(f)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		r = g
	}
	b, err := io.ReadAll(r)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return b
}

// TestDatasetSmoke runs every format over the first pages of each shared
// dataset: no panic, and non-empty output for pages that have text.
func TestDatasetSmoke(t *testing.T) {
	n := 15
	if testing.Short() {
		n = 4
	}
	for _, p := range loadPages(t, n) {
		t.Run(p.set+"/"+p.id, func(t *testing.T) {
			for _, f := range []Format{Markdown, Text, HTML} {
				doc, err := Extract(context.Background(), p.body, Options{URL: p.url, Format: f})
				if err != nil {
					// A JavaScript shell has nothing to extract; anything
					// else must produce content.
					if err == ErrEmpty {
						continue
					}
					t.Fatalf("%s: %v", f, err)
				}
				if strings.TrimSpace(doc.Content) == "" {
					t.Fatalf("%s: empty content without ErrEmpty", f)
				}
			}
		})
	}
}

// BenchmarkExtract measures Markdown extraction over a sample of dataset
// pages and reports per-page percentiles of wall time and of process CPU
// time. Run it single-core, so the CPU figures are per page:
//
//	go test ./internal/extract -run '^$' -bench 'BenchmarkExtract$' -cpu 1 -benchtime 3x
//
// On a shared machine wall time includes waiting for a core; the CPU
// percentiles do not (they still grow somewhat with cache and SMT
// contention, which p95-best-cpu, the p95 over pages of each page's best
// iteration, mostly filters out; best-cpu-ns/set is the sum of those
// best times over the 180 pages, the steadiest figure for comparing two
// builds).
func BenchmarkExtract(b *testing.B) {
	pages := loadPages(b, 60)
	var durs, cpus []time.Duration
	// best is each page's lowest CPU time over the iterations: on a
	// machine shared with other work, contention (caches, SMT siblings)
	// inflates some samples, and the per-page best is much steadier than
	// the percentile of all samples.
	best := make([]time.Duration, len(pages))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, p := range pages {
			t0, c0 := time.Now(), processCPU()
			_, _ = Extract(context.Background(), p.body, Options{URL: p.url})
			durs = append(durs, time.Since(t0))
			cpu := processCPU() - c0
			cpus = append(cpus, cpu)
			if best[i] == 0 || cpu < best[i] {
				best[i] = cpu
			}
		}
	}
	b.StopTimer()
	pct := func(ds []time.Duration, q float64) float64 {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))].Nanoseconds())
	}
	b.ReportMetric(pct(durs, 0.50), "p50-ns/page")
	b.ReportMetric(pct(durs, 0.95), "p95-ns/page")
	b.ReportMetric(pct(cpus, 0.50), "p50-cpu-ns/page")
	b.ReportMetric(pct(cpus, 0.95), "p95-cpu-ns/page")
	var bestSum time.Duration
	for _, d := range best {
		bestSum += d
	}
	b.ReportMetric(pct(best, 0.95), "p95-best-cpu-ns/page")
	b.ReportMetric(float64(bestSum.Nanoseconds()), "best-cpu-ns/set")
	b.ReportMetric(float64(len(pages)), "pages")
}
