package fetch

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Extraction memory.
//
// Extracting HTML builds a DOM, a cleaned copy of it and the extractors'
// candidates, and renders Markdown from them; its peak memory grows with
// the page's nodes more than with its bytes. One 9.6 MB page of 600,000
// short paragraphs peaked at 451 MB of RSS, two at once at 812 MB, four at
// 1.4 GB, past any container limit (deploy/ sets 512 Mi), and extraction
// cannot be interrupted once started. So every HTML page's peak is
// estimated before it is parsed, from one pass of the tokenizer, which
// holds no more than one token:
//
//	cost = costPerNode × nodes + costPerAttr × attributes + costPerByte × bytes
//
// and extraction runs under a process-wide budget of such bytes
// (fetch.extract_memory): a page waits until its cost fits beside the
// pages already extracting, within its own deadline, and small pages pass
// freely. A page whose cost alone passes half the budget is cut at a token
// boundary to fit (so two of the largest pages can run together), and its
// content ends with a note saying how much of the page it covers.
//
// The constants are peak heap per unit, fitted to the single-page peaks
// of BenchmarkExtractMemory's pages (600,000 short paragraphs, a long
// article) with hidden-content stripping on (Request.StripHidden); see
// docs/benchmarks.md#extraction-memory. Peak heap counts the garbage a
// collection has not yet reclaimed, so they hold under Go's default
// collector pacing, without GOMEMLIMIT.
const (
	costPerNode = 550
	costPerAttr = 140
	costPerByte = 16
)

// minExtractMemory is the smallest budget accepted: a page of a few
// hundred KiB must fit whole.
const minExtractMemory = 8 << 20

// htmlCost estimates the peak memory of extracting body. When the
// estimate passes limit, cut is the length of the longest prefix of whole
// tokens that stays within it, and cost is that prefix's; otherwise cut
// is len(body).
func htmlCost(body []byte, limit int64) (cost int64, cut int) {
	z := html.NewTokenizer(bytes.NewReader(body))
	// The tokenizer never allocates a token's text (Raw, TagName and
	// TagAttr return slices of its buffer).
	off := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return cost, len(body)
		}
		raw := len(z.Raw())
		c := int64(raw) * costPerByte
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			c += costPerNode
			_, more := z.TagName()
			for more {
				_, _, more = z.TagAttr()
				c += costPerAttr
			}
		case html.TextToken, html.CommentToken:
			c += costPerNode
		}
		if cost+c > limit {
			if tt == html.TextToken {
				// Text may be cut anywhere but inside a character: a
				// page of one huge <pre> keeps what fits of it.
				n := min(int((limit-cost-costPerNode)/costPerByte), raw)
				for n > 0 && n < raw && !utf8.RuneStart(z.Raw()[n]) {
					n--
				}
				if n > 0 {
					return cost + costPerNode + int64(n)*costPerByte, off + n
				}
			}
			return cost, off
		}
		cost += c
		off += raw
	}
}

// extractLimit is the most one page may cost: half the budget.
func (f *Fetcher) extractLimit() int64 { return f.opts.ExtractMemory / 2 }

// incompleteNote ends the content of a page cut to fit the budget.
func incompleteNote(format string, used, total int) string {
	msg := fmt.Sprintf("This page is too large to extract whole: the content above comes from the first %s of its %s of HTML (%d%%); the rest of the page is not included.",
		sizeString(used), sizeString(total), used*100/max(total, 1))
	switch format {
	case "html":
		return "\n<p><em>" + msg + "</em></p>\n"
	case "text":
		return "\n\n[" + msg + "]\n"
	}
	return "\n\n*" + msg + "*\n"
}

func sizeString(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
