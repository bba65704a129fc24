package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"mime"
	"net/http"
	"net/url"
	"strings"

	xhtml "golang.org/x/net/html"

	"github.com/webgate/webgate/internal/charset"
	"github.com/webgate/webgate/internal/extract"
)

// kind is how a body is treated.
type kind int

const (
	kindUnsupported kind = iota
	kindHTML
	kindPDF
	kindMarkdown
	kindJSON
	kindText
)

// classify decides how to treat a body from its declared type (Content-Type,
// RFC 9110 section 8.3, https://www.rfc-editor.org/rfc/rfc9110#section-8.3;
// media type names are case-insensitive) and, when the declaration is
// missing, generic or contradicted by the bytes, from sniffing
// (http.DetectContentType, which implements https://mimesniff.spec.whatwg.org/).
// It returns the media type to report.
func classify(contentType string, body []byte) (kind, string) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = ""
	}
	mt = strings.ToLower(mt)
	// A PDF signature wins over any label: servers mislabel downloads as
	// text/html or octet-stream often enough.
	if bytes.HasPrefix(body, []byte("%PDF-")) {
		return kindPDF, "application/pdf"
	}
	switch mt {
	case "", "application/octet-stream", "binary/octet-stream", "application/x-download", "application/unknown":
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
		if sniffed == "application/octet-stream" || sniffed == "" {
			return kindUnsupported, firstNonEmpty(mt, "application/octet-stream")
		}
		return classifyType(sniffed), sniffed
	}
	k := classifyType(mt)
	if k != kindUnsupported && k != kindPDF && looksBinary(body) {
		// Declared as text but the bytes say otherwise: report what they
		// really are rather than feeding binary to a text pipeline.
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
		if sk := classifyType(sniffed); sk == kindUnsupported || sk == kindPDF {
			return sk, sniffed
		}
	}
	return k, mt
}

func classifyType(mt string) kind {
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return kindHTML
	case mt == "application/pdf" || mt == "application/x-pdf":
		return kindPDF
	case mt == "text/markdown" || mt == "text/x-markdown":
		return kindMarkdown
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return kindJSON
	case strings.HasPrefix(mt, "text/"),
		mt == "application/xml" || strings.HasSuffix(mt, "+xml"),
		mt == "application/javascript", mt == "application/x-javascript", mt == "application/ecmascript",
		mt == "application/x-yaml", mt == "application/yaml", mt == "application/toml",
		mt == "application/x-sh", mt == "application/sql":
		return kindText
	}
	return kindUnsupported
}

// looksBinary reports NUL bytes near the start, which text never has
// (UTF-16 with a byte-order mark aside).
func looksBinary(body []byte) bool {
	if bytes.HasPrefix(body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(body, []byte{0xFE, 0xFF}) {
		return false
	}
	head := body[:min(len(body), 8192)]
	return bytes.IndexByte(head, 0) >= 0
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// convert turns a downloaded page into a Result in j's format. For HTML
// asked as Markdown or text, alt is the page's advertised Markdown
// alternate, if any, for the caller to try.
func (f *Fetcher) convert(ctx context.Context, p *page, j job) (res *Result, alt *url.URL, err error) {
	format := j.format
	where := redactedURL(p.url)
	k, mt := classify(p.contentType, p.body)
	res = &Result{
		FinalURL:    p.url.String(),
		Status:      p.status,
		ContentType: mt,
		Body:        p.body,
		RetrievedAt: f.now().UTC(),
	}
	switch k {
	case kindUnsupported:
		return nil, nil, fmt.Errorf("%s: %w: %s", where, ErrUnsupportedContentType, mt)

	case kindPDF:
		pctx, cancel := context.WithTimeout(ctx, f.opts.PDFTimeout)
		defer cancel()
		doc, err := extract.PDF(pctx, p.body, extract.Options{URL: p.url.String(), Format: format})
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctxError(ctx, where)
			}
			return nil, nil, fmt.Errorf("%s: %w: %v", where, ErrBadContent, err)
		}
		res.Title = doc.Metadata.Title
		res.Metadata = doc.Metadata
		res.Content = doc.Content
		return res, nil, nil

	case kindHTML:
		body, _ := charset.Decode(p.body, p.contentType)
		if format == extract.Markdown || format == extract.Text {
			alt = markdownAlternate(body, p.url)
		}
		// Wait for room in the extraction memory budget (budget.go); the
		// room is held until extraction really returns, even after the
		// caller has gone. A page too large for half the budget is cut.
		weight, cut := htmlCost(body, f.extractLimit())
		if cut == 0 && len(body) > 0 {
			return nil, nil, fmt.Errorf("%s: %w: the page opens with a tag of %s, more than half of fetch.extract_memory can extract",
				where, ErrTooLarge, sizeString(len(body)))
		}
		weight = max(weight, 1)
		if err := f.extracting.Acquire(ctx, weight); err != nil {
			return nil, nil, fmt.Errorf("%w: waited for memory to extract the page (%s of HTML, estimated at %s) while other large pages were extracted",
				ctxError(ctx, where), sizeString(len(body)), sizeString(int(weight)))
		}
		part := body[:cut]
		doc, err := f.extractHTML(ctx, part, extract.Options{URL: p.url.String(), Format: format, StripHidden: j.stripHidden})
		f.extracting.Release(weight)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctxError(ctx, where)
			}
			if errors.Is(err, extract.ErrEmpty) {
				return nil, alt, &shellError{where}
			}
			return nil, nil, fmt.Errorf("%s: %w: %v", where, ErrBadContent, err)
		}
		res.Title = doc.Metadata.Title
		res.Metadata = doc.Metadata
		res.Content = doc.Content
		if cut < len(body) {
			res.Incomplete = true
			if format == extract.Raw {
				res.Content = string(body) // as received: nothing is extracted
			} else {
				res.Content += incompleteNote(string(format), cut, len(body))
			}
			f.log.InfoContext(ctx, "page too large to extract whole", "url", where, "html_bytes", len(body), "extracted_bytes", cut)
		}
		return res, alt, nil
	}

	// Text-like bodies pass through, decoded to UTF-8.
	body, _ := charset.Decode(p.body, p.contentType)
	text := string(body)
	switch k {
	case kindMarkdown:
		res.Title = markdownTitle(text)
	case kindJSON:
		if format == extract.Markdown {
			text = fence("json", text)
		}
	}
	if format == extract.HTML {
		text = "<pre>" + html.EscapeString(text) + "</pre>"
	}
	res.Metadata.Title = res.Title
	res.Content = text
	return res, nil, nil
}

// fence wraps s in a code fence long enough that no backtick run inside it
// closes the fence early.
func fence(lang, s string) string {
	ticks := "```"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	return ticks + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + ticks + "\n"
}

// markdownTitle is the first ATX level-1 heading, if it comes early.
func markdownTitle(s string) string {
	for i, line := range strings.SplitN(s, "\n", 40) {
		if i == 39 {
			break
		}
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}

// markdownAlternate finds <link rel="alternate" type="text/markdown"
// href="..."> in the document head. Only the head is tokenised (bounded to
// 256 KiB), since the link must be there and pages can be large.
func markdownAlternate(body []byte, base *url.URL) *url.URL {
	z := xhtml.NewTokenizer(bytes.NewReader(body[:min(len(body), 256<<10)]))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return nil
		case xhtml.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return nil
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return nil
			case "link":
			default:
				continue
			}
			var rel, typ, href string
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "rel":
					rel = string(v)
				case "type":
					typ = string(v)
				case "href":
					href = string(v)
				}
			}
			if !hasToken(rel, "alternate") || href == "" {
				continue
			}
			mt, _, err := mime.ParseMediaType(typ)
			if err != nil || (mt != "text/markdown" && mt != "text/x-markdown") {
				continue
			}
			u, err := base.Parse(strings.TrimSpace(href))
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
				continue
			}
			return u
		}
	}
}

func hasToken(list, tok string) bool {
	for f := range strings.FieldsSeq(list) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}

// fetchMarkdownAlternate fetches an advertised Markdown version of a page
// with the full set of checks. It succeeds only for a Markdown (or plain
// text) answer with some content: an HTML error page behind a 200 must not
// replace a good extraction.
func (f *Fetcher) fetchMarkdownAlternate(ctx context.Context, alt *url.URL) (*Result, error) {
	u, err := f.checkURL(alt.String())
	if err != nil {
		return nil, err
	}
	p, err := f.download(ctx, u, "text/markdown, text/plain;q=0.5")
	if err != nil {
		return nil, err
	}
	k, mt := classify(p.contentType, p.body)
	if k != kindMarkdown && k != kindText {
		return nil, fmt.Errorf("%w: alternate is %s, not markdown", ErrUnsupportedContentType, mt)
	}
	body, _ := charset.Decode(p.body, p.contentType)
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("%w: alternate is empty", ErrBadContent)
	}
	return &Result{
		ContentType: "text/markdown",
		Content:     string(body),
		RetrievedAt: f.now().UTC(),
	}, nil
}

// shellError is an HTML page without readable text: most often the shell
// of an application that builds its content with JavaScript. It wraps
// ErrBadContent, and errShell so auto mode can render it.
type shellError struct{ where string }

func (e *shellError) Error() string {
	return e.where + ": " + ErrBadContent.Error() + ": the page has no readable text; it may build its content with JavaScript"
}

func (e *shellError) Unwrap() []error { return []error{ErrBadContent, errShell} }
