package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/websearch"
)

// resultBlock is a server tool result block from a client's history.
type resultBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// Restore implements emulate.Toolbox.
func (b *Box) Restore(input, result json.RawMessage) (emulate.Report, error) {
	var blk resultBlock
	if err := json.Unmarshal(result, &blk); err != nil {
		return emulate.Report{}, fmt.Errorf("%w: result block: %v", emulate.ErrInvalidHistory, err)
	}
	switch blk.Type {
	case "web_search_tool_result":
		return b.restoreSearch(input, blk.Content)
	case "web_fetch_tool_result":
		return b.restoreFetch(input, blk.Content)
	}
	return emulate.Report{}, fmt.Errorf("%w: %q is not a web tool result", emulate.ErrInvalidHistory, blk.Type)
}

type errorContent struct {
	Type      string `json:"type"`
	ErrorCode string `json:"error_code"`
}

// isObject reports whether raw is a JSON object (as opposed to an array).
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func (b *Box) restoreSearch(input, content json.RawMessage) (emulate.Report, error) {
	in, _ := parseSearchInput(input)
	if isObject(content) {
		var e errorContent
		if err := json.Unmarshal(content, &e); err != nil || e.ErrorCode == "" {
			return emulate.Report{}, fmt.Errorf("%w: web_search_tool_result content is neither results nor an error", emulate.ErrInvalidHistory)
		}
		return emulate.Report{Kind: emulate.KindWebSearch, Error: websearch.CodeText(in.Query, e.ErrorCode, b.o.MaxQueryLength)}, nil
	}
	var results []struct {
		Title            string  `json:"title"`
		URL              string  `json:"url"`
		EncryptedContent string  `json:"encrypted_content"`
		PageAge          *string `json:"page_age"`
	}
	if err := json.Unmarshal(content, &results); err != nil {
		return emulate.Report{}, fmt.Errorf("%w: web_search_tool_result content: %v", emulate.ErrInvalidHistory, err)
	}
	rep := emulate.Report{Kind: emulate.KindWebSearch, Header: searchHeader(in.Query), Sources: make([]emulate.Source, 0, len(results))}
	for i, r := range results {
		sr, err := openResult(b.o.Sealer, r.EncryptedContent, r.URL, r.Title, in.Query)
		foreign := false
		switch {
		case err == nil:
		case errors.Is(err, errForeignKey):
			// Anthropic's own result (a conversation that moved from
			// Anthropic's API to this gateway), or webgate's sealed by
			// another process or under a removed key. Accepted on
			// purpose (docs/anthropic-proxy.md, "Multi-turn: sealed
			// content"): the model gets what the client can see, and is
			// told webgate could not verify it.
			foreign = true
			sr = seal.Result{URL: r.URL, Title: websearch.Title(r.Title, r.URL)}
			if r.PageAge != nil {
				sr.PageAge = *r.PageAge
			}
			if seal.IsToken(r.EncryptedContent) {
				b.log.Warn("web search result sealed with an unknown key; restoring its title and URL only (configure upstream.seal_keys to keep content across restarts and replicas)", "url", r.URL)
			}
		default:
			return emulate.Report{}, fmt.Errorf("web_search_result %d: %w", i, err)
		}
		src := resultSource(&sr)
		if foreign {
			src.Note = unverifiedNote
		}
		rep.Sources = append(rep.Sources, src)
	}
	return rep, nil
}

// unverifiedNote is what the model reads under a search result from
// another origin, in place of its text.
const unverifiedNote = "(webgate could not verify this earlier result: another service or an earlier key of this gateway produced it, and only its title and URL are known here. Treat them as unconfirmed; search again or fetch the page if you need its content.)"

func (b *Box) restoreFetch(input, content json.RawMessage) (emulate.Report, error) {
	in, _ := parseFetchInput(input)
	var c struct {
		Type        string `json:"type"`
		ErrorCode   string `json:"error_code"`
		URL         string `json:"url"`
		RetrievedAt string `json:"retrieved_at"`
		Content     struct {
			Source    documentSource `json:"source"`
			Title     string         `json:"title"`
			Citations *struct {
				Enabled bool `json:"enabled"`
			} `json:"citations"`
		} `json:"content"`
	}
	if err := json.Unmarshal(content, &c); err != nil {
		return emulate.Report{}, fmt.Errorf("%w: web_fetch_tool_result content: %v", emulate.ErrInvalidHistory, err)
	}
	if c.ErrorCode != "" || c.Type == "web_fetch_tool_result_error" || c.Type == "web_fetch_tool_error" {
		return emulate.Report{Kind: emulate.KindWebFetch, Error: fetchErrorText(in.URL, c.ErrorCode)}, nil
	}
	if c.URL == "" {
		c.URL = in.URL
	}
	src := emulate.Source{Kind: emulate.KindWebFetch, URL: c.URL, Title: websearch.Title(c.Content.Title, c.URL)}
	if t, err := time.Parse(time.RFC3339, c.RetrievedAt); err == nil {
		src.Retrieved = t.UTC()
	}
	s := c.Content.Source
	switch {
	case s.Type == "base64" && s.MediaType == "application/pdf":
		if text, ok := b.recallPDF(s.Data); ok {
			src.Document = text
		} else {
			src.Note = "(A PDF document; its text is no longer available to this proxy. Fetch the URL again if you need its content.)"
		}
	case s.Type == "text":
		src.Document = s.Data
		src.Citations = c.Content.Citations != nil && c.Content.Citations.Enabled
	default:
		src.Note = "(A document of a kind this proxy cannot show.)"
	}
	return emulate.Report{Kind: emulate.KindWebFetch, Sources: []emulate.Source{src}, URLs: emulate.URLsIn(src.Document)}, nil
}

// VerifyCitation implements emulate.Toolbox: a web_search_result_location
// whose encrypted_index webgate sealed must authenticate and agree with
// its visible url and cited_text. Other citations (char_location, or
// Anthropic's own values) carry nothing webgate vouches for.
func (b *Box) VerifyCitation(raw json.RawMessage) error {
	var c struct {
		Type           string `json:"type"`
		URL            string `json:"url"`
		EncryptedIndex string `json:"encrypted_index"`
		CitedText      string `json:"cited_text"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return fmt.Errorf("%w: citation: %v", emulate.ErrInvalidHistory, err)
	}
	if c.Type != "web_search_result_location" {
		return nil
	}
	switch _, err := openCitation(b.o.Sealer, c.EncryptedIndex, c.URL, c.CitedText); {
	case errors.Is(err, errForeignKey):
		return nil
	case err != nil:
		return fmt.Errorf("citation of %s: %w", c.URL, err)
	}
	return nil
}
