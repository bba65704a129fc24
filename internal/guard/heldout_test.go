package guard

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/repotest"
)

var heldoutFull = flag.Bool("heldout-full", false, "scan every WCXB page in TestSecretHeldOut, not one in 20")

// TestSecretHeldOut measures the detector on text it was not tuned on.
//
// Negatives: every line of the main content of the 1,497 WCXB pages in
// ../shared (articles, documentation with code, forums, product pages),
// and their URLs through ScanURL. Every finding there is counted as a
// false alarm, although documentation sometimes prints example keys. By
// default one page in 20 is scanned, to keep the race-enabled suite
// quick; -heldout-full scans all of them (the figures in
// docs/security.md).
//
// Positives: 1,000 random values of each shape the generic rule is meant
// to catch, each alone in a short query.
func TestSecretHeldOut(t *testing.T) {
	dir := sharedDir(t, "extraction-bench/wcxb-dev/ground-truth")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ground truth in %s: %v", dir, err)
	}
	d := corpusDetector()
	lines, alarms, urls, urlAlarms := 0, 0, 0, 0
	byRule := map[string]int{}
	for i, f := range files {
		if !*heldoutFull && i%20 != 0 {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var gt struct {
			URL         string `json:"url"`
			GroundTruth struct {
				MainContent string `json:"main_content"`
			} `json:"ground_truth"`
		}
		if err := json.Unmarshal(b, &gt); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if gt.URL != "" {
			urls++
			if fs := d.ScanURL(gt.URL); len(fs) > 0 {
				urlAlarms++
				t.Logf("URL alarm %v: %s", rules(fs), gt.URL)
			}
		}
		for line := range strings.SplitSeq(gt.GroundTruth.MainContent, "\n") {
			line = strings.TrimSpace(line)
			if len(line) < 3 {
				continue
			}
			if len(line) > 2000 {
				line = line[:2000]
			}
			lines++
			if fs := d.Scan(line); len(fs) > 0 {
				alarms++
				for _, f := range fs {
					byRule[f.Rule]++
					if testing.Verbose() {
						t.Logf("alarm %s: %q in %.120q", f.Rule, line[f.Start:f.End], line)
					}
				}
			}
		}
	}
	rate := float64(alarms) / float64(lines)
	t.Logf("held-out negatives: %d lines of web text, %d with a finding (%.3f%%), by rule %v; %d page URLs, %d with a finding",
		lines, alarms, 100*rate, byRule, urls, urlAlarms)
	if rate > 0.005 || urlAlarms > urls/200 {
		t.Errorf("false alarm rate %.3f%% on web text (ceiling 0.5%%), %d of %d URLs", 100*rate, urlAlarms, urls)
	}

	// Generic-rule recall on fresh random values.
	g := gen{rand.New(rand.NewPCG(2026, 7))}
	shapes := []struct {
		name     string
		alphabet string
		n        int
	}{
		{"base62x24", alnum, 24}, {"base62x32", alnum, 32}, {"base62x40", alnum, 40},
		{"base36-lower-x32", lowerNum, 32}, {"base36-upper-x32", upperNum, 32}, {"base64url-x48", b64url, 48},
	}
	for _, sh := range shapes {
		hit := 0
		for range 1000 {
			if len(d.Scan("why is "+g.s(sh.alphabet, sh.n)+" rejected")) > 0 {
				hit++
			}
		}
		t.Logf("generic rule recall %s: %.1f%%", sh.name, float64(hit)/10)
		if hit < 950 {
			t.Errorf("generic rule recall on %s is %.1f%%, floor 95%%", sh.name, float64(hit)/10)
		}
	}
}

// sharedDir finds ../shared/<rel> beside the repository root. Without it
// the test skips locally and fails in CI, where the datasets must exist.
func sharedDir(tb testing.TB, rel string) string {
	tb.Helper()
	return repotest.Shared(tb, rel)
}

// TestInjectionHeldOut counts prompt-injection flags on ordinary web text
// (the WCXB pages' main content, whole pages at a time). Every flag there
// is a false alarm unless a page really addresses models, which the log
// lets a reader judge.
func TestInjectionHeldOut(t *testing.T) {
	dir := sharedDir(t, "extraction-bench/wcxb-dev/ground-truth")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	pages, flagged, flags := 0, 0, 0
	for i, f := range files {
		if !*heldoutFull && i%5 != 0 {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var gt struct {
			URL         string `json:"url"`
			GroundTruth struct {
				MainContent string `json:"main_content"`
			} `json:"ground_truth"`
		}
		if err := json.Unmarshal(b, &gt); err != nil {
			t.Fatal(err)
		}
		pages++
		if fs := Injections(gt.GroundTruth.MainContent); len(fs) > 0 {
			flagged++
			flags += len(fs)
			for _, fl := range fs {
				t.Logf("flag %s on %s: %s", fl.Rule, gt.URL, fl.Excerpt)
			}
		}
	}
	t.Logf("injection flags on held-out web text: %d of %d pages flagged (%.2f%%), %d flags", flagged, pages, 100*float64(flagged)/float64(pages), flags)
	if float64(flagged) > 0.01*float64(pages) {
		t.Errorf("%d of %d ordinary pages flagged; ceiling 1%%", flagged, pages)
	}
}
