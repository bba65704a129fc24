package policy

import (
	"slices"
	"time"
)

// Tools a policy can allow.
const (
	ToolSearch = "search"
	ToolFetch  = "fetch"
)

// Policy is what one gateway API key may do. A nil *Policy allows
// everything.
type Policy struct {
	// Name is the policy's name in the configuration, for messages.
	Name string
	// Tools lists the allowed tools (ToolSearch, ToolFetch); empty allows
	// all.
	Tools []string
	// Surfaces lists the allowed surfaces (Surface* constants); empty
	// allows all.
	Surfaces []string
	// Domains are the key's organisation-level domain rules.
	Domains Domains
	// RateLimit caps searches and fetches per window; zero Requests means
	// no limit.
	RateLimit Rate
	// DailySearches caps searches per UTC day; 0 means no cap.
	DailySearches int
}

// Rate is Requests per Per.
type Rate struct {
	Requests int
	Per      time.Duration
}

// AllowsTool reports whether the policy allows tool. A nil policy allows
// everything.
func (p *Policy) AllowsTool(tool string) bool {
	return p == nil || len(p.Tools) == 0 || slices.Contains(p.Tools, tool)
}

// AllowsSurface reports whether the policy allows surface. Surfaces that
// never carry a key (the CLI, MCP over stdio) are not subject to it.
func (p *Policy) AllowsSurface(surface string) bool {
	return p == nil || len(p.Surfaces) == 0 || slices.Contains(p.Surfaces, surface)
}
