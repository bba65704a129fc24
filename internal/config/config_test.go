package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestFromEnvZeroConfig(t *testing.T) {
	c, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"duckduckgo"}, c.Search.Providers); diff != "" {
		t.Errorf("default chain (-want +got):\n%s", diff)
	}
	if c.Listen != DefaultListen {
		t.Errorf("listen = %q, want %q", c.Listen, DefaultListen)
	}
	if c.Fetch.MaxBodyBytes != 10<<20 || c.Fetch.Timeout != 30*time.Second || c.Fetch.AllowPrivateNetworks {
		t.Errorf("unsafe or wrong fetch defaults: %+v", c.Fetch)
	}
}

func TestDefaultChainFromEnv(t *testing.T) {
	c, err := FromEnv(env(map[string]string{
		"BRAVE_API_KEY":  "b",
		"GOOGLE_API_KEY": "g", // no GOOGLE_CSE_ID: google is not ready
		"SEARXNG_URL":    "http://127.0.0.1:8080",
		"EXA_API_KEY":    " e \n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"brave", "exa", "searxng", "duckduckgo"}
	if diff := cmp.Diff(want, c.Search.Providers); diff != "" {
		t.Errorf("chain (-want +got):\n%s", diff)
	}
	if c.Providers["exa"].APIKey != "e" {
		t.Errorf("exa key not trimmed: %q", c.Providers["exa"].APIKey)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		env     map[string]string
		wantErr string // substring; empty means success
		check   func(t *testing.T, c *Config)
	}{
		{
			name: "contract keys",
			yaml: `
listen: 127.0.0.1:9999
search:
  providers: [brave, searxng, duckduckgo]
  max_results: 5
providers:
  brave: {api_key: k, base_url: "http://127.0.0.1:1/"}
  searxng: {base_url: "http://127.0.0.1:8080"}
  duckduckgo: {base_url: "http://127.0.0.1:2"}
`,
			check: func(t *testing.T, c *Config) {
				if c.Listen != "127.0.0.1:9999" || c.Search.MaxResults != 5 || c.Providers["brave"].APIKey != "k" {
					t.Errorf("unexpected config: %+v", c)
				}
			},
		},
		{
			name: "heap floor off by default",
			yaml: "listen: 127.0.0.1:9999\n",
			check: func(t *testing.T, c *Config) {
				if c.Server.MinHeapBytes != 0 {
					t.Errorf("server.min_heap_bytes default = %d, want 0 (off)", c.Server.MinHeapBytes)
				}
			},
		},
		{
			name: "heap floor on",
			yaml: "server: {min_heap_bytes: 67108864}\n",
			check: func(t *testing.T, c *Config) {
				if c.Server.MinHeapBytes != 64<<20 {
					t.Errorf("server.min_heap_bytes = %d, want 64 MiB", c.Server.MinHeapBytes)
				}
			},
		},
		{
			name: "heap floor off",
			yaml: "server: {min_heap_bytes: -1}\n",
			check: func(t *testing.T, c *Config) {
				if c.Server.MinHeapBytes != -1 {
					t.Errorf("server.min_heap_bytes = %d, want -1", c.Server.MinHeapBytes)
				}
			},
		},
		{
			name:    "heap floor negative",
			yaml:    "server: {min_heap_bytes: -2}\n",
			wantErr: "server.min_heap_bytes: -2 must be -1 (off) or a size in bytes",
		},
		{
			name:    "unknown key",
			yaml:    "search:\n  provider: [brave]\n",
			wantErr: "field provider not found",
		},
		{
			name:    "unknown top-level key",
			yaml:    "lisen: 1.2.3.4:5\n",
			wantErr: "field lisen not found",
		},
		{
			name: "env expansion",
			yaml: "providers:\n  brave: {api_key: \"${MY_KEY}\"}\nsearch: {providers: [brave]}\n",
			env:  map[string]string{"MY_KEY": "secret"},
			check: func(t *testing.T, c *Config) {
				if c.Providers["brave"].APIKey != "secret" {
					t.Errorf("api_key = %q", c.Providers["brave"].APIKey)
				}
			},
		},
		{
			name: "env default and dollar escape",
			yaml: "providers:\n  searxng: {base_url: \"${SX:-http://127.0.0.1:8080}\"}\nfetch: {user_agent: \"a$$b\"}\n",
			check: func(t *testing.T, c *Config) {
				if c.Providers["searxng"].BaseURL != "http://127.0.0.1:8080" || c.Fetch.UserAgent != "a$b" {
					t.Errorf("got %q, %q", c.Providers["searxng"].BaseURL, c.Fetch.UserAgent)
				}
			},
		},
		{
			name:    "unset env is an error",
			yaml:    "providers:\n  brave: {api_key: \"${NOPE}\"}\n",
			wantErr: "NOPE is referenced but not set",
		},
		{
			name:    "provider without key",
			yaml:    "search: {providers: [brave, duckduckgo]}\n",
			wantErr: `search.providers[0]: provider "brave" needs providers.brave.api_key (or BRAVE_API_KEY)`,
		},
		{
			name:    "unknown provider",
			yaml:    "search: {providers: [bing]}\n",
			wantErr: `unknown provider "bing"`,
		},
		{
			name:    "unknown provider section",
			yaml:    "providers:\n  bing: {api_key: k}\n",
			wantErr: `providers.bing: unknown provider (known: brave, tavily, exa, serper, serpapi, google, jina, searxng, duckduckgo)`,
		},
		{
			name:    "unknown key in a provider section",
			yaml:    "providers:\n  brave: {key: k}\n",
			wantErr: "field key not found",
		},
		{
			name:    "google needs its engine id",
			yaml:    "search: {providers: [google]}\nproviders:\n  google: {api_key: k}\n",
			wantErr: `provider "google" needs providers.google.cx (or GOOGLE_CSE_ID)`,
		},
		{
			name:    "searxng needs its url",
			yaml:    "search: {providers: [searxng]}\n",
			wantErr: `provider "searxng" needs providers.searxng.base_url (or SEARXNG_URL)`,
		},
		{
			name:    "duplicate provider",
			yaml:    "search: {providers: [duckduckgo, duckduckgo]}\n",
			wantErr: "listed twice",
		},
		{
			name:    "bad base url",
			yaml:    "providers:\n  duckduckgo: {base_url: \"ftp://x\"}\n",
			wantErr: "providers.duckduckgo.base_url",
		},
		{
			name:    "several problems reported together",
			yaml:    "search: {max_results: 99, mode: wild}\nlog: {level: loud}\n",
			wantErr: "3 problems",
		},
		{
			name:    "bad duration",
			yaml:    "search: {timeout: soon}\n",
			wantErr: "parse",
		},
		{
			name: "env fills key the file left empty",
			yaml: "search: {providers: [tavily]}\n",
			env:  map[string]string{"TAVILY_API_KEY": "t"},
			check: func(t *testing.T, c *Config) {
				if c.Providers["tavily"].APIKey != "t" {
					t.Errorf("tavily key = %q", c.Providers["tavily"].APIKey)
				}
			},
		},
		{
			name: "empty file is the default",
			yaml: "",
			check: func(t *testing.T, c *Config) {
				if diff := cmp.Diff([]string{"duckduckgo"}, c.Search.Providers); diff != "" {
					t.Error(diff)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.yaml), env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

func TestValidationErrorUnwrap(t *testing.T) {
	_, err := Parse(strings.NewReader("search: {max_results: 0, mode: x}\n"), env(nil))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *ValidationError", err)
	}
	if len(ve.Problems) == 0 {
		t.Fatal("no problems listed")
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "webgate.yaml")
	if err := os.WriteFile(path, []byte("search: {max_results: 7}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load("", env(map[string]string{EnvConfig: path}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Search.MaxResults != 7 {
		t.Errorf("WEBGATE_CONFIG not used: max_results = %d", c.Search.MaxResults)
	}
	_, err = Load(filepath.Join(dir, "missing.yaml"), env(nil))
	if err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file err = %v", err)
	}
}

func TestRateLimitDefaults(t *testing.T) {
	c, err := Parse(strings.NewReader("providers:\n  brave: {api_key: k, rps: 5}\n  searxng: {base_url: \"http://127.0.0.1:1\", rps: 2, burst: 4}\n"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		wantRPS   float64
		wantBurst int
	}{
		{"duckduckgo", 1, 2}, // keyless: polite by default
		{"brave", 5, 1},      // rps alone gets burst 1
		{"searxng", 2, 4},
		{"tavily", 0, 0}, // unlimited
	}
	for _, tt := range tests {
		rps, burst := c.Providers.RateLimit(tt.name)
		if rps != tt.wantRPS || burst != tt.wantBurst {
			t.Errorf("RateLimit(%s) = %g, %d; want %g, %d", tt.name, rps, burst, tt.wantRPS, tt.wantBurst)
		}
	}
}
