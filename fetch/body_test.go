package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"strings"
	"testing"
)

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zlibBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

func flateBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

// errReader fails after its data, like a connection reset mid-body.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		return n, e.err
	}
	return n, err
}

func TestReadBody(t *testing.T) {
	text := []byte(strings.Repeat("hello, world. ", 100))
	zeros := make([]byte, 4<<20)
	gz := gzipBytes(t, text)
	netErr := errors.New("connection reset by peer")
	tests := []struct {
		name     string
		body     io.Reader
		encoding string
		max      int64
		want     []byte
		wantKind error // nil with wantNet false means success
		wantNet  bool
	}{
		{"identity", bytes.NewReader(text), "", 1 << 20, text, nil, false},
		{"identity explicit", bytes.NewReader(text), "identity", 1 << 20, text, nil, false},
		{"gzip", bytes.NewReader(gz), "gzip", 1 << 20, text, nil, false},
		{"x-gzip upper case", bytes.NewReader(gz), " X-GZIP ", 1 << 20, text, nil, false},
		{"zlib deflate", bytes.NewReader(zlibBytes(t, text)), "deflate", 1 << 20, text, nil, false},
		{"raw deflate", bytes.NewReader(flateBytes(t, text)), "deflate", 1 << 20, text, nil, false},
		{"empty", bytes.NewReader(nil), "", 1024, []byte{}, nil, false},
		{"exactly the limit", bytes.NewReader(text[:1024]), "", 1024, text[:1024], nil, false},
		{"over the limit", bytes.NewReader(text), "", 1024, nil, ErrTooLarge, false},
		{"gzip expands over the limit", bytes.NewReader(gzipBytes(t, zeros)), "gzip", 2 << 20, nil, ErrTooLarge, false},
		{"gzip bomb ratio", bytes.NewReader(gzipBytes(t, zeros)), "gzip", 64 << 20, nil, ErrTooLarge, false},
		{"truncated gzip", bytes.NewReader(gz[:len(gz)/2]), "gzip", 1 << 20, nil, ErrBadContent, false},
		{"gzip header only", bytes.NewReader(gz[:10]), "gzip", 1 << 20, nil, ErrBadContent, false},
		{"not gzip", bytes.NewReader(text), "gzip", 1 << 20, nil, ErrBadContent, false},
		{"corrupt deflate", bytes.NewReader([]byte{0x78, 0x9c, 0xff, 0xff, 0xff}), "deflate", 1 << 20, nil, ErrBadContent, false},
		{"brotli not requested", bytes.NewReader(text), "br", 1 << 20, nil, ErrBadContent, false},
		{"stacked encodings", bytes.NewReader(gz), "gzip, gzip", 1 << 20, nil, ErrBadContent, false},
		{"network error", &errReader{bytes.NewReader(text[:100]), netErr}, "", 1 << 20, nil, nil, true},
		{"network error inside gzip", &errReader{bytes.NewReader(gz[:20]), netErr}, "gzip", 1 << 20, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readBody(tt.body, tt.encoding, tt.max, 100)
			switch {
			case tt.wantNet:
				var be *bodyError
				if !errors.As(err, &be) || be.kind != nil || !errors.Is(err, netErr) {
					t.Fatalf("readBody() error = %v, want the network error", err)
				}
			case tt.wantKind != nil:
				var be *bodyError
				if !errors.As(err, &be) || be.kind != tt.wantKind {
					t.Fatalf("readBody() error = %#v, want kind %v", err, tt.wantKind)
				}
			default:
				if err != nil {
					t.Fatalf("readBody() error = %v", err)
				}
				if !bytes.Equal(got, tt.want) {
					t.Fatalf("readBody() = %d bytes, want %d", len(got), len(tt.want))
				}
			}
		})
	}
}
