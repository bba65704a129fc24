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

func (r *recorder) AnnotateLog(attrs ...slog.Attr) { r.got = append(r.got, attrs...) }

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
			rec.got = nil
			ok := Annotate(tt.w, slog.Int("results", 4), slog.String("provider", "brave"))
			if ok != tt.want {
				t.Fatalf("Annotate = %v, want %v", ok, tt.want)
			}
			var want []slog.Attr
			if tt.want {
				want = []slog.Attr{slog.Int("results", 4), slog.String("provider", "brave")}
			}
			if diff := cmp.Diff(want, rec.got, cmp.Comparer(func(a, b slog.Attr) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("attrs (-want +got):\n%s", diff)
			}
		})
	}
}
