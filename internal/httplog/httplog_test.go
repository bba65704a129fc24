package httplog

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type recorder struct {
	http.ResponseWriter
	got []slog.Attr
}

func (r *recorder) LogAttrs() *[]slog.Attr { return &r.got }

type wrapper struct{ http.ResponseWriter }

func (w wrapper) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func TestAnnotate(t *testing.T) {
	rec := &recorder{ResponseWriter: httptest.NewRecorder()}
	deep := http.ResponseWriter(rec)
	for range maxUnwrap - 1 {
		deep = wrapper{deep}
	}
	tooDeep := http.ResponseWriter(wrapper{deep})
	tests := []struct {
		name string
		w    http.ResponseWriter
		want bool
	}{
		{"direct", rec, true},
		{"wrapped", wrapper{wrapper{rec}}, true},
		{"deepest reachable", deep, true},
		{"beyond the bound", tooDeep, false},
		{"no access logger", httptest.NewRecorder(), false},
		{"wrapped without access logger", wrapper{httptest.NewRecorder()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.got = make([]slog.Attr, 0, 3)
			// Three attributes into room for three: the last is dropped.
			ok := Annotate(tt.w, slog.Int("results", 4), slog.String("provider", "brave"))
			Annotate(tt.w, slog.Bool("stream", true), slog.Bool("dropped", true))
			if ok != tt.want {
				t.Fatalf("Annotate = %v, want %v", ok, tt.want)
			}
			want := []slog.Attr{}
			if tt.want {
				want = []slog.Attr{slog.Int("results", 4), slog.String("provider", "brave"), slog.Bool("stream", true)}
			}
			if diff := cmp.Diff(want, rec.got, cmp.Comparer(func(a, b slog.Attr) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("attrs (-want +got):\n%s", diff)
			}
		})
	}
}
