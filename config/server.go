package config

// Server configures the HTTP surfaces of `webgate serve`: the JSON API, the
// MCP Streamable HTTP endpoint and the Anthropic-compatible proxy.
type Server struct {
	// AuthTokens, when non-empty, requires every request to carry one of
	// these values as a bearer token (Authorization: Bearer ...) or, on the
	// Anthropic surface, as x-api-key. Leave empty only on loopback.
	AuthTokens []string `yaml:"auth_tokens"`
	// AllowedOrigins lists browser origins allowed to call the server, in
	// addition to same-host loopback origins. It protects the MCP endpoint
	// against DNS rebinding.
	AllowedOrigins []string `yaml:"allowed_origins"`
}

func (s *Server) applyDefaults() {}

func (s *Server) validate() []error { return nil }
