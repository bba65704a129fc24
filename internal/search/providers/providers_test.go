package providers_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/repotest"
	"github.com/webgate/webgate/internal/search"
	_ "github.com/webgate/webgate/internal/search/providers"
)

// full returns settings that satisfy every provider's constructor.
func full() search.Settings {
	return search.Settings{APIKey: "test-key", CX: "test-cx", BaseURL: "https://search.invalid"}
}

// TestEveryPackageIsRegistered: every provider package under
// internal/search/ is linked in by this package and registers itself.
func TestEveryPackageIsRegistered(t *testing.T) {
	dir := repotest.File(t, "internal/search")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := search.ProviderNames()
	for _, e := range entries {
		switch e.Name() {
		case "internal", "providers", "providertest":
			continue
		}
		if !e.IsDir() {
			continue
		}
		if !slices.Contains(names, e.Name()) {
			t.Errorf("internal/search/%s is not registered: does it call search.Register from init, and does providers.go import it?", e.Name())
		}
	}
}

// TestEveryProviderHasAContract: every registered provider runs the
// providertest contract suite under its registered name.
func TestEveryProviderHasAContract(t *testing.T) {
	for _, name := range search.ProviderNames() {
		tests, _ := filepath.Glob(filepath.Join(repotest.File(t, "internal/search/"+name), "*_test.go"))
		found := false
		for _, f := range tests {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			found = found || regexp.MustCompile(`providertest\.Run\(`).Match(b)
		}
		if !found {
			t.Errorf("provider %q: no test in internal/search/%s runs providertest.Run", name, name)
		}
	}
}

func TestNameMatchesRegistration(t *testing.T) {
	for _, name := range search.ProviderNames() {
		p, err := search.NewProvider(name, full(), http.DefaultClient)
		if err != nil {
			t.Errorf("NewProvider(%q): %v", name, err)
			continue
		}
		if p.Name() != name {
			t.Errorf("NewProvider(%q).Name() = %q", name, p.Name())
		}
	}
}

// TestRequiredSettings: a provider's constructor refuses exactly the
// settings its registration says are missing, so that the configuration
// (which reports what is missing before anything runs) and the factory
// agree.
func TestRequiredSettings(t *testing.T) {
	if _, err := search.NewProvider("altavista", search.Settings{}, nil); err == nil || !strings.Contains(err.Error(), "not known") {
		t.Errorf("unknown provider: err = %v", err)
	}
	for _, reg := range search.Registrations() {
		if reg.Missing(full()) != "" {
			t.Errorf("%s: full settings still miss %s", reg.Name, reg.Missing(full()))
		}
		for _, st := range reg.Settings {
			s := full()
			*s.Field(st.Key) = ""
			p, err := search.NewProvider(reg.Name, s, nil)
			if st.Optional {
				if err != nil {
					t.Errorf("%s without optional %s: %v", reg.Name, st.Key, err)
				}
				continue
			}
			if err == nil || p != nil {
				t.Errorf("%s without %s = %v, %v; want an error and a nil provider", reg.Name, st.Key, p, err)
			}
			if reg.Missing(s) == "" {
				t.Errorf("%s without %s: registration reports nothing missing", reg.Name, st.Key)
			}
		}
		_, err := search.NewProvider(reg.Name, search.Settings{}, nil)
		if ready := reg.Missing(search.Settings{}) == ""; ready != (err == nil) {
			t.Errorf("%s with no settings: Missing = %q but NewProvider error = %v", reg.Name, reg.Missing(search.Settings{}), err)
		}
	}
}

func TestChainZeroConfig(t *testing.T) {
	cfg, err := config.FromEnv(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Search.Providers, []string{"duckduckgo"}) {
		t.Errorf("zero-config chain = %v, want [duckduckgo]", cfg.Search.Providers)
	}
}

// TestDefaultOrder: the default chain puts keyed providers first, in the
// order webgate has always used, and the keyless duckduckgo last.
func TestDefaultOrder(t *testing.T) {
	want := []string{"brave", "tavily", "exa", "serper", "serpapi", "google", "jina", "searxng", "duckduckgo"}
	if got := search.ProviderNames(); !slices.Equal(got, want) {
		t.Errorf("ProviderNames() = %v, want %v", got, want)
	}
}
