package emulate

import (
	"regexp"
	"strings"

	"github.com/webgate/webgate/internal/urlnorm"
)

// Bounds on what one conversation tracks, so a hostile history cannot make
// a request hold unbounded state.
const (
	maxTrackedURLs   = 20000
	maxSourcesPerURL = 8
)

// Conversation is the per-request state the tools share: the URLs the
// conversation has mentioned so far (web_fetch may only fetch those) and
// the numbered sources the model may cite.
type Conversation struct {
	urls map[string][]URLSource
	// Sources are numbered from 1 in order of appearance; Sources[i] is
	// cited as [i+1].
	Sources []Source
	docs    int
}

// AddURL records that u appeared in the conversation from src. URLs are
// compared by urlnorm.Key, so the model may fetch a mentioned page with
// the scheme, "www." or a trailing slash changed.
func (c *Conversation) AddURL(u string, src URLSource) {
	k := urlnorm.Key(u)
	if k == "" {
		return
	}
	if c.urls == nil {
		c.urls = map[string][]URLSource{}
	}
	have, ok := c.urls[k]
	if !ok && len(c.urls) >= maxTrackedURLs {
		return
	}
	for _, s := range have {
		if s == src {
			return
		}
	}
	if len(have) < maxSourcesPerURL {
		c.urls[k] = append(have, src)
	}
}

// AddText records every URL written in text.
func (c *Conversation) AddText(text string, src URLSource) {
	for _, u := range URLsIn(text) {
		c.AddURL(u, src)
	}
}

// Seen reports whether u appeared in the conversation from a source that
// accept allows (nil accepts every source).
func (c *Conversation) Seen(u string, accept func(URLSource) bool) bool {
	for _, s := range c.urls[urlnorm.Key(u)] {
		if accept == nil || accept(s) {
			return true
		}
	}
	return false
}

// AddSources numbers srcs, records them and their URLs, and returns the
// numbered copies.
func (c *Conversation) AddSources(tool string, srcs []Source) []Source {
	out := make([]Source, len(srcs))
	for i, s := range srcs {
		s.Number = len(c.Sources) + 1
		if s.Kind == KindWebFetch {
			s.DocumentIndex = c.docs
			c.docs++
		}
		c.Sources = append(c.Sources, s)
		c.AddURL(s.URL, URLSource{Origin: FromServerTool, Tool: tool})
		out[i] = s
	}
	return out
}

// Source returns source number n (1-based), or nil.
func (c *Conversation) Source(n int) *Source {
	if n < 1 || n > len(c.Sources) {
		return nil
	}
	return &c.Sources[n-1]
}

// urlPattern finds absolute http(s) URLs in free text. Markdown links,
// angle brackets and quotes end a URL; trailing punctuation is trimmed by
// trimURL.
var urlPattern = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"'\x60\[\]{}|\\^]+`)

// maxURLsPerText bounds the URLs taken from one text.
const maxURLsPerText = 2000

// URLsIn returns the http(s) URLs written in text, in order.
func URLsIn(text string) []string {
	if !strings.Contains(text, "://") {
		return nil
	}
	var out []string
	for _, m := range urlPattern.FindAllString(text, maxURLsPerText) {
		if u := trimURL(m); len(u) > len("https://") {
			out = append(out, u)
		}
	}
	return out
}

// trimURL drops punctuation that ends a sentence rather than the URL, and
// a closing parenthesis that has no opening one inside the URL (a URL in
// parentheses, as opposed to Wikipedia's "Go_(language)").
func trimURL(u string) string {
	for len(u) > 0 {
		last := u[len(u)-1]
		switch {
		case strings.IndexByte(".,;:!?*'", last) >= 0:
			u = u[:len(u)-1]
		case last == ')' && strings.Count(u, "(") < strings.Count(u, ")"):
			u = u[:len(u)-1]
		default:
			return u
		}
	}
	return u
}
