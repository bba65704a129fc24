package guard

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLogHandler: a secret is redacted wherever a log line can carry it,
// and everything else is written as the handler beneath would write it.
func TestLogHandler(t *testing.T) {
	const tok = "ghp_R8xQ2mZ7vK4nW1tY6pL3sD9fH5jB0cA2eG7u"
	u, _ := url.Parse("https://example.com/x?access_token=" + tok)
	type pair struct{ A, B string }
	tests := []struct {
		name string
		log  func(l *slog.Logger)
		want string // a fragment of the line, besides the redaction
	}{
		{"message", func(l *slog.Logger) { l.Warn("fetch " + tok) }, `msg="fetch [REDACTED:`},
		{"string", func(l *slog.Logger) { l.Warn("m", "url", u.String()) }, `url="https://example.com/x?access_token=[REDACTED:`},
		{"error", func(l *slog.Logger) { l.Warn("m", "err", fmt.Errorf("get %s: %w", u, errors.New("refused"))) }, `err="get https://example.com/x?access_token=[REDACTED:`},
		{"stringer", func(l *slog.Logger) { l.Warn("m", "url", u) }, `url="https://example.com/x?access_token=[REDACTED:`},
		{"other value", func(l *slog.Logger) { l.Warn("m", "pair", pair{"a", tok}) }, `pair="{A:a B:[REDACTED:`},
		{"group", func(l *slog.Logger) { l.Warn("m", slog.Group("req", "q", "why "+tok)) }, `req.q="why [REDACTED:`},
		{"with attrs", func(l *slog.Logger) { l.With("q", tok).Warn("m") }, `q=[REDACTED:`},
		{"with group", func(l *slog.Logger) { l.WithGroup("g").Warn("m", "q", tok) }, `g.q=[REDACTED:`},
		{"log valuer", func(l *slog.Logger) { l.Warn("m", "v", valuer(tok)) }, `v=[REDACTED:`},
		{"clean values untouched", func(l *slog.Logger) {
			l.Warn("request", "path", "/v1/search", "status", 200, "took", 1500*time.Millisecond, "err", errors.New("timeout"), "pair", pair{"a", "b"})
		}, `msg=request path=/v1/search status=200 took=1.5s err=timeout pair="{A:a B:b}"`},
	}
	d := NewDetector(Options{HighEntropy: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.log(slog.New(d.LogHandler(slog.NewTextHandler(&b, &slog.HandlerOptions{ReplaceAttr: dropTime}))))
			if line := b.String(); strings.Contains(line, tok) || strings.Contains(line, tok[4:]) || !strings.Contains(line, tt.want) {
				t.Errorf("got  %s\nwant a line containing %s, and no secret", line, tt.want)
			}
		})
	}
}

type valuer string

func (v valuer) LogValue() slog.Value { return slog.StringValue(string(v)) }

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
