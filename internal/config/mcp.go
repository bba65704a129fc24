package config

import (
	"fmt"
	"time"
)

// MCP configures the MCP tools web_search and web_fetch, over stdio and
// HTTP alike.
type MCP struct {
	// MaxOutputChars caps the text of one tool result. The default (about
	// 22k tokens) stays under Claude Code's 25k-token MCP output limit;
	// webgate also advertises it to Claude Code through the tool's _meta
	// "anthropic/maxResultSizeChars" so results of that size are shown
	// inline instead of being saved to a file. The maximum is
	// 500000, Claude Code's own ceiling.
	MaxOutputChars int `yaml:"max_output_chars"`
	// FetchConcurrency caps how many pages one tool call fetches at once
	// (web_fetch with several URLs, web_search with include_content). The
	// per-host limit in fetch.per_host_concurrency still applies.
	FetchConcurrency int `yaml:"fetch_concurrency"`
	// ContentTimeout is the deadline for fetching result pages when web_search
	// is called with include_content. Pages not fetched in time are returned
	// with their snippet only.
	ContentTimeout time.Duration `yaml:"content_timeout"`
	// ContentResults is how many of the top search results web_search
	// fetches when include_content is set. At most 10.
	ContentResults int `yaml:"content_results"`
	// StructuredOutput makes both tools declare an outputSchema and return
	// structuredContent (the JSON of `webgate search --json` and
	// `webgate fetch --json`) beside their text, for programmatic clients
	// that read the JSON. Off by default, because a client may show its
	// model either form, and Claude Code and Codex show the JSON instead
	// of the text: their models would then miss the untrusted-content
	// boundaries, the citation guidance and the paging hints.
	StructuredOutput bool `yaml:"structured_output"`
}

func (m *MCP) applyDefaults() {
	if m.MaxOutputChars == 0 {
		m.MaxOutputChars = 90000
	}
	if m.FetchConcurrency == 0 {
		m.FetchConcurrency = 5
	}
	if m.ContentTimeout == 0 {
		m.ContentTimeout = 20 * time.Second
	}
	if m.ContentResults == 0 {
		m.ContentResults = 3
	}
}

func (m *MCP) validate() []error {
	var errs []error
	if m.MaxOutputChars < 1000 || m.MaxOutputChars > 500000 {
		errs = append(errs, fmt.Errorf("mcp.max_output_chars: %d must be between 1000 and 500000", m.MaxOutputChars))
	}
	if m.FetchConcurrency < 1 || m.FetchConcurrency > 20 {
		errs = append(errs, fmt.Errorf("mcp.fetch_concurrency: %d must be between 1 and 20", m.FetchConcurrency))
	}
	if m.ContentTimeout < 0 {
		errs = append(errs, fmt.Errorf("mcp.content_timeout: %s must not be negative", m.ContentTimeout))
	}
	if m.ContentResults < 1 || m.ContentResults > 10 {
		errs = append(errs, fmt.Errorf("mcp.content_results: %d must be between 1 and 10", m.ContentResults))
	}
	return errs
}
