// Package tools implements the emulated web_search and web_fetch server
// tools, in every documented version, on webgate's own search engine and
// fetcher: their definitions and parameters, their result blocks (sealed
// where Anthropic's are encrypted), the restoration of those blocks from a
// client's history, and citations. web_search is a thin layer over package
// websearch, which the search fast path shares: validation, the search and
// its post-filter, the sealed payload and the error codes are its.
//
// Box is the emulate.Toolbox the proxy hands to the emulate.Engine. Tools
// call the Searcher and Getter they are given, which in webgate are the
// service's decorated ones (policy, guard and audit layers included).
package tools

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"time"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

// Enricher returns key passages of the pages behind results, keyed by
// result index, within ctx's deadline; results it could not read are left
// out. The proxy provides the one its search fast path uses.
type Enricher func(ctx context.Context, query string, results []search.Result) map[int][]string

// Options configures a Box.
type Options struct {
	// Searcher runs web searches. Required.
	Searcher search.Searcher
	// Getter fetches pages; nil makes every web_fetch call unavailable.
	Getter fetch.Getter
	// Sealer seals encrypted_content and encrypted_index. Required.
	Sealer *seal.Sealer
	// Enrich, when set, adds key passages of the top result pages to what
	// the model reads from a search, within EnrichTimeout.
	Enrich        Enricher
	EnrichTimeout time.Duration
	// MaxResults is asked of the search engine; 0 is the engine default.
	MaxResults int
	// MaxQueryLength is the longest query searched (query_too_long
	// beyond). Default 500.
	MaxQueryLength int
	// MaxContentTokens bounds a fetched text document when the tool
	// definition sets no max_content_tokens. Default 100000.
	MaxContentTokens int
	// Logger receives debug and warning records; nil discards them.
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Box is the emulate.Toolbox for web search and web fetch.
type Box struct {
	o   Options
	log *slog.Logger
	// pdfText remembers the text extracted from PDFs this process fetched,
	// keyed by a hash of the base64 data the client gets, because a
	// client sends the PDF back in later turns and re-extracting it on
	// every request would cost a parser process each time.
	pdfText *cache.Local[string]
}

var _ emulate.Toolbox = (*Box)(nil)

// Bounds of the PDF text memory.
const (
	pdfCacheEntries = 64
	pdfCacheTTL     = 24 * time.Hour
	maxPDFCacheText = 1 << 20
)

// New returns a Box.
func New(o Options) (*Box, error) {
	if o.Searcher == nil {
		return nil, errors.New("tools: a searcher is required")
	}
	if o.Sealer == nil {
		return nil, errors.New("tools: a sealer is required")
	}
	if o.MaxQueryLength <= 0 {
		o.MaxQueryLength = 500
	}
	if o.MaxContentTokens <= 0 {
		o.MaxContentTokens = 100000
	}
	if o.EnrichTimeout <= 0 {
		o.EnrichTimeout = 2 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Box{o: o, log: log, pdfText: cache.NewLocal[string](pdfCacheEntries)}, nil
}

// Tool implements emulate.Toolbox.
func (b *Box) Tool(def wire.Tool) (emulate.ServerTool, bool, error) {
	v, ok := lookupVersion(def.Type)
	if !ok {
		return nil, false, nil
	}
	s, err := parseSpec(def.Raw, v)
	if err != nil {
		return nil, true, err
	}
	if s.Name == "" {
		s.Name = v.kind
	}
	if v.kind == emulate.KindWebSearch {
		return &searchTool{box: b, spec: s}, true, nil
	}
	return &fetchTool{box: b, spec: s}, true, nil
}

// IsResult implements emulate.Toolbox.
func (b *Box) IsResult(blockType string) bool {
	return blockType == "web_search_tool_result" || blockType == "web_fetch_tool_result"
}

func pdfKey(data string) string {
	sum := sha256.Sum256([]byte(data))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// rememberPDF keeps the text extracted from a PDF for later turns.
func (b *Box) rememberPDF(data, text string) {
	if len(text) <= maxPDFCacheText {
		b.pdfText.Set(context.Background(), pdfKey(data), text, pdfCacheTTL)
	}
}

func (b *Box) recallPDF(data string) (string, bool) {
	return b.pdfText.Get(context.Background(), pdfKey(data))
}
