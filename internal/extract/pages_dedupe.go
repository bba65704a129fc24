package extract

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dedupeRuns removes a run of leaf blocks that repeats, in the same
// order, a run seen earlier in root: at least minRunLeaves consecutive
// leaves and minRunWords words. Extractors that stitch a page together
// from several candidates (trafilatura's fallback) can return the same
// body twice, and responsive layouts ship a second copy of a section for
// small screens. A single repeated leaf is not enough: cards of a listing
// or tiers of a pricing table repeat their terms ("Not valid with other
// offers") beside a title of their own, and the reference keeps each.
func dedupeRuns(root *html.Node) {
	leaves, texts := textLeaves(root)
	first := make(map[string]int, len(texts))
	var drop []*html.Node
	for i := 0; i < len(texts); {
		j, ok := first[texts[i]]
		if !ok {
			first[texts[i]] = i
			i++
			continue
		}
		n, w := 0, 0
		for i+n < len(texts) && j+n < i && texts[i+n] == texts[j+n] {
			w += countWords(texts[i+n])
			n++
		}
		if n >= minRunLeaves && w >= minRunWords {
			drop = append(drop, leaves[i:i+n]...)
			i += n
			continue
		}
		i++
	}
	for _, n := range drop {
		removeNode(n)
	}
}

// dedupeEchoes removes, from go-trafilatura's output, a run of consecutive
// leaf blocks whose text it has already given earlier in root: at least
// minRunLeaves leaves and minRunWords words, or a single stretch of
// minRepeatWords words or more. go-trafilatura returns a blog post written
// as text and <br> lines (Blogger's post body) up to three times: as the
// lines, again under the date and title of the post's container, and
// again as separate paragraphs; and it gives comments twice. A leaf
// repeats what was said when each of its word sequences of repeatShingle
// words was seen before it (so a paragraph that was one line of an
// earlier block counts), or, when it is shorter than that, when an
// earlier leaf had exactly its text. A single short repeated leaf is not
// enough: a pull quote repeats a sentence of the story, and cards repeat
// their terms. Unlike dedupeRuns, which judges the page's own repeats,
// this judges the extractor's, so a leaf the page itself prints more
// than once stays.
func dedupeEchoes(root, page *html.Node) {
	type leaf struct {
		n      *html.Node
		words  int
		repeat bool
	}
	var leaves []leaf
	seenText := map[string]bool{}
	seenGram := map[uint64]bool{}
	var hs []uint64
	var window []uint64 // hashes of the last repeatShingle-1 tokens before this leaf
	nodes, texts := textLeaves(root)
	for k, t := range texts {
		l := leaf{n: nodes[k], words: countWords(t)}
		hs = tokenHashes(t, hs[:0])
		// Judge the leaf against what came before it, then record it.
		if len(hs) < repeatShingle {
			l.repeat = seenText[t]
		} else {
			l.repeat = true
			for i := 0; i+repeatShingle <= len(hs) && l.repeat; i++ {
				l.repeat = seenGram[shingleHash(hs[i:i+repeatShingle])]
			}
		}
		seenText[t] = true
		// Sequences that run on from the previous leaf are recorded too:
		// a line of an earlier block may be a paragraph now, and a
		// paragraph now may join two earlier lines.
		run := append(window, hs...)
		for i := 0; i+repeatShingle <= len(run); i++ {
			seenGram[shingleHash(run[i:i+repeatShingle])] = true
		}
		window = append(window[:0], run[max(0, len(run)-(repeatShingle-1)):]...)
		leaves = append(leaves, l)
	}
	var drop []*html.Node
	pageText := ""
	for i := 0; i < len(leaves); {
		if !leaves[i].repeat {
			i++
			continue
		}
		j, w := i, 0
		for j < len(leaves) && leaves[j].repeat {
			w += leaves[j].words
			j++
		}
		if j-i >= minRunLeaves && w >= minRunWords || w >= minRepeatWords {
			for _, l := range leaves[i:j] {
				// A paragraph the page itself prints more than once
				// (a refrain, a repeated notice, a test page's filler)
				// is the author's, not an echo.
				if pageText == "" {
					pageText = squeeze(textOf(page))
				}
				if strings.Count(pageText, squeeze(textOf(l.n))) <= 1 {
					drop = append(drop, l.n)
				}
			}
		}
		i = j
	}
	for _, n := range drop {
		removeNode(n)
	}
}

// tokenHashes appends to hs a hash of each token of s, the tokens as
// wordTokens splits them (runs of wordRune, lower-cased), without
// building the strings; a character of Chinese, Japanese or Thai
// (unspacedRun) is a token of its own.
func tokenHashes(s string, hs []uint64) []uint64 {
	h, in := uint64(fnvOffset), false
	for _, r := range s {
		if unspacedRun(r) > 0 {
			// A script written without spaces: each character is a
			// token, as a line of it is no word.
			if in {
				hs = append(hs, h)
				h, in = fnvOffset, false
			}
			hs = append(hs, (fnvOffset^uint64(r))*fnvPrime)
			continue
		}
		if wordRune(r) {
			h = (h ^ uint64(unicode.ToLower(r))) * fnvPrime
			in = true
			continue
		}
		if in {
			hs = append(hs, h)
			h, in = fnvOffset, false
		}
	}
	if in {
		hs = append(hs, h)
	}
	return hs
}

// textLeaves returns the block elements under root that hold no block
// and some text, in document order, with their text (spaces collapsed).
func textLeaves(root *html.Node) (leaves []*html.Node, texts []string) {
	for _, c := range collectElements(root, func(c *html.Node) visit {
		if blockAtoms[c.DataAtom] && !hasBlockChild(c) {
			return take
		}
		return descend
	}) {
		if t := collapseSpace(textOf(c)); t != "" {
			leaves = append(leaves, c)
			texts = append(texts, t)
		}
	}
	return leaves, texts
}

// shingleHash combines the hashes of a sequence of tokens, in order.
func shingleHash(hs []uint64) uint64 {
	h := uint64(fnvOffset)
	for _, x := range hs {
		h = (h ^ x) * fnvPrime
	}
	return h
}

// FNV-1a's 64-bit offset basis and prime, for tokenHashes and shingleHash.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

const (
	minRunLeaves   = 3
	minRunWords    = 30
	minRepeatWords = 50
	repeatShingle  = 6
)

// dropRepeatedHeadings removes a heading that repeats, word for word, the
// heading right before it, with nothing shown between them: responsive
// layouts set a card's title twice (one for wide screens, one for
// narrow), and a lazily filled feed repeats its section's title over
// empty placeholders ("Latest", "Latest", …). Two identical headings in a
// row tell a reader nothing the first did not; the page's text stays
// whole, since only headings are compared and an image or any text
// between them keeps both.
func dropRepeatedHeadings(root *html.Node) {
	var drop []*html.Node
	prev := "" // the text of the last heading, when nothing was shown after it
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				if strings.TrimSpace(c.Data) != "" {
					prev = ""
				}
			case c.Type != html.ElementNode:
			case headingAtoms[c.DataAtom]:
				switch t := collapseSpace(textOf(c)); {
				case showsMedia(c):
					prev = ""
				case t != "" && t == prev:
					drop = append(drop, c)
				default:
					prev = t
				}
			case c.DataAtom == atom.Img || c.DataAtom == atom.Video || c.DataAtom == atom.Audio || c.DataAtom == atom.Iframe:
				prev = ""
			default:
				walk(c)
			}
		}
	}
	walk(root)
	for _, h := range drop {
		removeNode(h)
	}
}
