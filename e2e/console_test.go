package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/policy"
)

// requireChromium returns node and the Chromium binary for the console's
// browser test, or skips (fails on CI) when either, or playwright-core,
// is missing.
func requireChromium(t *testing.T) (node, browser string) {
	t.Helper()
	node = requireNode(t)
	fail := t.Skipf
	if os.Getenv("CI") == "true" {
		fail = t.Fatalf
	}
	if _, err := os.Stat(filepath.Join("node_modules", "playwright-core", "package.json")); err != nil {
		fail("e2e/node_modules/playwright-core is missing; run `npm ci --prefix e2e`")
	}
	browser = os.Getenv("WEBGATE_CHROMIUM")
	if browser == "" {
		browser = "/usr/bin/chromium"
	}
	if _, err := os.Stat(browser); err != nil {
		fail("Chromium is not installed at %s; install Debian's chromium package (apt-get install chromium) or set WEBGATE_CHROMIUM", browser)
	}
	return node, browser
}

// artifactsDir is where the browser test saves its screenshots:
// $WEBGATE_E2E_ARTIFACTS, else e2e/artifacts (ignored by git).
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WEBGATE_E2E_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// consoleSummary is what console.mjs reports.
type consoleSummary struct {
	Checks      []string `json:"checks"`
	Screenshots []string `json:"screenshots"`
	Problems    []string `json:"problems"`
	Error       string   `json:"error"`
	Search      struct {
		Meta    string `json:"meta"`
		Results int    `json:"results"`
	} `json:"search"`
	Fetch struct {
		Meta string `json:"meta"`
	} `json:"fetch"`
}

// TestConsoleInChromium loads the web console of a real `webgate serve`
// in headless Chromium, signs in with a gateway key, runs a search
// against the SearXNG fake and a fetch of a loopback page, and checks what
// a person would see in every view (include_content too). Screenshots are saved to
// artifactsDir.
func TestConsoleInChromium(t *testing.T) {
	node, browser := requireChromium(t)
	var hits atomic.Int64
	fake := searxngFake(t, &hits)
	key, _ := policy.GenerateKey()
	path := writeServeConfig(t, fake.URL, fmt.Sprintf(`auth:
  keys:
    - {id: e2e-console, hash: %q}
console:
  operators: [e2e-console]
`, policy.HashKey(key)))
	srv := startServe(t, build(t), path)
	base := srv.base
	artifacts := artifactsDir(t)

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "console.mjs")
	cmd.Env = append(os.Environ(), "BASE_URL="+base, "KEY="+key, "PAGE_URL="+fake.URL+"/page/one", "ARTIFACTS="+artifacts, "CHROMIUM="+browser)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var s consoleSummary
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("console.mjs: %v, output is not JSON: %v\n%s\nstderr:\n%s", runErr, err, out, stderr.String())
	}
	for _, p := range s.Screenshots {
		t.Logf("screenshot: %s", p)
	}
	if runErr != nil || s.Error != "" {
		t.Fatalf("console.mjs: %v\n%s\npassed before failing: %s\nstderr:\n%s\nwebgate serve:\n%s", runErr, s.Error, strings.Join(s.Checks, "; "), stderr.String(), srv.logs())
	}
	t.Logf("browser checks passed: %d (%s)", len(s.Checks), strings.Join(s.Checks, "; "))
	if len(s.Checks) < 20 || len(s.Screenshots) != 2 {
		t.Errorf("the browser script checked %d things and took %d screenshots", len(s.Checks), len(s.Screenshots))
	}
	for _, p := range s.Screenshots {
		if st, err := os.Stat(p); err != nil || st.Size() < 10_000 {
			t.Errorf("screenshot %s: %v", p, err)
		}
	}
	if hits.Load() != 2 {
		t.Errorf("the SearXNG fake saw %d searches, want 2", hits.Load())
	}
}
