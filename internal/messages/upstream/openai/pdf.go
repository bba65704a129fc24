package openai

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/extract"
)

// PDF documents in a conversation are sent back on every turn, and
// reading one runs a parser process, so the text of recent ones is kept.
const (
	pdfCacheEntries = 16
	pdfCacheTTL     = time.Hour
	// maxPDFChars bounds the text a PDF contributes (about 250k tokens,
	// more than any model's context), and so the cache's memory.
	maxPDFChars = 1 << 20
	// pdfTimeout bounds reading one PDF.
	pdfTimeout = 30 * time.Second
)

// pdfReader reads PDF documents with webgate's extractor.
type pdfReader struct {
	cache *cache.Local[pdfResult]
}

type pdfResult struct {
	text string
	err  string
}

func newPDFReader() *pdfReader {
	return &pdfReader{cache: cache.NewLocal[pdfResult](pdfCacheEntries)}
}

// text returns the text of a base64-encoded PDF, cut to maxPDFChars.
// Failures are remembered too: a PDF without a text layer stays so.
func (r *pdfReader) text(ctx context.Context, data string) (string, error) {
	sum := sha256.Sum256([]byte(data))
	key := hex.EncodeToString(sum[:])
	if res, ok := r.cache.Get(ctx, key); ok {
		if res.err != "" {
			return "", errors.New(res.err)
		}
		return res.text, nil
	}
	text, err := readPDF(ctx, data)
	if ctx.Err() != nil {
		return "", err // the caller is gone; nothing was learnt about the PDF
	}
	res := pdfResult{text: text}
	if err != nil {
		res.err = err.Error()
	}
	r.cache.Set(ctx, key, res, pdfCacheTTL)
	return text, err
}

func readPDF(ctx context.Context, data string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", fmt.Errorf("the document is not valid base64: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, pdfTimeout)
	defer cancel()
	doc, err := extract.PDF(ctx, raw, extract.Options{Format: extract.Markdown})
	if err != nil {
		return "", err
	}
	text := doc.Content
	if len(text) > maxPDFChars {
		cut := maxPDFChars
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "\n\n[The rest of the document was left out.]"
	}
	return text, nil
}
