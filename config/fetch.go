package config

import (
	"fmt"
	"time"
)

// Fetch configures the page fetcher and the extractor.
type Fetch struct {
	// AllowPrivateNetworks lets the fetcher connect to loopback, private,
	// link-local and other non-public addresses. It is false by default so
	// a model cannot be tricked into reading internal services or cloud
	// metadata; turn it on only for self-hosted targets and tests.
	AllowPrivateNetworks bool `yaml:"allow_private_networks"`
	// MaxBodyBytes caps the bytes read from one response after
	// decompression. The default is 10485760 (10 MiB).
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// MaxCompressionRatio aborts a compressed response (gzip, deflate, br
	// or zstd) whose decoded size exceeds this multiple of its encoded size
	// once past the first MiB (a decompression-bomb guard). The default is
	// 100.
	MaxCompressionRatio int `yaml:"max_compression_ratio"`
	// Timeout bounds a whole fetch, redirects and body included. The
	// default is 30s.
	Timeout time.Duration `yaml:"timeout"`
	// MaxURLLength rejects longer URLs before any network access. The
	// default is 8192 bytes.
	MaxURLLength int `yaml:"max_url_length"`
	// MaxRedirects caps the redirects followed; each hop is re-checked
	// against the network policy. The default is 10.
	MaxRedirects int `yaml:"max_redirects"`
	// IgnoreRobots disables robots.txt checks. By default webgate honours
	// robots.txt for its user agent.
	IgnoreRobots bool `yaml:"ignore_robots"`
	// UserAgent is sent with every request. The default identifies webgate
	// honestly, with a link to the project.
	UserAgent string `yaml:"user_agent"`
	// PerHostConcurrency caps simultaneous requests to one host. The default
	// is 4.
	PerHostConcurrency int `yaml:"per_host_concurrency"`
	// CacheTTL is how long a fetched page is reused. The default is 15m;
	// set -1s to disable the cache.
	CacheTTL time.Duration `yaml:"cache_ttl"`
	// CacheSize is the maximum number of cached pages. The default is 1000.
	CacheSize int `yaml:"cache_size"`
	// PDFTimeout bounds PDF text extraction. The default is 10s.
	PDFTimeout time.Duration `yaml:"pdf_timeout"`
}

// DefaultUserAgent identifies webgate to the sites it fetches.
const DefaultUserAgent = "webgate/0.1 (+https://github.com/webgate/webgate; AI agent web fetch)"

func (f *Fetch) applyDefaults() {
	if f.MaxBodyBytes == 0 {
		f.MaxBodyBytes = 10 << 20
	}
	if f.MaxCompressionRatio == 0 {
		f.MaxCompressionRatio = 100
	}
	if f.Timeout == 0 {
		f.Timeout = 30 * time.Second
	}
	if f.MaxURLLength == 0 {
		f.MaxURLLength = 8192
	}
	if f.MaxRedirects == 0 {
		f.MaxRedirects = 10
	}
	if f.UserAgent == "" {
		f.UserAgent = DefaultUserAgent
	}
	if f.PerHostConcurrency == 0 {
		f.PerHostConcurrency = 4
	}
	if f.CacheTTL == 0 {
		f.CacheTTL = 15 * time.Minute
	}
	if f.CacheSize == 0 {
		f.CacheSize = 1000
	}
	if f.PDFTimeout == 0 {
		f.PDFTimeout = 10 * time.Second
	}
}

func (f *Fetch) validate() []error {
	var errs []error
	if f.MaxBodyBytes < 1024 {
		errs = append(errs, fmt.Errorf("fetch.max_body_bytes: %d must be at least 1024", f.MaxBodyBytes))
	}
	if f.MaxCompressionRatio < 1 {
		errs = append(errs, fmt.Errorf("fetch.max_compression_ratio: %d must be at least 1", f.MaxCompressionRatio))
	}
	if f.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("fetch.timeout: %s must be positive", f.Timeout))
	}
	if f.MaxURLLength < 64 {
		errs = append(errs, fmt.Errorf("fetch.max_url_length: %d must be at least 64", f.MaxURLLength))
	}
	if f.MaxRedirects < 0 || f.MaxRedirects > 20 {
		errs = append(errs, fmt.Errorf("fetch.max_redirects: %d must be between 0 and 20", f.MaxRedirects))
	}
	if f.PerHostConcurrency < 1 {
		errs = append(errs, fmt.Errorf("fetch.per_host_concurrency: %d must be at least 1", f.PerHostConcurrency))
	}
	if f.CacheSize < 0 {
		errs = append(errs, fmt.Errorf("fetch.cache_size: %d must not be negative", f.CacheSize))
	}
	if f.PDFTimeout <= 0 {
		errs = append(errs, fmt.Errorf("fetch.pdf_timeout: %s must be positive", f.PDFTimeout))
	}
	return errs
}
