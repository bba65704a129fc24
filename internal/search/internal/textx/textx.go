// Package textx normalises the text and dates search APIs return.
package textx

import (
	"strings"
	"time"

	"golang.org/x/net/html"
)

// Clean turns a snippet that may carry HTML highlights (<strong>, <b>) and
// entities into plain text with collapsed whitespace. It uses a real HTML
// tokenizer rather than a regexp so that text such as "a < b" survives.
func Clean(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return collapse(s)
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return collapse(b.String())
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			// Block-level breaks would otherwise glue words together.
			name, _ := z.TagName()
			switch string(name) {
			case "br", "p", "div", "li":
				b.WriteByte(' ')
			}
		}
	}
}

func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// layouts are the date formats seen in provider payloads, most specific
// first.
var layouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.9999999", // Brave page_age, DuckDuckGo, SearXNG (no zone: UTC)
	"2006-01-02 15:04:05",
	time.DateOnly,
	"Jan 2, 2006", // Google / Serper / SerpAPI "date"
	"January 2, 2006",
	"2 Jan 2006",
	"02 Jan 2006",
	time.RFC1123Z,
	time.RFC1123,
}

// ParseTime parses a provider date string, returning the zero time when the
// string is empty or not a date (e.g. a relative age like "3 days ago",
// which providers report as PageAge instead). Zone-less times are UTC.
func ParseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
