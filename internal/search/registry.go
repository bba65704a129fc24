package search

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Settings are one provider's settings, as the configuration holds them
// under providers.<name> (package config converts its Provider to them).
type Settings struct {
	// APIKey is the provider's secret.
	APIKey string
	// BaseURL replaces the provider's public API endpoint.
	BaseURL string
	// CX is Google's Programmable Search Engine ID.
	CX string
	// Timeout bounds one HTTP request; zero means the provider's default.
	Timeout time.Duration
}

// The settings a Registration can name, by their key under
// providers.<name> in the configuration.
const (
	SettingAPIKey  = "api_key"
	SettingBaseURL = "base_url"
	SettingCX      = "cx"
)

// Field returns the setting with the given key (one of the Setting*
// constants), or nil for an unknown key.
func (s *Settings) Field(key string) *string {
	switch key {
	case SettingAPIKey:
		return &s.APIKey
	case SettingBaseURL:
		return &s.BaseURL
	case SettingCX:
		return &s.CX
	}
	return nil
}

// Setting is one setting a provider reads besides the ones every provider
// accepts (base_url, timeout, rps, burst).
type Setting struct {
	// Key is the setting's key under providers.<name>: SettingAPIKey,
	// SettingBaseURL or SettingCX.
	Key string
	// Env is the environment variable that fills the setting when the
	// configuration leaves it empty ("" for none).
	Env string
	// Optional settings may stay empty; the provider cannot run until
	// every other one is set.
	Optional bool
}

// Factory constructs a provider from its settings. hc is the shared HTTP
// client; factories must not modify it. A factory that fails returns a
// nil Provider.
type Factory func(s Settings, hc *http.Client) (Provider, error)

// NewFactory turns a provider package's concrete constructor into a
// Factory, so that a failed constructor yields a nil interface rather
// than an interface holding a nil *P.
func NewFactory[P Provider](newP func(Settings, *http.Client) (P, error)) Factory {
	return func(s Settings, hc *http.Client) (Provider, error) {
		p, err := newP(s, hc)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}

// Registration is what a provider package tells the rest of webgate about
// itself. Each package under internal/search/ registers one from an init
// function, and package internal/search/providers imports every provider
// package, so adding a provider means writing its package and adding one
// import line there. Configuration validation, the environment variables
// read for secrets, the default chain, the `webgate providers` command and
// the configuration reference all read the registry.
type Registration struct {
	// Name is the provider's configuration name; the Provider it builds
	// must return it from Name.
	Name string
	// Rank orders providers in the default chain (lowest first) and
	// wherever all providers are listed. Keyed providers come first; the
	// keyless duckduckgo ranks last so that any configured key wins.
	Rank int
	// Settings are the settings the provider reads beyond those every
	// provider accepts, with the environment variable each may come from.
	Settings []Setting
	// RPS and Burst are the built-in rate limit used when the
	// configuration sets no providers.<name>.rps; zero RPS is unlimited.
	RPS   float64
	Burst int
	// New builds the provider.
	New Factory
}

// Missing names what s still lacks before the provider can run, as the
// configuration keys (under providers.<name>) and their environment
// variables, e.g. "providers.google.api_key and providers.google.cx (or
// GOOGLE_API_KEY and GOOGLE_CSE_ID)"; "" when it is ready.
func (r Registration) Missing(s Settings) string {
	var keys, envs []string
	for _, st := range r.Settings {
		if st.Optional || *s.Field(st.Key) != "" {
			continue
		}
		keys = append(keys, "providers."+r.Name+"."+st.Key)
		if st.Env != "" {
			envs = append(envs, st.Env)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	out := strings.Join(keys, " and ")
	if len(envs) > 0 {
		out += " (or " + strings.Join(envs, " and ") + ")"
	}
	return out
}

// Env lists the environment variables the provider reads, in the order of
// its settings.
func (r Registration) Env() []string {
	var out []string
	for _, st := range r.Settings {
		if st.Env != "" {
			out = append(out, st.Env)
		}
	}
	return out
}

var registry struct {
	sync.RWMutex
	byName map[string]Registration
}

// Register adds a provider to the registry. It is meant to be called from
// a provider package's init function, and panics on a programming error:
// an empty name, a missing factory, an unknown setting key, or a name
// registered twice.
func Register(r Registration) {
	if r.Name == "" || r.New == nil {
		panic(fmt.Sprintf("search.Register: registration %q needs a name and a factory", r.Name))
	}
	for _, st := range r.Settings {
		if (&Settings{}).Field(st.Key) == nil {
			panic(fmt.Sprintf("search.Register: provider %q: unknown setting %q", r.Name, st.Key))
		}
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]Registration{}
	}
	if _, dup := registry.byName[r.Name]; dup {
		panic(fmt.Sprintf("search.Register: provider %q registered twice", r.Name))
	}
	r.Settings = slices.Clone(r.Settings)
	registry.byName[r.Name] = r
}

// Registrations returns every registered provider, ordered by Rank (then
// by name).
func Registrations() []Registration {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Registration, 0, len(registry.byName))
	for _, r := range registry.byName {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Registration) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(a.Name, b.Name))
	})
	return out
}

// ProviderNames lists the registered providers' names in Registrations
// order.
func ProviderNames() []string {
	regs := Registrations()
	names := make([]string, len(regs))
	for i, r := range regs {
		names[i] = r.Name
	}
	return names
}

// Registered returns the named provider's registration.
func Registered(name string) (Registration, bool) {
	registry.RLock()
	defer registry.RUnlock()
	r, ok := registry.byName[name]
	return r, ok
}

// NewProvider builds the named registered provider from s.
func NewProvider(name string, s Settings, hc *http.Client) (Provider, error) {
	r, ok := Registered(name)
	if !ok {
		return nil, fmt.Errorf("provider %q: not known", name)
	}
	p, err := r.New(s, hc)
	if err != nil {
		return nil, fmt.Errorf("provider %q: %w", name, err)
	}
	return p, nil
}
