// Package config holds webgate's configuration: the YAML schema, defaults,
// environment overrides for secrets, and validation.
//
// The YAML keys are a public contract. Every field is documented in full
// sentences here; docs/configuration.md is generated from those comments
// and from Default() (see internal/config/docgen). Defaults are written
// once, in the applyDefaults methods: comments say what a default means,
// not its value, which the reference renders.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EnvConfig names the environment variable that points at a config file
// when --config is not given.
const EnvConfig = "WEBGATE_CONFIG"

// DefaultListen is the address `webgate serve` binds when none is set. It is
// loopback so a fresh install never exposes an unauthenticated gateway.
const DefaultListen = "127.0.0.1:8788"

// Config is the whole configuration file.
type Config struct {
	// Listen is the host:port that `webgate serve` binds. The default,
	// 127.0.0.1:8788, is reachable only from this machine.
	Listen string `yaml:"listen"`
	// Search configures the search engine: the provider chain, result
	// count, deadlines, caching and fallback behaviour.
	Search Search `yaml:"search"`
	// Providers holds credentials and endpoints for each search provider.
	Providers Providers `yaml:"providers"`
	// Fetch configures the page fetcher and extractor.
	Fetch Fetch `yaml:"fetch"`
	// Server configures the HTTP surfaces of `webgate serve`.
	Server Server `yaml:"server"`
	// MCP configures the MCP tools, over stdio and HTTP alike.
	MCP MCP `yaml:"mcp"`
	// Upstream is the model backend behind the Anthropic-compatible
	// /v1/messages endpoint.
	Upstream Upstream `yaml:"upstream"`
	// Log configures the structured logger.
	Log Log `yaml:"log"`
	// Auth configures gateway API keys and their policies.
	Auth Auth `yaml:"auth"`
	// Guard configures the query and content guards.
	Guard Guard `yaml:"guard"`
	// Audit configures the audit log of searches and fetches.
	Audit Audit `yaml:"audit"`
	// Metrics configures /metrics, /healthz and /readyz.
	Metrics Metrics `yaml:"metrics"`
	// Redis configures the shared tier used when several replicas run.
	Redis Redis `yaml:"redis"`
	// Console configures the web console.
	Console Console `yaml:"console"`
}

// Log configures logging. Logs always go to standard error.
type Log struct {
	// Level is one of debug, info, warn or error.
	Level string `yaml:"level"`
	// Format is text or json.
	Format string `yaml:"format"`
}

// Default returns the configuration used when no file is given: every
// provider with credentials in the environment, then DuckDuckGo.
func Default() *Config {
	c := &Config{}
	c.applyDefaults()
	return c
}

// Load returns the configuration for a process: the file at path, else the
// file named by $WEBGATE_CONFIG, else the defaults. Secrets are taken from
// the environment through lookup (os.LookupEnv in production).
func Load(path string, lookup func(string) (string, bool)) (*Config, error) {
	if path == "" {
		path, _ = lookup(EnvConfig)
	}
	if path == "" {
		return FromEnv(lookup)
	}
	return LoadFile(path, lookup)
}

// FromEnv returns the zero-config configuration: defaults plus secrets from
// the environment, validated.
func FromEnv(lookup func(string) (string, bool)) (*Config, error) {
	c := Default()
	c.applyEnv(lookup)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// LoadFile reads and parses the YAML file at path.
func LoadFile(path string, lookup func(string) (string, bool)) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	c, err := Parse(io.LimitReader(f, 4<<20), lookup)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// Parse decodes YAML from r, expanding ${VAR} and ${VAR:-default} with
// lookup, rejecting unknown keys, then applies defaults and secret
// environment variables and validates.
func Parse(r io.Reader, lookup func(string) (string, bool)) (*Config, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	expanded, err := expand(raw, lookup)
	if err != nil {
		return nil, err
	}
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(expanded))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("parse: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	c.applyDefaults()
	c.applyEnv(lookup)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

var envRef = regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

// expand replaces ${VAR} and ${VAR:-default}; $$ is a literal $. A
// referenced variable that is unset and has no default is an error, because
// silently sending an empty API key produces confusing 401s later.
func expand(b []byte, lookup func(string) (string, bool)) ([]byte, error) {
	var missing []string
	out := envRef.ReplaceAllFunc(b, func(m []byte) []byte {
		if string(m) == "$$" {
			return []byte("$")
		}
		sub := envRef.FindSubmatch(m)
		name := string(sub[1])
		if v, ok := lookup(name); ok && v != "" {
			return []byte(v)
		}
		if len(sub[2]) > 0 {
			return sub[3]
		}
		missing = append(missing, name)
		return nil
	})
	if len(missing) > 0 {
		return nil, fmt.Errorf("environment variable %s is referenced but not set (use ${%s:-} to allow empty)", strings.Join(missing, ", "), missing[0])
	}
	return out, nil
}

func (c *Config) applyDefaults() {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.Log.Level == "" {
		c.Log.Level = "info"
	}
	if c.Log.Format == "" {
		c.Log.Format = "text"
	}
	c.Search.applyDefaults()
	c.Providers.applyDefaults()
	c.Fetch.applyDefaults()
	c.Server.applyDefaults()
	c.MCP.applyDefaults()
	c.Upstream.applyDefaults()
	c.Auth.applyDefaults()
	c.Guard.applyDefaults()
	c.Audit.applyDefaults()
	c.Metrics.applyDefaults()
	c.Redis.applyDefaults()
	c.Console.applyDefaults()
}

func (c *Config) applyEnv(lookup func(string) (string, bool)) {
	c.Providers.applyEnv(lookup)
	if len(c.Search.Providers) == 0 {
		c.Search.Providers = c.Providers.defaultChain()
	}
}

// Validate checks the whole configuration and reports every problem found,
// one per line, each naming the offending key.
func (c *Config) Validate() error {
	var errs []error
	if c.Listen != "" && !strings.Contains(c.Listen, ":") {
		errs = append(errs, fmt.Errorf("listen: %q must be host:port, e.g. 127.0.0.1:8788", c.Listen))
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log.level: %q must be one of debug, info, warn, error", c.Log.Level))
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		errs = append(errs, fmt.Errorf("log.format: %q must be text or json", c.Log.Format))
	}
	errs = append(errs, c.Search.validate(c.Providers)...)
	errs = append(errs, c.Providers.validate()...)
	errs = append(errs, c.Fetch.validate()...)
	errs = append(errs, c.Server.validate()...)
	errs = append(errs, c.MCP.validate()...)
	errs = append(errs, c.Upstream.validate()...)
	errs = append(errs, c.Auth.validate()...)
	errs = append(errs, c.Guard.validate()...)
	errs = append(errs, c.Audit.validate()...)
	errs = append(errs, c.Metrics.validate()...)
	errs = append(errs, c.Redis.validate()...)
	errs = append(errs, c.Console.validate(c.Auth.Keys)...)
	if len(errs) == 0 {
		return nil
	}
	return &ValidationError{Problems: errs}
}

// ValidationError lists every problem in a configuration.
type ValidationError struct {
	Problems []error
}

func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return "invalid configuration: " + e.Problems[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invalid configuration (%d problems):", len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  - ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap exposes the individual problems.
func (e *ValidationError) Unwrap() []error { return e.Problems }
