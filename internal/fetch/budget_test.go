package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/webgate/webgate/internal/extract"
)

// linesPage is an HTML page of n short paragraphs, the shape whose
// extraction costs the most memory per byte.
func linesPage(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>Lines</title></head><body>\n")
	for i := range n {
		fmt.Fprintf(&b, "<p>Line %d</p>\n", i%10000)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// estimate is the test's own count of what htmlCost estimates: the
// nodes, attributes and bytes of body, priced with the same constants.
func estimate(body []byte) int64 {
	z := html.NewTokenizer(bytes.NewReader(body))
	var nodes, attrs int64
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nodes*costPerNode + attrs*costPerAttr + int64(len(body))*costPerByte
		case html.StartTagToken, html.SelfClosingTagToken:
			nodes++
			for _, more := z.TagName(); more; {
				_, _, more = z.TagAttr()
				attrs++
			}
		case html.TextToken, html.CommentToken:
			nodes++
		}
	}
}

func TestHTMLCost(t *testing.T) {
	page := linesPage(1000)
	whole := estimate(page)
	if cost, cut := htmlCost(page, 1<<40); cut != len(page) || cost != whole {
		t.Fatalf("no limit: cost %d cut %d, want %d and the whole page (%d)", cost, cut, whole, len(page))
	}
	for _, limit := range []int64{whole / 2, whole / 10, 5000} {
		cost, cut := htmlCost(page, limit)
		if cut >= len(page) || cost > limit || cost != estimate(page[:cut]) {
			t.Errorf("limit %d: cost %d cut %d (prefix estimated at %d)", limit, cost, cut, estimate(page[:cut]))
		}
		if !bytes.HasSuffix(page[:cut], []byte(">")) && !bytes.HasSuffix(page[:cut], []byte("\n")) {
			t.Errorf("limit %d: cut inside a token: %q", limit, page[max(cut-20, 0):cut])
		}
		// The next token would not have fitted: the prefix is the
		// longest.
		if next, _ := htmlCost(page, limit+costPerNode+64*costPerByte); next <= cost {
			t.Errorf("limit %d: a little more room fits nothing more", limit)
		}
	}
}

// TestHTMLCostCutsText: one huge text keeps what fits of it, cut
// between characters; a huge first tag cannot be cut.
func TestHTMLCostCutsText(t *testing.T) {
	page := []byte("<pre>" + strings.Repeat("é", 100_000) + "</pre>")
	cost, cut := htmlCost(page, 100_000)
	if cut <= 5 || cut >= len(page) || cost > 100_000 || !utf8.Valid(page[:cut]) {
		t.Errorf("cost %d cut %d (valid UTF-8: %v)", cost, cut, utf8.Valid(page[:cut]))
	}
	if _, cut := htmlCost([]byte(`<div data-x="`+strings.Repeat("x", 100_000)+`">y</div>`), 100_000); cut != 0 {
		t.Errorf("cut %d inside a tag", cut)
	}
}

// TestExtractionMemoryBudget fetches four pages of 600,000 short
// paragraphs (10 MiB, the page that peaked at 451 MB of RSS alone and
// 1.4 GB four at a time) and checks that the HTML handed to extraction at
// any moment is estimated within the budget: each page is cut to half of
// it, and they take turns. Before, two whole pages (2 × 612 MB estimated)
// were extracted at once. The extractor is replaced by a recorder, so
// the test measures admission, not the machine.
func TestExtractionMemoryBudget(t *testing.T) {
	page := linesPage(600_000)
	if len(page) > 10<<20 {
		t.Fatalf("page of %d bytes is over the body limit", len(page))
	}
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write(page)
	}))
	const n = 4
	f := newTestFetcher(t, func(o *Options) {
		o.IgnoreRobots = true
		o.CacheTTL = -1
		o.PerHostConcurrency = n
	})
	var mu sync.Mutex
	var inFlight, peak int64
	var sizes []int
	f.extractHTML = func(ctx context.Context, body []byte, opts extract.Options) (*extract.Document, error) {
		c := estimate(body)
		mu.Lock()
		inFlight += c
		peak = max(peak, inFlight)
		sizes = append(sizes, len(body))
		mu.Unlock()
		defer func() {
			mu.Lock()
			inFlight -= c
			mu.Unlock()
		}()
		return &extract.Document{Content: "Line 0\n", Format: opts.Format}, nil
	}
	var urls []string
	for i := range n {
		urls = append(urls, srv.URL+"/p"+strconv.Itoa(i))
	}
	fetchConcurrently(t, f, urls...)()
	if budget := f.opts.ExtractMemory; peak > budget {
		t.Errorf("HTML estimated at %d MiB was under extraction at once; the budget is %d MiB", peak>>20, budget>>20)
	}
	for _, s := range sizes {
		if s >= len(page) {
			t.Errorf("a %d-byte page estimated at %d MiB was extracted whole", len(page), estimate(page)>>20)
		}
	}
}

// TestIncompletePage: a page past half the budget is extracted up to
// that half, says so at the end of its content and in Incomplete, and
// pages within it are not touched.
func TestIncompletePage(t *testing.T) {
	page := linesPage(7_000)
	small := linesPage(100)
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/small" {
			_, _ = w.Write(small)
			return
		}
		_, _ = w.Write(page)
	}))
	f := newTestFetcher(t, func(o *Options) {
		o.IgnoreRobots = true
		o.CacheTTL = -1
		o.ExtractMemory = minExtractMemory // half of it: about a third of the page
	})
	if estimate(page) <= f.extractLimit() || estimate(page) > 4*f.extractLimit() {
		t.Fatalf("page estimated at %d does not fit the test (limit %d)", estimate(page), f.extractLimit())
	}
	for _, format := range []extract.Format{extract.Markdown, extract.Text, extract.HTML} {
		res, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/big", Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Incomplete || !strings.Contains(res.Content, "Line 0") || strings.Contains(res.Content, "Line 6999") ||
			!strings.Contains(res.Content, "This page is too large to extract whole: the content above comes from the first ") ||
			!strings.Contains(res.Content, "of its "+sizeString(len(page))+" of HTML") {
			t.Errorf("%s: incomplete %v, content ends %q", format, res.Incomplete, res.Content[max(len(res.Content)-300, 0):])
		}
	}
	res, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/big", Format: extract.Raw})
	if err != nil || res.Content != string(page) {
		t.Errorf("raw: the page as received was not returned whole (%v)", err)
	}
	res, err = f.Fetch(context.Background(), Request{URL: srv.URL + "/small"})
	if err != nil || res.Incomplete || !strings.Contains(res.Content, "Line 99") || strings.Contains(res.Content, "too large") {
		t.Errorf("small page: %v %+v", err, res)
	}
}
