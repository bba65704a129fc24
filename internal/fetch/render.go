package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/charset"
)

// RenderMode says when a page is rendered in a browser before extraction.
type RenderMode string

// Render modes.
const (
	// RenderDefault (the empty string) in a Request means the fetcher's
	// configured mode.
	RenderDefault RenderMode = ""
	// RenderAuto renders only an HTML page that has no readable text
	// without JavaScript (an application shell), and only when a browser
	// is available. A page that extracts normally never starts a browser.
	RenderAuto RenderMode = "auto"
	// RenderAlways renders every HTML page.
	RenderAlways RenderMode = "always"
	// RenderNever never starts a browser.
	RenderNever RenderMode = "never"
)

// ParseRenderMode validates s; "" is RenderDefault.
func ParseRenderMode(s string) (RenderMode, error) {
	switch m := RenderMode(strings.ToLower(strings.TrimSpace(s))); m {
	case RenderDefault, RenderAuto, RenderAlways, RenderNever:
		return m, nil
	}
	return "", fmt.Errorf("render must be one of auto, always, never (got %q)", s)
}

// Renderer loads a page in a real browser and returns its DOM after the
// page's scripts have built it. Package internal/fetch/render implements it with
// headless Chromium.
type Renderer interface {
	// Available reports, without starting anything, whether a browser can
	// be used; the error says how to install one.
	Available() error
	// Render loads req.URL with req.Document as its HTML and returns the
	// serialised DOM. Every network connection the page makes must go
	// through req.Dial, and every top-level navigation through
	// req.Navigate.
	Render(ctx context.Context, req RenderRequest) (*Rendered, error)
	// Close stops the browser, if one runs.
	Close() error
}

// RenderRequest is one page to render.
type RenderRequest struct {
	// URL is the page's final URL after redirects, with the fragment the
	// caller asked for (hash-routed applications read it).
	URL *url.URL
	// Document is the page as the fetcher downloaded it; the browser
	// receives these bytes instead of fetching the page again.
	Document Document
	// Dial connects through the fetcher's guarded dialer: the address
	// policy is checked on the resolved address at connect time.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
	// Navigate fetches a document the page navigates its top frame to,
	// with every check of a fetch (URL, address policy, robots.txt,
	// redirects, size).
	Navigate func(ctx context.Context, u *url.URL) (*Document, error)
	// UserAgent is the fetcher's user agent.
	UserAgent string
}

// Document is a downloaded HTML document, decoded to UTF-8.
type Document struct {
	URL         *url.URL // after redirects
	Status      int
	ContentType string
	Body        []byte
}

// Rendered is a rendered page.
type Rendered struct {
	// URL is the page's address when the DOM was taken (after script
	// navigations and history changes).
	URL string
	// Status is the HTTP status of the document last loaded.
	Status int
	// HTML is the serialised DOM.
	HTML []byte
	// Requests counts the sub-requests the page made (including refused
	// ones); Blocked those refused by a limit, the resource-type filter or
	// the address policy.
	Requests, Blocked int
	// Bytes is what the page's sub-requests downloaded.
	Bytes int64
	// Took is the time spent in the browser.
	Took time.Duration
}

// errShell marks the error of an HTML page without readable text: in
// auto mode such a page is rendered.
var errShell = errors.New("page has no readable text without scripts")

// installHint says how to get a browser.
const installHint = "install Chromium (Debian/Ubuntu: apt-get install chromium) or set fetch.browser.path"

// renderMode is the mode a request runs in: the request's own, else the
// configured one; with rendering turned off (no renderer) nothing is
// rendered and asking for always fails.
func (f *Fetcher) renderMode(m RenderMode) RenderMode {
	if m == RenderDefault {
		m = f.opts.Render
	}
	if f.opts.Render == RenderNever && m == RenderAuto {
		return RenderNever
	}
	return m
}

// renderPage renders an HTML page in the browser and extracts the
// rendered DOM through the same extractor and content guards as any page.
// shell is whether the page was found to have no text without scripts
// (the auto case), which words the errors.
func (f *Fetcher) renderPage(ctx context.Context, p *page, j job, shell bool) (*Result, error) {
	where := redactedURL(p.url)
	switch {
	case f.opts.Render == RenderNever:
		return nil, fmt.Errorf("%s: %w: rendering is turned off (fetch.render: never)", where, ErrRender)
	case f.opts.Renderer == nil:
		return nil, fmt.Errorf("%s: %w: this fetcher has no browser", where, ErrRender)
	}
	if err := f.opts.Renderer.Available(); err != nil {
		if shell {
			return nil, fmt.Errorf("%s: %w: the page has no readable text; it builds its content with JavaScript and no browser is available to render it (%v)", where, ErrBadContent, err)
		}
		return nil, fmt.Errorf("%s: %w: %v", where, ErrRender, err)
	}
	target := *p.url
	if target.Fragment == "" {
		target.Fragment = j.frag
	}
	body, _ := charset.Decode(p.body, p.contentType)
	r, err := f.opts.Renderer.Render(ctx, RenderRequest{
		URL:       &target,
		Document:  Document{URL: p.url, Status: p.status, ContentType: p.contentType, Body: body},
		Dial:      f.dial,
		Navigate:  f.navigate,
		UserAgent: f.opts.UserAgent,
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctxError(ctx, where)
		}
		if hasSentinel(err) {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		return nil, fmt.Errorf("%s: %w: %v", where, ErrRender, err)
	}
	f.log.DebugContext(ctx, "rendered", "url", where, "final_url", r.URL, "requests", r.Requests,
		"blocked", r.Blocked, "bytes", r.Bytes, "took", r.Took)
	final := p.url
	if u, err := url.Parse(r.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		final = u
	}
	status := r.Status
	if status == 0 {
		status = p.status
	}
	res, _, err := f.convert(ctx, &page{url: final, status: status, contentType: "text/html; charset=utf-8", body: r.HTML}, j)
	if errors.Is(err, errShell) {
		return nil, fmt.Errorf("%s: %w: the page has no readable text, even after rendering it in a browser", where, ErrBadContent)
	}
	if err != nil {
		return nil, err
	}
	res.Rendered = true
	return res, nil
}

// hasSentinel reports whether err already wraps one of the package's
// sentinels (a renderer passing on a refusal from Navigate).
func hasSentinel(err error) bool {
	for _, k := range errorTypes {
		if k.err != context.Canceled && k.err != context.DeadlineExceeded && errors.Is(err, k.err) {
			return true
		}
	}
	return false
}

// dial connects through the guarded dialer.
func (f *Fetcher) dial(ctx context.Context, network, address string) (net.Conn, error) {
	return f.dialer.DialContext(ctx, network, address)
}

// navigate downloads a document a rendered page navigates to, under every
// check of a fetch. It answers only for HTML: anything else is not
// something to render.
func (f *Fetcher) navigate(ctx context.Context, u *url.URL) (*Document, error) {
	checked, err := f.checkURL(u.String())
	if err != nil {
		return nil, err
	}
	p, err := f.download(ctx, checked, acceptHeader)
	if err != nil {
		return nil, err
	}
	if k, mt := classify(p.contentType, p.body); k != kindHTML {
		return nil, fmt.Errorf("%s: %w: a navigation to %s is not rendered", redactedURL(p.url), ErrUnsupportedContentType, mt)
	}
	body, _ := charset.Decode(p.body, p.contentType)
	return &Document{URL: p.url, Status: p.status, ContentType: p.contentType, Body: body}, nil
}

// routeFragment returns the fragment of raw when it looks like a
// client-side route ("#/docs/intro", "#!/post/7"): hash-routed
// applications show different content for each, so a rendered page is
// cached per route. Plain anchors ("#section-2") select a place on the
// same page and are not part of the cache key.
func routeFragment(raw string) string {
	_, frag, ok := strings.Cut(raw, "#")
	if !ok || frag == "" {
		return ""
	}
	if frag[0] == '/' || frag[0] == '!' {
		if u, err := url.Parse("x:#" + frag); err == nil {
			return u.Fragment
		}
	}
	return ""
}
