package config

import (
	"fmt"
	"slices"
)

// Console configures the web console that `webgate serve` serves at /: a
// status page (provider health, caches, request rates over the last hour),
// a playground to try searches and fetches, the recent audit records and
// the setup snippets for agent clients. See docs/console.md.
//
// The page and its scripts hold no data and are served to anyone who can
// reach the server; everything it shows comes from /console/api/, which
// needs a gateway key allowed on the "console" surface whenever keys are
// configured. People sign in by pasting a key into the page, which keeps
// it in the browser tab's session storage only.
type Console struct {
	// Enabled serves the console. The default is true. Turning it off
	// removes / and /console/ (they answer 404 like any unknown path); the
	// JSON API, MCP and the Messages endpoint are unaffected.
	Enabled *bool `yaml:"enabled"`
	// Operators lists the ids of gateway keys (auth.keys[].id) that see
	// the audit records of every key in the console's Audit view. Any other
	// key sees only the records made with itself, because queries and URLs
	// are private to whoever sent them. Without authentication everyone who
	// can reach the console sees every record. Each id must name a key in
	// auth.keys (keys from the older server.auth_tokens cannot be
	// operators).
	Operators []string `yaml:"operators"`
}

// ConsoleEnabled reports whether the console is served.
func (c Console) ConsoleEnabled() bool { return c.Enabled == nil || *c.Enabled }

func (x *Console) applyDefaults() {}

// validate checks that every operator names a configured key.
func (x *Console) validate(keys []Key) []error {
	var errs []error
	for i, id := range x.Operators {
		if !slices.ContainsFunc(keys, func(k Key) bool { return k.ID == id }) {
			errs = append(errs, fmt.Errorf("console.operators[%d]: %q is not the id of any auth.keys entry", i, id))
		}
	}
	return errs
}
