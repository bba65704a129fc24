package config

import (
	"strings"
	"testing"
)

// TestFetchValidate checks that every bad fetch limit is reported with its
// key, all at once.
func TestFetchValidate(t *testing.T) {
	yaml := `fetch:
  max_body_bytes: 100
  max_compression_ratio: -1
  timeout: -1s
  max_url_length: 10
  max_redirects: 50
  per_host_concurrency: -2
  cache_size: -1
  pdf_timeout: -1s
  render: sometimes
  browser: {max_tabs: 0, restart_after: -1, page_timeout: -1s, max_bytes: 10, max_requests: -1, block: [script]}
`
	_, err := Parse(strings.NewReader(yaml), env(nil))
	if err == nil {
		t.Fatal("Parse accepted bad fetch limits")
	}
	for _, key := range []string{
		"fetch.max_body_bytes", "fetch.max_compression_ratio", "fetch.timeout", "fetch.max_url_length",
		"fetch.max_redirects", "fetch.per_host_concurrency", "fetch.cache_size", "fetch.pdf_timeout",
		"fetch.render", "fetch.browser.restart_after", "fetch.browser.page_timeout",
		"fetch.browser.max_bytes", "fetch.browser.max_requests", "fetch.browser.block",
	} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("error does not name %s:\n%v", key, err)
		}
	}
}

// TestFetchCacheDisabled checks the documented way to turn the page cache
// off passes validation.
func TestFetchCacheDisabled(t *testing.T) {
	c, err := Parse(strings.NewReader("fetch: {cache_ttl: -1s}\n"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Fetch.CacheTTL >= 0 {
		t.Errorf("cache_ttl = %s", c.Fetch.CacheTTL)
	}
}
