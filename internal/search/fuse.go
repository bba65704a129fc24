package search

import (
	"net/url"
	"slices"
	"strings"

	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/urlnorm"
)

// rrfK is the reciprocal-rank-fusion constant from Cormack, Clarke and
// Büttcher (2009): a result at rank r in one list scores 1/(rrfK+r). 60
// damps the difference between the top few ranks so that agreement between
// providers outweighs any single provider's ordering.
const rrfK = 60

// clean filters one provider's results through the domain rules, drops
// results without an absolute http(s) URL and de-duplicates by urlnorm.Key, keeping
// the first (best-ranked) occurrence. It never modifies res.
func clean(res []Result, f *domains.Filter, provider string) []Result {
	out := make([]Result, 0, len(res))
	seen := make(map[string]struct{}, len(res))
	for _, r := range res {
		r.URL = strings.TrimSpace(r.URL)
		if !isHTTPURL(r.URL) {
			continue
		}
		// Parse once for both the domain rules and the de-duplication key.
		u, err := url.Parse(r.URL)
		if err != nil || u.Host == "" || !f.AllowURL(u) {
			continue
		}
		k := urlnorm.KeyURL(u)
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		if r.Provider == "" {
			r.Provider = provider
		}
		out = append(out, r)
	}
	return out
}

// isHTTPURL is a cheap check that u is an absolute http(s) URL with
// something after the scheme: a model must never be handed a javascript: or
// relative link, whatever a provider returned.
func isHTTPURL(u string) bool {
	const h, hs = "http://", "https://"
	return len(u) > len(hs) && strings.EqualFold(u[:len(hs)], hs) ||
		len(u) > len(h) && strings.EqualFold(u[:len(h)], h)
}

// finish truncates to n results and renumbers ranks from 1.
func finish(res []Result, n int) []Result {
	if len(res) > n {
		res = res[:n]
	}
	for i := range res {
		res[i].Rank = i + 1
	}
	return res
}

// fused is one URL's accumulated state during fusion.
type fused struct {
	r        Result
	score    float64
	bestRank int
	order    int // first time seen, for a deterministic tie-break
}

// fuse merges cleaned result lists (each already de-duplicated and in rank
// order, listed in chain order) with reciprocal-rank fusion. Duplicates
// across lists merge into one result that keeps the title and provider of
// its best-ranked occurrence, the longest snippet and the first known
// publication time. Ties keep first-seen order, which follows chain order.
func fuse(lists [][]Result) []Result {
	byKey := map[string]*fused{}
	var all []*fused
	for _, list := range lists {
		for i, r := range list {
			rank := i + 1
			k := urlnorm.Key(r.URL)
			f := byKey[k]
			if f == nil {
				f = &fused{r: r, bestRank: rank, order: len(all)}
				byKey[k] = f
				all = append(all, f)
			} else {
				if rank < f.bestRank || f.r.Title == "" && r.Title != "" {
					if rank < f.bestRank {
						f.bestRank = rank
						f.r.URL, f.r.Provider = r.URL, r.Provider
					}
					if r.Title != "" {
						f.r.Title = r.Title
					}
				}
				if len(r.Snippet) > len(f.r.Snippet) {
					f.r.Snippet = r.Snippet
				}
				if f.r.Published.IsZero() && !r.Published.IsZero() {
					f.r.Published = r.Published
				}
				if f.r.PageAge == "" {
					f.r.PageAge = r.PageAge
				}
			}
			f.score += 1.0 / float64(rrfK+rank)
		}
	}
	slices.SortStableFunc(all, func(a, b *fused) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		case a.bestRank != b.bestRank:
			return a.bestRank - b.bestRank
		}
		return a.order - b.order
	})
	out := make([]Result, len(all))
	for i, f := range all {
		out[i] = f.r
	}
	return out
}
