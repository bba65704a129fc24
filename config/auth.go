package config

// Auth is the auth section. Auth configures gateway API keys and the policy attached to each.
type Auth struct{}

func (x *Auth) applyDefaults() {}

func (x *Auth) validate() []error { return nil }
