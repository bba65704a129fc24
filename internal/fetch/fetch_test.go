package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/extract"
	"golang.org/x/text/encoding/charmap"
)

func TestFetchContent(t *testing.T) {
	pdf := makePDF("PDF Title", "Hello from the PDF", "Page two")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")
	routes := map[string]struct {
		ct, ce string
		body   []byte
		status int
	}{
		"/article":       {ct: "text/html; charset=utf-8", body: []byte(articleHTML)},
		"/article.gz":    {ct: "text/html", ce: "gzip", body: gzipBytes(t, []byte(articleHTML))},
		"/truncated.gz":  {ct: "text/html", ce: "gzip", body: gzipBytes(t, []byte(articleHTML))[:200]},
		"/article.br":    {ct: "text/html", ce: "br", body: brotliBytes(t, []byte(articleHTML))},
		"/article.zst":   {ct: "text/html", ce: "zstd", body: zstdBytes(t, []byte(articleHTML))},
		"/article.zz":    {ct: "text/html", ce: "deflate", body: zlibBytes(t, []byte(articleHTML))},
		"/truncated.br":  {ct: "text/html", ce: "br", body: brotliBytes(t, []byte(articleHTML))[:200]},
		"/truncated.zst": {ct: "text/html", ce: "zstd", body: zstdBytes(t, []byte(articleHTML))[:200]},
		"/stacked":       {ct: "text/html", ce: "gzip|br", body: brotliBytes(t, gzipBytes(t, []byte(articleHTML)))},
		"/bad-bytes":     {ct: "text/plain; charset=shift_jis", body: []byte("ok \x82\xff\x81 end")},
		"/stale-meta":    {ct: "text/html", body: []byte(strings.Replace(articleHTML, `charset="utf-8"`, `charset="iso-8859-1"`, 1))},
		"/latin1":        {ct: "text/plain; charset=iso-8859-1", body: []byte("caf\xe9 cr\xe8me")},
		"/bad-charset":   {ct: "text/plain; charset=no-such-charset", body: []byte("caf\xe9")},
		"/cp1251":        {ct: "text/html", body: cp1251Page(t)},
		"/doc.md":        {ct: "text/markdown; charset=utf-8", body: []byte("# Markdown Doc\n\nSome *text*.\n")},
		"/data.json":     {ct: "application/json", body: []byte(`{"a": [1, 2]}`)},
		"/api.json":      {ct: "application/problem+json", body: []byte(`{"title": "x"}`)},
		"/plain":         {ct: "text/plain", body: []byte("just text\n")},
		"/no-type":       {ct: "", body: []byte("<html><body><p>sniffed html</p></body></html>")},
		"/doc.pdf":       {ct: "application/pdf", body: pdf},
		"/mislabel.pdf":  {ct: "text/html", body: pdf},
		"/download":      {ct: "application/octet-stream", body: pdf},
		"/bad.pdf":       {ct: "application/pdf", body: []byte("%PDF-1.7\nthis is not a real pdf\n%%EOF")},
		"/image.png":     {ct: "image/png", body: png},
		"/sniffed.png":   {ct: "application/octet-stream", body: png},
		"/binary-html":   {ct: "text/html", body: png},
		"/zip":           {ct: "application/zip", body: []byte("PK\x03\x04")},
		"/random":        {ct: "application/octet-stream", body: []byte{0x00, 0x01, 0x02, 0xfe, 0xff, 0x00}},
		"/malformed":     {ct: "text/html", body: []byte("<html><body><div><p>Unclosed <b>tags <i>everywhere<table><tr><td>cell<p>Text that matters in a broken page. " + strings.Repeat("More words here. ", 20) + "<script>if (a < b) {</style></body>")},
		"/empty-html":    {ct: "text/html", body: []byte("")},
		"/missing":       {ct: "text/plain", body: []byte("not found"), status: 404},
		"/broken":        {ct: "text/plain", body: []byte("oops"), status: 503},
		"/limited":       {ct: "text/plain", body: []byte("slow down"), status: 429},
		"/nolocation301": {status: 301},
	}
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rt.ct != "" {
			w.Header().Set("Content-Type", rt.ct)
		} else {
			w.Header()["Content-Type"] = nil // stop the server sniffing for us
		}
		for ce := range strings.SplitSeq(rt.ce, "|") {
			if ce != "" {
				w.Header().Add("Content-Encoding", ce) // one line each
			}
		}
		if rt.status == 429 {
			w.Header().Set("Retry-After", "120")
		}
		if rt.status != 0 {
			w.WriteHeader(rt.status)
		}
		_, _ = w.Write(rt.body)
	}))
	f := newTestFetcher(t, nil)

	tests := []struct {
		path     string
		format   extract.Format
		wantType string
		contains []string
		absent   []string
		title    string
		wantErr  error
	}{
		{path: "/article", wantType: "text/html", contains: []string{"Webgate fetches pages safely", "café", "Details"}, absent: []string{"Copyright footer"}, title: "The Test Article"},
		{path: "/article", format: extract.Text, wantType: "text/html", contains: []string{"Webgate fetches pages safely"}},
		{path: "/article", format: extract.HTML, wantType: "text/html", contains: []string{"<p>", "Webgate fetches pages safely"}},
		{path: "/article", format: extract.Raw, wantType: "text/html", contains: []string{"<footer>Copyright footer</footer>"}},
		{path: "/article.gz", wantType: "text/html", contains: []string{"Webgate fetches pages safely"}},
		{path: "/truncated.gz", wantErr: ErrBadContent, contains: []string{"truncated"}},
		{path: "/article.br", wantType: "text/html", contains: []string{"Webgate fetches pages safely", "café"}},
		{path: "/article.zst", wantType: "text/html", contains: []string{"Webgate fetches pages safely", "café"}},
		{path: "/article.zz", wantType: "text/html", contains: []string{"Webgate fetches pages safely"}},
		{path: "/truncated.br", wantErr: ErrBadContent},
		{path: "/truncated.zst", wantErr: ErrBadContent},
		{path: "/stacked", wantErr: ErrBadContent, contains: []string{`"gzip, br"`}},
		{path: "/bad-bytes", wantType: "text/plain", contains: []string{"ok ", " end", "\uFFFD"}},
		{path: "/stale-meta", contains: []string{"café"}, absent: []string{"cafÃ©"}},
		{path: "/latin1", wantType: "text/plain", contains: []string{"café crème"}},
		{path: "/bad-charset", contains: []string{"café"}},
		// Named nowhere, the page's encoding is read from its bytes.
		{path: "/cp1251", wantType: "text/html", contains: []string{"В субботу в городе открылся парк"}, absent: []string{"Â ñóááîòó"}},
		{path: "/doc.md", wantType: "text/markdown", contains: []string{"# Markdown Doc\n\nSome *text*.\n"}, title: "Markdown Doc"},
		{path: "/data.json", wantType: "application/json", contains: []string{"```json\n{\"a\": [1, 2]}\n```\n"}},
		{path: "/data.json", format: extract.Raw, contains: []string{`{"a": [1, 2]}`}, absent: []string{"```"}},
		{path: "/api.json", wantType: "application/problem+json", contains: []string{"```json"}},
		{path: "/plain", format: extract.HTML, contains: []string{"<pre>just text\n</pre>"}},
		{path: "/no-type", wantType: "text/html", contains: []string{"sniffed html"}},
		{path: "/doc.pdf", wantType: "application/pdf", contains: []string{"Hello from the PDF\n\nPage two"}, title: "PDF Title"},
		{path: "/mislabel.pdf", wantType: "application/pdf", contains: []string{"Hello from the PDF"}},
		{path: "/download", wantType: "application/pdf", contains: []string{"Hello from the PDF"}},
		{path: "/bad.pdf", wantErr: ErrBadContent},
		{path: "/image.png", wantErr: ErrUnsupportedContentType, contains: []string{"image/png"}},
		{path: "/sniffed.png", wantErr: ErrUnsupportedContentType, contains: []string{"image/png"}},
		{path: "/binary-html", wantErr: ErrUnsupportedContentType, contains: []string{"image/png"}},
		{path: "/zip", wantErr: ErrUnsupportedContentType, contains: []string{"application/zip"}},
		{path: "/random", wantErr: ErrUnsupportedContentType},
		{path: "/malformed", contains: []string{"Text that matters"}},
		{path: "/empty-html", wantErr: ErrBadContent},
		{path: "/missing", wantErr: ErrHTTPStatus, contains: []string{"404"}},
		{path: "/broken", wantErr: ErrHTTPStatus, contains: []string{"503"}},
		{path: "/limited", wantErr: ErrRateLimited, contains: []string{"retry after 2m0s"}},
		{path: "/nolocation301", wantErr: ErrHTTPStatus},
	}
	for _, tt := range tests {
		t.Run(strings.TrimPrefix(tt.path, "/")+"/"+string(tt.format), func(t *testing.T) {
			res, err := f.Fetch(context.Background(), Request{URL: srv.URL + tt.path, Format: tt.format})
			if tt.wantErr != nil {
				wantSentinel(t, err, tt.wantErr)
				for _, s := range tt.contains {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch() error = %v", err)
			}
			if !utf8.ValidString(res.Content) {
				t.Errorf("content is not valid UTF-8: %q", res.Content)
			}
			if tt.wantType != "" && res.ContentType != tt.wantType {
				t.Errorf("ContentType = %q, want %q", res.ContentType, tt.wantType)
			}
			for _, s := range tt.contains {
				if !strings.Contains(res.Content, s) {
					t.Errorf("content does not contain %q:\n%s", s, res.Content)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(res.Content, s) {
					t.Errorf("content contains %q:\n%s", s, res.Content)
				}
			}
			if tt.title != "" && res.Title != tt.title {
				t.Errorf("Title = %q, want %q", res.Title, tt.title)
			}
			if res.Status != 200 || res.URL != srv.URL+tt.path || res.Cached || res.RetrievedAt.IsZero() {
				t.Errorf("Result = status %d, url %q, cached %v, retrieved %v", res.Status, res.URL, res.Cached, res.RetrievedAt)
			}
		})
	}
}

func TestFetchStatusError(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	_, err := newTestFetcher(t, nil).Fetch(context.Background(), Request{URL: srv.URL + "/x"})
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 429 || se.RetryAfter != 30*time.Second {
		t.Fatalf("error = %#v, want *StatusError 429 retry 30s", err)
	}
	wantSentinel(t, err, ErrRateLimited)
}

func TestFetchSendsHonestHeaders(t *testing.T) {
	var ua, accept, ae string
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page" {
			ua, accept, ae = r.UserAgent(), r.Header.Get("Accept"), r.Header.Get("Accept-Encoding")
		}
		_, _ = w.Write([]byte("ok"))
	}))
	f := newTestFetcher(t, func(o *Options) { o.UserAgent = "webgate-test/1.0 (+https://example.org)" })
	if _, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/page"}); err != nil {
		t.Fatal(err)
	}
	if ua != "webgate-test/1.0 (+https://example.org)" || accept != acceptHeader || ae != "gzip, deflate, br, zstd" {
		t.Errorf("headers: ua %q accept %q accept-encoding %q", ua, accept, ae)
	}
}

func TestFetchInvalidRequest(t *testing.T) {
	f := newTestFetcher(t, nil)
	tests := []struct {
		name string
		req  Request
		want error
	}{
		{"format", Request{URL: "https://example.com/", Format: "docx"}, ErrInvalidRequest},
		{"negative length", Request{URL: "https://example.com/", MaxLength: -1}, ErrInvalidRequest},
		{"negative start", Request{URL: "https://example.com/", StartIndex: -1}, ErrInvalidRequest},
		{"negative tokens", Request{URL: "https://example.com/", MaxTokens: -5}, ErrInvalidRequest},
		{"scheme", Request{URL: "file:///etc/passwd"}, ErrInvalidURL},
		{"long", Request{URL: "https://example.com/" + strings.Repeat("x", 9000)}, ErrURLTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), tt.req)
			wantSentinel(t, err, tt.want)
		})
	}
}

func TestFetchUnreachable(t *testing.T) {
	srv, _ := newServer(t, http.NotFoundHandler())
	addr := srv.URL
	srv.Close() // nothing listens there any more
	_, err := newTestFetcher(t, func(o *Options) { o.IgnoreRobots = true }).Fetch(context.Background(), Request{URL: addr + "/"})
	wantSentinel(t, err, ErrUnreachable)
}

func TestFetchCanceled(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newTestFetcher(t, nil).Fetch(ctx, Request{URL: srv.URL + "/"})
	wantSentinel(t, err, ErrTimeout)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v does not wrap context.Canceled", err)
	}
}

func TestResultJSON(t *testing.T) {
	b, err := json.Marshal(&Result{URL: "u", Body: []byte("secret"), Cached: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "secret") || strings.Contains(string(b), "cached") {
		t.Errorf("Body or Cached serialised: %s", b)
	}
}

// negotiate picks the offer the Accept header rates highest, as a server
// doing content negotiation would (ties go to the first offer).
func negotiate(accept string, offers ...string) string {
	best, bestQ := "", -1.0
	for _, offer := range offers {
		q := 0.0
		for part := range strings.SplitSeq(accept, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || (mt != offer && mt != "*/*" && mt != strings.Split(offer, "/")[0]+"/*") {
				continue
			}
			pq := 1.0
			if v, ok := params["q"]; ok {
				pq, _ = strconv.ParseFloat(v, 64)
			}
			q = max(q, pq)
		}
		if q > bestQ {
			best, bestQ = offer, q
		}
	}
	return best
}

// TestFetchNegotiatesMarkdown serves one URL as HTML or Markdown by the
// Accept header, as sites that serve Markdown to agents do: our Accept
// header gets the Markdown, a browser-like one the HTML.
func TestFetchNegotiatesMarkdown(t *testing.T) {
	if got := negotiate("text/html, */*;q=0.8", "text/html", "text/markdown"); got != "text/html" {
		t.Fatalf("negotiate helper picked %s for a browser", got)
	}
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Vary", "Accept")
		if negotiate(r.Header.Get("Accept"), "text/html", "text/markdown") == "text/markdown" {
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			_, _ = w.Write([]byte("# The Test Article\n\nServed as **Markdown** by negotiation.\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(articleHTML))
	}))
	res, err := newTestFetcher(t, nil).Fetch(context.Background(), Request{URL: srv.URL + "/article"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ContentType != "text/markdown" || res.Content != "# The Test Article\n\nServed as **Markdown** by negotiation.\n" || res.Title != "The Test Article" {
		t.Errorf("got %s %q title %q", res.ContentType, res.Content, res.Title)
	}
}

// TestFetchDefaultUserAgent checks the honest default user agent and its
// robots.txt product token.
func TestFetchDefaultUserAgent(t *testing.T) {
	var mu sync.Mutex
	uas := map[string]string{}
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		uas[r.URL.Path] = r.UserAgent()
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			_, _ = w.Write([]byte("User-agent: webgate\nDisallow: /no\n"))
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	f := newTestFetcher(t, nil)
	if _, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/yes"}); err != nil {
		t.Fatal(err)
	}
	_, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/no"})
	wantSentinel(t, err, ErrRobots)
	mu.Lock()
	defer mu.Unlock()
	for _, p := range []string{"/robots.txt", "/yes"} {
		if uas[p] != config.DefaultUserAgent || !strings.HasPrefix(uas[p], "webgate/") || !strings.Contains(uas[p], "+https://") {
			t.Errorf("%s: user agent %q", p, uas[p])
		}
	}
}

// TestFetchMetadata checks that the page's metadata (title, author,
// published date, language, canonical URL) comes through the fetcher, with
// a relative canonical URL resolved against the final URL.
func TestFetchMetadata(t *testing.T) {
	page := strings.Replace(articleHTML, "<title>", `<meta name="author" content="Ada Writer">
<meta property="article:published_time" content="2024-03-05T10:00:00Z">
<link rel="canonical" href="/articles/test"><title>`, 1)
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new?utm=x", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	res, err := newTestFetcher(t, nil).Fetch(context.Background(), Request{URL: srv.URL + "/old"})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Metadata
	if m.Title != "The Test Article" || m.Author != "Ada Writer" || m.Language != "en" ||
		m.CanonicalURL != srv.URL+"/articles/test" || !m.Published.Equal(time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("metadata = %+v", m)
	}
	if res.Title != m.Title || res.FinalURL != srv.URL+"/new?utm=x" {
		t.Errorf("title %q final %q", res.Title, res.FinalURL)
	}
}

// TestFetchPDFParserPanic serves a PDF whose object table points at the
// wrong object, which makes the parser panic: the fetch fails with a clear
// bad_content error and the process lives on.
func TestFetchPDFParserPanic(t *testing.T) {
	bad := bytes.Replace(makePDF("T", "Hello"), []byte("5 0 obj"), []byte("9 0 obj"), 1)
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(bad)
	}))
	_, err := newTestFetcher(t, nil).Fetch(context.Background(), Request{URL: srv.URL + "/panic.pdf"})
	wantSentinel(t, err, ErrBadContent)
	if !strings.Contains(err.Error(), "pdf") {
		t.Errorf("error %q does not say it was the PDF", err)
	}
}

// FuzzMarkdownAlternate checks the <link rel=alternate> scan on any page:
// it never panics and only ever proposes an http(s) URL.
func FuzzMarkdownAlternate(f *testing.F) {
	f.Add([]byte(`<head><link rel="alternate" type="text/markdown" href="/a.md"></head>`))
	f.Add([]byte(`<link rel="ALTERNATE stylesheet" type="text/markdown; charset=utf-8" href="javascript:x">`))
	f.Add([]byte(`<link rel=alternate type=text/markdown href="//other.example/x.md"><body>`))
	base, _ := url.Parse("https://example.com/docs/page")
	f.Fuzz(func(t *testing.T, body []byte) {
		u := markdownAlternate(body, base)
		if u != nil && u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("proposed %s", u)
		}
	})
}

// cp1251Page is a Russian story in windows-1251 that names no charset,
// neither in a header nor in a <meta>, as older sites serve pages.
func cp1251Page(t *testing.T) []byte {
	t.Helper()
	para := "<p>В субботу в городе открылся парк на набережной. Работы продолжались почти два года, и жители довольны новыми дорожками и скамейками.</p>"
	page := "<html><head><title>Новости</title></head><body><article><h1>Парк открыт</h1>" + strings.Repeat(para, 4) + "</article></body></html>"
	b, err := charmap.Windows1251.NewEncoder().Bytes([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
