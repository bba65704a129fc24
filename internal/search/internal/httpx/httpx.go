// Package httpx is the HTTP plumbing shared by the search providers: one
// bounded round trip per call, and the mapping of failures onto the typed
// errors in package search.
//
// Every provider funnels its request through Client.Do so that three
// properties hold everywhere without each provider re-implementing them: a
// per-request deadline (config providers.<name>.timeout), a hard cap on how
// much of a response body is read, and error messages that never echo the
// request URL (SerpAPI and Google carry the API key in the query string).
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/search"
)

// MaxBody is the most a provider response may weigh. Real search payloads
// are tens of kilobytes; anything near this is a misbehaving upstream.
const MaxBody = 4 << 20

// DefaultTimeout bounds one request when the configuration does not.
const DefaultTimeout = 10 * time.Second

// UserAgent identifies webgate to API providers.
const UserAgent = "webgate (+https://github.com/webgate/webgate)"

// Client performs bounded requests for one provider.
type Client struct {
	// Provider is the provider name used in errors.
	Provider string
	// HTTP is the shared client; nil means http.DefaultClient.
	HTTP *http.Client
	// Timeout bounds each request; zero means DefaultTimeout.
	Timeout time.Duration
}

// New returns a Client, applying defaults.
func New(provider string, hc *http.Client, timeout time.Duration) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Client{Provider: provider, HTTP: hc, Timeout: timeout}
}

// Response is a fully read, size-capped HTTP response.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte

	raw *http.Response
}

// OK reports whether the status is 2xx.
func (r *Response) OK() bool { return r.StatusCode >= 200 && r.StatusCode < 300 }

// Do sends req under the client's per-request deadline and reads the whole
// body (up to MaxBody). It returns an error only when there is no usable
// response: transport failure, deadline, or an oversized or unreadable
// body; non-2xx statuses are returned as a Response for the provider to
// classify, because several providers put the useful signal in the body.
//
// Transport errors are *search.ProviderError of kind ErrUnavailable and
// also wrap the cause, so errors.Is(err, context.DeadlineExceeded) and
// errors.Is(err, context.Canceled) hold when the context ended the request.
func (c *Client) Do(ctx context.Context, req *http.Request) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	req = req.WithContext(ctx)
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", UserAgent)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, c.Unavailable(0, fmt.Errorf("%s request: %w", strings.ToLower(req.Method), stripURL(err)))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, c.Unavailable(resp.StatusCode, fmt.Errorf("read response: %w", stripURL(err)))
	}
	if len(body) > MaxBody {
		return nil, c.Unavailable(resp.StatusCode, fmt.Errorf("response body exceeds %d bytes", MaxBody))
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: body, raw: resp}, nil
}

// stripURL drops the request URL from *url.Error: it may hold an API key,
// and error strings end up in logs and in the providers --check output.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Unavailable builds an ErrUnavailable error for this provider.
func (c *Client) Unavailable(status int, err error) *search.ProviderError {
	return &search.ProviderError{Provider: c.Provider, Kind: search.ErrUnavailable, Status: status, Err: err}
}

// StatusError classifies a non-2xx response with search.StatusError and
// then applies the provider's own knowledge: quota phrases in the body
// turn the error into ErrQuota whatever the status (SerpAPI says "run out
// of searches" with a 429, Serper says "Not enough credits" with a 400).
// For a 429 without Retry-After it falls back to the first value of
// X-RateLimit-Reset, which Brave and others send as seconds-until-reset.
func (c *Client) StatusError(r *Response, quotaPhrases ...string) *search.ProviderError {
	e := search.StatusError(c.Provider, r.raw, r.Body)
	if ContainsFold(r.Body, quotaPhrases...) {
		e.Kind = search.ErrQuota
		e.RetryAfter = 0
		return e
	}
	if e.Kind == search.ErrRateLimited && e.RetryAfter == 0 {
		first, _, _ := strings.Cut(r.Header.Get("X-RateLimit-Reset"), ",")
		e.RetryAfter = search.ParseRetryAfter(strings.TrimSpace(first), time.Now())
	}
	return e
}

// Reclassify returns e with its kind replaced; it clears RetryAfter unless
// the new kind is ErrRateLimited, since only a rate limit has a wait.
func Reclassify(e *search.ProviderError, kind error) *search.ProviderError {
	e.Kind = kind
	if kind != search.ErrRateLimited {
		e.RetryAfter = 0
	}
	return e
}

// ContainsFold reports whether body contains any of the phrases, ignoring
// case.
func ContainsFold(body []byte, phrases ...string) bool {
	if len(phrases) == 0 {
		return false
	}
	lower := bytes.ToLower(body)
	for _, p := range phrases {
		if p != "" && bytes.Contains(lower, []byte(strings.ToLower(p))) {
			return true
		}
	}
	return false
}

// DecodeJSON unmarshals a 2xx body into v; a body that is not the JSON we
// expect (an HTML error page from a proxy, a truncated reply) is
// ErrUnavailable, because the provider did not give us an answer.
func (c *Client) DecodeJSON(r *Response, v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return c.Unavailable(r.StatusCode, fmt.Errorf("decode response: %w", err))
	}
	return nil
}

// JSONRequest builds a POST with a JSON body.
func JSONRequest(endpoint string, body any) (*http.Request, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// GetRequest builds a GET for endpoint with the query parameters params.
func GetRequest(endpoint string, params url.Values) (*http.Request, error) {
	u := endpoint
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// Endpoint joins a configured base URL (or the provider's default) with
// the API path. The base is an API root such as https://api.example.com or
// a self-hosted prefix such as https://proxy.internal/brave.
func Endpoint(base, def, path string) (string, error) {
	if base == "" {
		base = def
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("base url %q must be an absolute http(s) URL", base)
	}
	return strings.TrimRight(base, "/") + path, nil
}

// Setup does what every HTTP provider's constructor needs: it checks that
// the API key is present (when keyEnv, the key's environment variable, is
// not empty), resolves the endpoint from cfg.BaseURL or def, and builds the
// bounded client. Errors name the provider and what to set.
func Setup(name string, cfg search.Settings, hc *http.Client, def, path, keyEnv string) (endpoint string, c *Client, err error) {
	if keyEnv != "" && cfg.APIKey == "" {
		return "", nil, fmt.Errorf("%s: api key is required (%s)", name, keyEnv)
	}
	endpoint, err = Endpoint(cfg.BaseURL, def, path)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", name, err)
	}
	return endpoint, New(name, hc, cfg.Timeout), nil
}
