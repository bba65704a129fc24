package config

// Audit is the audit section. Audit configures the record kept of every search and fetch.
type Audit struct{}

func (x *Audit) applyDefaults() {}

func (x *Audit) validate() []error { return nil }
