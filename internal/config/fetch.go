package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Fetch configures the page fetcher and the extractor.
type Fetch struct {
	// AllowPrivateNetworks lets the fetcher connect to loopback, private,
	// link-local and other non-public addresses. It is false by default so
	// a model cannot be tricked into reading internal services or cloud
	// metadata; turn it on only for self-hosted targets and tests.
	AllowPrivateNetworks bool `yaml:"allow_private_networks"`
	// MaxBodyBytes caps the bytes read from one response, on the wire and
	// after decompression. At least 1024.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// MaxCompressionRatio aborts a compressed response (gzip, deflate, br or
	// zstd) whose decoded size exceeds this multiple of its encoded size once
	// past the first MiB (a decompression-bomb guard).
	MaxCompressionRatio int `yaml:"max_compression_ratio"`
	// Timeout bounds a whole fetch: robots.txt, redirects, body and
	// extraction.
	Timeout time.Duration `yaml:"timeout"`
	// MaxURLLength rejects longer URLs, counted in bytes, redirect targets
	// included, before any network access. At least 64.
	MaxURLLength int `yaml:"max_url_length"`
	// MaxRedirects caps the redirects followed; each hop is re-checked
	// against the network policy. 0 means the default; at most 20.
	MaxRedirects int `yaml:"max_redirects"`
	// IgnoreRobots disables robots.txt checks. By default webgate honours
	// robots.txt for its user agent.
	IgnoreRobots bool `yaml:"ignore_robots"`
	// UserAgent is sent with every request; its first word is the
	// robots.txt product token. The default identifies webgate honestly,
	// with a link to the project.
	UserAgent string `yaml:"user_agent"`
	// PerHostConcurrency caps simultaneous requests to one host.
	PerHostConcurrency int `yaml:"per_host_concurrency"`
	// CacheTTL is how long a fetched page is reused. Set -1s to disable the
	// cache.
	CacheTTL time.Duration `yaml:"cache_ttl"`
	// CacheSize is the maximum number of cached pages.
	CacheSize int `yaml:"cache_size"`
	// PDFTimeout bounds PDF text extraction, within fetch.timeout.
	PDFTimeout time.Duration `yaml:"pdf_timeout"`
	// Render says when a page is rendered in a headless browser before
	// extraction, for pages that build their content with JavaScript:
	// "auto" (the default) renders only an HTML page that has no readable
	// text without scripts, and only when a browser is installed; a page
	// that extracts normally never starts one. "always" renders every HTML
	// page; "never" never starts a browser, even when a request asks for
	// rendering. Requests may choose their own mode (the CLI's --render,
	// the MCP and JSON API "render" argument). See docs/fetch.md.
	Render string `yaml:"render"`
	// Browser configures the browser that renders pages and the limits
	// each rendered page runs under.
	Browser Browser `yaml:"browser"`
	// ExtractMemory is the memory, in bytes, that HTML extraction may use
	// at once across all requests. Each page's peak is estimated from its
	// elements, attributes and bytes before it is parsed; a page waits
	// (within fetch.timeout) until it fits beside the pages already
	// extracting, and a page estimated at more than half the budget is
	// extracted in part, up to that half, with a note at the end of its
	// content. The default keeps four 10 MiB pages at once within a
	// 512 MiB container; raise it with the memory limit, lower it for a
	// smaller one. At least 8388608 (8 MiB).
	ExtractMemory int64 `yaml:"extract_memory"`
}

// Browser configures page rendering in headless Chromium.
type Browser struct {
	// Path is the browser executable. The default looks for chromium,
	// chromium-browser, google-chrome and google-chrome-stable on PATH.
	Path string `yaml:"path"`
	// MaxTabs caps the pages rendered at once in the one browser process;
	// further pages wait for a tab within their fetch timeout.
	MaxTabs int `yaml:"max_tabs"`
	// RestartAfter restarts the browser after it has rendered this many pages,
	// bounding what a long-lived browser can accumulate. A browser that
	// crashed is restarted for the next page.
	RestartAfter int `yaml:"restart_after"`
	// IdleTimeout stops the browser when no page has been rendered for this
	// long; the next page starts it again (about a second). -1s keeps it
	// running.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// PageTimeout bounds the time a page may take to load and build its
	// content; when it passes, the content the page shows by then is used. It
	// counts within fetch.timeout.
	PageTimeout time.Duration `yaml:"page_timeout"`
	// MaxBytes caps what one page's sub-requests (scripts, data, styles)
	// may download in total; past it the page's further requests fail and
	// its connections are closed.
	MaxBytes int64 `yaml:"max_bytes"`
	// MaxRequests caps the sub-requests one page may make; further ones fail.
	MaxRequests int `yaml:"max_requests"`
	// Block lists the kinds of sub-request refused outright: any of image,
	// font, media and stylesheet. Text never needs them, and refusing them
	// saves time and bytes. [] loads everything.
	Block []string `yaml:"block"`
	// NoSandbox runs Chromium without its sandbox. Chromium refuses to run
	// as root with its sandbox, so webgate always turns it off then; a
	// container whose seccomp profile forbids the user namespaces the
	// sandbox needs must set it too. The default is false.
	NoSandbox bool `yaml:"no_sandbox"`
}

// BrowserBlockable lists the sub-request kinds fetch.browser.block takes.
var BrowserBlockable = []string{"image", "font", "media", "stylesheet"}

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
	if f.Render == "" {
		f.Render = "auto"
	}
	b := &f.Browser
	if b.MaxTabs == 0 {
		b.MaxTabs = 2
	}
	if b.RestartAfter == 0 {
		b.RestartAfter = 100
	}
	if b.IdleTimeout == 0 {
		b.IdleTimeout = 5 * time.Minute
	}
	if b.PageTimeout == 0 {
		b.PageTimeout = 15 * time.Second
	}
	if b.MaxBytes == 0 {
		b.MaxBytes = 20 << 20
	}
	if b.MaxRequests == 0 {
		b.MaxRequests = 200
	}
	if b.Block == nil {
		b.Block = []string{"image", "font", "media"}
	}
	if f.ExtractMemory == 0 {
		f.ExtractMemory = 256 << 20
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
	switch f.Render {
	case "auto", "always", "never":
	default:
		errs = append(errs, fmt.Errorf("fetch.render: %q must be auto, always or never", f.Render))
	}
	b := f.Browser
	if b.MaxTabs < 1 || b.MaxTabs > 16 {
		errs = append(errs, fmt.Errorf("fetch.browser.max_tabs: %d must be between 1 and 16", b.MaxTabs))
	}
	if b.RestartAfter < 1 {
		errs = append(errs, fmt.Errorf("fetch.browser.restart_after: %d must be at least 1", b.RestartAfter))
	}
	if b.PageTimeout <= 0 {
		errs = append(errs, fmt.Errorf("fetch.browser.page_timeout: %s must be positive", b.PageTimeout))
	}
	if b.MaxBytes < 1024 {
		errs = append(errs, fmt.Errorf("fetch.browser.max_bytes: %d must be at least 1024", b.MaxBytes))
	}
	if b.MaxRequests < 1 {
		errs = append(errs, fmt.Errorf("fetch.browser.max_requests: %d must be at least 1", b.MaxRequests))
	}
	for _, k := range b.Block {
		if !slices.Contains(BrowserBlockable, k) {
			errs = append(errs, fmt.Errorf("fetch.browser.block: %q is not one of %s", k, strings.Join(BrowserBlockable, ", ")))
		}
	}
	if f.ExtractMemory < 8<<20 {
		errs = append(errs, fmt.Errorf("fetch.extract_memory: %d must be at least 8388608 (8 MiB)", f.ExtractMemory))
	}
	return errs
}
