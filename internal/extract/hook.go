package extract

import (
	"context"

	"golang.org/x/net/html"
)

// Sanitizer edits a parsed HTML document before extraction reads it.
// Package guard supplies one that removes content a reader of the page
// never sees (comments, hidden and off-screen elements), so that text
// planted for a model does not reach it.
//
// It travels in the context, not in Options, so the fetcher and its
// callers need not know about it: the service's guard layer sets it for
// every fetch, and extraction benchmarks, which call Extract directly,
// run without it.
type Sanitizer func(doc *html.Node)

type sanitizerKey struct{}

// WithSanitizer returns ctx carrying s; Extract runs s on every HTML
// document it parses under the returned context.
func WithSanitizer(ctx context.Context, s Sanitizer) context.Context {
	return context.WithValue(ctx, sanitizerKey{}, s)
}

func sanitize(ctx context.Context, doc *html.Node) {
	if s, _ := ctx.Value(sanitizerKey{}).(Sanitizer); s != nil {
		s(doc)
	}
}
