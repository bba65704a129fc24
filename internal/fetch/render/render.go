// Package render renders web pages in headless Chromium for the fetcher,
// for pages that build their content with JavaScript. It implements
// fetch.Renderer.
//
// It drives Debian's chromium through the DevTools protocol with chromedp
// (over a pipe: no debugging port is opened). Safety rests on three
// things:
//
//   - Every connection a page makes goes through a per-page HTTP proxy in
//     this process that dials only through the fetcher's guarded dialer
//     (see pageProxy). The proxy is set on the page's own browser context,
//     with loopback included (Chromium otherwise bypasses proxies for
//     localhost); the browser resolves no names itself; QUIC is off and
//     WebRTC may not send UDP that does not go through the proxy.
//   - Each page gets a fresh, off-the-record browser context (no cookies,
//     storage or cache survive it), downloads denied, permission prompts
//     denied, dialogs dismissed, and is closed with its context.
//   - Limits: one browser process with a bounded number of tabs, a page
//     time, a byte and a request budget per page, images, fonts and media
//     refused, and a restart after a number of pages or a crash.
package render

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/sync/semaphore"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/fetch"
)

// Options configures a Renderer; zero values take the configuration
// file's defaults, read from config.Default() (see docs/configuration.md
// for their values).
type Options struct {
	// Path is the browser executable; "" searches PATH (see browserNames).
	Path string
	// MaxTabs caps the pages rendered at once.
	MaxTabs int
	// RestartAfter restarts the browser after this many pages.
	RestartAfter int
	// IdleTimeout stops an unused browser; negative never does.
	IdleTimeout time.Duration
	// PageTimeout bounds one page's loading and scripts.
	PageTimeout time.Duration
	// MaxBytes caps one page's sub-request traffic, and its serialised
	// DOM.
	MaxBytes int64
	// MaxRequests caps one page's sub-requests.
	MaxRequests int
	// Block lists refused resource kinds: image, font, media, stylesheet.
	// nil means the configuration's default; empty blocks nothing.
	Block []string
	// NoSandbox runs Chromium without its sandbox (always when root).
	NoSandbox bool
	// Logger receives debug and warning logs; nil discards them.
	Logger *slog.Logger
	// OnRender, when set, is told the outcome ("ok", "error", "timeout",
	// "canceled") and duration of every render, for metrics.
	OnRender func(outcome string, took time.Duration)
	// OnStart, when set, is told each time a browser process starts.
	OnStart func()
}

// OptionsFromConfig copies fetch.browser from the configuration.
func OptionsFromConfig(c config.Browser) Options {
	return Options{
		Path: c.Path, MaxTabs: c.MaxTabs, RestartAfter: c.RestartAfter, IdleTimeout: c.IdleTimeout,
		PageTimeout: c.PageTimeout, MaxBytes: c.MaxBytes, MaxRequests: c.MaxRequests, Block: c.Block,
		NoSandbox: c.NoSandbox,
	}
}

// applyDefaults fills unset values from config.Default(), the one place
// the defaults are written.
func (o *Options) applyDefaults() {
	d := OptionsFromConfig(config.Default().Fetch.Browser)
	if o.MaxTabs <= 0 {
		o.MaxTabs = d.MaxTabs
	}
	if o.RestartAfter <= 0 {
		o.RestartAfter = d.RestartAfter
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = d.IdleTimeout
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = d.PageTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = d.MaxBytes
	}
	if o.MaxRequests <= 0 {
		o.MaxRequests = d.MaxRequests
	}
	if o.Block == nil {
		o.Block = d.Block
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// browserNames are the executables looked for on PATH, in order.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// ErrClosed is returned by Render after Close.
var ErrClosed = errors.New("renderer closed")

// Renderer renders pages in one headless Chromium process, started on
// the first page that needs it. It is safe for concurrent use.
type Renderer struct {
	opts Options
	log  *slog.Logger
	// tabs bounds the pages in the browser at once. A restart takes every
	// tab, so no page runs in a browser being replaced and there is never
	// more than one browser process.
	tabs *semaphore.Weighted

	pathMu sync.Mutex
	path   string // the executable, once found

	// userAgent is the last page's, which tabs opened ahead are given.
	userAgent atomic.Value

	mu     sync.Mutex
	b      *browser
	idle   *time.Timer
	closed bool
}

var _ fetch.Renderer = (*Renderer)(nil)

// New returns a Renderer; it starts nothing.
func New(opts Options) *Renderer {
	opts.applyDefaults()
	return &Renderer{opts: opts, log: opts.Logger, tabs: semaphore.NewWeighted(int64(opts.MaxTabs))}
}

// Available reports whether a browser executable can be found. A browser
// installed while webgate runs is found on the next call.
func (r *Renderer) Available() error {
	_, err := r.executable()
	return err
}

func (r *Renderer) executable() (string, error) {
	r.pathMu.Lock()
	defer r.pathMu.Unlock()
	if r.path != "" {
		return r.path, nil
	}
	if r.opts.Path != "" {
		p, err := exec.LookPath(r.opts.Path)
		if err != nil {
			return "", fmt.Errorf("fetch.browser.path %q is not an executable: %w", r.opts.Path, err)
		}
		r.path = p
		return p, nil
	}
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			r.path = p
			return p, nil
		}
	}
	return "", fmt.Errorf("no browser found (looked for %s on PATH): install Chromium (Debian/Ubuntu: apt-get install chromium) or set fetch.browser.path",
		strings.Join(browserNames, ", "))
}

// Render implements fetch.Renderer.
func (r *Renderer) Render(ctx context.Context, req fetch.RenderRequest) (res *fetch.Rendered, err error) {
	start := time.Now()
	defer func() {
		if r.opts.OnRender != nil {
			r.opts.OnRender(outcome(ctx, err), time.Since(start))
		}
	}()
	r.userAgent.Store(req.UserAgent)
	b, release, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	res, cleanup, err := r.renderPage(ctx, b, req)
	// The tab is closed after the answer, not before it; its slot is
	// freed only once it is closed, so tabs stay bounded.
	go func() {
		cleanup()
		release()
	}()
	if err != nil && b.ctx.Err() != nil && ctx.Err() == nil {
		// The browser went away under the page: a crash, or the kernel
		// killing it for memory. The next page starts a new one.
		return nil, fmt.Errorf("the browser stopped while rendering the page (it is restarted for the next page): %w", err)
	}
	if res != nil {
		res.Took = time.Since(start)
	}
	return res, err
}

func outcome(ctx context.Context, err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(ctx.Err(), context.Canceled):
		return "canceled"
	case ctx.Err() != nil:
		return "timeout"
	}
	return "error"
}

// acquire takes a tab in a running browser, starting or restarting the
// browser when needed, and returns the release of the tab.
func (r *Renderer) acquire(ctx context.Context) (*browser, func(), error) {
	if err := r.tabs.Acquire(ctx, 1); err != nil {
		return nil, nil, err
	}
	held := int64(1)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		r.tabs.Release(held)
		return nil, nil, ErrClosed
	}
	if !r.b.usable(r.opts.RestartAfter) {
		// Start or restart: wait until no other page is in the browser.
		r.mu.Unlock()
		r.tabs.Release(held)
		all := int64(r.opts.MaxTabs)
		if err := r.tabs.Acquire(ctx, all); err != nil {
			return nil, nil, err
		}
		held = all
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			r.tabs.Release(held)
			return nil, nil, ErrClosed
		}
		if !r.b.usable(r.opts.RestartAfter) {
			if r.b != nil {
				r.log.Debug("restarting the browser", "pages", r.b.pages, "crashed", r.b.ctx.Err() != nil)
				r.b.close()
				r.b = nil
			}
			b, err := r.start(ctx)
			if err != nil {
				r.mu.Unlock()
				r.tabs.Release(held)
				return nil, nil, err
			}
			r.b = b
		}
	}
	b := r.b
	b.pages++
	b.active++
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
	r.mu.Unlock()
	if held > 1 {
		r.tabs.Release(held - 1)
	}
	var once sync.Once
	return b, func() {
		once.Do(func() {
			r.mu.Lock()
			b.active--
			if r.b == b && b.active == 0 && r.opts.IdleTimeout > 0 && !r.closed {
				r.idle = time.AfterFunc(r.opts.IdleTimeout, func() { r.stopIdle(b) })
			}
			r.mu.Unlock()
			r.tabs.Release(1)
		})
	}, nil
}

// stopIdle stops b if it is still the browser and still unused.
func (r *Renderer) stopIdle(b *browser) {
	r.mu.Lock()
	if r.b != b || b.active > 0 {
		r.mu.Unlock()
		return
	}
	r.b = nil
	r.mu.Unlock()
	r.log.Debug("stopping the idle browser", "pages", b.pages)
	b.close()
}

// Close stops the browser. Pages rendering fail; later ones get
// ErrClosed.
func (r *Renderer) Close() error {
	r.mu.Lock()
	r.closed = true
	b := r.b
	r.b = nil
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
	r.mu.Unlock()
	if b != nil {
		b.close()
	}
	return nil
}

// Running reports whether a browser process is running, for tests and
// the status view.
func (r *Renderer) Running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b != nil && r.b.ctx.Err() == nil
}

// Pid is the browser's process id, 0 when none runs.
func (r *Renderer) Pid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.b == nil || r.b.ctx.Err() != nil {
		return 0
	}
	if c := chromedp.FromContext(r.b.ctx); c != nil && c.Browser != nil {
		if p := c.Browser.Process(); p != nil {
			return p.Pid
		}
	}
	return 0
}

// browser is one Chromium process.
type browser struct {
	ctx    context.Context // the browser's chromedp context; done when it stops
	cancel context.CancelFunc
	alloc  context.CancelFunc
	sink   *sink
	pages  int // pages begun, guarded by Renderer.mu
	active int // pages in progress, guarded by Renderer.mu

	// One tab is kept open ahead of need, so a page does not wait for a
	// browser context and a tab to be made (most of a render's time on a
	// small machine). It is a fresh context that no page has used.
	spareMu   sync.Mutex
	spare     *tab
	preparing chan struct{} // closed when the spare being opened is ready or failed
	stopped   bool
	spareWG   sync.WaitGroup
}

// prepareSpare opens the spare tab in the background, if there is none.
func (b *browser) prepareSpare(r *Renderer) {
	b.spareMu.Lock()
	defer b.spareMu.Unlock()
	if b.spare != nil || b.preparing != nil || b.stopped {
		return
	}
	ready := make(chan struct{})
	b.preparing = ready
	b.spareWG.Go(func() {
		tb, err := r.openTab(b)
		b.spareMu.Lock()
		b.preparing = nil
		defer close(ready)
		keep := err == nil && !b.stopped && b.spare == nil
		if keep {
			b.spare = tb
		}
		b.spareMu.Unlock()
		if err != nil {
			r.log.Debug("opening a spare tab", "err", err)
		} else if !keep {
			tb.close()
		}
	})
}

// takeTab returns the spare tab, or opens one, and starts preparing the
// next spare.
func (b *browser) takeTab(ctx context.Context, r *Renderer) (*tab, error) {
	b.spareMu.Lock()
	tb, ready := b.spare, b.preparing
	b.spare = nil
	b.spareMu.Unlock()
	if tb == nil && ready != nil {
		// One is being opened, and will be ready sooner than a new one.
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		b.spareMu.Lock()
		tb = b.spare
		b.spare = nil
		b.spareMu.Unlock()
	}
	defer b.prepareSpare(r)
	if tb != nil {
		return tb, nil
	}
	type opened struct {
		tb  *tab
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		tb, err := r.openTab(b)
		ch <- opened{tb, err}
	}()
	select {
	case o := <-ch:
		return o.tb, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.err == nil {
				o.tb.close()
			}
		}()
		return nil, ctx.Err()
	}
}

// usable reports whether b can take another page.
func (b *browser) usable(restartAfter int) bool {
	return b != nil && b.ctx.Err() == nil && b.pages < restartAfter
}

// close stops the process and waits for it (chromedp kills it and removes
// its profile directory).
func (b *browser) close() {
	b.spareMu.Lock()
	b.stopped = true
	tb := b.spare
	b.spare = nil
	b.spareMu.Unlock()
	b.cancel()
	b.spareWG.Wait()
	if tb != nil {
		tb.close()
	}
	b.alloc()
	b.sink.close()
}

// startTimeout bounds how long a browser may take to start.
const startTimeout = 30 * time.Second

// start launches a browser. Its lifetime is its own, not the context of
// the page that happened to start it.
func (r *Renderer) start(ctx context.Context) (*browser, error) {
	path, err := r.executable()
	if err != nil {
		return nil, err
	}
	sk, err := newSink(r.log)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "webgate-chromium-")
	if err != nil {
		sk.close()
		return nil, fmt.Errorf("browser profile directory: %w", err)
	}
	opts := append(allocatorFlags(r.opts, sk.addr(), dir), chromedp.ExecPath(path))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(func(f string, a ...any) {
		r.log.Debug("chromedp: " + fmt.Sprintf(f, a...))
	}))
	b := &browser{ctx: bctx, cancel: bcancel, alloc: func() { acancel(); os.RemoveAll(dir) }, sink: sk}
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	t := time.NewTimer(startTimeout)
	defer t.Stop()
	select {
	case err = <-started:
	case <-t.C:
		err = fmt.Errorf("no answer within %s", startTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		b.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("starting the browser %s: %w", path, err)
	}
	r.log.Info("browser started", "path", path, "pid", pid(bctx))
	b.prepareSpare(r)
	if r.opts.OnStart != nil {
		r.opts.OnStart()
	}
	return b, nil
}

func pid(ctx context.Context) int {
	if c := chromedp.FromContext(ctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		return c.Browser.Process().Pid
	}
	return 0
}
