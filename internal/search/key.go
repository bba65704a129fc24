package search

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// keyVersion prefixes every cache key so a change to the key layout (or to
// Response) never reads entries written by an older build from a shared
// cache tier.
const keyVersion = "s1\x00"

// keyBufs recycles key-building buffers: building a key then costs one
// allocation, the final string.
var keyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// cacheKey returns the key under which q's response is cached and under
// which concurrent identical misses are coalesced. q must already be
// validated and defaulted (trimmed text, clamped MaxResults). Text is
// lower-cased with whitespace runs collapsed; domain lists are sorted so
// their order does not matter; every other option is included verbatim.
// Fields are separated by 0x00, which cannot appear in any of them after
// validation, so distinct queries cannot collide.
func (e *Engine) cacheKey(q *Query) string {
	bp := keyBufs.Get().(*[]byte)
	b := append((*bp)[:0], keyVersion...)
	b = append(b, e.opts.Mode...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(e.fanOut), 10)
	b = append(b, 0)
	b = appendFolded(b, q.Text)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(q.MaxResults), 10)
	b = append(b, 0)
	b = append(b, q.Provider...)
	b = append(b, 0)
	b = append(b, q.Freshness...)
	b = append(b, 0)
	b = append(b, q.SafeSearch...)
	b = append(b, 0)
	b = appendFolded(b, q.Language)
	b = append(b, 0)
	b = appendFolded(b, q.Location.Country)
	b = append(b, 0)
	b = appendFolded(b, q.Location.Region)
	b = append(b, 0)
	b = appendFolded(b, q.Location.City)
	b = append(b, 0)
	b = append(b, q.Location.Timezone...)
	b = append(b, 0, 'a')
	b = appendSorted(b, q.AllowedDomains)
	b = append(b, 0, 'b')
	b = appendSorted(b, q.BlockedDomains)
	k := string(b)
	*bp = b
	keyBufs.Put(bp)
	return k
}

// appendFolded appends s lower-cased with runs of white space collapsed to
// one space. It has an allocation-free ASCII fast path.
func appendFolded(b []byte, s string) []byte {
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
				space = true
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			if space {
				b = append(b, ' ')
				space = false
			}
			b = append(b, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return b
}

// appendSorted appends the trimmed entries of list in sorted order,
// separated by 0x1f. Lists of zero or one entry (the usual case) need no
// copy.
func appendSorted(b []byte, list []string) []byte {
	switch len(list) {
	case 0:
		return b
	case 1:
		return append(b, strings.TrimSpace(list[0])...)
	}
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = strings.TrimSpace(v)
	}
	slices.Sort(s)
	for i, v := range s {
		if i > 0 {
			b = append(b, 0x1f)
		}
		b = append(b, v...)
	}
	return b
}
