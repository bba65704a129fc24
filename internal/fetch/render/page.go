package render

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webgate/webgate/internal/fetch"
)

// Readiness. A rendered page is taken when it has loaded, no request has
// been in flight and nothing on it has changed for quietFor, and it shows
// at least minText characters of text; or when nothing at all has
// happened for idleFor (a page with little text); or when the page time
// is up, with whatever it shows then. Requests open longer than
// longPoll (streams, long polling) do not hold it up.
const (
	pollEvery = 50 * time.Millisecond
	quietFor  = 300 * time.Millisecond
	idleFor   = 3 * time.Second
	minText   = 200
	longPoll  = 5 * time.Second
	// maxNavigations caps the top-level navigations a page's scripts may
	// make after the first document (a redirect by script, a router that
	// reloads); further ones are refused and the page stays where it is.
	maxNavigations = 5
	// evalTimeout bounds one DevTools evaluation: a page stuck in a loop
	// does not answer.
	evalTimeout = 2 * time.Second
)

// errCrashed is the cause of a page whose renderer process crashed.
var errCrashed = errors.New("the page's renderer crashed (out of memory?)")

// pageRun is the state of one page being rendered.
type pageRun struct {
	r         *Renderer
	ctx       context.Context // the tab's, ends with the page
	t         *chromedp.Target
	mainFrame cdp.FrameID
	ua        string // the user agent the tab was opened with
	block     []network.ResourceType

	paused   chan *cdpfetch.EventRequestPaused
	dialogs  chan struct{}
	handlers sync.WaitGroup

	requests atomic.Int32 // sub-requests seen
	blocked  atomic.Int32 // refused by type, count or navigation rules
	navs     atomic.Int32 // top-level documents requested
	status   atomic.Int32 // status of the last document served
	dropped  atomic.Int32 // paused requests that found the queue full

	mu         sync.Mutex
	req        fetch.RenderRequest // set when the tab is given its page
	inflight   map[network.RequestID]time.Time
	lastNet    time.Time
	loaded     bool
	redirected map[string]*fetch.Document // navigation targets fetched after a redirect
}

// tab is a fresh browser context with one blank tab, its own proxy and
// its event handlers, ready for one page. Tabs are opened ahead of need
// (see browser.spareTab): opening one costs more than loading most pages.
type tab struct {
	px     *pageProxy
	pg     *pageRun
	cancel context.CancelCauseFunc // ends the page: handlers stop, commands fail
	closeT context.CancelFunc      // closes the tab and disposes of its context
}

// openTab opens a tab in b. It lives until close, or until b stops.
func (r *Renderer) openTab(b *browser) (_ *tab, err error) {
	px, err := newPageProxy(r.opts.MaxBytes, r.opts.MaxRequests, r.log)
	if err != nil {
		return nil, fmt.Errorf("page proxy: %w", err)
	}
	tabCtx, closeTab := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
		p.ProxyServer = "http://" + px.addr()
		p.ProxyBypassList = "<-loopback>"
	}))
	runCtx, cancelRun := context.WithCancelCause(tabCtx)
	tb := &tab{px: px, cancel: cancelRun, closeT: closeTab}
	defer func() {
		if err != nil {
			tb.close()
		}
	}()
	octx, ocancel := context.WithTimeout(runCtx, startTimeout)
	defer ocancel()
	// The first Run creates the browser context and the tab and attaches.
	if err := chromedp.Do(runCtx); err != nil {
		return nil, fmt.Errorf("opening a tab: %w", causeOf(runCtx, err))
	}
	c := chromedp.FromContext(runCtx)
	pg := &pageRun{
		r: r, ctx: runCtx, t: c.Target, mainFrame: cdp.FrameID(c.Target.TargetID),
		block:    blockedTypes(r.opts.Block),
		paused:   make(chan *cdpfetch.EventRequestPaused, 1024),
		dialogs:  make(chan struct{}, 16),
		inflight: make(map[network.RequestID]time.Time), lastNet: time.Now(),
		redirected: make(map[string]*fetch.Document),
	}
	tb.pg = pg
	if ua, _ := r.userAgent.Load().(string); ua != "" {
		if _, err := cdp.Call(octx, pg.t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua}); err != nil {
			return nil, fmt.Errorf("preparing the tab: %w", causeOf(runCtx, err))
		}
		pg.ua = ua
	}
	if err := chromedp.Listen(runCtx, func(ev any) { pg.onEvent(ev, cancelRun) }); err != nil {
		return nil, err
	}
	pg.handlers.Add(2)
	go pg.dispatch()
	go pg.dismissDialogs()
	// Nothing the page offers is saved anywhere.
	if _, err := cdp.Call(octx, c.Browser, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID}); err != nil {
		return nil, fmt.Errorf("preparing the tab: %w", causeOf(runCtx, err))
	}
	// Every request of the page pauses here first (see decide).
	if _, err := cdp.Call(octx, pg.t, cdpfetch.Enable, cdpfetch.EnableParams{Patterns: []*cdpfetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		return nil, fmt.Errorf("preparing the tab: %w", causeOf(runCtx, err))
	}
	return tb, nil
}

// close ends the page, closes the tab and its browser context, and stops
// the proxy and every connection it holds.
func (tb *tab) close() {
	tb.cancel(nil)
	if tb.pg != nil {
		tb.pg.handlers.Wait()
	}
	tb.closeT()
	tb.px.close()
}

// renderPage renders one page in a fresh tab of b. The tab is closed in
// the returned cleanup, which the caller runs after answering.
func (r *Renderer) renderPage(ctx context.Context, b *browser, req fetch.RenderRequest) (*fetch.Rendered, func(), error) {
	tb, err := b.takeTab(ctx, r)
	if err != nil {
		return nil, func() {}, err
	}
	cleanup := tb.close
	res, err := r.load(ctx, tb, req)
	return res, cleanup, err
}

// load loads req in tb and takes the rendered page.
func (r *Renderer) load(ctx context.Context, tb *tab, req fetch.RenderRequest) (*fetch.Rendered, error) {
	pg, px, runCtx := tb.pg, tb.px, tb.pg.ctx
	stop := context.AfterFunc(ctx, func() { tb.cancel(context.Cause(ctx)) })
	defer stop()
	px.setDial(req.Dial)
	pg.setRequest(req)
	if pg.ua != req.UserAgent {
		if _, err := cdp.Call(runCtx, pg.t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: req.UserAgent}); err != nil {
			return nil, fmt.Errorf("preparing the tab: %w", causeOf(runCtx, err))
		}
	}
	nav, err := cdp.Call(runCtx, pg.t, page.Navigate, page.NavigateParams{URL: req.URL.String()})
	if err != nil {
		return nil, fmt.Errorf("loading the page: %w", causeOf(runCtx, err))
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("loading the page: %s", nav.ErrorText)
	}

	busy := pg.wait(r.pageDeadline(ctx))
	if err := context.Cause(runCtx); err != nil {
		return nil, causeOf(runCtx, err)
	}
	html, href, err := pg.snapshot(busy)
	if err != nil {
		return nil, causeOf(runCtx, err)
	}
	if strings.HasPrefix(href, "chrome-error:") {
		return nil, errors.New("the browser could not load the page")
	}
	return &fetch.Rendered{
		URL: href, Status: int(pg.status.Load()), HTML: []byte(html),
		Requests: int(pg.requests.Load()), Blocked: int(pg.blocked.Load() + px.refused.Load() + pg.dropped.Load()),
		Bytes: px.bytes.Load(),
	}, nil
}

// setRequest gives the tab its page.
func (pg *pageRun) setRequest(req fetch.RenderRequest) {
	pg.mu.Lock()
	pg.req = req
	pg.lastNet = time.Now()
	pg.mu.Unlock()
}

func (pg *pageRun) request() fetch.RenderRequest {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.req
}

// pageDeadline is when the page must be taken: after the page time, and
// early enough in the fetch's own time to leave room for extraction.
func (r *Renderer) pageDeadline(ctx context.Context) time.Time {
	now := time.Now()
	d := now.Add(r.opts.PageTimeout)
	if fd, ok := ctx.Deadline(); ok {
		left := fd.Sub(now)
		if latest := now.Add(left - max(time.Second, left/5)); latest.Before(d) {
			d = latest
		}
	}
	return d
}

// causeOf prefers the reason the page's context ended (a crash, the
// caller's deadline) over the error a command returned because of it.
func causeOf(ctx context.Context, err error) error {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		return c
	}
	return err
}

// onEvent runs on chromedp's reading goroutine: it must not block or call
// the browser, so work goes to the handlers through channels.
func (pg *pageRun) onEvent(ev any, cancel context.CancelCauseFunc) {
	switch ev := ev.(type) {
	case *cdpfetch.EventRequestPaused:
		select {
		case pg.paused <- ev:
		default:
			// The page floods requests faster than they are decided; this
			// one stays paused until the tab closes.
			pg.dropped.Add(1)
		}
	case *page.EventJavascriptDialogOpening:
		select {
		case pg.dialogs <- struct{}{}:
		default:
		}
	case *network.EventRequestWillBeSent:
		if ev.Type == network.ResourceTypeWebSocket || ev.Type == network.ResourceTypeEventSource {
			return
		}
		pg.mu.Lock()
		pg.inflight[ev.RequestID] = time.Now()
		pg.lastNet = time.Now()
		pg.mu.Unlock()
	case *network.EventLoadingFinished:
		pg.settle(ev.RequestID)
	case *network.EventLoadingFailed:
		pg.settle(ev.RequestID)
	case *page.EventLoadEventFired:
		pg.mu.Lock()
		pg.loaded = true
		pg.mu.Unlock()
	case *inspector.EventTargetCrashed:
		cancel(errCrashed)
	}
}

func (pg *pageRun) settle(id network.RequestID) {
	pg.mu.Lock()
	delete(pg.inflight, id)
	pg.lastNet = time.Now()
	pg.mu.Unlock()
}

// dispatch decides paused requests, a few at a time: a navigation waits
// for the fetcher, and the others must not wait behind it.
func (pg *pageRun) dispatch() {
	defer pg.handlers.Done()
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		select {
		case <-pg.ctx.Done():
			return
		case ev := <-pg.paused:
			select {
			case sem <- struct{}{}:
			case <-pg.ctx.Done():
				return
			}
			wg.Go(func() {
				defer func() { <-sem }()
				pg.decide(ev)
			})
		}
	}
}

// dismissDialogs answers alert, confirm, prompt and beforeunload dialogs
// with "cancel", so no dialog stops the page's scripts.
func (pg *pageRun) dismissDialogs() {
	defer pg.handlers.Done()
	for {
		select {
		case <-pg.ctx.Done():
			return
		case <-pg.dialogs:
			_, _ = cdp.Call(pg.ctx, pg.t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}
}

// decide answers one paused request: the page's own document is served
// from what the fetcher downloaded; a later top-level navigation is
// fetched by the fetcher with every check of a fetch; a sub-request of a
// blocked kind, or over the page's request budget, fails; anything else
// continues, to the page's proxy and through the guard.
func (pg *pageRun) decide(ev *cdpfetch.EventRequestPaused) {
	ctx := pg.ctx
	if ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == pg.mainFrame {
		pg.navigation(ev)
		return
	}
	n := int(pg.requests.Add(1))
	if slices.Contains(pg.block, ev.ResourceType) || n > pg.r.opts.MaxRequests {
		pg.blocked.Add(1)
		_, _ = cdp.Call(ctx, pg.t, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		return
	}
	_, _ = cdp.Call(ctx, pg.t, cdpfetch.ContinueRequest, cdpfetch.ContinueRequestParams{RequestID: ev.RequestID})
}

// navigation serves a top-level document.
func (pg *pageRun) navigation(ev *cdpfetch.EventRequestPaused) {
	n := pg.navs.Add(1)
	u, err := url.Parse(ev.Request.URL)
	if err != nil {
		pg.stay(ev)
		return
	}
	u.Fragment = ""
	req := pg.request()
	if n == 1 {
		pg.serve(ev, &req.Document)
		return
	}
	pg.mu.Lock()
	doc := pg.redirected[u.String()]
	delete(pg.redirected, u.String())
	pg.mu.Unlock()
	if doc != nil {
		pg.serve(ev, doc)
		return
	}
	if n-1 > maxNavigations || ev.Request.Method != "GET" {
		pg.stay(ev)
		return
	}
	if req.Navigate == nil {
		pg.stay(ev)
		return
	}
	doc, err = req.Navigate(pg.ctx, u)
	if err != nil {
		pg.r.log.Debug("rendered page: navigation refused", "url", u.Redacted(), "err", err)
		pg.stay(ev)
		return
	}
	if doc.URL != nil && doc.URL.String() != u.String() {
		// The fetcher followed redirects: let the browser see the final
		// address, then serve it the document already fetched.
		pg.mu.Lock()
		pg.redirected[doc.URL.String()] = doc
		pg.mu.Unlock()
		pg.navs.Add(-1)
		_, _ = cdp.Call(pg.ctx, pg.t, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{
			RequestID: ev.RequestID, ResponseCode: 302,
			ResponseHeaders: []*cdpfetch.HeaderEntry{{Name: "Location", Value: doc.URL.String()}},
		})
		return
	}
	pg.serve(ev, doc)
}

// serve answers a top-level document request with doc.
func (pg *pageRun) serve(ev *cdpfetch.EventRequestPaused, doc *fetch.Document) {
	status := doc.Status
	if status < 200 || status > 299 {
		status = 200
	}
	pg.status.Store(int32(doc.Status))
	_, _ = cdp.Call(pg.ctx, pg.t, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{
		RequestID: ev.RequestID, ResponseCode: int64(status),
		ResponseHeaders: []*cdpfetch.HeaderEntry{{Name: "Content-Type", Value: "text/html; charset=utf-8"}},
		Body:            doc.Body,
	})
}

// stay refuses a navigation so that the page stays where it is: a 204
// answer commits nothing, whereas a failed request would replace the page
// with an error page.
func (pg *pageRun) stay(ev *cdpfetch.EventRequestPaused) {
	pg.blocked.Add(1)
	_, _ = cdp.Call(pg.ctx, pg.t, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: 204})
}

// state is what the page shows, polled to see when it settles.
type state struct {
	Ready    string `json:"r"`
	Href     string `json:"h"`
	Text     int    `json:"t"`
	Elements int    `json:"e"`
}

const stateJS = `(() => { const b = document.body; return {r: document.readyState, h: location.href, t: b ? b.innerText.length : 0, e: document.getElementsByTagName('*').length}; })()`

// wait returns when the page is ready (see the constants) or at
// deadline. busy reports that the page's scripts were still running
// without a pause when it gave up.
func (pg *pageRun) wait(deadline time.Time) (busy bool) {
	var last state
	changed := time.Now()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-pg.ctx.Done():
			return false
		case <-tick.C:
		}
		now := time.Now()
		if !now.Before(deadline) {
			return busy
		}
		ectx, cancel := context.WithTimeout(pg.ctx, evalTimeout)
		st, err := chromedp.Run(ectx, chromedp.Evaluate[state](stateJS))
		cancel()
		if err != nil {
			// A page in a busy loop does not answer; one navigating
			// has no context for a moment. Either way it is not settled.
			busy = pg.ctx.Err() == nil
			changed = time.Now()
			continue
		}
		busy = false
		if st != last {
			last, changed = st, now
		}
		pg.mu.Lock()
		open := 0
		for _, since := range pg.inflight {
			if now.Sub(since) < longPoll {
				open++
			}
		}
		loaded, lastNet := pg.loaded, pg.lastNet
		pg.mu.Unlock()
		quiet := now.Sub(later(changed, lastNet))
		if open > 0 || (!loaded && st.Ready != "complete") {
			if quiet < idleFor || open > 0 {
				continue
			}
		}
		if (st.Text >= minText && quiet >= quietFor) || quiet >= idleFor {
			return false
		}
	}
}

// snapshotJS serialises the DOM, refusing one larger than the page's
// byte budget.
const snapshotJS = `(() => { const d = document.documentElement; if (!d) return {h: "", u: location.href}; const h = d.outerHTML; if (h.length > %d) return {n: h.length, u: location.href}; return {h: "<!doctype html>" + h, u: location.href}; })()`

type snapshot struct {
	HTML string `json:"h"`
	URL  string `json:"u"`
	Size int    `json:"n"`
}

// snapshot freezes the page (its scripts stop) and returns its DOM and
// address.
func (pg *pageRun) snapshot(busy bool) (html, href string, err error) {
	ctx, cancel := context.WithTimeout(pg.ctx, 10*time.Second)
	defer cancel()
	_, _ = cdp.Call(ctx, pg.t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	if busy {
		// Interrupt the loop the page is stuck in.
		_, _ = cdp.Call(ctx, pg.t, runtime.TerminateExecution, cdp.Empty{})
	}
	var s snapshot
	for range 3 {
		s, err = chromedp.Run(ctx, chromedp.Evaluate[snapshot](fmt.Sprintf(snapshotJS, pg.r.opts.MaxBytes)))
		if err == nil || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return "", "", fmt.Errorf("reading the rendered page: %w", err)
	}
	if s.Size > 0 {
		return "", "", fmt.Errorf("%w: the rendered page is %d characters, over fetch.browser.max_bytes (%d)", fetch.ErrTooLarge, s.Size, pg.r.opts.MaxBytes)
	}
	return s.HTML, s.URL, nil
}

// blockedTypes maps fetch.browser.block to DevTools resource types.
func blockedTypes(kinds []string) []network.ResourceType {
	var out []network.ResourceType
	for _, k := range kinds {
		switch k {
		case "image":
			out = append(out, network.ResourceTypeImage)
		case "font":
			out = append(out, network.ResourceTypeFont)
		case "media":
			out = append(out, network.ResourceTypeMedia)
		case "stylesheet":
			out = append(out, network.ResourceTypeStylesheet)
		}
	}
	return out
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
