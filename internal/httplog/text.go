package httplog

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// NewTextHandler returns a handler that writes what slog.NewTextHandler(w,
// opts) writes. Records whose attributes are all strings, numbers,
// booleans and durations, such as every access-log line, are formatted by
// a direct encoder several times cheaper than slog's general one (which
// was about 5% of a search fast-path request's CPU); every other record,
// and every handler derived with WithAttrs or WithGroup, is slog's own.
// Options that change the output (ReplaceAttr, AddSource) make it plain
// slog.TextHandler. A test compares both encoders' output record by
// record.
func NewTextHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	slow := slog.NewTextHandler(w, opts)
	if opts == nil {
		opts = &slog.HandlerOptions{}
	}
	if opts.ReplaceAttr != nil || opts.AddSource {
		return slow
	}
	level := opts.Level
	if level == nil {
		level = slog.LevelInfo
	}
	return &textHandler{w: w, level: level, slow: slow}
}

type textHandler struct {
	w     io.Writer
	level slog.Leveler
	slow  *slog.TextHandler
	mu    sync.Mutex // one Write at a time, as slog's handlers do
}

// maxFastLine bounds the pooled buffers: a longer line is written from a
// buffer that is then dropped rather than kept.
const maxFastLine = 4 << 10

var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func (h *textHandler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= h.level.Level()
}

func (h *textHandler) WithAttrs(as []slog.Attr) slog.Handler { return h.slow.WithAttrs(as) }
func (h *textHandler) WithGroup(name string) slog.Handler    { return h.slow.WithGroup(name) }

func (h *textHandler) Handle(ctx context.Context, r slog.Record) error {
	simple := true
	r.Attrs(func(a slog.Attr) bool {
		simple = a.Key != "" && simpleKind(a.Value.Kind())
		return simple
	})
	if !simple {
		return h.slow.Handle(ctx, r)
	}
	bp := linePool.Get().(*[]byte)
	b := (*bp)[:0]
	if !r.Time.IsZero() {
		b = append(b, "time="...)
		b = appendTime(b, r.Time)
		b = append(b, ' ')
	}
	b = append(b, "level="...)
	b = appendString(b, r.Level.String())
	b = append(b, " msg="...)
	b = appendString(b, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b = append(b, ' ')
		b = appendString(b, a.Key)
		b = append(b, '=')
		b = appendValue(b, a.Value)
		return true
	})
	b = append(b, '\n')
	h.mu.Lock()
	_, err := h.w.Write(b)
	h.mu.Unlock()
	if cap(b) <= maxFastLine {
		*bp = b
		linePool.Put(bp)
	}
	return err
}

func simpleKind(k slog.Kind) bool {
	switch k {
	case slog.KindString, slog.KindInt64, slog.KindUint64, slog.KindFloat64, slog.KindBool, slog.KindDuration:
		return true
	}
	return false
}

func appendValue(b []byte, v slog.Value) []byte {
	switch v.Kind() {
	case slog.KindString:
		return appendString(b, v.String())
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		return strconv.AppendFloat(b, v.Float64(), 'g', -1, 64)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		return append(b, v.Duration().String()...)
	}
	panic("httplog: appendValue of a kind simpleKind refuses")
}

// appendTime writes t as RFC 3339 with exactly three digits of
// milliseconds, truncated, as slog's text handler does.
func appendTime(b []byte, t time.Time) []byte {
	// RFC3339Nano drops trailing zeros; a tenth of a millisecond added to
	// the truncated time guarantees four digits, of which the last goes.
	const prefix = len("2006-01-02T15:04:05.000")
	n := len(b)
	b = t.Truncate(time.Millisecond).Add(time.Millisecond/10).AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefix], b[n+prefix+1:]...)
}

// appendString writes s bare, or quoted when it is empty or holds a
// space, '=', '"', an ASCII control character other than DEL, or a
// non-ASCII space or unprintable rune: when slog quotes it.
func appendString(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '=' || c == '"' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}
