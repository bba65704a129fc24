package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
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

func brotliBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := brotli.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zstdBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

// encodeAs compresses b with the named content coding.
func encodeAs(t testing.TB, coding string, b []byte) []byte {
	t.Helper()
	switch coding {
	case "gzip":
		return gzipBytes(t, b)
	case "deflate":
		return zlibBytes(t, b)
	case "br":
		return brotliBytes(t, b)
	case "zstd":
		return zstdBytes(t, b)
	}
	t.Fatalf("no encoder for %q", coding)
	return nil
}

// codings are every content coding the fetcher asks for.
var codings = []string{"gzip", "deflate", "br", "zstd"}

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
		{"brotli", bytes.NewReader(brotliBytes(t, text)), "br", 1 << 20, text, nil, false},
		{"zstd", bytes.NewReader(zstdBytes(t, text)), "ZSTD", 1 << 20, text, nil, false},
		{"brotli expands over the limit", bytes.NewReader(brotliBytes(t, zeros)), "br", 2 << 20, nil, ErrTooLarge, false},
		{"zstd expands over the limit", bytes.NewReader(zstdBytes(t, zeros)), "zstd", 2 << 20, nil, ErrTooLarge, false},
		{"brotli bomb ratio", bytes.NewReader(brotliBytes(t, zeros)), "br", 64 << 20, nil, ErrTooLarge, false},
		{"zstd bomb ratio", bytes.NewReader(zstdBytes(t, zeros)), "zstd", 64 << 20, nil, ErrTooLarge, false},
		{"truncated brotli", bytes.NewReader(brotliBytes(t, []byte(articleHTML))[:100]), "br", 1 << 20, nil, ErrBadContent, false},
		{"truncated zstd", bytes.NewReader(zstdBytes(t, []byte(articleHTML))[:100]), "zstd", 1 << 20, nil, ErrBadContent, false},
		{"not brotli", bytes.NewReader(text), "br", 1 << 20, nil, ErrBadContent, false},
		{"not zstd", bytes.NewReader(text), "zstd", 1 << 20, nil, ErrBadContent, false},
		{"unknown coding", bytes.NewReader(text), "compress", 1 << 20, nil, ErrBadContent, false},
		{"stacked encodings", bytes.NewReader(gz), "gzip, gzip", 1 << 20, nil, ErrBadContent, false},
		{"network error inside brotli", &errReader{bytes.NewReader(brotliBytes(t, text)[:20]), netErr}, "br", 1 << 20, nil, nil, true},
		{"network error inside zstd", &errReader{bytes.NewReader(zstdBytes(t, text)[:20]), netErr}, "zstd", 1 << 20, nil, nil, true},
		{"network error", &errReader{bytes.NewReader(text[:100]), netErr}, "", 1 << 20, nil, nil, true},
		{"network error inside gzip", &errReader{bytes.NewReader(gz[:20]), netErr}, "gzip", 1 << 20, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readBody(tt.body, tt.encoding, tt.max, 100, 0)
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

// TestReadBodyHint checks that the declared length only sizes the buffer:
// a wrong one changes nothing, and the buffer never grows past the limit.
func TestReadBodyHint(t *testing.T) {
	text := []byte(strings.Repeat("hello, world. ", 10000)) // 140 KB
	const limit = 200 << 10
	for _, coding := range append([]string{""}, codings...) {
		body := text
		if coding != "" {
			body = encodeAs(t, coding, text)
		}
		for _, hint := range []int64{-1, 0, 1, int64(len(body)), int64(len(body)) - 1, limit / 4, limit/4 + 1, limit, 1 << 40, 1 << 62, math.MaxInt64} {
			got, err := readBody(bytes.NewReader(body), coding, limit, 1000, hint)
			if err != nil || !bytes.Equal(got, text) {
				t.Fatalf("coding %q hint %d: %d bytes, %v", coding, hint, len(got), err)
			}
			if cap(got) > limit+1 {
				t.Errorf("coding %q hint %d: buffer of %d bytes over the %d limit", coding, hint, cap(got), limit)
			}
		}
	}
	// An exact length is read into one buffer: four allocations in all,
	// with the test's reader and readBody's two small wrappers.
	if n := testing.AllocsPerRun(10, func() {
		_, _ = readBody(bytes.NewReader(text), "", limit, 100, int64(len(text)))
	}); n > 4 {
		t.Errorf("%v allocations for a body of declared length", n)
	}
}

// TestReadBodyZstdWindow checks that frames declaring a window over the
// RFC 9659 limit are refused from their header, before any output, while a
// body larger than the window in a compliant frame decodes.
func TestReadBodyZstdWindow(t *testing.T) {
	stream := func(window int, b []byte) []byte {
		var buf bytes.Buffer
		zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(window))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	single, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(true))
	if err != nil {
		t.Fatal(err)
	}
	defer single.Close()
	big := bytes.Repeat([]byte("0123456789abcdef"), (9<<20)/16) // 9 MiB
	for name, body := range map[string][]byte{
		"single-segment frame of 16 MiB": single.EncodeAll(make([]byte, 16<<20), nil),
		"16 MiB window":                  stream(16<<20, big),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := readBody(bytes.NewReader(body), "zstd", 64<<20, 1<<20, 0)
			var be *bodyError
			if !errors.As(err, &be) || be.kind != ErrTooLarge || !strings.Contains(err.Error(), "window") {
				t.Fatalf("readBody() error = %v, want ErrTooLarge naming the window", err)
			}
		})
	}
	got, err := readBody(bytes.NewReader(stream(8<<20, big)), "zstd", 64<<20, 1<<20, 0)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("8 MiB window: %d bytes, %v", len(got), err)
	}
}

// endless is a body that never ends: an unbounded stream of zeros in the
// given coding, produced on the fly, like a hostile server. It counts the
// bytes handed to the reader.
type endless struct {
	pr   *io.PipeReader
	read atomic.Int64
}

func newEndless(t *testing.T, coding string) *endless {
	t.Helper()
	pr, pw := io.Pipe()
	e := &endless{pr: pr}
	var w io.Writer = pw
	var closer io.Closer
	switch coding {
	case "":
	case "gzip":
		zw := gzip.NewWriter(pw)
		w, closer = zw, zw
	case "deflate":
		zw := zlib.NewWriter(pw)
		w, closer = zw, zw
	case "br":
		bw := brotli.NewWriter(pw)
		w, closer = bw, bw
	case "zstd":
		zw, err := zstd.NewWriter(pw, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
		if err != nil {
			t.Fatal(err)
		}
		w, closer = zw, zw
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		chunk := make([]byte, 64<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = pr.Close() // stops the writer
		<-done
		if closer != nil {
			_ = closer.Close()
		}
	})
	return e
}

func (e *endless) Read(p []byte) (int, error) {
	n, err := e.pr.Read(p)
	e.read.Add(int64(n))
	return n, err
}

// TestReadBodyEndless checks that an endless body, plain or in any coding,
// ends in ErrTooLarge having read and kept a bounded amount: at most the
// limit from the wire, and, for compressed bodies, stopped by the ratio
// guard soon after the first MiB of output.
func TestReadBodyEndless(t *testing.T) {
	const limit = 4 << 20
	for _, coding := range append([]string{""}, codings...) {
		t.Run("coding="+coding, func(t *testing.T) {
			body := newEndless(t, coding)
			got, err := readBody(body, coding, limit, 100, 0)
			var be *bodyError
			if !errors.As(err, &be) || be.kind != ErrTooLarge || got != nil {
				t.Fatalf("readBody() = %d bytes, %v; want ErrTooLarge", len(got), err)
			}
			if n := body.read.Load(); n > limit+1+64<<10 {
				t.Errorf("read %d bytes from the wire, limit %d", n, limit)
			}
			if coding != "" && !strings.Contains(err.Error(), "decompression bomb") {
				t.Errorf("compressed endless body stopped by %q, want the ratio guard", err)
			}
		})
	}
}

// FuzzReadBody feeds arbitrary bytes under every coding with any declared
// length: readBody must never panic, never return more than the limit, and
// every failure must name its kind (too large, bad content).
func FuzzReadBody(f *testing.F) {
	text := []byte("<p>hello, hello, hello</p>")
	for i, c := range append([]string{"", "identity"}, codings...) {
		enc := text
		if i > 1 {
			enc = encodeAs(f, c, text)
		}
		f.Add(enc, c, int64(len(enc)))
		f.Add(enc[:len(enc)/2], c, int64(-1))
	}
	f.Add(flateBytes(f, text), "deflate", int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, body []byte, coding string, hint int64) {
		const limit = 64 << 10
		got, err := readBody(bytes.NewReader(body), coding, limit, 100, hint)
		if err != nil {
			var be *bodyError
			if !errors.As(err, &be) || (be.kind != ErrTooLarge && be.kind != ErrBadContent) {
				t.Fatalf("error %v has no kind", err)
			}
			return
		}
		if len(got) > limit {
			t.Fatalf("%d bytes over the %d limit", len(got), limit)
		}
		if strings.TrimSpace(strings.ToLower(coding)) == "" && !bytes.Equal(got, body) {
			t.Fatal("identity body changed")
		}
	})
}
