package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/net/html"
)

// The scorers below re-implement ../shared/tools/extract-eval in process,
// so a change can be scored on every page in seconds instead of spawning a
// process per page. extract-eval stays the reference for published figures.

var (
	evalFull = flag.Bool("eval", false, "TestEval: score every page of every dataset and print the report")
	evalOut  = flag.String("eval.out", "", "TestEval: write per-page scores as JSON lines to this file")
	evalSets = flag.String("eval.sets", "aeb,wcxb-dev,mozilla", "TestEval: comma-separated datasets to score")
)

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

type pageScore struct {
	Set, ID, Type string
	Half          int
	F1, P, R      float64
	AEB           [3]float64 `json:",omitempty"`
	Err           string     `json:",omitempty"`
}

// scorePages extracts every page as text (what extract-eval feeds the
// scorer) on two workers and scores it.
func scorePages(pages []benchPage) []pageScore {
	out := make([]pageScore, len(pages))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range next {
				p := pages[i]
				s := pageScore{Set: p.set, ID: p.id, Type: p.typ, Half: evalHalf(p.id)}
				text := ""
				doc, err := Extract(context.Background(), p.body, Options{URL: p.url, Format: Text})
				if err != nil {
					s.Err = err.Error()
				} else {
					text = doc.Content
				}
				if p.set == "aeb" {
					s.AEB = evalAEBPage(p.ref, text)
				} else {
					s.F1, s.P, s.R = evalWordF1(text, p.ref)
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

// evalReport aggregates scores per set (and per WCXB page type) for the
// given half (-1 for all pages).
type evalReport struct {
	AEB, WCXB, Mozilla float64
	AEBP, AEBR         float64
	ByType             map[string]float64
	WorstType          string
}

func aggregate(scores []pageScore, half int) evalReport {
	rep := evalReport{ByType: map[string]float64{}}
	var aeb [][3]float64
	var wcxb, moz []float64
	byType := map[string][]float64{}
	for _, s := range scores {
		if half >= 0 && s.Half != half {
			continue
		}
		switch s.Set {
		case "aeb":
			aeb = append(aeb, s.AEB)
		case "mozilla":
			moz = append(moz, s.F1)
		default:
			wcxb = append(wcxb, s.F1)
			byType[s.Type] = append(byType[s.Type], s.F1)
		}
	}
	rep.AEB, rep.AEBP, rep.AEBR = evalAEBScore(aeb)
	rep.WCXB, rep.Mozilla = mean(wcxb), mean(moz)
	worst := 2.0
	for t, v := range byType {
		rep.ByType[t] = mean(v)
		if rep.ByType[t] < worst {
			worst, rep.WorstType = rep.ByType[t], t
		}
	}
	return rep
}

func (r evalReport) String() string {
	types := make([]string, 0, len(r.ByType))
	for t := range r.ByType {
		types = append(types, t)
	}
	sort.Strings(types)
	var b strings.Builder
	fmt.Fprintf(&b, "AEB %.4f (P %.3f R %.3f)  WCXB %.4f  Mozilla %.4f  worst %s %.4f\n  by type:", r.AEB, r.AEBP, r.AEBR, r.WCXB, r.Mozilla, r.WorstType, r.ByType[r.WorstType])
	for _, t := range types {
		fmt.Fprintf(&b, " %s=%.3f", t, r.ByType[t])
	}
	return b.String()
}

// TestEval prints the in-process scores of every dataset page, overall and
// for each half. It only runs with -eval (it takes a minute or more):
//
//	go test ./extract -run TestEval -eval [-eval.out /tmp/scores.jsonl]
func TestEval(t *testing.T) {
	if !*evalFull {
		t.Skip("run with -eval to score the full datasets")
	}
	var pages []benchPage
	for _, p := range loadPages(t, 1<<30) {
		if hasToken(strings.ReplaceAll(*evalSets, ",", " "), p.set) {
			pages = append(pages, p)
		}
	}
	scores := scorePages(pages)
	t.Logf("all:    %v", aggregate(scores, -1))
	t.Logf("half 0: %v", aggregate(scores, 0))
	t.Logf("half 1: %v", aggregate(scores, 1))
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
