// Package httplog lets a handler add facts to the one access-log line the
// server writes for each request.
//
// A busy surface (Claude Code's search fast path answers thousands of
// requests a second) would otherwise log twice per request: the server's
// access line and the handler's own line about what it did. Formatting and
// writing a line is a measurable share of such a request's cost, and one
// line per request is also easier to read and to ship.
package httplog

import (
	"log/slog"
	"net/http"
)

// Annotator is implemented by the access logger's response writer.
type Annotator interface {
	// LogAttrs returns the extra attributes of the request's access-log
	// line, for Annotate to append to. Their capacity bounds how many a
	// handler may add; Annotate never grows it.
	//
	// (A pointer to the logger's slice, not a method taking the
	// attributes: attributes passed through an interface method escape to
	// the heap, and this runs on every request of the busiest surface.)
	LogAttrs() *[]slog.Attr
}

// maxUnwrap bounds the walk through wrapping response writers.
const maxUnwrap = 8

// Annotate adds attrs to the access-log line of the request w answers and
// reports whether anything will log them. When it returns false (no access
// logger wraps w, as in tests or a handler mounted elsewhere), the caller
// should log the facts itself.
func Annotate(w http.ResponseWriter, attrs ...slog.Attr) bool {
	for range maxUnwrap {
		switch x := w.(type) {
		case Annotator:
			p := x.LogAttrs()
			n := min(len(attrs), cap(*p)-len(*p))
			*p = append(*p, attrs[:n]...)
			return true
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return false
		}
	}
	return false
}
