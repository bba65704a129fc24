package fetch

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/webgate/webgate/internal/config"
)

// documentedDefaults pins the defaults the configuration reference
// (rendered from config.Default()) promises, so that a change to them is
// deliberate: both zero Options and an empty configuration must give them.
var documentedDefaults = Options{
	MaxBodyBytes:        10 << 20,
	MaxCompressionRatio: 100,
	Timeout:             30 * time.Second,
	MaxURLLength:        8192,
	MaxRedirects:        10,
	UserAgent:           config.DefaultUserAgent,
	PerHostConcurrency:  4,
	CacheTTL:            15 * time.Minute,
	Render:              RenderAuto,
	CacheSize:           1000,
	PDFTimeout:          10 * time.Second,
	RobotsCacheTTL:      time.Hour,
	ExtractMemory:       256 << 20,
}

var ignoreLogger = cmp.Options{cmpopts.IgnoreFields(Options{}, "Logger", "AllowAddr"), cmpopts.IgnoreUnexported(Options{})}

// TestOptionsDefaults checks that the fetcher gets the documented defaults
// both from an empty configuration file and from zero Options.
func TestOptionsDefaults(t *testing.T) {
	c, err := config.Parse(strings.NewReader(""), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]Options{"config": OptionsFromConfig(c.Fetch), "zero": {}} {
		f, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(documentedDefaults, f.opts, ignoreLogger); diff != "" {
			t.Errorf("%s: defaults (-documented +got):\n%s", name, diff)
		}
		if f.opts.AllowPrivateNetworks || f.opts.IgnoreRobots {
			t.Errorf("%s: unsafe default", name)
		}
	}
}

// TestOptionsFromConfig checks that every fetch key of the configuration
// file reaches the fetcher.
func TestOptionsFromConfig(t *testing.T) {
	yaml := `fetch:
  allow_private_networks: true
  max_body_bytes: 2048
  max_compression_ratio: 20
  timeout: 7s
  max_url_length: 100
  max_redirects: 3
  ignore_robots: true
  user_agent: "acme-bot/2.0 (+https://acme.example/bot)"
  per_host_concurrency: 2
  cache_ttl: 1m
  cache_size: 50
  pdf_timeout: 3s
  render: never
  extract_memory: 67108864
`
	c, err := config.Parse(strings.NewReader(yaml), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	f, err := New(OptionsFromConfig(c.Fetch))
	if err != nil {
		t.Fatal(err)
	}
	want := Options{
		AllowPrivateNetworks: true, MaxBodyBytes: 2048, MaxCompressionRatio: 20, Timeout: 7 * time.Second,
		MaxURLLength: 100, MaxRedirects: 3, IgnoreRobots: true, UserAgent: "acme-bot/2.0 (+https://acme.example/bot)",
		PerHostConcurrency: 2, CacheTTL: time.Minute, CacheSize: 50, PDFTimeout: 3 * time.Second, RobotsCacheTTL: time.Hour,
		Render:        RenderNever,
		ExtractMemory: 64 << 20,
	}
	if diff := cmp.Diff(want, f.opts, ignoreLogger); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	if f.robots.agent != "acme-bot" {
		t.Errorf("robots.txt product token %q", f.robots.agent)
	}
}

func TestOptionsValidate(t *testing.T) {
	for name, o := range map[string]Options{
		"tiny body":       {MaxBodyBytes: 10},
		"ratio":           {MaxCompressionRatio: -1},
		"timeout":         {Timeout: -time.Second},
		"short url limit": {MaxURLLength: 10},
		"redirects":       {MaxRedirects: 21},
		"per host":        {PerHostConcurrency: -1},
		"pdf timeout":     {PDFTimeout: -time.Second},
		"render":          {Render: "sometimes"},
		"extract memory":  {ExtractMemory: 1 << 20},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: New accepted %+v", name, o)
		}
	}
}
