package proxy

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/websearch"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

// segment is a run of the digest text, [start, end) in composed.text,
// with the citation that supports it (cite is an index into
// composed.cites, or -1). Streaming sends a segment's citation as a
// citations_delta and then its text as one text_delta; the JSON form
// concatenates them. Both rebuild the same block.
type segment struct {
	start, end int
	cite       int
}

// outcome is what the search produced.
type outcome struct {
	results  []search.Result
	provider string
	passages map[int][]string
	// cached reports that the search engine answered from its cache.
	cached bool
	err    error // nil on success, including zero results
}

// composed is a whole answer: the result block (its ToolUseID left for
// the response to fill in) and the text block cut into segments. Every string in it (text, sealed tokens) is a substring
// of one of two per-answer strings, so composing costs a few allocations
// however many results and citations there are. It owns all its memory,
// so it may be kept and reused (see answers).
type composed struct {
	result wire.WebSearchToolResultBlock
	text   string
	segs   []segment
	cites  []wire.Citation

	// For an answer that is kept and reused: its blocks 1 and 2 as
	// stream events, recorded once (see events).
	once     sync.Once
	recorded []byte
	idAt     int
}

// placeholderToolID stands in for the tool use id in recorded events; it
// has the length of a real one (see newIDs), which answerStream.replay
// patches over it.
var placeholderToolID = "srvtoolu_" + strings.Repeat("0", 24)

// writeBlocks writes the answer's blocks 1 (the search result) and 2 (the
// digest) as stream events.
func (c *composed) writeBlocks(ew *wire.EventWriter, toolID string) {
	result := c.result
	result.ToolUseID = toolID
	ew.BlockStart(1, result)
	ew.BlockStop(1)
	ew.BlockStart(2, wire.TextBlock{})
	for _, s := range c.segs {
		if s.cite >= 0 {
			ew.CitationsDelta(2, c.cites[s.cite])
		}
		ew.TextDelta(2, c.text[s.start:s.end])
	}
	ew.BlockStop(2)
}

// events returns writeBlocks' events with placeholderToolID for the tool
// use id, and the id's offset, encoded on first use: a reused answer is
// then copied into each response instead of encoded again.
func (c *composed) events() ([]byte, int) {
	c.once.Do(func() {
		var buf bytes.Buffer
		rec := wire.NewEventWriter(&buf, nil)
		c.writeBlocks(rec, placeholderToolID)
		rec.Close()
		c.recorded = buf.Bytes()
		// The id precedes the results in block 1's first event, so its
		// first occurrence is the id whatever the results contain.
		c.idAt = bytes.Index(c.recorded, []byte(placeholderToolID))
	})
	return c.recorded, c.idAt
}

// textBlock is the text block as a non-streaming response carries it.
func (c *composed) textBlock() wire.TextBlock {
	return wire.TextBlock{Text: c.text, Citations: c.cites}
}

// composer turns an outcome into content blocks.
type composer struct {
	sealer      *seal.Sealer
	now         time.Time
	maxQueryLen int
	// untrusted marks the results and passages, which come from the web,
	// as untrusted data for the model (guard.content.mark_untrusted).
	untrusted guard.Wrapper
}

// citeRef is a citation before sealing: the result it points to and the
// verbatim span it quotes.
type citeRef struct {
	result int
	cited  string
}

// textBuilder accumulates the digest text and its segments: consecutive
// plain runs merge into one segment, each cited run is its own.
type textBuilder struct {
	b     strings.Builder
	segs  []segment
	refs  []citeRef
	plain bool // the last segment has no citation
}

func (t *textBuilder) write(parts ...string) {
	for _, p := range parts {
		t.b.WriteString(p)
	}
}

// startPlain opens (or continues) a run without citation.
func (t *textBuilder) startPlain() {
	if !t.plain {
		t.segs = append(t.segs, segment{start: t.b.Len(), cite: -1})
		t.plain = true
	}
}

// startCited opens a run supported by a citation of result quoting cited.
func (t *textBuilder) startCited(result int, cited string) {
	t.segs = append(t.segs, segment{start: t.b.Len(), cite: len(t.refs)})
	// Anthropic's bound on cited_text; the whole snippet is in the text
	// and the sealed payload anyway.
	t.refs = append(t.refs, citeRef{result, wire.CitedText(cited)})
	t.plain = false
}

// scratchPool recycles the buffers tokens are sealed into before they
// become one string.
var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// compose builds the answer for call from o: the sealed results and the
// digest with sealed citations.
func (c *composer) compose(call *searchCall, o *outcome) (*composed, error) {
	out := &composed{}
	if o.err != nil {
		out.result.Error = &wire.WebSearchToolResultError{ErrorCode: websearch.Code(o.err)}
		out.text = websearch.Text(call.Query, o.err, c.maxQueryLen)
		out.segs = []segment{{0, len(out.text), -1}}
		return out, nil
	}
	if len(o.results) == 0 {
		msg := fmt.Sprintf("No web results found for %q", call.Query)
		if d := domainNote(call.Tool); d != "" {
			msg += " " + d
		}
		out.text = msg + ". Try a broader or differently worded query."
		out.segs = []segment{{0, len(out.text), -1}}
		out.result.Results = []wire.WebSearchResult{}
		return out, nil
	}
	// What each result seals, shows and is cited by (see websearch).
	n := len(o.results)
	payloads := make([]seal.Result, n)
	titles, ages := make([]string, n), make([]string, n)
	for i, r := range o.results {
		payloads[i] = websearch.Payload(r, call.Query, o.passages[i], c.now)
		titles[i], ages[i] = payloads[i].Title, payloads[i].PageAge
	}
	t := c.digest(call, o, titles, ages)
	text := t.b.String()
	// Trailing newlines are trimmed from the last segment, for tidiness.
	last := &t.segs[len(t.segs)-1]
	for last.end = len(text); last.end > last.start && text[last.end-1] == '\n'; last.end-- {
	}
	out.text, out.segs = text[:last.end], t.segs
	for i := 0; i < len(t.segs)-1; i++ {
		t.segs[i].end = t.segs[i+1].start
	}

	// Seal every result and citation into one buffer, then copy it into
	// one string and hand out substrings.
	tp := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(tp)
	toks := (*tp)[:0]
	ends := make([]int, 0, n+len(t.refs))
	var err error
	for i := range payloads {
		if toks, err = c.sealer.AppendResult(toks, &payloads[i]); err != nil {
			return nil, fmt.Errorf("seal result %d: %w", i, err)
		}
		ends = append(ends, len(toks))
	}
	for _, ref := range t.refs {
		sc := seal.Citation{URL: o.results[ref.result].URL, Result: ref.result, CitedText: ref.cited}
		if toks, err = c.sealer.AppendCitation(toks, &sc); err != nil {
			return nil, fmt.Errorf("seal citation: %w", err)
		}
		ends = append(ends, len(toks))
	}
	*tp = toks
	all := string(toks)
	token := func(k int) string {
		start := 0
		if k > 0 {
			start = ends[k-1]
		}
		return all[start:ends[k]]
	}

	out.result.Results = make([]wire.WebSearchResult, n)
	for i := range payloads {
		out.result.Results[i] = websearch.ResultBlock(&payloads[i], token(i))
	}
	out.cites = make([]wire.Citation, len(t.refs))
	for k, ref := range t.refs {
		out.cites[k] = wire.Citation{
			URL: o.results[ref.result].URL, Title: titles[ref.result],
			EncryptedIndex: token(n + k), CitedText: ref.cited,
		}
	}
	return out, nil
}

// digest writes the text of a successful search. Claude Code passes only
// this text (plus the links) to the main model, so it must carry the
// substance: every result's snippet, numbered to match the links, then the
// key passages of the top pages when enrichment found any. Snippets and
// passages carry citations.
func (c *composer) digest(call *searchCall, o *outcome, titles, ages []string) *textBuilder {
	t := &textBuilder{}
	size := 128
	for _, r := range o.results {
		size += len(r.Title) + len(r.URL) + len(r.Snippet) + 40
	}
	for _, ps := range o.passages {
		for _, p := range ps {
			size += len(p) + 8
		}
	}
	begin, end := c.untrusted.Bounds("search results", "")
	size += len(begin) + len(end)
	t.b.Grow(size)
	var quoted [256]byte
	t.startPlain()
	t.write("Web search results for ")
	t.b.Write(strconv.AppendQuote(quoted[:0], call.Query))
	if d := domainNote(call.Tool); d != "" {
		t.write(" ", d)
	}
	t.write(":\n")
	if begin != "" {
		t.write(begin, "\n")
	}
	for i, r := range o.results {
		t.startPlain()
		t.write("\n", strconv.Itoa(i+1), ". ", guard.Defuse(titles[i]), "\n   ", r.URL, "\n")
		if ages[i] != "" {
			t.write("   Published: ", ages[i], "\n")
		}
		snip := guard.Defuse(websearch.OneLine(r.Snippet))
		if snip == "" {
			continue
		}
		t.startCited(i, snip)
		t.write("   ", snip, "\n")
	}
	first := true
	for i := range o.results {
		ps := o.passages[i]
		if len(ps) == 0 {
			continue
		}
		t.startPlain()
		if first {
			t.write("\nKey passages from the top results:\n")
			first = false
		}
		t.write("\n[", strconv.Itoa(i+1), "] ", guard.Defuse(titles[i]), "\n")
		for _, p := range ps {
			p = guard.Defuse(p)
			t.startCited(i, strings.TrimSuffix(p, "…"))
			t.write("> ", p, "\n")
		}
	}
	if end != "" {
		t.startPlain()
		t.write("\n", end)
	}
	return t
}

// domainNote describes the tool's domain filter for the digest, so the
// model knows a narrow result list is narrow on purpose.
func domainNote(t wire.Tool) string {
	switch {
	case len(t.AllowedDomains) > 0:
		return "(only from " + strings.Join(t.AllowedDomains, ", ") + ")"
	case len(t.BlockedDomains) > 0:
		return "(excluding " + strings.Join(t.BlockedDomains, ", ") + ")"
	}
	return ""
}
