package proxy

import (
	"context"
	"hash/maphash"
	"slices"
	"strconv"
	"time"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/search"
)

// Composed answers are kept for a while so that a repeated search (the
// search engine's cache hit) reuses its sealed results and citations and
// its digest instead of composing and sealing them again, which is most
// of the fast path's own work. Only the ids, usage and framing are new in
// each response.
//
// Reusing a token is safe: it is the same authenticated encryption of the
// same plaintext, handed out again; nothing about the key or nonce is
// weakened by a ciphertext being seen twice. The one visible effect is
// that the sealed "retrieved" time is when the answer was first composed,
// at most answerTTL ago. Likewise the digest's untrusted-content
// boundaries keep the nonce drawn when the answer was composed: it still
// came after the content it encloses was fixed, which is all the nonce
// needs (a page cannot guess it in advance), and a reused answer encloses
// exactly that content again.
const (
	answerCacheSize = 256
	answerTTL       = 10 * time.Minute
)

// answers caches composed answers by a hash of everything that
// determines them.
type answers struct {
	seed maphash.Seed
	c    *cache.Local[*cachedAnswer]
}

// cachedAnswer is a composed answer with the inputs it was composed from,
// compared in full on lookup so that a hash collision can never serve
// another search's answer.
type cachedAnswer struct {
	query            string
	allowed, blocked []string
	results          []search.Result
	passages         map[int][]string
	ans              *composed
	expires          time.Time
}

func newAnswers() *answers {
	return &answers{seed: maphash.MakeSeed(), c: cache.NewLocal[*cachedAnswer](answerCacheSize)}
}

// cacheable reports whether o's answer is worth keeping: a failed or empty
// search is cheap to answer and may well change on the next try.
func cacheable(o *outcome) bool { return o.err == nil && len(o.results) > 0 }

func (a *answers) key(call *searchCall, o *outcome) string {
	var h maphash.Hash
	h.SetSeed(a.seed)
	str := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	str(call.Query)
	for _, d := range call.Tool.AllowedDomains {
		str(d)
	}
	h.WriteByte(1)
	for _, d := range call.Tool.BlockedDomains {
		str(d)
	}
	h.WriteByte(1)
	for i, r := range o.results {
		str(r.Title)
		str(r.URL)
		str(r.Snippet)
		str(r.PageAge)
		str(r.Provider)
		for _, p := range o.passages[i] {
			str(p)
		}
		h.WriteByte(1)
	}
	var k [16]byte
	return string(strconv.AppendUint(k[:0], h.Sum64(), 36))
}

// get returns the cached answer for call and o, or nil, and the key to
// store a new answer under ("" when it should not be kept). Only a search
// the engine answered from its cache is looked up and kept: a fresh
// provider answer is almost always a one-off.
// now is the time of the request, for the answers' lifetime.
func (a *answers) get(ctx context.Context, call *searchCall, o *outcome, now time.Time) (*composed, string) {
	if !cacheable(o) || !o.cached {
		return nil, ""
	}
	key := a.key(call, o)
	e, ok := a.c.Get(ctx, key)
	if !ok || !now.Before(e.expires) || !e.matches(call, o) {
		return nil, key
	}
	return e.ans, key
}

// put caches ans under key (from get).
func (a *answers) put(ctx context.Context, key string, call *searchCall, o *outcome, ans *composed, now time.Time) {
	if key == "" {
		return
	}
	e := &cachedAnswer{
		query: call.Query, allowed: call.Tool.AllowedDomains, blocked: call.Tool.BlockedDomains,
		results: o.results, passages: o.passages, ans: ans, expires: now.Add(answerTTL),
	}
	a.c.Set(ctx, key, e, answerTTL)
}

func (e *cachedAnswer) matches(call *searchCall, o *outcome) bool {
	if e.query != call.Query || !slices.Equal(e.allowed, call.Tool.AllowedDomains) ||
		!slices.Equal(e.blocked, call.Tool.BlockedDomains) || !slices.Equal(e.results, o.results) {
		return false
	}
	for i := range o.results {
		if !slices.Equal(e.passages[i], o.passages[i]) {
			return false
		}
	}
	return true
}
