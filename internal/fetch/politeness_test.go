package fetch

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/webgate/webgate/internal/extract"
	"testing"
	"time"
)

func TestFetchRobots(t *testing.T) {
	robots := map[string]struct {
		status int
		body   string
	}{
		"/rules/robots.txt": {200, "User-agent: *\nDisallow: /everyone-out\n\nUser-agent: webgate\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: otherbot\nDisallow: /\n"},
	}
	// Each sub-test gets its own server (origin), because robots.txt is
	// per origin.
	newSite := func(t *testing.T, status int, body string) (string, *counter) {
		srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				w.WriteHeader(status)
				_, _ = w.Write([]byte(body))
			case "/to-private":
				http.Redirect(w, r, "/private/x", http.StatusFound)
			default:
				_, _ = w.Write([]byte("page " + r.URL.Path))
			}
		}))
		return srv.URL, c
	}
	rules := robots["/rules/robots.txt"]
	tests := []struct {
		name   string
		status int
		body   string
		ignore bool
		path   string
		want   error
	}{
		{"allowed path", 200, rules.body, false, "/public", nil},
		{"our group disallows", 200, rules.body, false, "/private/secret", ErrRobots},
		{"allow overrides", 200, rules.body, false, "/private/ok/page", nil},
		{"star group does not apply when ours exists", 200, rules.body, false, "/everyone-out", nil},
		{"query matched", 200, "User-agent: *\nDisallow: /search?q=\n", false, "/search?q=x", ErrRobots},
		{"redirect into disallowed", 200, rules.body, false, "/to-private", ErrRobots},
		{"ignored", 200, rules.body, true, "/private/secret", nil},
		{"missing robots allows", 404, "", false, "/private/secret", nil},
		{"forbidden robots allows", 403, "User-agent: *\nDisallow: /", false, "/private/secret", nil},
		{"server error allows", 503, "User-agent: *\nDisallow: /", false, "/anything", nil},
		{"garbage robots allows", 200, "\x00\x01<html>not robots</html>", false, "/anything", nil},
		{"disallow all", 200, "User-agent: *\nDisallow: /\n", false, "/anything", ErrRobots},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, _ := newSite(t, tt.status, tt.body)
			f := newTestFetcher(t, func(o *Options) { o.IgnoreRobots = tt.ignore })
			_, err := f.Fetch(context.Background(), Request{URL: base + tt.path})
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Fetch() error = %v", err)
				}
				return
			}
			wantSentinel(t, err, tt.want)
		})
	}

	t.Run("cached per origin", func(t *testing.T) {
		base, c := newSite(t, 200, rules.body)
		f := newTestFetcher(t, func(o *Options) { o.CacheTTL = -1 })
		for _, p := range []string{"/a", "/b", "/c", "/private/x"} {
			_, _ = f.Fetch(context.Background(), Request{URL: base + p})
		}
		if n := c.get("/robots.txt"); n != 1 {
			t.Errorf("robots.txt fetched %d times, want 1", n)
		}
	})
	t.Run("transient failure not cached", func(t *testing.T) {
		base, c := newSite(t, 503, "")
		f := newTestFetcher(t, func(o *Options) { o.CacheTTL = -1 })
		for _, p := range []string{"/a", "/b"} {
			if _, err := f.Fetch(context.Background(), Request{URL: base + p}); err != nil {
				t.Fatal(err)
			}
		}
		if n := c.get("/robots.txt"); n != 2 {
			t.Errorf("robots.txt fetched %d times, want 2", n)
		}
	})
}

func TestProductToken(t *testing.T) {
	for in, want := range map[string]string{
		"webgate/0.1 (+https://x)": "webgate",
		"MyBot":                    "MyBot",
		"":                         "webgate",
		"  curl/8.0":               "curl",
	} {
		if got := productToken(in); got != want {
			t.Errorf("productToken(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFetchCache(t *testing.T) {
	long := "# Long\n\n" + strings.Repeat("Paragraph of text. ", 200) + "\n"
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		_, _ = w.Write([]byte(long))
	}))
	f := newTestFetcher(t, nil)
	ctx := context.Background()
	u := srv.URL + "/doc"

	first, err := f.Fetch(ctx, Request{URL: u, MaxLength: 100})
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached || !first.Truncated || first.NextStartIndex != 100 || first.TotalLength != len([]rune(long)) {
		t.Fatalf("first = cached %v truncated %v next %d total %d", first.Cached, first.Truncated, first.NextStartIndex, first.TotalLength)
	}
	// Paging comes from the cached full content.
	var b strings.Builder
	b.WriteString(first.Content)
	next := first.NextStartIndex
	for next != 0 {
		r, err := f.Fetch(ctx, Request{URL: u, MaxLength: 1000, StartIndex: next})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Cached {
			t.Fatal("page not served from cache")
		}
		b.WriteString(r.Content)
		next = r.NextStartIndex
	}
	if b.String() != long {
		t.Error("pages do not reassemble the document")
	}
	if n := c.get("/doc"); n != 1 {
		t.Errorf("fetched %d times, want 1", n)
	}
	// Another format is another entry; NoCache bypasses.
	if r, err := f.Fetch(ctx, Request{URL: u, Format: "text"}); err != nil || r.Cached {
		t.Fatalf("text format: %v cached=%v", err, r != nil && r.Cached)
	}
	if r, err := f.Fetch(ctx, Request{URL: u, NoCache: true}); err != nil || r.Cached {
		t.Fatalf("no-cache: %v", err)
	}
	if n := c.get("/doc"); n != 3 {
		t.Errorf("fetched %d times, want 3", n)
	}
	// The cached entry was not modified by shaping.
	r, err := f.Fetch(ctx, Request{URL: u})
	if err != nil || r.Content != long || !r.Cached {
		t.Errorf("full cached content differs (cached=%v, err %v)", r != nil && r.Cached, err)
	}

	t.Run("disabled", func(t *testing.T) {
		f := newTestFetcher(t, func(o *Options) { o.CacheTTL = -1 })
		before := c.get("/doc")
		for range 2 {
			if r, err := f.Fetch(ctx, Request{URL: u}); err != nil || r.Cached {
				t.Fatal(err)
			}
		}
		if n := c.get("/doc") - before; n != 2 {
			t.Errorf("fetched %d times, want 2", n)
		}
	})
}

// TestFetchCacheStripHidden: a page fetched with its hidden content
// stripped (the content guard's fetches) and as served are two cache
// entries, in either order: neither is answered with the other's text.
func TestFetchCacheStripHidden(t *testing.T) {
	page := strings.Replace(articleHTML, "<p>A second paragraph",
		`<p>Planted text follows. <span style="font-size:0">PLANTED-FOR-THE-MODEL</span></p><p>A second paragraph`, 1)
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	ctx := context.Background()
	for path, order := range map[string][]bool{"/stripped-first": {true, false}, "/plain-first": {false, true}} {
		f := newTestFetcher(t, nil)
		u := srv.URL + path
		for round := range 2 {
			for _, strip := range order {
				r, err := f.Fetch(ctx, Request{URL: u, StripHidden: strip})
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(r.Content, "PLANTED-FOR-THE-MODEL"); got == strip {
					t.Errorf("order %v, round %d, strip %v: planted text in content = %v (cached %v)", order, round, strip, got, r.Cached)
				}
				if r.Cached != (round == 1) {
					t.Errorf("order %v, round %d, strip %v: cached = %v", order, round, strip, r.Cached)
				}
			}
		}
		if n := c.get(path); n != 2 {
			t.Errorf("order %v: fetched %d times, want 2 (one per stripping)", order, n)
		}
	}
}

// fakeClock is a settable clock for the fetcher's f.now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestFetchCacheTTL checks the default lifetime of a cached page, 15
// minutes, on a fake clock: reused just before, fetched again at 15m.
func TestFetchCacheTTL(t *testing.T) {
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("page"))
	}))
	f := newTestFetcher(t, nil)
	if f.opts.CacheTTL != 15*time.Minute {
		t.Fatalf("default cache TTL %s, want 15m", f.opts.CacheTTL)
	}
	clock := &fakeClock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	f.now = clock.Now
	ctx := context.Background()
	u := srv.URL + "/p"
	steps := []struct {
		advance    time.Duration
		wantCached bool
	}{
		{0, false},
		{time.Minute, true},
		{13*time.Minute + 59*time.Second, true}, // 14m59s after the fetch
		{time.Second, false},                    // 15m: stale, fetched again
		{14 * time.Minute, true},                // fresh from the second fetch
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		r, err := f.Fetch(ctx, Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if r.Cached != st.wantCached {
			t.Fatalf("step %d: cached = %v, want %v", i, r.Cached, st.wantCached)
		}
	}
	if n := c.get("/p"); n != 2 {
		t.Errorf("fetched %d times, want 2", n)
	}
}

func TestFetchMarkdownAlternate(t *testing.T) {
	page := func(href string) string {
		return strings.Replace(articleHTML, "<title>", `<link rel="alternate" type="text/markdown" href="`+href+`"><title>`, 1)
	}
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/with-md":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(page("/with-md.md")))
		case "/with-md.md":
			w.Header().Set("Content-Type", "text/markdown")
			_, _ = w.Write([]byte("# From Markdown\n\nThe author's own markdown.\n"))
		case "/broken-md":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(page("/missing.md")))
		case "/html-md":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(page("/with-md")))
		case "/private-md":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(page("http://169.254.169.254/latest.md")))
		default:
			http.NotFound(w, r)
		}
	}))
	f := newTestFetcher(t, func(o *Options) { o.AllowPrivateNetworks = true })
	tests := []struct {
		path, format, contains string
		wantType               string
	}{
		{"/with-md", "", "The author's own markdown.", "text/markdown"},
		{"/with-md", "html", "Webgate fetches pages safely", "text/html"}, // only for markdown/text
		{"/broken-md", "", "Webgate fetches pages safely", "text/html"},
		{"/html-md", "", "Webgate fetches pages safely", "text/html"}, // alternate must be markdown
	}
	for _, tt := range tests {
		t.Run(tt.path+"/"+tt.format, func(t *testing.T) {
			r, err := f.Fetch(context.Background(), Request{URL: srv.URL + tt.path, Format: extract.Format(tt.format), NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(r.Content, tt.contains) || r.ContentType != tt.wantType {
				t.Errorf("content type %q, content:\n%s", r.ContentType, r.Content)
			}
			if r.Title != "The Test Article" || r.FinalURL != srv.URL+tt.path {
				t.Errorf("title %q final %q", r.Title, r.FinalURL)
			}
		})
	}
	t.Run("alternate obeys the address policy", func(t *testing.T) {
		f := newTestFetcher(t, func(o *Options) { o.AllowPrivateNetworks = false })
		f.allowDial = func(ap netip.AddrPort) bool { return ap.String() == strings.TrimPrefix(srv.URL, "http://") }
		r, err := f.Fetch(context.Background(), Request{URL: strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/private-md"})
		if err != nil {
			t.Fatal(err)
		}
		if r.ContentType != "text/html" {
			t.Errorf("private alternate used: %s", r.ContentType)
		}
	})
	if n := c.get("/missing.md"); n != 1 {
		t.Errorf("missing alternate requested %d times, want 1", n)
	}
}

func TestHostLimiter(t *testing.T) {
	const limit = 2
	var inFlight, maxSeen atomic.Int64
	arrived := make(chan struct{}, 16)
	release := make(chan struct{})
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		n := inFlight.Add(1)
		for {
			m := maxSeen.Load()
			if n <= m || maxSeen.CompareAndSwap(m, n) {
				break
			}
		}
		arrived <- struct{}{}
		<-release
		inFlight.Add(-1)
		_, _ = w.Write([]byte("ok"))
	}))
	f := newTestFetcher(t, func(o *Options) { o.PerHostConcurrency = limit; o.CacheTTL = -1 })
	// Warm robots.txt so it does not take a slot during the test.
	go func() { <-arrived; release <- struct{}{} }()
	if _, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/warm"}); err != nil {
		t.Fatal(err)
	}
	maxSeen.Store(0)

	var urls []string
	for i := range 5 {
		urls = append(urls, srv.URL+"/p"+string(rune('a'+i)))
	}
	wait := fetchConcurrently(t, f, urls...)
	// Let every request through, one at a time, as each arrives.
	for range 5 {
		<-arrived
		release <- struct{}{}
	}
	wait()
	if m := maxSeen.Load(); m > limit {
		t.Errorf("%d requests in flight at once, limit %d", m, limit)
	}
	if n := f.hosts.size(); n != 0 {
		t.Errorf("host limiter holds %d entries after all requests finished", n)
	}
}

func TestHostLimiterCanceled(t *testing.T) {
	l := newHostLimiter(1)
	rel, err := l.acquire(context.Background(), "h")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.acquire(ctx, "h"); err == nil {
		t.Fatal("acquire succeeded on a full, canceled slot")
	}
	rel()
	rel() // idempotent
	if l.size() != 0 {
		t.Fatalf("size = %d after release", l.size())
	}
}

// TestFetchSlowRobots checks that a robots.txt that never answers costs a
// third of the deadline and then counts as "allow", rather than failing the
// page.
func TestFetchSlowRobots(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			<-r.Context().Done()
			return
		}
		_, _ = w.Write([]byte("page"))
	}))
	f := newTestFetcher(t, func(o *Options) { o.Timeout = 6 * time.Second })
	r, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/p"})
	if err != nil {
		t.Fatalf("Fetch() error = %v", err)
	}
	if r.Content != "page" {
		t.Errorf("content %q", r.Content)
	}
}

// TestFetchBlobRewrite follows a GitHub and a GitLab "blob" page to the raw
// file end to end: the code hosts' names resolve to a loopback server
// through the fake DNS server, which sees the raw paths.
func TestFetchBlobRewrite(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Host+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("# Raw file\n\nfunc main() {}\n"))
	}))
	dns := newFakeDNS(t)
	lo := netip.MustParseAddr("127.0.0.1")
	for _, h := range []string{"github.com", "raw.githubusercontent.com", "gitlab.webgate.test"} {
		dns.set(h, lo)
	}
	f := newTestFetcher(t, func(o *Options) { o.resolver = dns.resolver(); o.IgnoreRobots = true })
	port := mustPort(t, srv.URL)
	tests := []struct{ in, final, path string }{
		{"http://github.com:" + port + "/o/r/blob/main/cmd/main.go", "http://raw.githubusercontent.com:" + port + "/o/r/main/cmd/main.go", "raw.githubusercontent.com:" + port + "/o/r/main/cmd/main.go"},
		{"http://gitlab.webgate.test:" + port + "/g/p/-/blob/v1/README.md", "http://gitlab.webgate.test:" + port + "/g/p/-/raw/v1/README.md", "gitlab.webgate.test:" + port + "/g/p/-/raw/v1/README.md"},
	}
	for _, tt := range tests {
		mu.Lock()
		seen = nil
		mu.Unlock()
		res, err := f.Fetch(context.Background(), Request{URL: tt.in})
		if err != nil {
			t.Fatal(err)
		}
		if res.URL != tt.in || res.FinalURL != tt.final || !strings.Contains(res.Content, "func main() {}") {
			t.Errorf("url %q final %q content %q", res.URL, res.FinalURL, res.Content)
		}
		mu.Lock()
		if len(seen) != 1 || seen[0] != tt.path {
			t.Errorf("server saw %v, want [%s]", seen, tt.path)
		}
		mu.Unlock()
	}
}
