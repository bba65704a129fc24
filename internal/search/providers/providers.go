// Package providers builds search.Provider values from configuration. It is
// the one place that knows every provider package, so adding a provider
// means adding a package under internal/search/ and one line to the registry here.
package providers

import (
	"fmt"
	"net/http"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/brave"
	"github.com/webgate/webgate/internal/search/duckduckgo"
	"github.com/webgate/webgate/internal/search/exa"
	"github.com/webgate/webgate/internal/search/google"
	"github.com/webgate/webgate/internal/search/jina"
	"github.com/webgate/webgate/internal/search/searxng"
	"github.com/webgate/webgate/internal/search/serpapi"
	"github.com/webgate/webgate/internal/search/serper"
	"github.com/webgate/webgate/internal/search/tavily"
)

// Factory constructs a provider from its settings. hc is the shared HTTP
// client; factories must not modify it.
type Factory func(cfg config.Provider, hc *http.Client) (search.Provider, error)

// registry maps configuration names to factories.
var registry = map[string]Factory{
	brave.Name:      adapt(brave.New),
	tavily.Name:     adapt(tavily.New),
	exa.Name:        adapt(exa.New),
	serper.Name:     adapt(serper.New),
	serpapi.Name:    adapt(serpapi.New),
	google.Name:     adapt(google.New),
	jina.Name:       adapt(jina.New),
	searxng.Name:    adapt(searxng.New),
	duckduckgo.Name: adapt(duckduckgo.New),
}

// adapt turns a concrete constructor into a Factory. It exists so that a
// failed constructor yields a nil interface rather than an interface
// holding a nil *P.
func adapt[P search.Provider](newP func(config.Provider, *http.Client) (P, error)) Factory {
	return func(cfg config.Provider, hc *http.Client) (search.Provider, error) {
		p, err := newP(cfg, hc)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}

// New builds the named provider.
func New(name string, cfg config.Provider, hc *http.Client) (search.Provider, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("provider %q: not known", name)
	}
	p, err := f(cfg, hc)
	if err != nil {
		return nil, fmt.Errorf("provider %q: %w", name, err)
	}
	return p, nil
}

// Chain builds the providers of cfg.Search.Providers, in order.
func Chain(cfg *config.Config, hc *http.Client) ([]search.Provider, error) {
	chain := make([]search.Provider, 0, len(cfg.Search.Providers))
	for _, name := range cfg.Search.Providers {
		p, err := New(name, *cfg.Providers.ByName(name), hc)
		if err != nil {
			return nil, err
		}
		chain = append(chain, p)
	}
	return chain, nil
}
