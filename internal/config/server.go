package config

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Server configures the HTTP surfaces of `webgate serve`: the JSON API, the
// MCP Streamable HTTP endpoint and the Anthropic-compatible proxy.
type Server struct {
	// AuthTokens is the older, plain-text form of gateway keys: each value
	// is accepted as a bearer token (Authorization: Bearer ...) or as
	// x-api-key, with no policy, and appears in audit records as the key id
	// "auth_tokens[N]". It keeps working, but prefer auth.keys, which
	// stores only hashes and attaches policies: `webgate keys hash` turns an
	// existing token into an auth.keys entry. /healthz and /openapi.json
	// stay public so load balancers and API explorers work without a
	// secret.
	AuthTokens []string `yaml:"auth_tokens"`
	// AllowedOrigins lists browser origins allowed to call the server, in
	// addition to same-host loopback origins. It protects the MCP endpoint
	// against DNS rebinding. Each entry is a scheme://host[:port] origin
	// such as https://console.example.com.
	AllowedOrigins []string `yaml:"allowed_origins"`
	// MaxRequestBytes caps the body of one request. Larger bodies are
	// rejected with 413. The default is far above any legitimate search,
	// fetch or MCP request.
	MaxRequestBytes int64 `yaml:"max_request_bytes"`
	// MaxConcurrentRequests caps the requests served at once; further requests
	// get 503 with Retry-After until one finishes (on the Messages API 529
	// overloaded_error, which Anthropic clients retry).
	MaxConcurrentRequests int `yaml:"max_concurrent_requests"`
	// ShutdownTimeout is how long `webgate serve` waits for in-flight requests
	// to finish after SIGINT or SIGTERM before closing them.
	ShutdownTimeout time.Duration `yaml:"shutdown_timeout"`
	// MinHeapBytes, when set, is a heap size below which the Go garbage
	// collector does not run (package perf/gcfloor). It is off by
	// default (0; -1 also means off): Go's own pacing applies. Go
	// collects whenever the heap has doubled since the last collection,
	// from 4 MiB up, and webgate's live heap is a few MiB, so at thousands
	// of searches a second it collects dozens of times a second; a floor
	// such as 67108864 (64 MiB) trades that CPU for memory use of up to
	// about the floor before the first collection. The floor works by
	// re-setting GOGC after every collection. It is ignored when the GOGC
	// environment variable is set, and a memory limit (GOMEMLIMIT) still
	// makes the collector run sooner when memory is short.
	MinHeapBytes int64 `yaml:"min_heap_bytes"`
}

func (s *Server) applyDefaults() {
	if s.MaxRequestBytes == 0 {
		s.MaxRequestBytes = 1 << 20
	}
	if s.MaxConcurrentRequests == 0 {
		s.MaxConcurrentRequests = 256
	}
	if s.ShutdownTimeout == 0 {
		s.ShutdownTimeout = 15 * time.Second
	}
}

func (s *Server) validate() []error {
	var errs []error
	for i, t := range s.AuthTokens {
		// A short token is guessable, and an empty one would authorise any
		// request that sends "Bearer " with nothing after it.
		if len(strings.TrimSpace(t)) < 16 {
			errs = append(errs, fmt.Errorf("server.auth_tokens[%d]: must be at least 16 characters (better: move to auth.keys; generate a key with: webgate keys new --id NAME)", i))
		}
	}
	for i, o := range s.AllowedOrigins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			errs = append(errs, fmt.Errorf("server.allowed_origins[%d]: %q must be an origin such as https://app.example.com", i, o))
		}
	}
	if s.MaxRequestBytes < 1024 {
		errs = append(errs, fmt.Errorf("server.max_request_bytes: %d must be at least 1024", s.MaxRequestBytes))
	}
	if s.MaxConcurrentRequests < 1 {
		errs = append(errs, fmt.Errorf("server.max_concurrent_requests: %d must be at least 1", s.MaxConcurrentRequests))
	}
	if s.MinHeapBytes < -1 {
		errs = append(errs, fmt.Errorf("server.min_heap_bytes: %d must be -1 (off) or a size in bytes", s.MinHeapBytes))
	}
	if s.ShutdownTimeout < 0 {
		errs = append(errs, fmt.Errorf("server.shutdown_timeout: %s must not be negative", s.ShutdownTimeout))
	}
	return errs
}
