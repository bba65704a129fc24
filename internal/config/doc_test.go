package config_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/webgate/webgate/internal/config/docgen"

	"github.com/webgate/webgate/internal/repotest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestConfigDoc keeps docs/configuration.md identical to what the doc
// comments in this package say.
func TestConfigDoc(t *testing.T) {
	got, err := docgen.Generate(".", "Config")
	if err != nil {
		t.Fatal(err)
	}
	path := repotest.File(t, "docs/configuration.md")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/configuration.md is stale; run: go test ./internal/config -run TestConfigDoc -update")
	}
}
