package config

import "fmt"

// MCP configures the MCP tools web_search and web_fetch.
type MCP struct {
	// MaxOutputChars caps the text of one tool result. The default, 90000
	// characters, stays under Claude Code's 25k-token MCP output limit.
	MaxOutputChars int `yaml:"max_output_chars"`
}

func (m *MCP) applyDefaults() {
	if m.MaxOutputChars == 0 {
		m.MaxOutputChars = 90000
	}
}

func (m *MCP) validate() []error {
	if m.MaxOutputChars < 1000 {
		return []error{fmt.Errorf("mcp.max_output_chars: %d must be at least 1000", m.MaxOutputChars)}
	}
	return nil
}
