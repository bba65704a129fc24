package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	nurl "net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"codeberg.org/readeck/go-readability/v2"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/webgate/webgate/internal/charset"
)

// The scorers below re-implement ../shared/tools/extract-eval in process,
// so a change can be scored on every page in seconds instead of spawning a
// process per page. extract-eval stays the reference for published figures.

var (
	evalFull = flag.Bool("eval", false, "TestEval: score every page of every dataset and print the report")
	evalOut  = flag.String("eval.out", "", "TestEval: write per-page scores as JSON lines to this file")
	evalSets = flag.String("eval.sets", "aeb,wcxb-dev,mozilla", "TestEval: comma-separated datasets to score")
	// The baselines triple the run's time; without them there are no
	// differences and no catastrophic-loss counts.
	evalBaselines = flag.Bool("eval.baselines", true, "TestEval: also score go-trafilatura (with fallback) and go-readability on the same pages")
	evalBase      = flag.String("eval.base", "", "TestEval: per-page scores of an earlier run (-eval.out) to compare webgate's against")
	// The held-out news set has many older pages that declare nothing;
	// the dev sets' articles nearly all declare themselves.
	evalUndeclared = flag.Bool("eval.undeclared", false, "TestEval: score the articles only (AEB, WCXB-dev's articles, Mozilla), each stripped of what declares it an article (og:type and dates in <meta>, JSON-LD, microdata types, hAtom classes), as older pages come")
	// Sites built with CSS modules or CSS-in-JS ship class names such as
	// "css-53u6y8" and "ArticleBody_x7Yz2": every rule that reads a name
	// ("related", "share", "author") is blind on them.
	evalAnonymous = flag.Bool("eval.anonymous", false, "TestEval: replace every class and id value with an opaque hash (equal names stay equal), as sites built with CSS modules or CSS-in-JS ship them")
	// Pages written before HTML5 mark their parts with <div> and class
	// names only; a rule that leans on <article>, <main> or <nav> is
	// blind on them.
	evalHTML4 = flag.Bool("eval.html4", false, "TestEval: rewrite HTML5's sectioning elements (article, main, nav, header, footer, aside, section, figure, figcaption) as a <div> of that class and drop ARIA roles, as pages written before HTML5 come")
	// web_fetch strips hidden content before extraction by default
	// (guard.content.strip_hidden); `webgate extract` only with
	// --strip-hidden.
	evalForeign       = flag.Bool("eval.foreign", false, "TestEval: rewrite every page's words, its reference's and its snippets' into a made-up language (eval_foreign_test.go), as pages in a language no rule knows come")
	evalForeignScript = flag.String("eval.foreign.script", "latin", "TestEval: with -eval.foreign, the script the made-up language is written in: latin, cyrillic, greek, or han (ideographs, no spaces between words)")
	evalStripHidden   = flag.Bool("eval.striphidden", false, "TestEval: extract as web_fetch does by default, with hidden content stripped first (Options.StripHidden)")
)

// Declarations -eval.undeclared removes.
var (
	declaredMeta  = regexp.MustCompile(`(?is)<meta[^>]+(og:type|article:published_time|name="date"|name="pubdate")[^>]*>`)
	declaredLD    = regexp.MustCompile(`(?is)<script[^>]+application/ld\+json[^>]*>.*?</script>`)
	declaredItem  = regexp.MustCompile(`(?i)itemtype="[^"]*"`)
	declaredEntry = regexp.MustCompile(`\b(hentry|h-entry)\b`)
)

// namedAttr is a class or id attribute, quoted either way.
var namedAttr = regexp.MustCompile(`(?i)(\s(?:class|id)\s*=\s*)("[^"]*"|'[^']*')`)

// anonymous returns a page's HTML with each class and id token replaced
// by a hash of it: the page keeps its structure, and elements that share
// a name still share one, but no name says what an element is.
func anonymous(body []byte) []byte {
	return namedAttr.ReplaceAllFunc(body, func(m []byte) []byte {
		sub := namedAttr.FindSubmatch(m)
		val := sub[2][1 : len(sub[2])-1]
		var out []byte
		for _, tok := range strings.Fields(string(val)) {
			h := fnv.New32a()
			h.Write([]byte(tok))
			out = fmt.Appendf(out, " x%07x", h.Sum32()&0xfffffff)
		}
		return slices.Concat(sub[1], []byte{'"'}, bytes.TrimSpace(out), []byte{'"'})
	})
}

// html4Open and html4Close are an HTML5 sectioning element's start and
// end tags, html4Class a class attribute and html4Role an ARIA role.
var (
	html4Open  = regexp.MustCompile(`(?i)<(article|main|nav|header|footer|aside|section|figure|figcaption)(\s[^>]*)?>`)
	html4Close = regexp.MustCompile(`(?i)</(article|main|nav|header|footer|aside|section|figure|figcaption)\s*>`)
	html4Class = regexp.MustCompile(`(?i)\sclass\s*=\s*("|')`)
	html4Role  = regexp.MustCompile(`(?i)\srole\s*=\s*("[^"]*"|'[^']*')`)
)

// html4 returns a page's HTML as a page written before HTML5 would have
// it. HTML5 named its sectioning elements after the class names pages
// used most (header, footer, nav, article, aside, section; Google's 2005
// survey of class names informed the choice), so each becomes a <div>
// that carries its name as its first class, its other attributes kept.
// ARIA's landmark roles came later still, and go.
func html4(body []byte) []byte {
	body = html4Close.ReplaceAll(body, []byte("</div>"))
	body = html4Open.ReplaceAllFunc(body, func(m []byte) []byte {
		sub := html4Open.FindSubmatch(m)
		name, attrs := strings.ToLower(string(sub[1])), sub[2]
		if loc := html4Class.FindIndex(attrs); loc != nil {
			return slices.Concat([]byte("<div"), attrs[:loc[1]], []byte(name+" "), attrs[loc[1]:], []byte(">"))
		}
		return slices.Concat([]byte(`<div class="`+name+`"`), attrs, []byte(">"))
	})
	return html4Role.ReplaceAll(body, nil)
}

// undeclared returns a page's HTML without the declarations that tell
// an article from other pages.
func undeclared(body []byte) []byte {
	body = declaredMeta.ReplaceAll(body, nil)
	body = declaredLD.ReplaceAll(body, nil)
	body = declaredItem.ReplaceAll(body, nil)
	return declaredEntry.ReplaceAll(body, []byte("post"))
}

// evalTokens are lower-cased \w+ runs, as Python's re.UNICODE \w.
func evalTokens(s string, lower bool) []string {
	if lower {
		s = strings.ToLower(s)
	}
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_'
	})
}

// evalWordF1 is extract-eval's word_f1: multiset overlap of tokens.
func evalWordF1(pred, ref string) (f, p, r float64) {
	pt, rt := evalTokens(pred, true), evalTokens(ref, true)
	if len(rt) == 0 && len(pt) == 0 {
		return 1, 1, 1
	}
	if len(pt) == 0 || len(rt) == 0 {
		return 0, 0, 0
	}
	rc := map[string]int{}
	for _, t := range rt {
		rc[t]++
	}
	o := 0
	for _, t := range pt {
		if rc[t] > 0 {
			rc[t]--
			o++
		}
	}
	p, r = float64(o)/float64(len(pt)), float64(o)/float64(len(rt))
	if p+r == 0 {
		return 0, p, r
	}
	return 2 * p * r / (p + r), p, r
}

// evalAEBPage is extract-eval's aeb_page: case-kept 4-word shingles,
// returned as normalised (tp, fp, fn).
func evalAEBPage(ref, pred string) [3]float64 {
	sh := func(s string) map[string]int {
		t := evalTokens(s, false)
		m := map[string]int{}
		if len(t) == 0 {
			return m
		}
		for i := 0; i < max(1, len(t)-3); i++ {
			m[strings.Join(t[i:min(len(t), i+4)], "\x00")]++
		}
		return m
	}
	a, b := sh(ref), sh(pred)
	var tp, fp, fn float64
	for k, x := range a {
		y := b[k]
		tp += float64(min(x, y))
		fn += float64(max(0, x-y))
	}
	for k, y := range b {
		fp += float64(max(0, y-a[k]))
	}
	s := tp + fp + fn
	if s == 0 {
		return [3]float64{}
	}
	return [3]float64{tp / s, fp / s, fn / s}
}

// evalAEBScore is extract-eval's aeb_score: F1 of mean precision and mean
// recall over pages.
func evalAEBScore(rows [][3]float64) (f, p, r float64) {
	var ps, rs []float64
	for _, x := range rows {
		tp, fp, fn := x[0], x[1], x[2]
		if tp+fp > 0 {
			ps = append(ps, tp/(tp+fp))
		}
		if tp+fn > 0 {
			rs = append(rs, tp/(tp+fn))
		}
	}
	p, r = mean(ps), mean(rs)
	if p+r == 0 {
		return 0, p, r
	}
	return 2 * p * r / (p + r), p, r
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// evalHTMLText is extract-eval's html_text for Mozilla's expected.html:
// text outside script/style, a newline before each block start tag.
func evalHTMLText(b []byte) string {
	z := html.NewTokenizer(bytes.NewReader(b))
	var out strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out.String()
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				skip++
			case "p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "pre":
				out.WriteByte('\n')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if n := string(name); (n == "script" || n == "style") && skip > 0 {
				skip--
			}
		case html.TextToken:
			if skip == 0 {
				out.Write(z.Text())
			}
		}
	}
}

// evalHalf splits pages into two stable halves by a hash of their id, so a
// rule tuned on one half can be checked on the other.
func evalHalf(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() & 1)
}

// The extractors TestEval scores. webgate is Extract as text, what
// extract-eval feeds the scorer; the baselines are the two libraries
// webgate builds on, called as a plain user of each would call it
// (the commands in docs/benchmarks.md, "Reproduce"), so their figures
// come from the same run, on the same machine, as webgate's.
const (
	extWebgate     = "webgate"
	extTrafilatura = "trafilatura" // go-trafilatura v1.12.2 with EnableFallback
	extReadability = "readability" // readeck go-readability v2.1.1
)

var baselineNames = []string{extTrafilatura, extReadability}

func runWebgate(p benchPage) (string, error) {
	// As `webgate extract` reads a file (internal/cli/extract.go).
	body, _ := charset.Decode(p.body, "")
	doc, err := Extract(context.Background(), body, Options{URL: p.url, Format: Text, StripHidden: *evalStripHidden})
	if err != nil {
		return "", err
	}
	return doc.Content, nil
}

// runTrafilatura is go-trafilatura with its fallback extractors, printing
// the content and then the comments. Its metadata and language detection
// are skipped: webgate's copy guarantees they change nothing in the
// content (third_party/go-trafilatura/FORK.md), and they cost a fifth of
// the time.
func runTrafilatura(p benchPage) (string, error) {
	u, _ := nurl.Parse(p.url)
	res, err := trafilatura.Extract(bytes.NewReader(p.body), trafilatura.Options{OriginalURL: u, EnableFallback: true, SkipMetadata: true})
	if err != nil {
		return "", err
	}
	if res.CommentsText != "" {
		return res.ContentText + "\n" + res.CommentsText, nil
	}
	return res.ContentText, nil
}

func runReadability(p benchPage) (string, error) {
	u, _ := nurl.Parse(p.url)
	art, err := readability.FromReader(bytes.NewReader(p.body), u)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := art.RenderText(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// extScore is one extractor's score on one page.
type extScore struct {
	F1, P, R float64
	// AEB holds the normalised shingle counts (tp, fp, fn) on AEB pages,
	// whose set score is not a mean of page F1s.
	AEB [3]float64 `json:",omitempty"`
	// Snip counts WCXB's snippets, as extract-eval does: "with" snippets
	// found and missed, "without" snippets found and absent (each a
	// case-insensitive substring of the output). The held-out news and
	// blog set is scored this way.
	Snip  [4]int `json:",omitempty"`
	Words int    // words in the output
	Err   string `json:",omitempty"`
}

// pageScore is one page's scores. webgate's are the embedded fields (the
// layout of -eval.out files from before baselines were scored, so older
// runs still serve as -eval.base); the baselines' are in Baselines.
type pageScore struct {
	Set, ID, Type string
	Half          int
	extScore
	Baselines map[string]extScore `json:",omitempty"`
}

func scoreText(p benchPage, text string, err error) extScore {
	var s extScore
	if err != nil {
		s.Err = err.Error()
		text = ""
	}
	s.Words = countWords(text)
	text = hanBack(text)
	if p.set == "aeb" {
		s.AEB = evalAEBPage(p.ref, text)
		s = scoreAEBCounts(s)
	} else {
		s.F1, s.P, s.R = evalWordF1(text, p.ref)
	}
	low := strings.ToLower(text)
	for i, snips := range [][]string{p.with, p.without} {
		for _, sn := range snips {
			if strings.Contains(low, strings.ToLower(sn)) {
				s.Snip[2*i]++
			} else {
				s.Snip[2*i+1]++
			}
		}
	}
	return s
}

// snippetFigures is extract-eval's snippet precision, recall and F1 over
// pages: "with" snippets found are true positives, missed ones false
// negatives, "without" snippets found false positives.
func snippetFigures(ss []extScore) setFigures {
	var tp, fn, fp int
	for _, s := range ss {
		tp, fn, fp = tp+s.Snip[0], fn+s.Snip[1], fp+s.Snip[2]
	}
	var f setFigures
	if tp+fp > 0 {
		f.P = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		f.R = float64(tp) / float64(tp+fn)
	}
	if f.P+f.R > 0 {
		f.F1 = 2 * f.P * f.R / (f.P + f.R)
	}
	return f
}

// scorePages extracts every page with webgate (and, with baselines, with
// each baseline) on two workers and scores it.
func scorePages(pages []benchPage, baselines bool) []pageScore {
	out := make([]pageScore, len(pages))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range next {
				p := pages[i]
				s := pageScore{Set: p.set, ID: p.id, Type: p.typ, Half: evalHalf(p.id)}
				text, err := runWebgate(p)
				s.extScore = scoreText(p, text, err)
				if baselines {
					s.Baselines = map[string]extScore{}
					for name, run := range map[string]func(benchPage) (string, error){extTrafilatura: runTrafilatura, extReadability: runReadability} {
						text, err := run(p)
						s.Baselines[name] = scoreText(p, text, err)
					}
				}
				out[i] = s
			}
		})
	}
	for i := range pages {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// catastrophicMargin: a page is a catastrophic loss when webgate's F1 is
// more than this below the best baseline's on it. Means hide such pages
// (a few zeros among a thousand pages move a mean by a hair), while an
// agent that reads the cookie notice instead of the article has lost the
// page.
const catastrophicMargin = 0.3

// catastrophic reports a page where webgate lost badly to a baseline, and
// that baseline.
func (s pageScore) catastrophic() (string, bool) {
	best, name := -1.0, ""
	for _, b := range baselineNames {
		if bs, ok := s.Baselines[b]; ok && bs.F1 > best {
			best, name = bs.F1, b
		}
	}
	return name, name != "" && s.F1 < best-catastrophicMargin
}

// setFigures are one extractor's figures over a group of pages: the set's
// metric (AEB: F1 of mean precision and recall; others: mean word F1)
// with its precision and recall.
type setFigures struct{ F1, P, R float64 }

func figures(set string, ss []extScore) setFigures {
	if set == "aeb" {
		rows := make([][3]float64, len(ss))
		for i, s := range ss {
			rows[i] = s.AEB
		}
		f, p, r := evalAEBScore(rows)
		return setFigures{f, p, r}
	}
	var f, p, r []float64
	for _, s := range ss {
		f, p, r = append(f, s.F1), append(p, s.P), append(r, s.R)
	}
	return setFigures{mean(f), mean(p), mean(r)}
}

// evalGroup is a row of the report: a set, or a WCXB page type.
type evalGroup struct {
	name, set string
	pages     []pageScore
}

func evalGroups(scores []pageScore, half int) []evalGroup {
	var groups []evalGroup
	idx := map[string]int{}
	add := func(name, set string, s pageScore) {
		i, ok := idx[name]
		if !ok {
			i = len(groups)
			idx[name] = i
			groups = append(groups, evalGroup{name: name, set: set})
		}
		groups[i].pages = append(groups[i].pages, s)
	}
	for _, set := range []string{"aeb", "wcxb-dev", "mozilla"} {
		for _, s := range scores {
			if s.Set == set && (half < 0 || s.Half == half) {
				add(set, set, s)
			}
		}
		if set != "wcxb-dev" {
			continue
		}
		var types []string
		for _, s := range scores {
			if s.Set == set && !slices.Contains(types, s.Type) {
				types = append(types, s.Type)
			}
		}
		sort.Strings(types)
		for _, t := range types {
			for _, s := range scores {
				if s.Set == set && s.Type == t && (half < 0 || s.Half == half) {
					add("  "+t, set, s)
				}
			}
		}
	}
	return groups
}

func (g evalGroup) figures(ext string) (setFigures, bool) {
	ss, ok := g.scores(ext)
	if !ok {
		return setFigures{}, false
	}
	return figures(g.set, ss), true
}

func (g evalGroup) snippets(ext string) setFigures {
	ss, _ := g.scores(ext)
	return snippetFigures(ss)
}

func (g evalGroup) scores(ext string) ([]extScore, bool) {
	ss := make([]extScore, 0, len(g.pages))
	for _, s := range g.pages {
		if ext == extWebgate {
			ss = append(ss, s.extScore)
			continue
		}
		b, ok := s.Baselines[ext]
		if !ok {
			return nil, false
		}
		ss = append(ss, b)
	}
	return ss, len(ss) > 0
}

func (g evalGroup) catastrophes() int {
	n := 0
	for _, s := range g.pages {
		if _, bad := s.catastrophic(); bad {
			n++
		}
	}
	return n
}

// evalTable prints, per set and per WCXB page type, webgate's figures,
// each baseline's from the same run, webgate's difference to each, and
// the number of catastrophic losses.
func evalTable(scores []pageScore, half int) string {
	var b strings.Builder
	baselines := len(scores) > 0 && scores[0].Baselines != nil
	fmt.Fprintf(&b, "%-16s %5s  %-22s", "set / type", "pages", "webgate F1 (P, R)")
	if baselines {
		fmt.Fprintf(&b, " %-7s %-7s %-7s %-7s %s", "traf+fb", "read", "Δtraf", "Δread", "catastrophic")
	}
	b.WriteString("\n")
	for _, g := range evalGroups(scores, half) {
		w, _ := g.figures(extWebgate)
		fmt.Fprintf(&b, "%-16s %5d  %.4f (%.3f, %.3f)  ", g.name, len(g.pages), w.F1, w.P, w.R)
		if baselines {
			t, _ := g.figures(extTrafilatura)
			r, _ := g.figures(extReadability)
			n := g.catastrophes()
			fmt.Fprintf(&b, "%.4f  %.4f  %+.4f %+.4f %d (%.1f%%)", t.F1, r.F1, w.F1-t.F1, w.F1-r.F1, n, 100*float64(n)/float64(len(g.pages)))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "WCXB snippets (extract-eval's snippetF1, the held-out news set's metric):\n%-16s %-22s", "", "webgate F1 (P, R)")
	if baselines {
		fmt.Fprintf(&b, " %-22s %-22s", "traf+fb F1 (P, R)", "read F1 (P, R)")
	}
	b.WriteString("\n")
	for _, g := range evalGroups(scores, half) {
		if g.set != "wcxb-dev" {
			continue
		}
		fmt.Fprintf(&b, "%-16s", g.name)
		exts := []string{extWebgate}
		if baselines {
			exts = append(exts, baselineNames...)
		}
		for _, e := range exts {
			f := g.snippets(e)
			fmt.Fprintf(&b, " %.4f (%.3f, %.3f)  ", f.F1, f.P, f.R)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// evalCatastrophes lists the catastrophic pages: webgate's F1 and output
// words beside the best baseline's.
func evalCatastrophes(scores []pageScore) string {
	var b strings.Builder
	for _, s := range scores {
		if name, bad := s.catastrophic(); bad {
			bs := s.Baselines[name]
			fmt.Fprintf(&b, "  %s/%s (%s): webgate %.3f (%d words) vs %s %.3f (%d words)\n", s.Set, s.ID, s.Type, s.F1, s.Words, name, bs.F1, bs.Words)
		}
	}
	return b.String()
}

// evalCompare prints webgate's change against an earlier run's per-page
// scores (-eval.base): per set, and the pages that moved most.
func evalCompare(scores []pageScore, before map[string]pageScore) string {
	var b strings.Builder
	var prev []pageScore
	var now []pageScore
	for _, s := range scores {
		if o, ok := before[s.Set+"/"+s.ID]; ok {
			o.Baselines = s.Baselines // catastrophes judged against this run's baselines
			prev, now = append(prev, o), append(now, s)
		}
	}
	pg, ng := evalGroups(prev, -1), evalGroups(now, -1)
	fmt.Fprintf(&b, "%-16s %5s  %-7s %-7s %-8s %-12s %s\n", "set / type", "pages", "before", "after", "Δ", "catastrophic", "snippet F1 before → after")
	for i := range ng {
		o, _ := pg[i].figures(extWebgate)
		n, _ := ng[i].figures(extWebgate)
		fmt.Fprintf(&b, "%-16s %5d  %.4f  %.4f  %+.4f  %-12s", ng[i].name, len(ng[i].pages), o.F1, n.F1, n.F1-o.F1,
			fmt.Sprintf("%d → %d", pg[i].catastrophes(), ng[i].catastrophes()))
		if ng[i].set == "wcxb-dev" {
			sb, sa := pg[i].snippets(extWebgate), ng[i].snippets(extWebgate)
			fmt.Fprintf(&b, " %.4f → %.4f (%+.4f)", sb.F1, sa.F1, sa.F1-sb.F1)
		}
		b.WriteString("\n")
	}
	type move struct {
		s    pageScore
		from float64
	}
	var moves []move
	for i, s := range now {
		if d := s.F1 - prev[i].F1; d >= 0.05 || d <= -0.05 {
			moves = append(moves, move{s, prev[i].F1})
		}
	}
	sort.Slice(moves, func(i, j int) bool { return moves[i].s.F1-moves[i].from < moves[j].s.F1-moves[j].from })
	fmt.Fprintf(&b, "pages that moved by 0.05 or more: %d\n", len(moves))
	for _, m := range moves {
		fmt.Fprintf(&b, "  %+.3f %s/%s (%s): %.3f → %.3f\n", m.s.F1-m.from, m.s.Set, m.s.ID, m.s.Type, m.from, m.s.F1)
	}
	return b.String()
}

func readScores(path string) (map[string]pageScore, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]pageScore{}
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var s pageScore
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if s.Set == "aeb" && s.F1 == 0 && s.AEB != ([3]float64{}) {
			s.extScore = scoreAEBCounts(s.extScore)
		}
		out[s.Set+"/"+s.ID] = s
	}
	return out, nil
}

// scoreAEBCounts fills an AEB page's precision, recall and F1 from its
// shingle counts (runs written before they were stored).
func scoreAEBCounts(s extScore) extScore {
	tp, fp, fn := s.AEB[0], s.AEB[1], s.AEB[2]
	if tp+fp > 0 {
		s.P = tp / (tp + fp)
	}
	if tp+fn > 0 {
		s.R = tp / (tp + fn)
	}
	if s.P+s.R > 0 {
		s.F1 = 2 * s.P * s.R / (s.P + s.R)
	}
	return s
}

// TestEval scores every page of the shared datasets with webgate and,
// unless -eval.baselines=false, with both baselines in the same run. It
// prints per set and per WCXB page type webgate's figures, the
// baselines', the differences and the count of catastrophic losses
// (webgate's F1 more than 0.3 below the best baseline's), then each
// half's table (a rule tuned on one half is checked on the other), the
// catastrophic pages, and with -eval.base the change against an earlier
// run. It only runs with -eval (a minute or two on two cores):
//
//	go test ./internal/extract -run TestEval -eval -v [-eval.out /tmp/scores.jsonl] [-eval.base /tmp/before.jsonl] [-eval.undeclared]
func TestEval(t *testing.T) {
	if !*evalFull {
		t.Skip("run with -eval to score the full datasets")
	}
	var before map[string]pageScore
	if *evalBase != "" {
		var err error
		if before, err = readScores(*evalBase); err != nil {
			t.Fatalf("-eval.base: %v", err)
		}
	}
	key, ok := foreignAlphabets[*evalForeignScript]
	foreignHan = *evalForeignScript == "han"
	if !ok && !foreignHan {
		t.Fatalf("-eval.foreign.script: %q is not latin, cyrillic, greek or han", *evalForeignScript)
	}
	if ok {
		foreignLetters = []rune(key)
	}
	defer func() { foreignLetters, foreignHan = []rune(foreignKey), false }()
	var pages []benchPage
	for _, p := range loadPages(t, 1<<30) {
		if !hasToken(strings.ReplaceAll(*evalSets, ",", " "), p.set) {
			continue
		}
		if *evalUndeclared {
			if p.set == "wcxb-dev" && p.typ != "article" {
				continue
			}
			p.body = undeclared(p.body)
		}
		if *evalAnonymous {
			p.body = anonymous(p.body)
		}
		if *evalHTML4 {
			p.body = html4(p.body)
		}
		if *evalForeign {
			p.body, p.url = foreign(p.body, p.url)
			// In ideographs, the reference and the snippets go there
			// and back, as the output does in scoreText (hanBack).
			p.ref = hanBack(foreignText(p.ref))
			for _, snips := range [][]string{p.with, p.without} {
				for i, s := range snips {
					snips[i] = hanBack(foreignText(s))
				}
			}
		}
		pages = append(pages, p)
	}
	scores := scorePages(pages, *evalBaselines)
	t.Logf("all pages:\n%s", evalTable(scores, -1))
	t.Logf("half 0:\n%s", evalTable(scores, 0))
	t.Logf("half 1:\n%s", evalTable(scores, 1))
	if *evalBaselines {
		t.Logf("catastrophic losses (webgate's F1 more than %.1f below the best baseline's):\n%s", catastrophicMargin, evalCatastrophes(scores))
	}
	if before != nil {
		t.Logf("against %s:\n%s", *evalBase, evalCompare(scores, before))
	}
	if *evalOut != "" {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		for _, s := range scores {
			_ = enc.Encode(s)
		}
		if err := os.WriteFile(*evalOut, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHTML4 checks -eval.html4's rewrite: each sectioning element a
// <div> whose first class is its name, its other attributes kept, roles
// gone, and other elements (a custom <headers>) untouched.
func TestHTML4(t *testing.T) {
	for in, want := range map[string]string{
		`<header id="top">a</header>`:                    `<div class="header" id="top">a</div>`,
		`<NAV class='menu main'>b</NAV >`:                `<div class='nav menu main'>b</div>`,
		`<main role="main" class="c">c</main>`:           `<div class="main c">c</div>`,
		`<section data-x="1">d</section>`:                `<div class="section" data-x="1">d</div>`,
		`<footer role="contentinfo">e</footer>`:          `<div class="footer">e</div>`,
		`<headers>f</headers><figcaption>g</figcaption>`: `<headers>f</headers><div class="figcaption">g</div>`,
	} {
		if got := string(html4([]byte(in))); got != want {
			t.Errorf("html4(%s) = %s, want %s", in, got, want)
		}
	}
}
