package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// acceptEncoding is what we ask for. The transport's own gzip handling is
// off (it only applies when it set the header itself, and has no size or
// ratio guard), so every coding is decoded here, under the same limits.
// Brotli and Zstandard are what many CDNs prefer to send.
const acceptEncoding = "gzip, deflate, br, zstd"

// zstdMaxWindow is the largest Zstandard window we accept. RFC 9659
// (https://www.rfc-editor.org/rfc/rfc9659) caps
// the window of the "zstd" content coding at 8 MiB so that a decoder's
// memory stays bounded; a frame asking for more is refused rather than
// allocated.
const zstdMaxWindow = 8 << 20

// ratioSlack is decoded output allowed before the compression-ratio check
// applies, so small, highly repetitive pages are not mistaken for bombs.
const ratioSlack = 1 << 20

// bodyError is a failure while reading a body; network failures are kept
// apart from decoding failures because they map to different sentinels.
type bodyError struct {
	kind error // ErrTooLarge, ErrBadContent, or nil for a network error
	err  error
}

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// countingReader counts bytes read and remembers the first error from the
// underlying (network) reader.
type countingReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// readBody reads and decodes body according to contentEncoding (the
// content codings of RFC 9110 section 8.4.1, https://www.rfc-editor.org/rfc/rfc9110#section-8.4.1,
// whose names are case-insensitive), enforcing
// maxBytes on both the wire and decoded sizes and maxRatio on compressed
// bodies. sizeHint is the declared length (Content-Length; 0 or -1 when
// unknown), used only to size the first buffer. The output buffer never
// holds more than maxBytes+1 bytes.
func readBody(body io.Reader, contentEncoding string, maxBytes int64, maxRatio int, sizeHint int64) ([]byte, error) {
	raw := &countingReader{r: io.LimitReader(body, maxBytes+1)}
	enc := strings.ToLower(strings.TrimSpace(contentEncoding))
	var dec io.Reader
	switch enc {
	case "", "identity":
		dec = raw
	case "gzip", "x-gzip":
		// RFC 9110 section 8.4.1.3 (x-gzip is its alias); the format is
		// RFC 1952.
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return nil, decodeErr(raw, fmt.Errorf("gzip: %w", err))
		}
		// One member only: a body of concatenated members gains nothing
		// for a web page and makes the ratio accounting harder.
		zr.Multistream(false)
		dec = zr
	case "deflate":
		// "deflate" means zlib-wrapped by the spec (RFC 9110 section
		// 8.4.1.2: RFC 1950 around RFC 1951), but many servers send a raw
		// deflate stream, as that section notes; the zlib header is
		// recognisable, so accept both.
		br := bufio.NewReader(raw)
		hdr, _ := br.Peek(2)
		if len(hdr) == 2 && hdr[0]&0x0f == 8 && (uint16(hdr[0])<<8|uint16(hdr[1]))%31 == 0 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return nil, decodeErr(raw, fmt.Errorf("deflate: %w", err))
			}
			dec = zr
		} else {
			dec = flate.NewReader(br)
		}
	case "br":
		// The Brotli format (RFC 7932, https://www.rfc-editor.org/rfc/rfc7932)
		// caps its window at 16 MiB, which bounds the decoder's memory
		// whatever the stream claims.
		dec = brotli.NewReader(raw)
	case "zstd":
		// Zstandard is RFC 8878. Synchronous (one decoder, no goroutines)
		// and with the window limit of RFC 9659. MaxMemory applies the
		// same limit to single-segment frames, whose window is their
		// declared content size (up to 2^64 bytes in the header).
		zr, err := zstd.NewReader(raw, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecoderMaxMemory(zstdMaxWindow))
		if err != nil {
			return nil, decodeErr(raw, fmt.Errorf("zstd: %w", err))
		}
		defer zr.Close()
		dec = zr
	default:
		if strings.Contains(enc, ",") {
			// Stacked codings ("gzip, br") are legal but not seen from
			// real servers; refusing them keeps the bomb accounting to
			// one layer.
			return nil, &bodyError{kind: ErrBadContent, err: fmt.Errorf("stacked content-encodings %q are not supported", contentEncoding)}
		}
		return nil, &bodyError{kind: ErrBadContent, err: fmt.Errorf("content-encoding %q was not requested and is not supported", contentEncoding)}
	}

	// The output grows by doubling but never past maxBytes+1 (enough to
	// see that a body is too large), so the memory held is bounded by the
	// limit itself, not by twice it as append or bytes.Buffer would allow.
	limit := maxBytes + 1
	out := make([]byte, 0, initialCap(enc, sizeHint, limit))
	for {
		if len(out) == cap(out) {
			grown := make([]byte, len(out), min(max(2*int64(cap(out)), 16<<10), limit))
			copy(grown, out)
			out = grown
		}
		n, err := dec.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if int64(len(out)) > maxBytes {
			return nil, &bodyError{kind: ErrTooLarge, err: fmt.Errorf("body exceeds %d bytes", maxBytes)}
		}
		if dec != raw && len(out) > ratioSlack && int64(len(out)) > int64(maxRatio)*raw.n {
			return nil, &bodyError{kind: ErrTooLarge, err: fmt.Errorf("compressed body expands more than %d times (decompression bomb guard)", maxRatio)}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if raw.n > maxBytes {
				return nil, &bodyError{kind: ErrTooLarge, err: fmt.Errorf("body exceeds %d bytes", maxBytes)}
			}
			if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
				return nil, &bodyError{kind: ErrTooLarge, err: fmt.Errorf("zstd window exceeds %d bytes (RFC 9659 limit)", zstdMaxWindow)}
			}
			return nil, decodeErr(raw, err)
		}
	}
	if raw.n > maxBytes {
		return nil, &bodyError{kind: ErrTooLarge, err: fmt.Errorf("body exceeds %d bytes", maxBytes)}
	}
	return out, nil
}

// initialCap sizes the output buffer from the declared length (sizeHint,
// Content-Length or -1), so a typical page is read with one allocation: the
// exact size plus one byte to see EOF for an identity body, four times the
// wire size for a compressed one (HTML compresses about that well), and
// 16 KiB when the length is unknown (then doubling).
func initialCap(enc string, sizeHint, limit int64) int64 {
	switch {
	case sizeHint <= 0:
		return min(16<<10, limit)
	case sizeHint >= limit:
		// Also keeps the arithmetic below from overflowing on an absurd
		// declared length.
		return limit
	case enc == "" || enc == "identity":
		return min(sizeHint+1, limit)
	case sizeHint > limit/4:
		return limit
	}
	return 4 * sizeHint
}

// contentEncoding is the response's coding list. A server may send the
// header more than once, which means the comma-joined list (RFC 9110
// section 5.3, https://www.rfc-editor.org/rfc/rfc9110#section-5.3); joining the lines makes a
// stacked coding visible (and refused) instead of silently decoding only
// the first.
func contentEncoding(h http.Header) string {
	return strings.Join(h.Values("Content-Encoding"), ", ")
}

// decodeErr tells a network failure (the connection broke or timed out)
// from a corrupt encoding.
func decodeErr(raw *countingReader, err error) error {
	if raw.err != nil {
		return &bodyError{err: raw.err}
	}
	if raw.n > 0 && errors.Is(err, io.ErrUnexpectedEOF) {
		return &bodyError{kind: ErrBadContent, err: fmt.Errorf("compressed body is truncated: %w", err)}
	}
	return &bodyError{kind: ErrBadContent, err: fmt.Errorf("compressed body is corrupt: %w", err)}
}
