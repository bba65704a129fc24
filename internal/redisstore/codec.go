package redisstore

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/search"
)

// SearchCodec encodes search responses as JSON: the query as executed, the
// provider and the results. Attempts and Cached are per call, never
// cached.
type SearchCodec struct{}

type searchEntry struct {
	Query    search.Query    `json:"q"`
	Provider string          `json:"p"`
	Results  []search.Result `json:"r"`
}

// Version implements Codec.
func (SearchCodec) Version() string { return "s1" }

// Encode implements Codec.
func (SearchCodec) Encode(r *search.Response) ([]byte, error) {
	if r == nil {
		return nil, errors.New("nil response")
	}
	return json.Marshal(searchEntry{Query: r.Query, Provider: r.Provider, Results: r.Results})
}

// Decode implements Codec.
func (SearchCodec) Decode(b []byte) (*search.Response, error) {
	var e searchEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("search entry: %w", err)
	}
	return &search.Response{Query: e.Query, Provider: e.Provider, Results: e.Results}, nil
}

// FetchCodec encodes fetch results as a length-prefixed JSON document
// followed by the raw body, so the body (often HTML, sometimes a PDF)
// costs its own size, not a third more as base64. Bodies larger than
// MaxBodyBytes are left out, as the fetcher's own cache does: the text,
// which is what callers page through, is always kept.
type FetchCodec struct {
	MaxBodyBytes int
}

// Version implements Codec.
func (FetchCodec) Version() string { return "f1" }

// Encode implements Codec.
func (c FetchCodec) Encode(r *fetch.Result) ([]byte, error) {
	if r == nil {
		return nil, errors.New("nil result")
	}
	meta, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	body := r.Body
	if len(body) > c.MaxBodyBytes {
		body = nil
	}
	b := make([]byte, 0, binary.MaxVarintLen64+len(meta)+len(body))
	b = binary.AppendUvarint(b, uint64(len(meta)))
	b = append(b, meta...)
	return append(b, body...), nil
}

// Decode implements Codec.
func (FetchCodec) Decode(b []byte) (*fetch.Result, error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		return nil, errors.New("fetch entry: bad length prefix")
	}
	var r fetch.Result
	if err := json.Unmarshal(b[w:w+int(n)], &r); err != nil {
		return nil, fmt.Errorf("fetch entry: %w", err)
	}
	if body := b[w+int(n):]; len(body) > 0 {
		r.Body = body
	}
	return &r, nil
}
