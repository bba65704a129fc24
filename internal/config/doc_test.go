package config_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/config/docgen"
	"github.com/webgate/webgate/internal/search"

	"github.com/webgate/webgate/internal/repotest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestConfigDoc keeps docs/configuration.md identical to what the doc
// comments in this package say.
func TestConfigDoc(t *testing.T) {
	var env [][]string
	for _, r := range search.Registrations() {
		if vars := r.Env(); len(vars) > 0 {
			env = append(env, vars)
		}
	}
	got, err := docgen.Generate(".", "Config", docgen.Options{
		Defaults: config.Default(),
		Names:    map[string][]string{"providers": search.ProviderNames()},
		Env:      env,
	})
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
