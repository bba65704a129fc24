package render_test

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/fetch/render"
)

// TestSinglePageApps renders local single-page applications, each a page
// whose HTML has no text, and checks the extracted article.
func TestSinglePageApps(t *testing.T) {
	srv := newAppServer(t)
	f, _ := newFetcher(t, nil, nil)
	for _, tc := range []struct {
		name     string
		path     string
		want     []string
		notWant  []string
		finalEnd string
	}{
		{name: "data by XHR and fetch", path: "/xhr.html", want: []string{"Rendered Article", "MARKER-XHR-ONE", "MARKER-FETCH-TWO"}},
		{name: "hash route", path: "/hash.html#/second", want: []string{"MARKER-ROUTE-SECOND"}, notWant: []string{"MARKER-ROUTE-FIRST"}},
		{name: "default route", path: "/hash.html", want: []string{"MARKER-ROUTE-FIRST"}},
		{name: "content after a delay", path: "/delay.html", want: []string{"MARKER-XHR-ONE"}},
		{name: "navigates away", path: "/navigate.html", want: []string{"MARKER-ROUTE-SECOND"}, finalEnd: "/landing.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + tc.path})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Rendered {
				t.Error("result not marked rendered")
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Content, w) {
					t.Errorf("content lacks %q:\n%s", w, res.Content)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(res.Content, w) {
					t.Errorf("content has %q:\n%s", w, res.Content)
				}
			}
			if tc.finalEnd != "" && !strings.HasSuffix(res.FinalURL, tc.finalEnd) {
				t.Errorf("final_url = %q, want it to end in %q", res.FinalURL, tc.finalEnd)
			}
		})
	}
}

// TestEndlessPage renders a page that never settles: a request that
// never answers, a timer that changes it forever and, at the end, a
// script stuck in a loop. The page time passes, and the content the page
// shows by then is the answer.
func TestEndlessPage(t *testing.T) {
	srv := newAppServer(t)
	f, _ := newFetcher(t, func(o *render.Options) { o.PageTimeout = 6 * time.Second }, nil)
	res, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/endless.html", Format: extract.Text})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "MARKER-XHR-ONE") {
		t.Errorf("content lacks the article:\n%s", res.Content)
	}
}

// TestStaticPageStartsNoBrowser fetches an ordinary page in the default
// mode: it extracts without a browser, so none is started, and the
// result is not marked rendered. Then an application shell starts one.
func TestStaticPageStartsNoBrowser(t *testing.T) {
	srv := newAppServer(t)
	f, r := newFetcher(t, nil, nil)
	before := browserProcesses(t)
	res, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/static.html"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rendered || !strings.Contains(res.Content, "MARKER-STATIC") {
		t.Errorf("rendered=%v content=%q", res.Rendered, res.Content)
	}
	if r.Running() || browserProcesses(t) != before {
		t.Fatalf("a static page started a browser (running=%v, processes %d -> %d)", r.Running(), before, browserProcesses(t))
	}
	if _, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/xhr.html"}); err != nil {
		t.Fatal(err)
	}
	if !r.Running() || browserProcesses(t) <= before {
		t.Errorf("an application shell did not start the browser (running=%v, processes %d -> %d)", r.Running(), before, browserProcesses(t))
	}
}

// TestRenderModes checks always and never on both kinds of page.
func TestRenderModes(t *testing.T) {
	srv := newAppServer(t)
	f, _ := newFetcher(t, nil, nil)
	res, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/static.html", Render: fetch.RenderAlways})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Rendered || !strings.Contains(res.Content, "MARKER-STATIC") {
		t.Errorf("always on a static page: rendered=%v content=%q", res.Rendered, res.Content)
	}
	_, err = f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/xhr.html", Render: fetch.RenderNever})
	if !errors.Is(err, fetch.ErrBadContent) || !strings.Contains(err.Error(), "JavaScript") {
		t.Errorf("never on a shell: %v", err)
	}
}

// TestLimits renders with a tiny request budget and byte budget: the
// page's requests beyond them fail, and the page is still taken.
func TestLimits(t *testing.T) {
	srv := newAppServer(t)
	f, _ := newFetcher(t, func(o *render.Options) { o.MaxRequests = 1 }, nil)
	_, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/xhr.html"})
	// article.js is the one request allowed; the data never loads.
	if !errors.Is(err, fetch.ErrBadContent) {
		t.Errorf("max_requests 1: got %v, want a page without text", err)
	}
	if n := srv.count("/api/article.json"); n != 0 {
		t.Errorf("the data was requested %d times past the request budget", n)
	}
}

// TestRestart: the browser is replaced after restart_after pages, and
// after it dies (killed here as the kernel's OOM killer would), the next
// page starts a new one and renders.
func TestRestart(t *testing.T) {
	srv := newAppServer(t)
	f, r := newFetcher(t, func(o *render.Options) { o.RestartAfter = 2 }, nil)
	get := func() {
		t.Helper()
		res, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/xhr.html", NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Content, "MARKER-XHR-ONE") {
			t.Fatalf("content:\n%s", res.Content)
		}
	}
	get()
	first := r.Pid()
	get()
	if r.Pid() != first {
		t.Fatalf("restarted before restart_after pages")
	}
	get()
	second := r.Pid()
	if second == first || second == 0 {
		t.Fatalf("not restarted after restart_after pages (pid %d then %d)", first, second)
	}
	if err := syscall.Kill(second, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for r.Running() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	get()
	if third := r.Pid(); third == second || third == 0 {
		t.Errorf("no new browser after a crash (pid %d then %d)", second, third)
	}
}
