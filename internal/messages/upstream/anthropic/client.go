// Package anthropic is the passthrough client for an Anthropic-compatible
// upstream. It forwards a client's request with its body bytes and headers
// intact, swapping only what must change (the target URL, hop-by-hop
// headers and, when configured, the credentials), and hands back the raw
// response for the caller to stream.
package anthropic

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/config"
)

// Client forwards requests to one upstream.
type Client struct {
	base   *url.URL
	apiKey string
	hc     *http.Client
	// idle bounds each read of a reply once it has begun
	// (response_header_timeout; see IdleError).
	idle time.Duration
}

// New returns a client for cfg. hc may be nil, in which case a client with
// bounded connect, TLS and response-header timeouts (but no overall
// timeout, because a streamed reply may legitimately last many minutes) is
// built.
func New(cfg config.Upstream, hc *http.Client) (*Client, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("upstream base url %q: must be an absolute http(s) URL", cfg.BaseURL)
	}
	if hc == nil {
		hc = NewHTTPClient(cfg.ResponseHeaderTimeout)
	}
	idle := cfg.ResponseHeaderTimeout
	if idle <= 0 {
		idle = 10 * time.Minute
	}
	return &Client{base: base, apiKey: cfg.APIKey, hc: hc, idle: idle}, nil
}

// NewHTTPClient returns the default upstream HTTP client.
func NewHTTPClient(responseHeaderTimeout time.Duration) *http.Client {
	if responseHeaderTimeout <= 0 {
		responseHeaderTimeout = 10 * time.Minute
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: responseHeaderTimeout,
		ExpectContinueTimeout: time.Second,
		// Never ask for compression on the client's behalf: the client's
		// own Accept-Encoding is forwarded, and the bytes it gets back are
		// exactly the upstream's, never transparently re-decoded.
		DisableCompression: true,
	}
	// Redirects are the client's business: following them here would
	// replay credentials to wherever the upstream points.
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// hopHeaders are connection-scoped and must not be forwarded in either
// direction (RFC 9110 section 7.6.1,
// https://www.rfc-editor.org/rfc/rfc9110#section-7.6.1).
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// Do forwards in to the upstream with body as its exact body. The request
// is bound to ctx, so cancelling ctx (a client disconnect) aborts the
// upstream call. The caller closes the response body; a read of it that
// waits longer than response_header_timeout fails with an *IdleError.
//
// Only the paths Route accepts are forwarded (others wrap
// ErrPathNotServed), cleaned; callers check with Route first to answer
// such a request without reading its body.
func (c *Client) Do(ctx context.Context, in *http.Request, body []byte) (*http.Response, error) {
	p, err := Route(in.URL.EscapedPath())
	if err != nil {
		return nil, err
	}
	target := *c.base
	target.Path = strings.TrimSuffix(c.base.Path, "/") + p
	target.RawPath = ""
	target.RawQuery = in.URL.RawQuery
	var rd *bytes.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	reqCtx, cancel := context.WithCancelCause(ctx)
	var req *http.Request
	if rd != nil {
		req, err = http.NewRequestWithContext(reqCtx, in.Method, target.String(), rd)
	} else {
		req, err = http.NewRequestWithContext(reqCtx, in.Method, target.String(), nil)
	}
	if err != nil {
		cancel(nil)
		return nil, fmt.Errorf("build upstream request: %w", err)
	}
	req.Header = CleanHeader(in.Header)
	// The transport derives these from the outgoing request itself.
	req.Header.Del("Host")
	req.Header.Del("Content-Length")
	if c.apiKey != "" {
		req.Header.Del("Authorization")
		req.Header.Set("X-Api-Key", c.apiKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		cancel(nil)
		return nil, fmt.Errorf("upstream %s %s: %w", in.Method, p, err)
	}
	resp.Body = newIdleBody(reqCtx, cancel, resp.Body, c.idle)
	return resp, nil
}

// CleanHeader returns a copy of h without hop-by-hop headers, including
// those the Connection header names (RFC 9110 section 7.6.1).
func CleanHeader(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = textproto.TrimString(name); name != "" {
				out.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		out.Del(name)
	}
	return out
}
