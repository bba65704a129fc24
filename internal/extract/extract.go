// Package extract turns fetched documents (HTML, PDF, text) into clean,
// faithful Markdown or text for a model to read.
package extract

import (
	"errors"
	"time"
)

// Format is the output format of extracted content.
type Format string

// Formats.
const (
	// Markdown is main content as GitHub-flavoured Markdown (the default).
	Markdown Format = "markdown"
	// Text is main content as plain text.
	Text Format = "text"
	// HTML is the cleaned main-content HTML.
	HTML Format = "html"
	// Raw is the document as received, decoded to UTF-8.
	Raw Format = "raw"
)

// ParseFormat validates s, mapping "" to Markdown.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case "":
		return Markdown, nil
	case Markdown, Text, HTML, Raw:
		return f, nil
	}
	return "", errors.New(`format must be one of markdown, text, html, raw`)
}

// Metadata describes a document.
type Metadata struct {
	Title        string    `json:"title,omitempty"`
	Author       string    `json:"author,omitempty"`
	Published    time.Time `json:"published,omitzero"`
	Language     string    `json:"language,omitempty"`
	CanonicalURL string    `json:"canonical_url,omitempty"`
	SiteName     string    `json:"site_name,omitempty"`
	Description  string    `json:"description,omitempty"`
	// Paywalled reports that the publisher marks the page's article as
	// for subscribers only (schema.org isAccessibleForFree false, the
	// markup search engines ask paywalled sites for): the page may carry
	// only the article's free part.
	Paywalled bool `json:"paywalled,omitempty"`
}

// Document is the result of extraction.
type Document struct {
	Metadata Metadata
	// Content is the main content in the requested Format.
	Content string
	Format  Format
}

// Options controls extraction.
type Options struct {
	// URL is the document's URL, used to resolve relative links and for
	// site-specific rules. It may be empty.
	URL string
	// Format is the output format; "" means Markdown.
	Format Format
	// StripHidden removes what a reader of the page never sees (comments,
	// hidden and off-screen elements, invisible text; see package hidden)
	// before anything else reads the document, so that text planted for a
	// model does not reach it. The content guard turns it on for every
	// fetch through fetch.Request.StripHidden (guard.content.strip_hidden).
	StripHidden bool
}
