// Package repotest finds, for tests, the repository's root and the shared
// datasets that sit beside it (../shared: recorded client requests,
// published API schemas, extraction benchmarks). The datasets are read in
// place and never copied into the repository.
//
// Tests call these instead of fixed relative paths so that they keep
// working wherever their package sits in the tree.
package repotest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the repository's root: the nearest directory, walking up
// from the test's working directory (its package directory), that holds
// go.mod.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := FindRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// FindRoot is Root for callers without a testing.TB, such as TestMain.
func FindRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repotest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// File returns the path of rel, a slash-separated path inside the
// repository.
func File(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Root(tb), filepath.FromSlash(rel))
}

// Shared returns the path of rel inside ../shared beside the repository
// root. When it is missing the test is skipped with the reason on a
// developer machine, and fails in CI (CI=true), where shared/ must be
// present.
func Shared(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(filepath.Dir(Root(tb)), "shared", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("../shared/%s not found beside the repository root (it must be present in CI): %v", rel, err)
		}
		tb.Skipf("../shared/%s not found beside the repository root; skipping (set CI=true to make this fatal)", rel)
	}
	return p
}
