package config

import (
	"fmt"
	"net/url"
)

// Upstream is the model backend that /v1/messages forwards to.
type Upstream struct {
	// Kind is "anthropic" for Anthropic-compatible Messages endpoints. The
	// default is anthropic.
	Kind string `yaml:"kind"`
	// BaseURL is the upstream's root URL. The default is
	// https://api.anthropic.com.
	BaseURL string `yaml:"base_url"`
	// APIKey, when set, replaces the client's credentials on forwarded
	// requests. Without it the client's x-api-key or Authorization header
	// is forwarded unchanged.
	APIKey string `yaml:"api_key"`
}

func (u *Upstream) applyDefaults() {
	if u.Kind == "" {
		u.Kind = "anthropic"
	}
	if u.BaseURL == "" {
		u.BaseURL = "https://api.anthropic.com"
	}
}

func (u *Upstream) validate() []error {
	var errs []error
	if u.Kind != "anthropic" {
		errs = append(errs, fmt.Errorf("upstream.kind: %q must be anthropic", u.Kind))
	}
	if p, err := url.Parse(u.BaseURL); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		errs = append(errs, fmt.Errorf("upstream.base_url: %q must be an absolute http(s) URL", u.BaseURL))
	}
	return errs
}
