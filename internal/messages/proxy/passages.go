package proxy

import (
	"context"
	"log/slog"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/search"
)

const (
	// maxPassageRunes caps one passage; long enough for a definition or a
	// code-free paragraph, short enough that three pages stay well under a
	// thousand tokens.
	maxPassageRunes = 420
	// minPassageRunes skips navigation crumbs and headings as candidates.
	minPassageRunes = 40
	// enrichMaxChars bounds what is asked of the fetcher per page.
	enrichMaxChars = 60000
)

// enrich fetches the first n results concurrently and returns the key
// passages of each page that answered before the deadline, keyed by result
// index. It never fails: enrichment is a bonus on top of the results, so
// slow or failing pages are simply left out.
//
// All n fetches run at once (fetch.Each with a limit of n), each sends
// once into a channel buffered for n, so returning early at the deadline
// leaks nothing: the stragglers finish as soon as the fetcher sees the
// cancelled context.
// testHookEnrichPage, when set by a test, is called each time enrich has
// collected a page, so tests can cancel at a known point without timing.
var testHookEnrichPage func(i int)

func enrich(ctx context.Context, f fetch.Getter, log *slog.Logger, query string, results []search.Result, n, perPage int) map[int][]string {
	n = min(n, len(results))
	if n == 0 || f == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type page struct {
		i        int
		passages []string
	}
	ch := make(chan page, n)
	reqs := make([]fetch.Request, n)
	for i := range reqs {
		reqs[i] = fetch.Request{URL: results[i].URL, Format: extract.Text, MaxLength: enrichMaxChars, Render: fetch.RenderAuto}
	}
	go fetch.Each(ctx, f, reqs, n, func(i int, res *fetch.Result, err error) {
		if err != nil {
			log.DebugContext(ctx, "enrichment fetch failed", "url", results[i].URL, "err", err)
			ch <- page{i, nil}
			return
		}
		ch <- page{i, keyPassages(query, res.Content, perPage)}
	}, func(i int) { ch <- page{i, nil} })
	out := make(map[int][]string, n)
	for range n {
		select {
		case p := <-ch:
			if len(p.passages) > 0 {
				out[p.i] = p.passages
			}
			if testHookEnrichPage != nil {
				testHookEnrichPage(p.i)
			}
		case <-ctx.Done():
			return out
		}
	}
	return out
}

// stopwords are dropped from the query before scoring: they match every
// paragraph and would drown the informative terms.
var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "how": true, "in": true, "is": true, "it": true, "of": true, "on": true,
	"or": true, "that": true, "the": true, "this": true, "to": true, "what": true, "when": true,
	"where": true, "which": true, "who": true, "why": true, "with": true, "vs": true, "do": true, "does": true,
}

// queryTerms returns the distinct informative lowercase words of q.
func queryTerms(q string) []string {
	seen := map[string]bool{}
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if utf8.RuneCountInString(w) < 2 || stopwords[w] {
			continue
		}
		w = stem(w)
		if seen[w] {
			continue
		}
		seen[w] = true
		terms = append(terms, w)
	}
	return terms
}

// stem strips a plural "s" so "generics" also matches "generic"; matching
// is by substring, so the stem still matches the plural form.
func stem(w string) string {
	if len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// keyPassages picks up to k passages of content most relevant to query and
// returns them in document order. Relevance is the number of distinct query
// terms a passage contains, then how often they occur: crude next to a
// ranking model, but it costs microseconds and reliably surfaces the
// paragraph that actually talks about the query instead of the page's
// cookie banner. A page where no passage matches contributes its lead
// paragraph, which is usually its summary.
func keyPassages(query, content string, k int) []string {
	cands := splitPassages(content)
	if len(cands) == 0 || k <= 0 {
		return nil
	}
	terms := queryTerms(query)
	type scored struct {
		pos   int
		score float64
	}
	var ranked []scored
	for i, c := range cands {
		lc := strings.ToLower(c)
		var distinct, freq int
		for _, t := range terms {
			if n := strings.Count(lc, t); n > 0 {
				distinct++
				freq += min(n, 3)
			}
		}
		if distinct == 0 {
			continue
		}
		// Ties go to the fuller passage: a 300-character paragraph that
		// mentions the query says more than a one-line aside that does.
		length := float64(min(utf8.RuneCountInString(c), 300)) / 1000
		ranked = append(ranked, scored{i, float64(distinct) + 0.1*float64(freq) + length})
	}
	if len(ranked) == 0 {
		return []string{truncateRunes(cands[0], maxPassageRunes)}
	}
	sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].score > ranked[b].score })
	ranked = ranked[:min(k, len(ranked))]
	sort.Slice(ranked, func(a, b int) bool { return ranked[a].pos < ranked[b].pos })
	out := make([]string, len(ranked))
	for i, r := range ranked {
		out[i] = truncateRunes(cands[r.pos], maxPassageRunes)
	}
	return out
}

// splitPassages cuts extracted text into paragraph-sized candidates with
// whitespace collapsed. Very long paragraphs are cut into sentence groups
// so one wall of text cannot become one enormous passage.
func splitPassages(content string) []string {
	var out, short []string
	for _, para := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		p := strings.Join(strings.Fields(para), " ")
		if p == "" {
			continue
		}
		p = strings.TrimLeft(p, "#>*-• ")
		n := utf8.RuneCountInString(p)
		switch {
		case n < minPassageRunes:
			short = append(short, p)
		case n <= maxPassageRunes:
			out = append(out, p)
		default:
			out = append(out, sentenceGroups(p, maxPassageRunes)...)
		}
	}
	if len(out) == 0 {
		return short
	}
	return out
}

// sentenceGroups splits p at sentence ends into groups of at most limit
// runes (a single overlong sentence becomes its own group and is truncated
// later).
func sentenceGroups(p string, limit int) []string {
	var groups []string
	var cur strings.Builder
	curRunes := 0
	for len(p) > 0 {
		end := sentenceEnd(p)
		s := p[:end]
		p = strings.TrimLeft(p[end:], " ")
		n := utf8.RuneCountInString(s)
		if curRunes > 0 && curRunes+1+n > limit {
			groups = append(groups, cur.String())
			cur.Reset()
			curRunes = 0
		}
		if curRunes > 0 {
			cur.WriteByte(' ')
			curRunes++
		}
		cur.WriteString(s)
		curRunes += n
	}
	if curRunes > 0 {
		groups = append(groups, cur.String())
	}
	return groups
}

// sentenceEnd returns the byte offset just past the first sentence of p.
func sentenceEnd(p string) int {
	for i := 0; i < len(p)-1; i++ {
		if (p[i] == '.' || p[i] == '!' || p[i] == '?') && p[i+1] == ' ' {
			return i + 1
		}
	}
	return len(p)
}

// truncateRunes cuts s to at most n runes, at a word boundary when one is
// near, marking the cut with an ellipsis.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	if i := strings.LastIndexByte(string(r), ' '); i > len(string(r))*3/4 {
		return string(r)[:i] + "…"
	}
	return string(r) + "…"
}
