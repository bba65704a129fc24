package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/websearch"
)

// maxFetchURLLen is Anthropic's documented limit: longer URLs get
// url_too_long.
const maxFetchURLLen = 250

// maxFetchTime is a backstop for Getters without their own deadline (the
// fetcher enforces fetch.timeout, 30s by default).
const maxFetchTime = 2 * time.Minute

// maxPDFModelTokens bounds the extracted text of a PDF given to the model:
// max_content_tokens does not apply to PDFs, but a 2000-page document
// would not fit any context window.
const maxPDFModelTokens = 200000

// fetchTool is one request's web_fetch tool (Anthropic's web fetch tool:
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-fetch-tool).
type fetchTool struct {
	box  *Box
	spec *spec
}

func (t *fetchTool) Name() string { return t.spec.Name }
func (t *fetchTool) Kind() string { return emulate.KindWebFetch }
func (t *fetchTool) MaxUses() int { return t.spec.maxUses() }

// Definition implements emulate.ServerTool.
func (t *fetchTool) Definition() json.RawMessage {
	desc := "Fetch the full text of a web page or PDF document. Only URLs that appeared earlier in this " +
		"conversation (written by the user, returned by a tool, or found in web search results or fetched pages) " +
		"can be fetched; URLs you construct yourself are refused, so search for a page first when you lack its URL. " +
		"The document is numbered like search results; cite it by its number, like [4]."
	if t.citations() {
		desc += " Cite the passages you rely on."
	}
	switch f := t.spec.filter; {
	case len(t.spec.AllowedDomains) > 0:
		desc += " Only these domains can be fetched: " + strings.Join(f.Strings(), ", ") + "."
	case len(t.spec.BlockedDomains) > 0:
		desc += " These domains cannot be fetched: " + strings.Join(f.Strings(), ", ") + "."
	}
	return mustJSON(functionTool{
		Name:        t.spec.Name,
		Description: desc,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","description":"The URL to fetch"}},"required":["url"]}`),
	})
}

func (t *fetchTool) citations() bool { return t.spec.Citations != nil && t.spec.Citations.Enabled }

type fetchInput struct {
	URL string `json:"url"`
}

func parseFetchInput(raw json.RawMessage) (fetchInput, bool) {
	var in fetchInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, false
	}
	in.URL = strings.TrimSpace(in.URL)
	return in, in.URL != ""
}

func (t *fetchTool) Fail(call emulate.Call, code string) emulate.Outcome {
	in, _ := parseFetchInput(call.Input)
	return t.failure(call.ID, in, code, false)
}

func (t *fetchTool) failure(id string, in fetchInput, code string, counted bool) emulate.Outcome {
	return emulate.Outcome{
		Input: mustJSON(in),
		Result: mustJSON(fetchResultBlock{Type: "web_fetch_tool_result", ToolUseID: id,
			Content: fetchError{Type: "web_fetch_tool_result_error", ErrorCode: code}}),
		ErrorCode: code,
		Counted:   counted,
		Report:    emulate.Report{Kind: emulate.KindWebFetch, Error: fetchErrorText(in.URL, code)},
	}
}

// Client-facing web_fetch_tool_result shapes.
type (
	fetchResultBlock struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		Content   any    `json:"content"`
	}
	fetchError struct {
		Type      string `json:"type"`
		ErrorCode string `json:"error_code"`
	}
	fetchResult struct {
		Type        string   `json:"type"`
		URL         string   `json:"url"`
		Content     document `json:"content"`
		RetrievedAt string   `json:"retrieved_at"`
	}
	document struct {
		Type      string         `json:"type"`
		Source    documentSource `json:"source"`
		Title     string         `json:"title"`
		Citations struct {
			Enabled bool `json:"enabled"`
		} `json:"citations"`
	}
	documentSource struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	}
)

// checkURL applies the checks Anthropic makes before fetching, in order,
// returning the error code of the first that fails.
func (t *fetchTool) checkURL(raw string, conv *emulate.Conversation) string {
	if len(raw) > maxFetchURLLen {
		return CodeURLTooLong
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return CodeInvalidToolInput
	}
	if !conv.Seen(raw, t.spec.URLSources.accept) {
		return CodeURLNotInPriorContext
	}
	if !allowFetchDomain(t.spec.filter, u.Host) {
		return CodeURLNotAllowed
	}
	return ""
}

// allowFetchDomain applies domain rules the way web fetch does: on the
// domain only (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-fetch-tool#domain-filtering).
// Anthropic documents that an entry with a path never
// matches a web fetch URL, so such an entry neither allows (allow mode
// fails closed) nor blocks.
func allowFetchDomain(f *domains.Filter, host string) bool {
	mode := f.Mode()
	if mode == domains.ModeNone {
		return true
	}
	h, err := domains.NormalizeHost(host)
	if err != nil {
		return false
	}
	matched := false
	for _, r := range f.Rules() {
		if r.Path == "" && r.MatchHost(h) {
			matched = true
			break
		}
	}
	if mode == domains.ModeAllow {
		return matched
	}
	return !matched
}

// Run implements emulate.ServerTool.
func (t *fetchTool) Run(ctx context.Context, call emulate.Call) emulate.Outcome {
	in, ok := parseFetchInput(call.Input)
	if !ok {
		return t.failure(call.ID, in, CodeInvalidToolInput, false)
	}
	if code := t.checkURL(in.URL, call.Conv); code != "" {
		return t.failure(call.ID, in, code, false)
	}
	g := t.box.o.Getter
	if g == nil {
		return t.failure(call.ID, in, CodeUnavailable, false)
	}
	maxTokens := t.box.o.MaxContentTokens
	if t.spec.MaxContentTokens != nil {
		maxTokens = *t.spec.MaxContentTokens
	}
	req := fetch.Request{URL: in.URL, Format: extract.Markdown, MaxTokens: maxTokens, Render: fetch.RenderAuto,
		NoCache: t.spec.UseCache != nil && !*t.spec.UseCache}
	fctx, cancel := context.WithTimeout(ctx, maxFetchTime)
	defer cancel()
	res, err := g.Fetch(fctx, req)
	if err == nil && isPDF(res) && (res.Truncated || res.Body == nil) {
		// max_content_tokens does not apply to PDFs, and the client gets
		// the document itself, which a cache hit may not carry.
		req.MaxTokens, req.NoCache = maxPDFModelTokens, res.Body == nil || req.NoCache
		res, err = g.Fetch(fctx, req)
		if err == nil && res.Body == nil {
			err = errors.Join(fetch.ErrBadContent, errors.New("pdf body unavailable"))
		}
	}
	if err != nil {
		code := fetchErrorCode(err)
		if ctx.Err() == nil {
			t.box.log.WarnContext(ctx, "emulated web fetch failed", "url", in.URL, "error_code", code, "err", err)
		}
		return t.failure(call.ID, in, code, true)
	}
	retrieved := res.RetrievedAt
	if retrieved.IsZero() {
		retrieved = t.box.o.Now()
	}
	retrieved = retrieved.UTC().Truncate(time.Second)
	doc := document{Type: "document", Title: websearch.Title(res.Title, in.URL)}
	doc.Citations.Enabled = t.citations()
	src := emulate.Source{Kind: emulate.KindWebFetch, URL: in.URL, Title: doc.Title, Retrieved: retrieved, Citations: doc.Citations.Enabled}
	if isPDF(res) {
		data := base64.StdEncoding.EncodeToString(res.Body)
		doc.Source = documentSource{Type: "base64", MediaType: "application/pdf", Data: data}
		src.Document = res.Content
		// Citations on a PDF are page locations (page_location) in the
		// document the client holds; webgate's extracted text has no page
		// numbers, so it offers none rather than wrong ones, and says so:
		// a document that claims citations but never gets one misleads
		// the client.
		src.Citations = false
		doc.Citations.Enabled = false
		t.box.rememberPDF(data, res.Content)
	} else {
		doc.Source = documentSource{Type: "text", MediaType: "text/plain", Data: res.Content}
		src.Document = res.Content
	}
	block := fetchResultBlock{Type: "web_fetch_tool_result", ToolUseID: call.ID, Content: fetchResult{
		Type: "web_fetch_result", URL: in.URL, Content: doc, RetrievedAt: retrieved.Format(time.RFC3339),
	}}
	return emulate.Outcome{
		Input:   mustJSON(in),
		Result:  mustJSON(block),
		Counted: true,
		Report:  emulate.Report{Kind: emulate.KindWebFetch, Sources: []emulate.Source{src}, URLs: emulate.URLsIn(res.Content)},
	}
}

func isPDF(res *fetch.Result) bool {
	return strings.HasPrefix(strings.ToLower(res.ContentType), "application/pdf")
}
