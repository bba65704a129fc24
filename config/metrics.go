package config

// Metrics is the metrics section. Metrics configures the Prometheus endpoint and health checks.
type Metrics struct{}

func (x *Metrics) applyDefaults() {}

func (x *Metrics) validate() []error { return nil }
