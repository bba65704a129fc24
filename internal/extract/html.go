package extract

import (
	"context"
	"errors"
	"fmt"
	nurl "net/url"
	"strings"
	"unicode/utf8"

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
	// Stripping opens the panels a reader opens (closed accordion
	// sections, inactive tabs) as it keeps them; without it they are
	// opened alone, so readability and trafilatura, which drop hidden
	// blocks, read them either way.
	if opts.StripHidden {
		hidden.Strip(doc)
	} else {
		hidden.OpenPanels(doc)
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
	dropRepeatedHeadings(content)
	normalizeCode(content, codeLanguages(doc))
	resolveLazyImages(content)
	absolutize(content, base)
	tidyLinks(content, base)
	if format != HTML {
		joinWrappedLines(content)
	}
	switch format {
	case Text:
		out.Content = renderText(content)
	case HTML:
		out.Content = renderHTML(content)
	default:
		if h := titleHeading(content, meta.Title); h != nil {
			h.Data, h.DataAtom = "h1", atom.H1
		}
		out.Content = renderMarkdown(content, base)
		// Extractors often drop the <h1> because it duplicates <title>;
		// a Markdown reader (usually a model) still wants to know what
		// the page is, so the title heads the document.
		// The page's own <h1> when the title only adds the site's name
		// to it: readability removes the heading that repeats the title.
		if meta.Title != "" && findFirst(content, func(n *html.Node) bool { return isElem(n, atom.H1) }) == nil {
			out.Content = "# " + meta.headline() + "\n\n" + out.Content
		}
	}
	return out, nil
}

// maxTitleLead is how many words may come before a heading that opens
// the content (a breadcrumb's or a kicker's line).
const maxTitleLead = 12

// titleHeading returns the heading that opens content when the page's
// title holds its text and no <h1> is left: readability renames the
// page's <h1> to <h2>, as Readability.js does (the title is shown apart),
// and the Markdown then opened with the title and repeated it at once
// ("# Deploying with Docker | Harbor Docs", "## Deploying with Docker").
// That heading becomes the <h1> instead, and the title is not added.
func titleHeading(content *html.Node, title string) *html.Node {
	title = strings.ToLower(collapseSpace(title))
	if title == "" || findFirst(content, func(n *html.Node) bool { return isElem(n, atom.H1) }) != nil {
		return nil
	}
	var first *html.Node
	lead := 0
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if lead += countWords(c.Data); lead > maxTitleLead {
					return true
				}
			case headingAtoms[c.DataAtom]:
				first = c
				return true
			case c.Type == html.ElementNode:
				if walk(c) {
					return true
				}
			}
		}
		return false
	}
	walk(content)
	if first == nil {
		return nil
	}
	h := strings.ToLower(collapseSpace(textOf(first)))
	if utf8.RuneCountInString(h) < 4 || !containsWords(title, h) {
		return nil
	}
	return first
}

// containsWords reports whether s holds sub as whole words: "go" is in
// "go | the go programming language", not in "google".
func containsWords(s, sub string) bool {
	for i := 0; i <= len(s)-len(sub); {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(sub):])
		if !wordChar(before) && !wordChar(after) {
			return true
		}
		i = j + 1
	}
	return false
}
