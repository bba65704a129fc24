package openai

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// seqIDs returns a deterministic id generator.
func seqIDs() func(string) string {
	n := 0
	return func(prefix string) string {
		n++
		return fmt.Sprintf("%sgen%d", prefix, n)
	}
}

// golden compares got with the named file, rewriting it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
