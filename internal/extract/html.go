package extract

import (
	"context"
	"errors"
	"fmt"
	nurl "net/url"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webgate/webgate/internal/extract/hidden"
)

// ErrEmpty is returned when a page has no extractable text at all.
var ErrEmpty = errors.New("no readable content")

// Extract turns an HTML page (already decoded to UTF-8 by the caller) into
// its main content in opts.Format, with metadata. It never touches the
// network; opts.URL only resolves relative links and feeds page-type rules.
func Extract(ctx context.Context, body []byte, opts Options) (*Document, error) {
	format := opts.Format
	if format == "" {
		format = Markdown
	}
	if _, err := ParseFormat(string(format)); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var base *nurl.URL
	if opts.URL != "" {
		if u, err := nurl.Parse(opts.URL); err == nil && u.IsAbs() {
			base = u
		}
	}
	doc, err := parseHTML(body)
	if err != nil {
		return nil, fmt.Errorf("extract: parse html: %w", err)
	}
	// The parts a streaming React page sends after its shell move into
	// place first, as the page's own inline scripts move them
	// (streamed.go): every reader sees them there, so they are not
	// hidden content, and its boundaries are comments hidden.Strip and
	// prepareDoc drop.
	resolveStreamed(doc)
	if opts.StripHidden {
		hidden.Strip(doc)
	}
	meta := extractMetadata(doc, base)
	prepareDoc(doc)
	out := &Document{Metadata: meta.Metadata, Format: format}
	if format == Raw {
		out.Content = string(body)
		return out, nil
	}
	content := mainContent(ctx, doc, base, meta)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if content == nil || wordCount(content) == 0 {
		return nil, ErrEmpty
	}
	dropTrailingContents(content, base)
	normalizeCode(content, codeLanguages(doc))
	resolveLazyImages(content)
	absolutize(content, base)
	tidyLinks(content, base)
	switch format {
	case Text:
		out.Content = renderText(content)
	case HTML:
		out.Content = renderHTML(content)
	default:
		out.Content = renderMarkdown(content, base)
		// Extractors often drop the <h1> because it duplicates <title>;
		// a Markdown reader (usually a model) still wants to know what
		// the page is, so the title heads the document.
		if meta.Title != "" && findFirst(content, func(n *html.Node) bool { return isElem(n, atom.H1) }) == nil {
			out.Content = "# " + meta.Title + "\n\n" + out.Content
		}
	}
	return out, nil
}
