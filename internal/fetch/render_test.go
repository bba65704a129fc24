package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// fakeRenderer "renders" a page by returning fixed HTML, and records
// what it was asked.
type fakeRenderer struct {
	unavailable error
	html        string
	err         error

	mu   sync.Mutex
	urls []string
}

func (r *fakeRenderer) Available() error { return r.unavailable }
func (r *fakeRenderer) Close() error     { return nil }

func (r *fakeRenderer) Render(ctx context.Context, req RenderRequest) (*Rendered, error) {
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.String())
	r.mu.Unlock()
	if req.Dial == nil || req.Navigate == nil || len(req.Document.Body) == 0 {
		return nil, fmt.Errorf("incomplete request %+v", req)
	}
	if r.err != nil {
		return nil, r.err
	}
	return &Rendered{URL: req.URL.String(), Status: 200, HTML: []byte(r.html)}, nil
}

func (r *fakeRenderer) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

const shellHTML = `<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`

const renderedHTML = `<!doctype html><html><head><title>App</title></head><body><div id="root"><article><h1>Rendered</h1>
<p>This text exists only once the application's scripts have run in a browser, which the fake renderer pretends to have done.</p>
<p>A second paragraph makes the article long enough for the extractor to take it as the page's content.</p></article></div></body></html>`

func renderServer(t *testing.T) string {
	t.Helper()
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/static":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, articleHTML)
		case "/shell", "/app":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, shellHTML)
		case "/shell-md":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, strings.Replace(shellHTML, "</head>", `<link rel="alternate" type="text/markdown" href="/shell.md"></head>`, 1))
		case "/shell.md":
			w.Header().Set("Content-Type", "text/markdown")
			fmt.Fprint(w, "# Shell docs\n\nThe Markdown version of the application's page.\n")
		case "/data.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a":1}`)
		default:
			http.NotFound(w, r)
		}
	}))
	return srv.URL
}

// TestRenderModes: which pages reach the renderer in each mode, and what
// the result says.
func TestRenderModes(t *testing.T) {
	base := renderServer(t)
	for _, tc := range []struct {
		name       string
		configured RenderMode
		mode       RenderMode
		path       string
		unavail    error
		rendered   bool  // want a rendered result
		want       error // or this sentinel
		msg        string
	}{
		{name: "auto static", path: "/static"},
		{name: "auto shell", path: "/shell", rendered: true},
		{name: "default is auto", mode: RenderDefault, path: "/shell", rendered: true},
		{name: "configured always", configured: RenderAlways, path: "/static", rendered: true},
		{name: "always static", mode: RenderAlways, path: "/static", rendered: true},
		{name: "always json is not rendered", mode: RenderAlways, path: "/data.json"},
		{name: "never shell", mode: RenderNever, path: "/shell", want: ErrBadContent, msg: "JavaScript"},
		{name: "configured never caps auto", configured: RenderNever, mode: RenderAuto, path: "/shell", want: ErrBadContent},
		{name: "configured never refuses always", configured: RenderNever, mode: RenderAlways, path: "/static", want: ErrRender, msg: "fetch.render: never"},
		{name: "auto shell without browser", path: "/shell", unavail: errors.New("no browser found: apt-get install chromium"), want: ErrBadContent, msg: "apt-get install chromium"},
		{name: "always without browser", mode: RenderAlways, path: "/static", unavail: errors.New("no browser found: apt-get install chromium"), want: ErrRender, msg: "apt-get install chromium"},
		{name: "markdown alternate before a browser", path: "/shell-md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &fakeRenderer{html: renderedHTML, unavailable: tc.unavail}
			f := newTestFetcher(t, func(o *Options) { o.Renderer, o.Render = r, tc.configured })
			res, err := f.Fetch(context.Background(), Request{URL: base + tc.path, Render: tc.mode})
			if tc.want != nil {
				wantSentinel(t, err, tc.want)
				if !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("error %q does not say %q", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Rendered != tc.rendered || (len(r.calls()) > 0) != tc.rendered {
				t.Errorf("rendered=%v, renderer calls %v; want rendered=%v", res.Rendered, r.calls(), tc.rendered)
			}
			if tc.rendered && !strings.Contains(res.Content, "only once the application's scripts have run") {
				t.Errorf("content is not the rendered page's:\n%s", res.Content)
			}
		})
	}
}

// TestRenderFailures: a renderer's own error is render_failed; a page
// still empty after rendering is bad_content and says so.
func TestRenderFailures(t *testing.T) {
	base := renderServer(t)
	f := newTestFetcher(t, func(o *Options) { o.Renderer = &fakeRenderer{err: errors.New("the browser stopped")} })
	_, err := f.Fetch(context.Background(), Request{URL: base + "/shell"})
	wantSentinel(t, err, ErrRender)
	if ErrorType(err) != "render_failed" {
		t.Errorf("type %q", ErrorType(err))
	}
	f = newTestFetcher(t, func(o *Options) { o.Renderer = &fakeRenderer{html: shellHTML} })
	_, err = f.Fetch(context.Background(), Request{URL: base + "/shell"})
	wantSentinel(t, err, ErrBadContent)
	if !strings.Contains(err.Error(), "even after rendering") {
		t.Errorf("error %q", err)
	}
	_, err = f.Fetch(context.Background(), Request{URL: base + "/shell", Render: "sometimes"})
	wantSentinel(t, err, ErrInvalidRequest)
}

// TestRenderCacheKeys: a rendered page is cached per mode and per
// client-side route, while plain anchors share the page's entry.
func TestRenderCacheKeys(t *testing.T) {
	base := renderServer(t)
	r := &fakeRenderer{html: renderedHTML}
	f := newTestFetcher(t, func(o *Options) { o.Renderer, o.CacheTTL, o.CacheSize = r, 0, 0 })
	get := func(u string, m RenderMode) *Result {
		t.Helper()
		res, err := f.Fetch(context.Background(), Request{URL: u, Render: m})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	get(base+"/app#/docs/a", RenderAuto)
	if res := get(base+"/app#/docs/a", RenderAuto); !res.Cached {
		t.Error("the same route was not served from the cache")
	}
	if res := get(base+"/app#/docs/b", RenderAuto); res.Cached {
		t.Error("another route was served from the first route's entry")
	}
	get(base+"/static#intro", RenderAuto)
	if res := get(base+"/static#details", RenderAuto); !res.Cached {
		t.Error("a plain anchor did not share the page's entry")
	}
	if res := get(base+"/static", RenderAlways); res.Cached || !res.Rendered {
		t.Errorf("always was served the auto entry (cached=%v rendered=%v)", res.Cached, res.Rendered)
	}
	calls := r.calls()
	if len(calls) != 3 || !strings.HasSuffix(calls[0], "/app#/docs/a") || !strings.HasSuffix(calls[1], "/app#/docs/b") {
		t.Errorf("renderer calls %v", calls)
	}
}
