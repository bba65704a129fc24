package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// allSentinels lists every sentinel Fetch may wrap.
var allSentinels = []error{
	ErrInvalidURL, ErrInvalidRequest, ErrURLTooLong, ErrBlockedAddress, ErrRobots,
	ErrTooManyRedirects, ErrTooLarge, ErrTimeout, ErrHTTPStatus, ErrRateLimited,
	ErrUnsupportedContentType, ErrUnreachable, ErrBadContent, ErrRender,
}

// wantSentinel fails unless err wraps want and no other sentinel.
func wantSentinel(t *testing.T, err, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", want)
	}
	var got []string
	for _, s := range allSentinels {
		if errors.Is(err, s) {
			got = append(got, s.Error())
		}
	}
	if len(got) != 1 || !errors.Is(err, want) {
		t.Fatalf("error %q wraps %v, want exactly [%v]", err, got, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q spans lines", err)
	}
}

// newTestFetcher returns a fetcher that may reach loopback. The deadlines
// are generous because a PDF worker process of a race-enabled test binary
// takes seconds to start on a loaded machine; tests of timeouts set their
// own short ones and assert only the error kind.
func newTestFetcher(t testing.TB, mod func(*Options)) *Fetcher {
	t.Helper()
	o := Options{
		AllowPrivateNetworks: true,
		Timeout:              2 * time.Minute,
		PDFTimeout:           time.Minute,
		Logger:               slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if mod != nil {
		mod(&o)
	}
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// counter counts requests per path.
type counter struct {
	m sync.Map // path -> *atomic.Int64
}

func (c *counter) inc(path string) {
	v, _ := c.m.LoadOrStore(path, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (c *counter) get(path string) int64 {
	v, ok := c.m.Load(path)
	if !ok {
		return 0
	}
	return v.(*atomic.Int64).Load()
}

// newServer starts a loopback server whose handler counts requests.
func newServer(t testing.TB, h http.Handler) (*httptest.Server, *counter) {
	t.Helper()
	c := &counter{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.inc(r.URL.Path)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, c
}

const articleHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The Test Article</title></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<main><article>
<h1>The Test Article</h1>
<p>Webgate fetches pages safely for agents. This paragraph is long enough to
be recognised as the main content of the page by any reasonable extractor,
with several sentences of ordinary prose and a café for good measure.</p>
<p>A second paragraph continues the article with more text so that the
content scoring has something substantial to work with here.</p>
<h2>Details</h2>
<p>Details follow in this third paragraph, which closes the article body.</p>
</article></main>
<footer>Copyright footer</footer>
</body></html>`

// makePDF builds a minimal valid PDF with one page per text.
func makePDF(title string, pages ...string) []byte {
	var objs []string
	kids := make([]string, len(pages))
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 5+2*i)
	}
	objs = append(objs,
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Title (%s) >>", title),
	)
	for i, text := range pages {
		stream := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 6+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
		)
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// fetchConcurrently starts one Fetch per URL at once and returns a function
// that waits for them all and fails the test on any error.
func fetchConcurrently(t *testing.T, f *Fetcher, urls ...string) (wait func()) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(urls))
	for _, u := range urls {
		wg.Go(func() {
			_, err := f.Fetch(context.Background(), Request{URL: u})
			errs <- err
		})
	}
	return func() {
		t.Helper()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}
