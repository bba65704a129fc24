package anthropic

import (
	"errors"
	"strings"
	"testing"
)

func TestRoute(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/v1/messages", "/v1/messages"},
		{"/v1/%6Dessages", "/v1/messages"},
		{"/v1/messages/batches/msgbatch_01/results", "/v1/messages/batches/msgbatch_01/results"},
		{"/v1/models/qwen2.5-coder:7b", "/v1/models/qwen2.5-coder:7b"},
		{"/v1/models/%2e%2e", ""},
		{"/v1/models/..", ""},
		{"/v1/models/a%2Fb", ""},
		{"/v1/models/a%00b", ""},
		{"/v1/models/%zz", ""},
		{"v1/models", ""},
		{"/v1/files", ""},
		{"/v1/messages/batches/x/cancel/more", ""},
		{"/", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, err := Route(tt.in)
		if tt.want == "" {
			if !errors.Is(err, ErrPathNotServed) {
				t.Errorf("Route(%q) = %q, %v; want ErrPathNotServed", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Route(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// FuzzRoute: whatever the escaped path, an accepted one comes out as a
// clean /v1/ path without dot or empty segments, that Route accepts
// unchanged.
func FuzzRoute(f *testing.F) {
	for _, s := range []string{"/v1/messages", "/v1/models/%2e%2e/files", "/v1/messages/batches/a/results", "/v1/models/a%2Fb", "//v1/models"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Route(in)
		if err != nil {
			return
		}
		if !strings.HasPrefix(got, "/v1/") || strings.Contains(got, "//") || strings.Contains(got, "/./") ||
			strings.Contains(got, "/../") || strings.HasSuffix(got, "/..") || strings.HasSuffix(got, "/.") || strings.ContainsAny(got, "%?#\\") {
			t.Fatalf("Route(%q) = %q", in, got)
		}
		if again, err := Route(got); err != nil || again != got {
			t.Fatalf("Route(%q) = %q, but Route(%q) = %q, %v", in, got, got, again, err)
		}
	})
}
