package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
)

// maxDocCited bounds a char_location span: one sentence, or the start of
// an overlong one. (A web search citation's bound is Anthropic's,
// anthropic.MaxCitedText.)
const maxDocCited = 500

// Cite implements emulate.Toolbox. cited_text is always a verbatim span of
// the source: the extract, passage or sentence that shares the most words
// with the claim the model made.
func (b *Box) Cite(src *emulate.Source, claim string) (json.RawMessage, error) {
	if !src.Citations {
		return nil, nil
	}
	terms := termsOf(claim)
	if src.Kind == emulate.KindWebFetch {
		if src.Document == "" {
			return nil, nil
		}
		start, end := bestSentence(src.Document, terms)
		cited := runeSlice(src.Document, start, end)
		return mustJSON(charLocation{
			Type: "char_location", CitedText: cited, DocumentIndex: src.DocumentIndex,
			DocumentTitle: src.Title, StartCharIndex: start, EndCharIndex: end,
		}), nil
	}
	cands := append([]string{src.Snippet}, src.Passages...)
	best, bestScore := "", -1
	for _, c := range cands {
		if c == "" {
			continue
		}
		if s := overlap(terms, c); s > bestScore {
			best, bestScore = c, s
		}
	}
	if best == "" {
		best = src.Title
	}
	cited := wire.CitedText(strings.TrimSuffix(best, "…"))
	tok, err := b.o.Sealer.SealCitation(seal.Citation{URL: src.URL, Result: src.Number, CitedText: cited})
	if err != nil {
		return nil, fmt.Errorf("seal citation: %w", err)
	}
	return mustJSON(wire.Citation{URL: src.URL, Title: src.Title, EncryptedIndex: tok, CitedText: cited}), nil
}

// charLocation is a citation of a span of a plain-text document.
type charLocation struct {
	Type           string  `json:"type"`
	CitedText      string  `json:"cited_text"`
	DocumentIndex  int     `json:"document_index"`
	DocumentTitle  string  `json:"document_title"`
	StartCharIndex int     `json:"start_char_index"`
	EndCharIndex   int     `json:"end_char_index"`
	FileID         *string `json:"file_id"`
}

// stopwords match nearly every sentence and would drown the informative
// terms.
var stopwords = map[string]bool{
	"the": true, "and": true, "are": true, "for": true, "from": true, "how": true, "that": true,
	"this": true, "what": true, "when": true, "where": true, "which": true, "who": true, "why": true,
	"with": true, "was": true, "were": true, "has": true, "have": true, "had": true, "its": true,
	"but": true, "not": true, "can": true, "will": true, "also": true, "into": true, "than": true,
	"then": true, "there": true, "their": true, "they": true, "them": true, "these": true, "those": true,
	"you": true, "your": true, "our": true, "all": true, "any": true, "some": true, "more": true,
	"most": true, "such": true, "per": true, "via": true, "about": true, "been": true, "being": true,
}

// termsOf returns the distinct informative lower-case words of s.
func termsOf(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		if utf8.RuneCountInString(w) >= 3 && !stopwords[w] || isNumber(w) {
			out[w] = true
		}
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

func isNumber(w string) bool { return strings.Trim(w, "0123456789") == "" }

// overlap counts the claim's terms that s contains.
func overlap(terms map[string]bool, s string) int {
	if len(terms) == 0 {
		return 0
	}
	n := 0
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		if terms[w] && !seen[w] {
			seen[w] = true
			n++
		}
	}
	return n
}

// bestSentence returns the rune offsets [start, end) of the sentence of
// doc sharing the most terms with the claim (the first sentence when none
// does), at most maxDocCited runes long.
func bestSentence(doc string, terms map[string]bool) (start, end int) {
	bestScore := -1
	forEachSentence(doc, func(s string, from, to int) bool {
		score := overlap(terms, s)
		if score > bestScore {
			start, end, bestScore = from, to, score
		}
		return bestScore < len(terms) || len(terms) == 0 && bestScore < 0
	})
	if end-start > maxDocCited {
		end = start + maxDocCited
	}
	return start, end
}

// forEachSentence calls fn with each sentence of doc (split at line breaks
// and at ". ", "! ", "? ") and its rune offsets, trimmed of surrounding
// space, until fn returns false.
func forEachSentence(doc string, fn func(s string, from, to int) bool) {
	runeAt, byteStart, runeStart := 0, 0, 0
	emit := func(byteEnd, runeEnd int) bool {
		s := doc[byteStart:byteEnd]
		lead := len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
		trimmed := strings.TrimSpace(s)
		if trimmed == "" {
			return true
		}
		from := runeStart + utf8.RuneCountInString(s[:lead])
		return fn(trimmed, from, from+utf8.RuneCountInString(trimmed))
	}
	for i, r := range doc {
		split := r == '\n'
		if (r == ' ' || r == '\n') && i > 0 {
			if p := doc[i-1]; p == '.' || p == '!' || p == '?' {
				split = true
			}
		}
		if split {
			if !emit(i, runeAt) {
				return
			}
			byteStart, runeStart = i, runeAt
		}
		runeAt++
	}
	emit(len(doc), runeAt)
}

// runeSlice returns runes [from, to) of s.
func runeSlice(s string, from, to int) string {
	i, start, stop := 0, len(s), len(s)
	for b := range s {
		if i == from {
			start = b
		}
		if i == to {
			stop = b
			break
		}
		i++
	}
	if start > stop {
		return ""
	}
	return s[start:stop]
}
