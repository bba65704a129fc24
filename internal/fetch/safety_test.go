package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFetchLimits(t *testing.T) {
	chunk := []byte(strings.Repeat("<p>filler text</p>\n", 3277)) // ~64 KiB
	bombs := map[string][]byte{}
	for _, c := range codings {
		bombs[c] = encodeAs(t, c, bytes.Repeat([]byte("<p>x</p>\n"), (8<<20)/9))
	}
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/huge":
			// 50 MB streamed without Content-Length; the test never holds
			// more than one chunk, and the fetcher must stop reading early.
			w.Header().Set("Content-Type", "text/html")
			for sent := 0; sent < 50<<20; sent += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "/declared-huge":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", strconv.Itoa(50<<20))
			_, _ = w.Write(chunk)
		case "/bomb/gzip", "/bomb/deflate", "/bomb/br", "/bomb/zstd":
			// 8 MiB of HTML: a few KiB on the wire in every coding.
			coding := strings.TrimPrefix(r.URL.Path, "/bomb/")
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Encoding", coding)
			_, _ = w.Write(bombs[coding])
		case "/drip":
			// Headers at once, then a byte now and then: only the overall
			// deadline can stop this.
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(200)
			for {
				if _, err := w.Write([]byte("x")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		case "/hang.pdf":
			// An unterminated hex string sends the PDF parser into an
			// endless loop; only the PDF deadline ends it.
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = w.Write(bytes.Replace(makePDF("T", "Hello"), []byte("(Hello) Tj ET"), []byte("(Hello) Tj <T"), 1))
		case "/slow-headers":
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	tests := []struct {
		path string
		mod  func(*Options)
		want error
	}{
		{"/huge", nil, ErrTooLarge},
		{"/declared-huge", nil, ErrTooLarge},
		// The ratio guard alone (the limit would allow 8 MiB), then with
		// the default 10 MiB limit too.
		{"/bomb/gzip", func(o *Options) { o.MaxBodyBytes = 64 << 20 }, ErrTooLarge},
		{"/bomb/deflate", func(o *Options) { o.MaxBodyBytes = 64 << 20 }, ErrTooLarge},
		{"/bomb/br", func(o *Options) { o.MaxBodyBytes = 64 << 20 }, ErrTooLarge},
		{"/bomb/zstd", func(o *Options) { o.MaxBodyBytes = 64 << 20 }, ErrTooLarge},
		{"/bomb/gzip", nil, ErrTooLarge},
		{"/bomb/br", nil, ErrTooLarge},
		{"/bomb/zstd", nil, ErrTooLarge},
		// A larger configured ratio lets the same body through the guard
		// but not past the body limit.
		{"/bomb/zstd", func(o *Options) { o.MaxBodyBytes = 4 << 20; o.MaxCompressionRatio = 1 << 20 }, ErrTooLarge},
		{"/drip", func(o *Options) { o.Timeout = 300 * time.Millisecond }, ErrTimeout},
		{"/slow-headers", func(o *Options) { o.Timeout = 300 * time.Millisecond }, ErrTimeout},
		{"/hang.pdf", func(o *Options) { o.PDFTimeout = time.Second }, ErrBadContent},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f := newTestFetcher(t, tt.mod)
			_, err := f.Fetch(context.Background(), Request{URL: srv.URL + tt.path})
			wantSentinel(t, err, tt.want)
		})
	}
	// The bomb is fine when the limits allow it: the guard is a limit, not
	// a refusal of compression.
	f := newTestFetcher(t, func(o *Options) {
		o.MaxBodyBytes = 16 << 20
		o.MaxCompressionRatio = 1 << 20
		o.Timeout = 5 * time.Minute
	})
	for _, c := range codings {
		res, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/bomb/" + c, Format: "raw"})
		if err != nil || len(res.Body) != (8<<20)/9*9 {
			t.Errorf("%s within limits: %v", c, err)
		}
	}
}

func TestFetchRedirects(t *testing.T) {
	var srvURL string
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/final":
			_, _ = w.Write([]byte("arrived"))
		case strings.HasPrefix(p, "/chain/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(p, "/chain/"))
			if n == 0 {
				http.Redirect(w, r, "/final", http.StatusFound)
				return
			}
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusMovedPermanently)
		case p == "/loop-a":
			http.Redirect(w, r, "/loop-b", http.StatusFound)
		case p == "/loop-b":
			http.Redirect(w, r, srvURL+"/loop-a#frag", http.StatusTemporaryRedirect)
		case p == "/to-ftp":
			http.Redirect(w, r, "ftp://example.com/file", http.StatusFound)
		case p == "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case p == "/to-long":
			http.Redirect(w, r, "/"+strings.Repeat("a", 300), http.StatusFound)
		case p == "/to-bad":
			w.Header().Set("Location", "http://[::1")
			w.WriteHeader(http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	srvURL = srv.URL
	f := newTestFetcher(t, func(o *Options) { o.MaxURLLength = 200 })

	res, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/chain/3"})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinalURL != srv.URL+"/final" || res.URL != srv.URL+"/chain/3" || res.Content != "arrived" {
		t.Errorf("got final %q url %q content %q", res.FinalURL, res.URL, res.Content)
	}

	tests := []struct {
		path string
		want error
	}{
		{"/chain/9", nil},                  // 10 redirects: the limit
		{"/chain/10", ErrTooManyRedirects}, // 11
		{"/loop-a", ErrTooManyRedirects},   // loop found before the cap
		{"/to-ftp", ErrInvalidURL},         // scheme re-checked
		{"/to-file", ErrInvalidURL},        // scheme re-checked
		{"/to-long", ErrURLTooLong},        // length re-checked
		{"/to-bad", ErrInvalidURL},         // unparsable location
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), Request{URL: srv.URL + tt.path})
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Fetch() error = %v", err)
				}
				return
			}
			wantSentinel(t, err, tt.want)
		})
	}
	_, err = f.Fetch(context.Background(), Request{URL: srv.URL + "/loop-a"})
	if err == nil || !strings.Contains(err.Error(), "loop") {
		t.Errorf("loop error %v does not say loop", err)
	}
}

// TestFetchBlocksPrivateByDefault checks the real guard, the dialer: with
// the default policy, a hostname that resolves to loopback is refused at
// connect time, and IP literals are refused before any connection.
func TestFetchBlocksPrivateByDefault(t *testing.T) {
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("internal secret"))
	}))
	port := mustPort(t, srv.URL)
	f := newTestFetcher(t, func(o *Options) { o.AllowPrivateNetworks = false })
	for _, u := range []string{
		"http://127.0.0.1:" + port + "/",
		"http://localhost:" + port + "/",
		"http://LOCALHOST.:" + port + "/",
		"http://2130706433:" + port + "/",
		"http://0x7f.1:" + port + "/",
		"http://0177.0.0.1:" + port + "/",
		"http://[::1]:" + port + "/",
		"http://[::ffff:127.0.0.1]:" + port + "/",
	} {
		t.Run(u, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), Request{URL: u})
			wantSentinel(t, err, ErrBlockedAddress)
		})
	}
	if n := c.get("/"); n != 0 {
		t.Errorf("the private server was reached %d times", n)
	}
}

// TestDialerBlocksResolvedAddress resolves a name to loopback and checks
// the connect-time refusal carries the guardian's reason.
func TestDialerBlocksResolvedAddress(t *testing.T) {
	if _, err := net.DefaultResolver.LookupHost(context.Background(), "localhost"); err != nil {
		t.Fatalf("localhost does not resolve on this machine: %v", err)
	}
	f := newTestFetcher(t, func(o *Options) { o.AllowPrivateNetworks = false; o.IgnoreRobots = true })
	_, err := f.Fetch(context.Background(), Request{URL: "http://localhost:1/"})
	wantSentinel(t, err, ErrBlockedAddress)
	if !strings.Contains(err.Error(), "prohibited IP address") {
		t.Errorf("error %q does not carry the guardian's reason", err)
	}
}

// TestFetchRedirectToPrivate reaches one loopback server through a
// test-only exception for its exact address, with the policy on for every
// other address, and checks that redirects from it into private space are
// refused whichever way the target is spelled.
func TestFetchRedirectToPrivate(t *testing.T) {
	internal, ic := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("internal secret"))
	}))
	iport := mustPort(t, internal.URL)
	public, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			_, _ = w.Write([]byte("public page"))
		case "/to-name":
			http.Redirect(w, r, "http://localhost:"+iport+"/", http.StatusFound)
		case "/to-ip":
			http.Redirect(w, r, "http://127.0.0.1:"+iport+"/", http.StatusFound)
		case "/to-decimal":
			http.Redirect(w, r, "http://2130706433:"+iport+"/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-mapped":
			http.Redirect(w, r, "http://[::ffff:127.0.0.1]:"+iport+"/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	allowed := netip.MustParseAddrPort(strings.TrimPrefix(public.URL, "http://"))
	f := newTestFetcher(t, func(o *Options) { o.AllowPrivateNetworks = false })
	f.allowDial = func(ap netip.AddrPort) bool { return ap == allowed }
	// Requests to the public server itself must use a name so the early
	// IP-literal check does not refuse them; "localhost" resolves to the
	// allowed address (and maybe ::1, which stays blocked).
	base := "http://localhost:" + mustPort(t, public.URL)

	res, err := f.Fetch(context.Background(), Request{URL: base + "/ok"})
	if err != nil {
		t.Fatalf("the allowed server is unreachable: %v", err)
	}
	if res.Content != "public page" {
		t.Fatalf("content %q", res.Content)
	}
	for _, p := range []string{"/to-name", "/to-ip", "/to-decimal", "/to-metadata", "/to-mapped"} {
		t.Run(p, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), Request{URL: base + p})
			wantSentinel(t, err, ErrBlockedAddress)
		})
	}
	if n := ic.get("/"); n != 0 {
		t.Errorf("the internal server was reached %d times", n)
	}
}

func mustPort(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}
