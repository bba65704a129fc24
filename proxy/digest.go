package proxy

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/webgate/webgate/anthropic"
	"github.com/webgate/webgate/guard"
	"github.com/webgate/webgate/seal"
	"github.com/webgate/webgate/search"
)

// Seal purposes. Binding each token to its purpose stops a client from
// passing an encrypted_index where encrypted_content is expected.
const (
	purposeResult   = "web_search_result"
	purposeCitation = "web_search_result_location"
)

// maxCitedRunes caps cited_text, in line with the short spans Anthropic
// cites; the full snippet is in the text and the sealed payload anyway.
const maxCitedRunes = 300

// SealedResult is the plaintext of a web_search_result's encrypted_content:
// everything webgate knew about the hit when it answered, so a later turn
// that replays the block can be served without searching again.
type SealedResult struct {
	Version   int       `json:"v"`
	Query     string    `json:"query"`
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	Snippet   string    `json:"snippet,omitempty"`
	PageAge   string    `json:"page_age,omitempty"`
	Passages  []string  `json:"passages,omitempty"`
	Provider  string    `json:"provider,omitempty"`
	Retrieved time.Time `json:"retrieved"`
}

// SealedCitation is the plaintext of a citation's encrypted_index.
type SealedCitation struct {
	Version   int    `json:"v"`
	URL       string `json:"url"`
	Result    int    `json:"result"`
	CitedText string `json:"cited_text"`
}

// appendJSON appends r encoded exactly as json.Marshal(r) would (field
// order, omitempty, HTML escaping, RFC 3339 time): the payload is sealed
// per result on every fast-path answer, and reflection-based encoding was
// a visible share of the request's CPU. TestSealedPayloadEncoding pins the
// equivalence.
func (r *SealedResult) appendJSON(b []byte) ([]byte, error) {
	if y := r.Retrieved.Year(); y < 0 || y > 9999 {
		// json.Marshal's error case for times; let it produce the error.
		p, err := json.Marshal(r)
		return append(b, p...), err
	}
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, `,"query":`...)
	b = anthropic.AppendString(b, r.Query, true)
	b = append(b, `,"url":`...)
	b = anthropic.AppendString(b, r.URL, true)
	b = append(b, `,"title":`...)
	b = anthropic.AppendString(b, r.Title, true)
	if r.Snippet != "" {
		b = append(b, `,"snippet":`...)
		b = anthropic.AppendString(b, r.Snippet, true)
	}
	if r.PageAge != "" {
		b = append(b, `,"page_age":`...)
		b = anthropic.AppendString(b, r.PageAge, true)
	}
	if len(r.Passages) > 0 {
		b = append(b, `,"passages":[`...)
		for i, p := range r.Passages {
			if i > 0 {
				b = append(b, ',')
			}
			b = anthropic.AppendString(b, p, true)
		}
		b = append(b, ']')
	}
	if r.Provider != "" {
		b = append(b, `,"provider":`...)
		b = anthropic.AppendString(b, r.Provider, true)
	}
	b = append(b, `,"retrieved":"`...)
	b = r.Retrieved.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...), nil
}

// appendJSON appends c encoded exactly as json.Marshal(c) would.
func (c *SealedCitation) appendJSON(b []byte) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(c.Version), 10)
	b = append(b, `,"url":`...)
	b = anthropic.AppendString(b, c.URL, true)
	b = append(b, `,"result":`...)
	b = strconv.AppendInt(b, int64(c.Result), 10)
	b = append(b, `,"cited_text":`...)
	b = anthropic.AppendString(b, c.CitedText, true)
	return append(b, '}')
}

// OpenResult decrypts and authenticates an encrypted_content value.
func OpenResult(s *seal.Sealer, token string) (*SealedResult, error) {
	pt, err := s.Open(purposeResult, token)
	if err != nil {
		return nil, fmt.Errorf("open encrypted_content: %w", err)
	}
	var r SealedResult
	if err := json.Unmarshal(pt, &r); err != nil {
		return nil, fmt.Errorf("decode encrypted_content: %w", err)
	}
	return &r, nil
}

// OpenCitation decrypts and authenticates an encrypted_index value.
func OpenCitation(s *seal.Sealer, token string) (*SealedCitation, error) {
	pt, err := s.Open(purposeCitation, token)
	if err != nil {
		return nil, fmt.Errorf("open encrypted_index: %w", err)
	}
	var c SealedCitation
	if err := json.Unmarshal(pt, &c); err != nil {
		return nil, fmt.Errorf("decode encrypted_index: %w", err)
	}
	return &c, nil
}

// segment is a run of the digest text with the citations that support it.
// Streaming sends each segment's citations as citations_delta events and
// then its text as one text_delta; the JSON form concatenates them. Both
// rebuild the same block.
type segment struct {
	text  string
	cites []anthropic.Citation
}

// outcome is what the search produced.
type outcome struct {
	results  []search.Result
	provider string
	passages map[int][]string
	err      error // nil on success, including zero results
}

// composer turns an outcome into content blocks.
type composer struct {
	sealer      *seal.Sealer
	now         time.Time
	maxQueryLen int
	// untrusted marks the results and passages, which come from the web,
	// as untrusted data for the model (guard.content.mark_untrusted).
	untrusted guard.Wrapper
	// scratch holds one plaintext payload at a time; Seal copies it into
	// the token, so one buffer serves every result and citation.
	scratch []byte
}

// resultBlock builds the web_search_tool_result block.
func (c *composer) resultBlock(toolID, query string, o *outcome) (anthropic.WebSearchToolResultBlock, error) {
	b := anthropic.WebSearchToolResultBlock{ToolUseID: toolID}
	if o.err != nil {
		b.Error = &anthropic.WebSearchToolResultError{ErrorCode: toolErrorCode(o.err)}
		return b, nil
	}
	b.Results = make([]anthropic.WebSearchResult, 0, len(o.results))
	for i, r := range o.results {
		sr := SealedResult{
			Version: 1, Query: query, URL: r.URL, Title: r.Title, Snippet: r.Snippet,
			PageAge: r.PageAge, Passages: o.passages[i], Provider: r.Provider, Retrieved: c.now,
		}
		var err error
		if c.scratch, err = sr.appendJSON(c.scratch[:0]); err != nil {
			return b, fmt.Errorf("encode result %d: %w", i, err)
		}
		tok, err := c.sealer.Seal(purposeResult, c.scratch)
		if err != nil {
			return b, fmt.Errorf("seal result %d: %w", i, err)
		}
		wr := anthropic.WebSearchResult{Title: resultTitle(r), URL: r.URL, EncryptedContent: tok}
		if age := pageAge(r); age != "" {
			wr.PageAge = &age
		}
		b.Results = append(b.Results, wr)
	}
	return b, nil
}

// resultTitle never returns an empty title: Claude Code shows titles as the
// links' labels, and an empty one renders as nothing at all.
func resultTitle(r search.Result) string {
	if t := strings.TrimSpace(r.Title); t != "" {
		return t
	}
	if u, err := url.Parse(r.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return r.URL
}

func pageAge(r search.Result) string {
	if r.PageAge != "" {
		return r.PageAge
	}
	if !r.Published.IsZero() {
		return r.Published.UTC().Format("January 2, 2006")
	}
	return ""
}

// citation builds a web_search_result_location for text drawn from result i.
func (c *composer) citation(i int, r search.Result, cited string) (anthropic.Citation, error) {
	cited = prefixRunes(cited, maxCitedRunes)
	sc := SealedCitation{Version: 1, URL: r.URL, Result: i, CitedText: cited}
	c.scratch = sc.appendJSON(c.scratch[:0])
	tok, err := c.sealer.Seal(purposeCitation, c.scratch)
	if err != nil {
		return anthropic.Citation{}, fmt.Errorf("seal citation: %w", err)
	}
	return anthropic.Citation{URL: r.URL, Title: resultTitle(r), EncryptedIndex: tok, CitedText: cited}, nil
}

// digest writes the text block. Claude Code passes only this text (plus the
// links) to the main model, so it must carry the substance: every result's
// snippet, numbered to match the links, then the key passages of the top
// pages when enrichment found any. Snippets and passages carry citations.
func (c *composer) digest(call *searchCall, o *outcome) ([]segment, error) {
	q := call.Query
	if o.err != nil {
		return []segment{{text: toolErrorText(q, o.err, c.maxQueryLen)}}, nil
	}
	if len(o.results) == 0 {
		msg := fmt.Sprintf("No web results found for %q", q)
		if d := domainNote(call.Tool); d != "" {
			msg += " " + d
		}
		return []segment{{text: msg + ". Try a broader or differently worded query."}}, nil
	}
	var segs []segment
	plain := func(s string) {
		if n := len(segs); n > 0 && len(segs[n-1].cites) == 0 {
			segs[n-1].text += s
			return
		}
		segs = append(segs, segment{text: s})
	}
	head := fmt.Sprintf("Web search results for %q", q)
	if d := domainNote(call.Tool); d != "" {
		head += " " + d
	}
	plain(head + ":\n")
	begin, end := c.untrusted.Bounds("search results", "")
	if begin != "" {
		plain(begin + "\n")
	}
	for i, r := range o.results {
		line := fmt.Sprintf("\n%d. %s\n   %s\n", i+1, guard.Defuse(resultTitle(r)), r.URL)
		if age := pageAge(r); age != "" {
			line += "   Published: " + age + "\n"
		}
		plain(line)
		snip := guard.Defuse(strings.Join(strings.Fields(r.Snippet), " "))
		if snip == "" {
			continue
		}
		cite, err := c.citation(i, r, snip)
		if err != nil {
			return nil, err
		}
		segs = append(segs, segment{text: "   " + snip + "\n", cites: []anthropic.Citation{cite}})
	}
	first := true
	for i, r := range o.results {
		ps := o.passages[i]
		if len(ps) == 0 {
			continue
		}
		if first {
			plain("\nKey passages from the top results:\n")
			first = false
		}
		plain(fmt.Sprintf("\n[%d] %s\n", i+1, guard.Defuse(resultTitle(r))))
		for _, p := range ps {
			p = guard.Defuse(p)
			cite, err := c.citation(i, r, strings.TrimSuffix(p, "…"))
			if err != nil {
				return nil, err
			}
			segs = append(segs, segment{text: "> " + p + "\n", cites: []anthropic.Citation{cite}})
		}
	}
	if end != "" {
		plain("\n" + end)
	}
	// The digest must not end in a newline-only segment for aesthetic
	// reasons only; trimming the final newline keeps the text tidy.
	last := &segs[len(segs)-1]
	last.text = strings.TrimRight(last.text, "\n")
	return segs, nil
}

// domainNote describes the tool's domain filter for the digest, so the
// model knows a narrow result list is narrow on purpose.
func domainNote(t anthropic.Tool) string {
	switch {
	case len(t.AllowedDomains) > 0:
		return "(only from " + strings.Join(t.AllowedDomains, ", ") + ")"
	case len(t.BlockedDomains) > 0:
		return "(excluding " + strings.Join(t.BlockedDomains, ", ") + ")"
	}
	return ""
}

// textOf concatenates segments into the block's text and citations.
func textOf(segs []segment) anthropic.TextBlock {
	var b strings.Builder
	var cites []anthropic.Citation
	for _, s := range segs {
		b.WriteString(s.text)
		cites = append(cites, s.cites...)
	}
	return anthropic.TextBlock{Text: b.String(), Citations: cites}
}
