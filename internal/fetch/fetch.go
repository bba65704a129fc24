// Package fetch retrieves web pages safely for AI agents and turns them into
// clean text through package extract.
//
// The fetcher is the boundary between a model and the network, so it is
// strict by default: only http and https, an SSRF-safe dialer that refuses
// non-public addresses at connect time (which also defeats DNS rebinding),
// every redirect re-checked, bounded bodies, decompression and time, honest
// user agent, robots.txt and a per-host concurrency limit.
package fetch

import (
	"context"
	"errors"
	"time"

	"github.com/webgate/webgate/internal/extract"
)

// Request is one fetch.
type Request struct {
	// URL is the absolute http(s) URL to fetch.
	URL string `json:"url"`
	// Format selects the output: markdown (default), text, html or raw.
	Format extract.Format `json:"format,omitempty"`
	// MaxLength caps the returned content in characters (runes); 0 means
	// no cap beyond MaxTokens.
	MaxLength int `json:"max_length,omitempty"`
	// StartIndex skips this many characters of content, to page through a
	// long document with MaxLength.
	StartIndex int `json:"start_index,omitempty"`
	// MaxTokens is an approximate token budget; content is cut at a block
	// boundary to fit. 0 means no budget.
	MaxTokens int `json:"max_tokens,omitempty"`
	// NoCache bypasses the page cache for this request.
	NoCache bool `json:"no_cache,omitempty"`
	// Render says when the page is rendered in a browser: auto, always or
	// never; "" means the fetcher's configured mode (fetch.render).
	Render RenderMode `json:"render,omitempty"`
	// StripHidden removes what a reader of an HTML page never sees
	// (comments, hidden and off-screen elements, invisible text; see
	// package hidden) before extraction, so that text planted for a model
	// does not reach it. The content guard sets it (guard.content.
	// strip_hidden); clients cannot, so it has no JSON name. The cache
	// keeps stripped and unstripped pages apart.
	StripHidden bool `json:"-"`
}

// Result is a fetched and extracted page.
type Result struct {
	URL         string `json:"url"`
	FinalURL    string `json:"final_url"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	Title       string `json:"title"`
	Content     string `json:"content"`
	// Truncated reports whether content remains after this part.
	Truncated bool `json:"truncated"`
	// NextStartIndex is the StartIndex for the next part; 0 when there is
	// none.
	NextStartIndex int `json:"next_start_index,omitempty"`
	// TotalLength is the length in characters of the whole content.
	TotalLength int `json:"total_length,omitempty"`
	// Incomplete reports an HTML page too large to extract whole within
	// the extraction memory budget (fetch.extract_memory): Content comes
	// from its first part and ends with a note saying how much.
	Incomplete bool `json:"incomplete,omitempty"`
	// Metadata describes the page (author, dates, language, canonical URL).
	Metadata extract.Metadata `json:"metadata,omitzero"`
	// RetrievedAt is when the page was fetched (not when it was served from
	// cache).
	RetrievedAt time.Time `json:"retrieved_at,omitzero"`
	// Body is the raw response body (after decompression), kept for
	// surfaces that must return the original bytes (PDF documents, the
	// console's raw view). It is never serialised. A cache hit carries it
	// only for bodies up to 1 MiB; fetch with NoCache to be sure of it.
	Body []byte `json:"-"`
	// Cached reports whether the page came from the cache.
	Cached bool `json:"-"`
	// Rendered reports whether the content was extracted from the page as
	// a browser rendered it (see RenderMode).
	Rendered bool `json:"rendered,omitempty"`
	// Injection lists passages of Content that read like instructions to
	// an AI model (likely prompt injections), as flagged by the content
	// guard (package guard). Nothing is removed; it is advice.
	Injection []InjectionFlag `json:"injection,omitempty"`
}

// InjectionFlag is one flagged passage: the guard's rule name and an
// excerpt around it.
type InjectionFlag struct {
	Rule    string `json:"rule"`
	Excerpt string `json:"excerpt"`
}

// Sentinel errors. Every error returned by Fetch wraps exactly one, so each
// surface can map them to its own error codes in one place.
var (
	// ErrInvalidURL: not an absolute http(s) URL, or unparsable.
	ErrInvalidURL = errors.New("invalid url")
	// ErrInvalidRequest: a request field other than the URL is invalid
	// (unknown format, negative length or index).
	ErrInvalidRequest = errors.New("invalid request")
	// ErrURLTooLong: longer than the configured limit.
	ErrURLTooLong = errors.New("url too long")
	// ErrBlockedAddress: the host resolves to, or redirects to, a
	// non-public address and private networks are not allowed.
	ErrBlockedAddress = errors.New("address not allowed")
	// ErrRobots: robots.txt disallows this URL for our user agent.
	ErrRobots = errors.New("disallowed by robots.txt")
	// ErrTooManyRedirects: the redirect cap was reached or a loop found.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrTooLarge: the body, or its decompressed form, exceeds the limits.
	ErrTooLarge = errors.New("response too large")
	// ErrTimeout: the fetch deadline passed.
	ErrTimeout = errors.New("fetch timed out")
	// ErrHTTPStatus: the server answered with a non-2xx status; see
	// *StatusError.
	ErrHTTPStatus = errors.New("http error status")
	// ErrRateLimited: the server answered 429.
	ErrRateLimited = errors.New("rate limited by site")
	// ErrUnsupportedContentType: a binary type we cannot turn into text.
	ErrUnsupportedContentType = errors.New("unsupported content type")
	// ErrUnreachable: DNS, connect, TLS or read failure.
	ErrUnreachable = errors.New("site unreachable")
	// ErrBadContent: the body could not be decoded (corrupt gzip, broken
	// PDF, invalid charset), or an HTML page has no readable text.
	ErrBadContent = errors.New("content could not be decoded")
	// ErrRender: the page could not be rendered in a browser (none is
	// installed, rendering is turned off, or the browser failed).
	ErrRender = errors.New("page could not be rendered")
)

// Fetch-level interface used by surfaces; *Fetcher implements it and tests
// substitute fakes.
type Getter interface {
	Fetch(ctx context.Context, req Request) (*Result, error)
}
