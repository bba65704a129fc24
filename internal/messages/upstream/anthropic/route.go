package anthropic

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrPathNotServed is a request path passthrough does not forward.
var ErrPathNotServed = errors.New("not a Messages API path webgate forwards")

// routes are the Messages API paths webgate forwards, one segment per
// element; "{id}" stands for one id segment (a model id, a batch id).
// Anthropic's API reference lists them under Messages (create, count
// tokens, message batches) and Models:
// https://docs.anthropic.com/en/api/messages,
// https://docs.anthropic.com/en/api/messages-count-tokens,
// https://docs.anthropic.com/en/api/creating-message-batches,
// https://docs.anthropic.com/en/api/models-list. Every other upstream
// path (files, skills, organization administration) is out of reach: the forwarded
// request may carry upstream.api_key, which those paths must not get
// from a client whose key only allows the Messages API.
var routes = [][]string{
	{"v1", "messages"},
	{"v1", "messages", "count_tokens"},
	{"v1", "messages", "batches"},
	{"v1", "messages", "batches", "{id}"},
	{"v1", "messages", "batches", "{id}", "cancel"},
	{"v1", "messages", "batches", "{id}", "results"},
	{"v1", "models"},
	{"v1", "models", "{id}"},
}

// maxIDLen bounds an id segment.
const maxIDLen = 256

// Route checks a request's escaped path (url.URL.EscapedPath) against the
// paths webgate forwards and returns the path to send upstream, decoded
// and clean. Each segment is unescaped on its own, so an encoded dot
// segment (%2e%2e; dot segments: RFC 3986 section 3.3,
// https://www.rfc-editor.org/rfc/rfc3986#section-3.3) or slash (%2F) is
// seen for what it is and refused, as are empty segments: ids are
// limited to letters, digits and "._~:@+-",
// and may not be "." or "..", so nothing an upstream (or a proxy in front
// of it) decodes or normalises later can climb out of the route.
func Route(escaped string) (string, error) {
	rest, ok := strings.CutPrefix(escaped, "/")
	if !ok {
		return "", fmt.Errorf("%q: %w", escaped, ErrPathNotServed)
	}
	segs := strings.Split(rest, "/")
	if len(segs) > 5 {
		return "", fmt.Errorf("%q: %w", escaped, ErrPathNotServed)
	}
	for i, s := range segs {
		d, err := url.PathUnescape(s)
		if err != nil || !validSegment(d) {
			return "", fmt.Errorf("%q: %w", escaped, ErrPathNotServed)
		}
		segs[i] = d
	}
	for _, r := range routes {
		if matches(r, segs) {
			return "/" + strings.Join(segs, "/"), nil
		}
	}
	return "", fmt.Errorf("%q: %w", escaped, ErrPathNotServed)
}

func matches(route, segs []string) bool {
	if len(route) != len(segs) {
		return false
	}
	for i, r := range route {
		if r != "{id}" && r != segs[i] {
			return false
		}
	}
	return true
}

// validSegment reports whether s may be a path segment: non-empty, not a
// dot segment, of at most maxIDLen characters from the id alphabet.
func validSegment(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > maxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("._~:@+-", c) >= 0:
		default:
			return false
		}
	}
	return true
}
