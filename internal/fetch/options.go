package fetch

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"time"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/config"
)

// Options configures a Fetcher. It mirrors config.Fetch; zero values take
// the configuration file's defaults, read from config.Default() (see
// docs/configuration.md for their values), so they are written once.
type Options struct {
	// AllowPrivateNetworks lets the fetcher connect to loopback, private,
	// link-local and other non-public addresses.
	AllowPrivateNetworks bool
	// MaxBodyBytes caps a response body after decompression.
	MaxBodyBytes int64
	// MaxCompressionRatio caps decoded/encoded size for compressed bodies.
	MaxCompressionRatio int
	// Timeout bounds a whole fetch: robots.txt, redirects, body and
	// extraction.
	Timeout time.Duration
	// MaxURLLength rejects longer URLs before any network access.
	MaxURLLength int
	// MaxRedirects caps the redirects followed.
	MaxRedirects int
	// IgnoreRobots disables robots.txt checks.
	IgnoreRobots bool
	// UserAgent is sent with every request.
	UserAgent string
	// PerHostConcurrency caps simultaneous requests to one host.
	PerHostConcurrency int
	// CacheTTL is how long a fetched page is reused; negative disables
	// the cache.
	CacheTTL time.Duration
	// CacheSize is the maximum number of cached pages; negative disables
	// the cache.
	CacheSize int
	// Cache, when set, replaces the built-in in-process page cache, for
	// example with a cache.Tiered whose second tier is shared through
	// Redis. CacheTTL still sets entries' lifetime (a negative CacheTTL
	// still disables caching); CacheSize is then the given cache's
	// business.
	Cache cache.Cache[*Result]
	// OnDownload, when set, is told the size of every page body the
	// fetcher downloaded (after decompression), for metrics. Cache hits
	// and callers who joined an identical fetch in flight add nothing.
	OnDownload func(bytes int)
	// PDFTimeout bounds PDF text extraction.
	PDFTimeout time.Duration
	// ExtractMemory is the budget for HTML extraction shared by all of
	// the Fetcher's requests (webgate runs one Fetcher per process), in
	// bytes of estimated peak memory. Pages wait
	// for room in it, and a page estimated at more than half of it is
	// extracted in part (see budget.go).
	ExtractMemory int64
	// RobotsCacheTTL is how long a site's robots.txt is reused (1h).
	RobotsCacheTTL time.Duration
	// Logger receives debug and warning logs; nil discards them.
	Logger *slog.Logger
	// Render is the mode of requests that do not choose one.
	// RenderNever also turns rendering off for requests that ask for it.
	Render RenderMode
	// Renderer renders pages in a browser (package internal/fetch/render); nil
	// means no browser: a page that needs one fails with a message saying
	// how to install one. The fetcher's Close closes it.
	Renderer Renderer
	// AllowAddr, when set, admits addresses (IP and port) the network
	// policy would refuse, on top of AllowPrivateNetworks, for the page
	// and every connection a rendered page makes. It exists for tests (one
	// loopback server is reachable while every other private address,
	// other loopback ports included, stays refused) and for programs
	// embedding the fetcher; the configuration file has no such key.
	AllowAddr func(netip.AddrPort) bool

	// resolver replaces the system resolver; tests point it at a fake DNS
	// server so names can resolve to any address without the internet.
	resolver *net.Resolver
}

// OptionsFromConfig copies the fetch section of the configuration. The
// logger is left for the caller to set.
func OptionsFromConfig(c config.Fetch) Options {
	return Options{
		AllowPrivateNetworks: c.AllowPrivateNetworks,
		MaxBodyBytes:         c.MaxBodyBytes,
		MaxCompressionRatio:  c.MaxCompressionRatio,
		Timeout:              c.Timeout,
		MaxURLLength:         c.MaxURLLength,
		MaxRedirects:         c.MaxRedirects,
		IgnoreRobots:         c.IgnoreRobots,
		UserAgent:            c.UserAgent,
		PerHostConcurrency:   c.PerHostConcurrency,
		CacheTTL:             c.CacheTTL,
		CacheSize:            c.CacheSize,
		PDFTimeout:           c.PDFTimeout,
		Render:               RenderMode(c.Render),
		ExtractMemory:        c.ExtractMemory,
	}
}

// applyDefaults fills zero values from config.Default(), the one place the
// defaults are written, so that a Fetcher built from Options{} behaves like
// one built from a configuration file without a fetch section.
func (o *Options) applyDefaults() {
	d := OptionsFromConfig(config.Default().Fetch)
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = d.MaxBodyBytes
	}
	if o.MaxCompressionRatio == 0 {
		o.MaxCompressionRatio = d.MaxCompressionRatio
	}
	if o.Timeout == 0 {
		o.Timeout = d.Timeout
	}
	if o.MaxURLLength == 0 {
		o.MaxURLLength = d.MaxURLLength
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = d.MaxRedirects
	}
	if o.UserAgent == "" {
		o.UserAgent = d.UserAgent
	}
	if o.PerHostConcurrency == 0 {
		o.PerHostConcurrency = d.PerHostConcurrency
	}
	if o.CacheTTL == 0 {
		o.CacheTTL = d.CacheTTL
	}
	if o.CacheSize == 0 {
		o.CacheSize = d.CacheSize
	}
	if o.PDFTimeout == 0 {
		o.PDFTimeout = d.PDFTimeout
	}
	if o.ExtractMemory == 0 {
		o.ExtractMemory = d.ExtractMemory
	}
	// robots.txt caching is not configurable: this is its only default.
	if o.RobotsCacheTTL == 0 {
		o.RobotsCacheTTL = time.Hour
	}
	if o.Render == RenderDefault {
		o.Render = d.Render
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

func (o *Options) validate() error {
	switch {
	case o.MaxBodyBytes < 1024:
		return fmt.Errorf("fetch: max body bytes %d must be at least 1024", o.MaxBodyBytes)
	case o.MaxCompressionRatio < 1:
		return fmt.Errorf("fetch: max compression ratio %d must be at least 1", o.MaxCompressionRatio)
	case o.Timeout < 0:
		return fmt.Errorf("fetch: timeout %s must be positive", o.Timeout)
	case o.MaxURLLength < 64:
		return fmt.Errorf("fetch: max url length %d must be at least 64", o.MaxURLLength)
	case o.MaxRedirects < 0 || o.MaxRedirects > 20:
		return fmt.Errorf("fetch: max redirects %d must be between 0 and 20", o.MaxRedirects)
	case o.PerHostConcurrency < 1:
		return fmt.Errorf("fetch: per-host concurrency %d must be at least 1", o.PerHostConcurrency)
	case o.PDFTimeout < 0:
		return fmt.Errorf("fetch: pdf timeout %s must be positive", o.PDFTimeout)
	case o.ExtractMemory < minExtractMemory:
		return fmt.Errorf("fetch: extract memory %d must be at least %d bytes (8 MiB)", o.ExtractMemory, minExtractMemory)
	}
	if _, err := ParseRenderMode(string(o.Render)); err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	return nil
}
