package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/extract"
)

// acceptHeader prefers Markdown (sites that serve it to agents save us the
// extraction), then HTML, plain text and PDF, by quality values (RFC 9110
// section 12.5.1, https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1).
const acceptHeader = "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.8, application/pdf;q=0.7, */*;q=0.5"

// maxCachedBytes keeps one cache entry small enough that a full cache stays
// within a sensible memory budget; results with more content are served but
// not kept.
const maxCachedBytes = 4 << 20

// maxCachedBodyBytes is the largest original body kept with a cached
// result; larger ones are dropped from the entry (Result.Body is nil on
// such a cache hit).
const maxCachedBodyBytes = 1 << 20

// Fetcher fetches pages safely and extracts their content. It is safe for
// concurrent use.
type Fetcher struct {
	opts Options
	log  *slog.Logger
	// transport is used directly, not through an http.Client: redirects
	// are followed by hand in get, so every hop passes the URL check,
	// robots.txt and the per-host limit, and a bad Location header is ours
	// to report.
	transport *http.Transport
	// dialer is the transport's guarded dialer; rendered pages connect
	// through it too (see RenderRequest.Dial).
	dialer *net.Dialer
	hosts  *hostLimiter
	robots *robotsChecker
	cache  cache.Cache[*Result]

	mu      sync.Mutex
	flights map[string]*flight // fetches in progress, by cache key

	// allowDial, when set, admits dial addresses the guardian would block.
	// Tests use it to reach one loopback server while keeping the policy
	// on for every other address, which is how redirects to private
	// addresses are exercised without a real public host.
	allowDial func(netip.AddrPort) bool
	// onDial, when set, sees every address the policy lets through, just
	// before the connect; an error stops the connect. Tests use it to
	// prove which address would have been reached without sending a
	// packet anywhere.
	onDial func(netip.AddrPort) error
	// extracting is the extraction memory budget, in bytes of estimated
	// peak (see budget.go).
	extracting *semaphore.Weighted
	// extractHTML is extract.Extract; a field so tests can observe calls.
	extractHTML func(ctx context.Context, body []byte, opts extract.Options) (*extract.Document, error)
	now         func() time.Time
}

var _ Getter = (*Fetcher)(nil)

// New returns a Fetcher for opts.
func New(opts Options) (*Fetcher, error) {
	opts.applyDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	f := &Fetcher{
		opts:        opts,
		log:         opts.Logger,
		hosts:       newHostLimiter(opts.PerHostConcurrency),
		extracting:  semaphore.NewWeighted(opts.ExtractMemory),
		flights:     make(map[string]*flight),
		extractHTML: extract.Extract,
		now:         time.Now,
		allowDial:   opts.AllowAddr,
	}
	if opts.CacheTTL > 0 && opts.CacheSize > 0 {
		f.cache = cache.NewLocal[*Result](opts.CacheSize)
	}
	if opts.Cache != nil && opts.CacheTTL > 0 {
		f.cache = opts.Cache
	}
	f.transport = f.newTransport()
	f.robots = newRobotsChecker(f)
	return f, nil
}

func (f *Fetcher) newTransport() *http.Transport {
	dialer := &net.Dialer{
		Timeout:   10 * time.Second,
		KeepAlive: 30 * time.Second,
		Resolver:  f.opts.resolver,
		Control:   f.control,
	}
	f.dialer = dialer
	return &http.Transport{
		// No proxy: a proxy would make the dial check meaningless (we would
		// only ever connect to the proxy) and could reach internal hosts.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        60 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  20 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 256 << 10,
		// We ask for and decode gzip/deflate ourselves, with size and ratio
		// limits.
		DisableCompression: true,
	}
}

// control is the dialer's Control hook. It runs after DNS resolution, on
// the very address a socket is about to connect to, so a hostname that
// resolves (or re-resolves, as in DNS rebinding) to a private address is
// refused here, whatever the URL said. Each address of a multi-address
// name is judged on its own.
func (f *Fetcher) control(network, address string, c syscall.RawConn) error {
	ap, perr := netip.ParseAddrPort(address)
	exempt := f.opts.AllowPrivateNetworks || (perr == nil && f.allowDial != nil && f.allowDial(ap))
	if !exempt {
		if err := guardian.Safe(network, address, c); err != nil {
			return err
		}
	}
	if f.onDial != nil && perr == nil {
		return f.onDial(ap)
	}
	return nil
}

// Close releases idle connections and stops the browser, if one runs.
func (f *Fetcher) Close() {
	f.transport.CloseIdleConnections()
	if f.opts.Renderer != nil {
		if err := f.opts.Renderer.Close(); err != nil {
			f.log.Warn("closing the browser", "err", err)
		}
	}
}

// checkURL is checkURL with the fetcher's settings.
func (f *Fetcher) checkURL(raw string) (*url.URL, error) {
	return checkURLWith(raw, f.opts.MaxURLLength, f.opts.AllowPrivateNetworks, f.allowDial)
}

// job is what one fetch flight does.
type job struct {
	target *url.URL
	format extract.Format
	mode   RenderMode // never RenderDefault
	// frag is the client-side route of the URL (see routeFragment), for
	// the browser.
	frag string
	// stripHidden is Request.StripHidden.
	stripHidden bool
}

// cacheKey names a job's result in the cache and among flights. The
// default (auto) mode keeps the key it always had; a page rendered for
// "always" or refused one for "never" is kept apart, and so is each
// client-side route. So is a page with its hidden content stripped: a
// fetch that asks for the page as served must not get the stripped one,
// nor a guarded fetch the page with its planted text.
func (j job) cacheKey() string {
	key := string(j.format)
	if j.mode != RenderAuto {
		key += "+" + string(j.mode)
	}
	if j.stripHidden {
		key += "+stripped"
	}
	key += " " + j.target.String()
	if j.frag != "" {
		key += "#" + j.frag
	}
	return key
}

// Fetch retrieves req.URL and returns its content in req.Format, shaped by
// MaxLength, StartIndex and MaxTokens. Every error wraps exactly one of the
// package's sentinel errors.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (*Result, error) {
	format, err := extract.ParseFormat(string(req.Format))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidRequest, err)
	}
	if req.MaxLength < 0 || req.StartIndex < 0 || req.MaxTokens < 0 {
		return nil, fmt.Errorf("%w: max_length, start_index and max_tokens must not be negative", ErrInvalidRequest)
	}
	if _, err := ParseRenderMode(string(req.Render)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidRequest, err)
	}
	u, err := f.checkURL(req.URL)
	if err != nil {
		// Name the URL: callers fetch several at once.
		return nil, fmt.Errorf("%s: %w", truncateForMessage(strings.TrimSpace(req.URL)), err)
	}
	j := job{target: rewriteURL(u), format: format, mode: f.renderMode(RenderMode(strings.ToLower(strings.TrimSpace(string(req.Render))))), stripHidden: req.StripHidden}
	if j.mode != RenderNever {
		j.frag = routeFragment(strings.TrimSpace(req.URL))
	}
	key := j.cacheKey()

	var full *Result
	if f.cache != nil && !req.NoCache {
		// The cache tier evicts on its own clock; checking the age here as
		// well makes cache_ttl exact by the fetcher's clock.
		if c, ok := f.cache.Get(ctx, key); ok && f.now().Sub(c.RetrievedAt) < f.opts.CacheTTL {
			cp := *c
			cp.Cached = true
			full = &cp
		}
	}
	if full == nil {
		if full, err = f.fetchShared(ctx, key, j); err != nil {
			return nil, err
		}
	}
	full.URL = req.URL
	out, truncated, next, total := shape(full.Content, req.StartIndex, req.MaxLength, req.MaxTokens)
	full.Content = out
	full.Truncated = truncated
	full.NextStartIndex = next
	full.TotalLength = total
	return full, nil
}

// flight is one in-progress fetch that concurrent requests for the same
// URL and format share, so a burst of identical requests costs the site
// one request.
type flight struct {
	done    chan struct{}
	res     *Result
	err     error
	waiters int // guarded by Fetcher.mu
	// ctx carries the fetch's own deadline; waiters give up when it
	// passes even if extraction, which cannot be interrupted, runs on.
	ctx    context.Context
	cancel context.CancelFunc
}

// fetchShared returns a private copy of the unshaped result for key,
// joining an identical fetch in progress or starting one. The fetch runs
// under its own deadline and is cancelled only when every caller waiting
// for it has gone, so one impatient caller cannot fail the others.
func (f *Fetcher) fetchShared(ctx context.Context, key string, j job) (*Result, error) {
	where := redactedURL(j.target)
	if ctx.Err() != nil {
		return nil, ctxError(ctx, where)
	}
	f.mu.Lock()
	fl := f.flights[key]
	if fl == nil {
		fctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), f.opts.Timeout, errFetchDeadline)
		fl = &flight{done: make(chan struct{}), ctx: fctx, cancel: cancel}
		f.flights[key] = fl
		go f.runFlight(fctx, key, fl, j)
	}
	fl.waiters++
	f.mu.Unlock()

	select {
	case <-fl.done:
		return fl.result()
	case <-fl.ctx.Done():
		// The fetch's timeout passed. Everything but HTML extraction
		// stops on it; extraction notices only when it returns, and the
		// caller is not kept waiting for that. A result that lands at the
		// same moment still counts.
		select {
		case <-fl.done:
			return fl.result()
		default:
		}
		f.mu.Lock()
		fl.waiters--
		if f.flights[key] == fl {
			delete(f.flights, key)
		}
		f.mu.Unlock()
		return nil, ctxError(fl.ctx, where)
	case <-ctx.Done():
		f.mu.Lock()
		fl.waiters--
		if fl.waiters == 0 {
			fl.cancel()
			if f.flights[key] == fl {
				delete(f.flights, key)
			}
		}
		f.mu.Unlock()
		return nil, ctxError(ctx, where)
	}
}

// result is a private copy of a finished flight's outcome.
func (fl *flight) result() (*Result, error) {
	if fl.err != nil {
		return nil, fl.err
	}
	cp := *fl.res
	return &cp, nil
}

func (f *Fetcher) runFlight(ctx context.Context, key string, fl *flight, j job) {
	defer fl.cancel()
	res, err := f.fetchPage(ctx, j)
	if err != nil {
		f.log.DebugContext(ctx, "fetch failed", "url", redactedURL(j.target), "err", err)
	} else {
		f.log.DebugContext(ctx, "fetched", "url", redactedURL(j.target), "final_url", res.FinalURL, "rendered", res.Rendered,
			"status", res.Status, "content_type", res.ContentType, "bytes", len(res.Body), "content_bytes", len(res.Content))
		if f.opts.OnDownload != nil {
			f.opts.OnDownload(len(res.Body))
		}
		if f.cache != nil && len(res.Content) <= maxCachedBytes {
			entry := res
			if len(res.Body) > maxCachedBodyBytes {
				// Keep the text, which is what paging needs, not a large
				// original (a long PDF).
				e := *res
				e.Body = nil
				entry = &e
			}
			f.cache.Set(ctx, key, entry, f.opts.CacheTTL)
		}
	}
	fl.res, fl.err = res, err
	f.mu.Lock()
	if f.flights[key] == fl {
		delete(f.flights, key)
	}
	f.mu.Unlock()
	close(fl.done)
}

// fetchPage fetches and extracts one page, unshaped, rendering it in a
// browser when its mode asks for that.
func (f *Fetcher) fetchPage(ctx context.Context, j job) (*Result, error) {
	page, err := f.download(ctx, j.target, acceptHeader)
	if err != nil {
		return nil, err
	}
	if j.mode == RenderAlways {
		if k, _ := classify(page.contentType, page.body); k == kindHTML {
			return f.renderPage(ctx, page, j, false)
		}
	}
	res, alt, err := f.convert(ctx, page, j)
	if errors.Is(err, errShell) {
		// No text without scripts. A Markdown version the page
		// advertises is cheaper and more faithful than a browser.
		if alt != nil {
			if md, aerr := f.fetchMarkdownAlternate(ctx, alt); aerr == nil {
				md.Title, md.FinalURL, md.Status, md.Body = markdownTitle(md.Content), page.url.String(), page.status, page.body
				md.Metadata.Title = md.Title
				return md, nil
			}
		}
		if j.mode == RenderAuto && f.opts.Renderer != nil {
			return f.renderPage(ctx, page, j, true)
		}
	}
	if err != nil {
		return nil, err
	}
	if alt != nil {
		// The page advertises a Markdown version of itself. It is fetched
		// under the same checks; if anything goes wrong, the extracted HTML
		// we already have is the answer.
		md, err := f.fetchMarkdownAlternate(ctx, alt)
		if err != nil {
			f.log.DebugContext(ctx, "markdown alternate unusable, using html", "url", redactedURL(alt), "err", err)
			return res, nil
		}
		md.Title = res.Title
		md.Metadata = res.Metadata
		md.FinalURL = res.FinalURL
		md.Status = res.Status
		md.Body = res.Body
		return md, nil
	}
	return res, nil
}

// page is a downloaded, decompressed response.
type page struct {
	url         *url.URL // final URL
	status      int
	contentType string
	body        []byte
}

// download fetches u with redirects and reads its body under the limits.
func (f *Fetcher) download(ctx context.Context, u *url.URL, accept string) (*page, error) {
	resp, final, release, err := f.get(ctx, u, accept, f.opts.MaxRedirects, !f.opts.IgnoreRobots)
	if err != nil {
		return nil, err
	}
	defer release()
	defer resp.Body.Close()
	where := redactedURL(final)
	if resp.ContentLength > f.opts.MaxBodyBytes {
		return nil, fmt.Errorf("%s: %w: content-length %d exceeds %d bytes", where, ErrTooLarge, resp.ContentLength, f.opts.MaxBodyBytes)
	}
	body, err := readBody(resp.Body, contentEncoding(resp.Header), f.opts.MaxBodyBytes, f.opts.MaxCompressionRatio, resp.ContentLength)
	if err != nil {
		var be *bodyError
		if errors.As(err, &be) && be.kind != nil {
			return nil, fmt.Errorf("%s: %w: %v", where, be.kind, be.err)
		}
		return nil, classifyTransportError(ctx, where, err)
	}
	return &page{url: final, status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: body}, nil
}

// get performs GET u, following up to maxRedirects redirects by hand (the
// 3xx statuses of RFC 9110 section 15.4 that carry a Location,
// https://www.rfc-editor.org/rfc/rfc9110#section-15.4, resolved against u as a URI reference: RFC 3986
// section 5, https://www.rfc-editor.org/rfc/rfc3986#section-5). Each
// hop is re-validated (scheme, length, address policy), checked against
// robots.txt when checkRobots is set, and holds a per-host slot. A 2xx
// response is returned open with its release function; any other final
// status is returned as a *StatusError.
func (f *Fetcher) get(ctx context.Context, u *url.URL, accept string, maxRedirects int, checkRobots bool) (*http.Response, *url.URL, func(), error) {
	seen := map[string]bool{u.String(): true}
	for hop := 0; ; hop++ {
		where := redactedURL(u)
		if checkRobots {
			if err := f.robots.check(ctx, u); err != nil {
				return nil, nil, nil, err
			}
		}
		release, err := f.hosts.acquire(ctx, u.Host)
		if err != nil {
			return nil, nil, nil, ctxError(ctx, where)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			release()
			return nil, nil, nil, fmt.Errorf("%s: %w: %v", where, ErrInvalidURL, err)
		}
		req.Header.Set("User-Agent", f.opts.UserAgent)
		req.Header.Set("Accept", accept)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		resp, err := f.transport.RoundTrip(req)
		if err != nil {
			release()
			return nil, nil, nil, classifyTransportError(ctx, where, err)
		}
		if isRedirect(resp.StatusCode) {
			loc := resp.Header.Get("Location")
			drainAndClose(resp.Body)
			release()
			if loc == "" {
				return nil, nil, nil, fmt.Errorf("%s: %w: %d redirect without a location", where, ErrHTTPStatus, resp.StatusCode)
			}
			if hop >= maxRedirects {
				return nil, nil, nil, fmt.Errorf("%s: %w: more than %d", where, ErrTooManyRedirects, maxRedirects)
			}
			next, err := u.Parse(loc)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s: %w: bad redirect location %q", where, ErrInvalidURL, truncateForMessage(loc))
			}
			checked, err := f.checkURL(next.String())
			if err != nil {
				return nil, nil, nil, fmt.Errorf("redirect from %s: %w", where, err)
			}
			if seen[checked.String()] {
				return nil, nil, nil, fmt.Errorf("%s: %w: redirect loop via %s", where, ErrTooManyRedirects, redactedURL(checked))
			}
			seen[checked.String()] = true
			f.log.DebugContext(ctx, "redirect", "from", where, "to", redactedURL(checked), "status", resp.StatusCode)
			u = checked
			continue
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			drainAndClose(resp.Body)
			release()
			return nil, nil, nil, &StatusError{URL: where, Code: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), f.now())}
		}
		return resp, u, release, nil
	}
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// drainAndClose reads a little of an unwanted body so the connection can be
// reused, without ever reading much of it.
func drainAndClose(body io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, body, 16<<10)
	_ = body.Close()
}
