package config

// Redis is the redis section. Redis, when its url is set, shares caches, rate limits, budgets and the audit stream between replicas.
type Redis struct{}

func (x *Redis) applyDefaults() {}

func (x *Redis) validate() []error { return nil }
