package providers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/config"
)

// configFor returns settings that satisfy every provider's constructor.
func configFor(string) config.Provider {
	return config.Provider{APIKey: "test-key", CX: "test-cx", BaseURL: "https://search.invalid"}
}

func TestEveryConfigNameHasAFactory(t *testing.T) {
	for _, name := range config.ProviderNames {
		if _, ok := registry[name]; !ok {
			t.Errorf("provider %q has no factory in the registry", name)
		}
	}
	for name := range registry {
		found := false
		for _, n := range config.ProviderNames {
			found = found || n == name
		}
		if !found {
			t.Errorf("registry has %q, which config.ProviderNames does not list", name)
		}
	}
}

func TestNameMatchesRegistry(t *testing.T) {
	for _, name := range config.ProviderNames {
		p, err := New(name, configFor(name), http.DefaultClient)
		if err != nil {
			t.Errorf("New(%q): %v", name, err)
			continue
		}
		if p.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, p.Name())
		}
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New("altavista", config.Provider{}, nil); err == nil || !strings.Contains(err.Error(), "not known") {
		t.Errorf("unknown provider: err = %v", err)
	}
	// Only duckduckgo works with no settings at all.
	for _, name := range config.ProviderNames {
		p, err := New(name, config.Provider{}, nil)
		if name == "duckduckgo" {
			if err != nil {
				t.Errorf("New(duckduckgo) with zero config: %v", err)
			}
			continue
		}
		if err == nil || p != nil {
			t.Errorf("New(%q) with zero config = %v, %v; want an error and a nil provider", name, p, err)
		}
	}
}

func TestChainZeroConfig(t *testing.T) {
	cfg, err := config.FromEnv(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	chain, err := Chain(cfg, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	if len(chain) != 1 || chain[0].Name() != "duckduckgo" {
		names := []string{}
		for _, p := range chain {
			names = append(names, p.Name())
		}
		t.Errorf("zero-config chain = %v, want [duckduckgo]", names)
	}
}
