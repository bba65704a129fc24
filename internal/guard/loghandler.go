package guard

import (
	"context"
	"fmt"
	"log/slog"
)

// LogHandler returns a slog.Handler that writes through next with every
// secret the detector finds replaced by [REDACTED:<rule>], as the audit
// log redacts what it records. It covers the message and every attribute,
// in groups too, and values that print as text: errors, fmt.Stringers
// (a *url.URL), and any other value whose printed form holds a secret
// (which is then logged as that printed form, redacted). Numbers, times
// and durations pass untouched.
//
// Redacting where lines leave the process, rather than at each call
// site, holds for lines written by code that does not know it handles a
// secret: the emulated web_fetch logged the URL the guard had just
// refused because of the token in it.
func (d *Detector) LogHandler(next slog.Handler) slog.Handler {
	return redactHandler{next: next, redact: d.RedactSecrets}
}

type redactHandler struct {
	next   slog.Handler
	redact func(string) string
}

func (h redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h redactHandler) Handle(ctx context.Context, r slog.Record) error {
	msg := h.redact(r.Message)
	changed := msg != r.Message
	if !changed {
		// Most lines hold nothing to redact; they go on as they came,
		// without a copy.
		r.Attrs(func(a slog.Attr) bool {
			_, changed = h.redacted(a)
			return !changed
		})
		if !changed {
			return h.next.Handle(ctx, r)
		}
	}
	out := slog.NewRecord(r.Time, r.Level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = h.attr(a)
	}
	return redactHandler{next: h.next.WithAttrs(red), redact: h.redact}
}

func (h redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{next: h.next.WithGroup(name), redact: h.redact}
}

func (h redactHandler) attr(a slog.Attr) slog.Attr {
	r, _ := h.redacted(a)
	return r
}

// redacted returns a with its secrets redacted, and whether there were
// any.
func (h redactHandler) redacted(a slog.Attr) (slog.Attr, bool) {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		if s := v.String(); s != "" {
			if r := h.redact(s); r != s {
				return slog.String(a.Key, r), true
			}
		}
	case slog.KindGroup:
		g := v.Group()
		red := make([]slog.Attr, len(g))
		changed := false
		for i, ga := range g {
			var c bool
			red[i], c = h.redacted(ga)
			changed = changed || c
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(red...)}, changed
	case slog.KindAny:
		var s string
		switch x := v.Any().(type) {
		case nil:
			return slog.Attr{Key: a.Key, Value: v}, false
		case error:
			s = x.Error()
		case fmt.Stringer:
			s = x.String()
		default:
			s = fmt.Sprintf("%+v", x)
		}
		if r := h.redact(s); r != s {
			return slog.String(a.Key, r), true
		}
	}
	return slog.Attr{Key: a.Key, Value: v}, false
}
