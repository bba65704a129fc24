package config

// Guard is the guard section. Guard configures the query guard (secrets must not leave in search queries) and the content guard (fetched pages are untrusted input).
type Guard struct{}

func (x *Guard) applyDefaults() {}

func (x *Guard) validate() []error { return nil }
