package httplog

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// both formats r with slog's text handler and with ours.
func both(t testing.TB, r slog.Record, opts *slog.HandlerOptions) (want, got string) {
	t.Helper()
	var a, b bytes.Buffer
	if err := slog.NewTextHandler(&a, opts).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if err := NewTextHandler(&b, opts).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

func TestTextHandlerMatchesSlog(t *testing.T) {
	at := time.Date(2026, 11, 24, 1, 6, 52, 486_999_999, time.UTC)
	east := time.FixedZone("", 5*3600+30*60)
	for _, tc := range []struct {
		name  string
		time  time.Time
		level slog.Level
		msg   string
		attrs []slog.Attr
	}{
		{"access line", at, slog.LevelInfo, "request", []slog.Attr{
			slog.String("method", "POST"), slog.String("path", "/v1/messages"), slog.String("surface", "messages"),
			slog.Int("status", 200), slog.Duration("took", 214118*time.Nanosecond), slog.Duration("search_took", 92846*time.Nanosecond),
			slog.Int("results", 4), slog.Bool("stream", true), slog.String("provider", "zero"),
		}},
		{"quoting", at, slog.LevelWarn, "web search failed", []slog.Attr{
			slog.String("empty", ""), slog.String("space", "a b"), slog.String("eq", "a=b"), slog.String("quote", `a"b`),
			slog.String("backslash", `a\b`), slog.String("tab", "a\tb"), slog.String("nl", "a\nb"), slog.String("del", "a\x7fb"),
			slog.String("unicode", "héllo wörld"), slog.String("nbsp", "a\u00a0b"), slog.String("bad utf8", "a\xffb"),
			slog.String("µs", "214µs"), slog.String("key with space", "v"),
		}},
		{"numbers", at, slog.LevelError, "n", []slog.Attr{
			slog.Int64("neg", -42), slog.Uint64("big", math.MaxUint64), slog.Float64("pi", math.Pi), slog.Float64("inf", math.Inf(1)),
			slog.Float64("nan", math.NaN()), slog.Float64("tiny", 1e-300), slog.Bool("no", false), slog.Duration("zero", 0),
			slog.Duration("long", 90*time.Minute+time.Nanosecond),
		}},
		{"other levels and zones", at.In(east), slog.LevelDebug + 2, "", nil},
		{"time on a millisecond", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), slog.LevelInfo - 1, "x", nil},
		{"no time", time.Time{}, slog.LevelInfo, "no time", []slog.Attr{slog.Int("a", 1)}},
		// Kinds the fast encoder leaves to slog.
		{"any, time, group, error", at, slog.LevelInfo, "slow", []slog.Attr{
			slog.Any("err", errors.New("boom")), slog.Time("at", at), slog.Group("g", slog.Int("a", 1)),
			slog.Any("list", []int{1, 2}),
		}},
		{"empty key", at, slog.LevelInfo, "k", []slog.Attr{{Key: "", Value: slog.IntValue(1)}, slog.Int("b", 2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := slog.NewRecord(tc.time, tc.level, tc.msg, 0)
			r.AddAttrs(tc.attrs...)
			want, got := both(t, r, &slog.HandlerOptions{Level: slog.LevelDebug})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("output differs from slog.TextHandler (-slog +ours):\n%s", diff)
			}
		})
	}
}

func TestTextHandlerLevelAndDerived(t *testing.T) {
	var b bytes.Buffer
	h := NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelWarn})
	if h.Enabled(context.Background(), slog.LevelInfo) || !h.Enabled(context.Background(), slog.LevelWarn) {
		t.Error("Enabled does not follow the level")
	}
	log := slog.New(h).With("component", "x").WithGroup("g")
	log.Warn("hi", "a", 1)
	if want := "level=WARN msg=hi component=x g.a=1\n"; !bytes.HasSuffix(b.Bytes(), []byte(want)) {
		t.Errorf("derived handler wrote %q, want it to end %q", b.String(), want)
	}
	if _, ok := NewTextHandler(&b, &slog.HandlerOptions{AddSource: true}).(*slog.TextHandler); !ok {
		t.Error("AddSource should give slog's own handler")
	}
}

func FuzzTextHandler(f *testing.F) {
	f.Add("request", "path", "/v1/messages", int64(200), 1.5, int64(214118), true, int64(1795000000123456789))
	f.Add("", "", "", int64(-1), math.Inf(-1), int64(-1), false, int64(0))
	f.Add("a b", "k=v", "\"q\"\x00\u2028", int64(0), 0.0, int64(math.MaxInt64), true, int64(-62135596800000000))
	f.Fuzz(func(t *testing.T, msg, key, val string, n int64, x float64, d int64, ok bool, unixNano int64) {
		r := slog.NewRecord(time.Unix(0, unixNano).UTC(), slog.Level(n%16), msg, 0)
		r.AddAttrs(slog.String(key, val), slog.Int64("n", n), slog.Float64("x", x), slog.Duration("d", time.Duration(d)),
			slog.Bool("ok", ok), slog.Uint64("u", uint64(n)), slog.String("v", val))
		want, got := both(t, r, &slog.HandlerOptions{Level: slog.LevelDebug - 16})
		if want != got {
			t.Fatalf("output differs from slog.TextHandler:\nslog: %q\nours: %q", want, got)
		}
	})
}

func BenchmarkTextHandler(b *testing.B) {
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("method", "POST"), slog.String("path", "/v1/messages"), slog.String("surface", "messages"),
		slog.Int("status", 200), slog.Duration("took", 214118*time.Nanosecond), slog.Duration("search_took", 92846*time.Nanosecond),
		slog.Int("results", 4), slog.Bool("stream", true), slog.String("provider", "zero"))
	for _, h := range []struct {
		name string
		h    slog.Handler
	}{
		{"slog", slog.NewTextHandler(discard{}, nil)},
		{"httplog", NewTextHandler(discard{}, nil)},
	} {
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = h.h.Handle(context.Background(), r)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
