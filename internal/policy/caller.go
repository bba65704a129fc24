// Package policy decides what a caller may do: gateway API keys (stored
// hashed), the per-key policy (tools, surfaces, domain rules, rate limit,
// daily search budget) and the request-scoped Caller every surface puts in
// the context so that search, fetch, audit and metrics know who asked and
// through which door.
package policy

import "context"

// Surfaces a request can arrive through. They label audit records and
// metrics, and key policies may be limited to some of them.
const (
	SurfaceAPI      = "api"      // the JSON HTTP API (/v1/search, /v1/fetch)
	SurfaceMCP      = "mcp"      // MCP over Streamable HTTP or stdio
	SurfaceMessages = "messages" // the Anthropic-compatible /v1/messages proxy
	SurfaceCLI      = "cli"      // one-shot CLI commands
	SurfaceConsole  = "console"  // the web console's playground
)

// Caller identifies who is making a request and through which surface.
// The zero Caller is an anonymous caller with no policy restrictions, which
// is what a loopback, auth-less deployment gets.
type Caller struct {
	// KeyID is the id of the gateway API key used, "" when anonymous.
	KeyID string
	// Surface is one of the Surface constants.
	Surface string
	// Policy is the key's policy; nil means unrestricted.
	Policy *Policy
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the Caller in ctx and whether there was one.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}
