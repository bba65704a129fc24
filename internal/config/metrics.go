package config

import (
	"fmt"
	"strings"
)

// Metrics configures what `webgate serve` tells operators about itself:
// the Prometheus endpoint /metrics, the liveness probe /healthz and the
// readiness probe /readyz. The same numbers are also kept in memory, per
// minute over the last hour, for the web console.
type Metrics struct {
	// Enabled serves Prometheus metrics at Path. The default is true.
	// Turning it off removes the endpoint only: /healthz, /readyz and the
	// in-process numbers behind the console keep working.
	Enabled *bool `yaml:"enabled"`
	// Path is where the Prometheus metrics are served. It must start with a
	// slash and must not be a path another surface uses (/v1/..., /mcp,
	// /healthz, /readyz, /console/...).
	Path string `yaml:"path"`
	// Public serves the metrics without gateway credentials even when
	// gateway keys or server.auth_tokens are configured, for a Prometheus
	// scraper inside a trusted network. The default, false, puts the
	// metrics behind the same authentication as the API (Prometheus can
	// send a bearer token with authorization.credentials_file). The
	// metrics hold no queries, URLs or keys, only counts by surface,
	// status, provider and cache tier.
	Public bool `yaml:"public"`
	// ReadyRequiresRedis makes /readyz fail while Redis is configured but
	// unreachable. The default, false, keeps a replica ready when Redis
	// goes away, because it still serves from its local cache and local
	// limits; failing every replica's readiness at once would turn a Redis
	// outage into a full outage. /readyz reports Redis as "degraded"
	// either way.
	ReadyRequiresRedis bool `yaml:"ready_requires_redis"`
}

// MetricsEnabled reports whether /metrics is served.
func (m Metrics) MetricsEnabled() bool { return m.Enabled == nil || *m.Enabled }

func (m *Metrics) applyDefaults() {
	if m.Path == "" {
		m.Path = "/metrics"
	}
}

func (m *Metrics) validate() []error {
	var errs []error
	switch p := m.Path; {
	case !strings.HasPrefix(p, "/") || strings.ContainsAny(p, " \t\r\n?#{}"):
		errs = append(errs, fmt.Errorf("metrics.path: %q must be a plain absolute path such as /metrics", p))
	case p == "/" || p == "/mcp" || p == "/healthz" || p == "/readyz" || p == "/openapi.json" || strings.HasPrefix(p, "/v1/") || p == "/v1" ||
		strings.HasPrefix(p, "/console/") || p == "/console":
		errs = append(errs, fmt.Errorf("metrics.path: %q is used by another surface; pick another path such as /metrics", p))
	}
	return errs
}
