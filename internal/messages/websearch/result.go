package websearch

import (
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

// Payload is what the tool seals into the encrypted_content of hit r of a
// search for query, with the key passages found on its page: everything
// a later turn that sends the block back needs to show the model the same
// result. Its URL, Title and PageAge are also what the block shows
// (seal binds the token to the url and title rather than sealing them).
// Both surfaces seal exactly this, so a result keeps its title, cleaned
// snippet and date whichever surface answered and whichever restores it.
func Payload(r search.Result, query string, passages []string, retrieved time.Time) seal.Result {
	return seal.Result{
		Version: seal.PayloadVersion,
		Query:   query,
		URL:     r.URL,
		Title:   Title(r.Title, r.URL),
		Snippet: OneLine(r.Snippet),
		// page_age: the provider's age string, else the publication date.
		PageAge:  r.Age(),
		Passages: passages,
		Provider: r.Provider,
		// Whole seconds: nanoseconds would lengthen every token.
		Retrieved: retrieved.UTC().Truncate(time.Second),
	}
}

// ResultBlock is the web_search_result a client sees for p, with token
// as its encrypted_content.
func ResultBlock(p *seal.Result, token string) wire.WebSearchResult {
	wr := wire.WebSearchResult{Title: p.Title, URL: p.URL, EncryptedContent: token}
	if p.PageAge != "" {
		age := p.PageAge
		wr.PageAge = &age
	}
	return wr
}

// Title never returns an empty title: clients show titles as the links'
// labels, and an empty one renders as nothing at all. It is kept on one
// line.
func Title(title, rawURL string) string {
	if t := OneLine(title); t != "" {
		return t
	}
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		return u.Host
	}
	return rawURL
}

// OneLine is strings.Join(strings.Fields(s), " "), without allocating
// when s is already collapsed, as snippets and queries usually are.
func OneLine(s string) string {
	prevSpace := true // a leading space needs collapsing too
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if r > ' ' && r < utf8.RuneSelf || !unicode.IsSpace(r) {
			prevSpace = false
			continue
		}
		if r != ' ' || prevSpace {
			return strings.Join(strings.Fields(s), " ")
		}
		prevSpace = true
	}
	if prevSpace && s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}
