package anthropic

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/config"
)

func TestCleanHeader(t *testing.T) {
	in := http.Header{
		"Connection":        {"keep-alive, X-Private"},
		"X-Private":         {"secret"},
		"Keep-Alive":        {"timeout=5"},
		"Transfer-Encoding": {"chunked"},
		"Content-Length":    {"12"},
		"Anthropic-Version": {"2023-06-01"},
		"Anthropic-Beta":    {"a,b"},
		"X-Api-Key":         {"k"},
	}
	want := http.Header{"Anthropic-Version": {"2023-06-01"}, "Anthropic-Beta": {"a,b"}, "X-Api-Key": {"k"}, "Content-Length": {"12"}}
	if diff := cmp.Diff(want, CleanHeader(in)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if in.Get("X-Private") == "" {
		t.Error("CleanHeader modified its input")
	}
}

func TestDo(t *testing.T) {
	var got *http.Request
	var gotBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		gotBody, _ = io.ReadAll(r.Body)
		w.Header().Set("Location", "/elsewhere")
		w.WriteHeader(http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	tests := []struct {
		name, base, apiKey, wantPath, wantKey string
	}{
		{"root base", srv.URL, "", "/v1/messages", "client"},
		{"base with path", srv.URL + "/anthropic/", "", "/anthropic/v1/messages", "client"},
		{"configured key", srv.URL, "server", "/v1/messages", "server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(config.Upstream{BaseURL: tt.base, APIKey: tt.apiKey}, nil)
			if err != nil {
				t.Fatal(err)
			}
			in := httptest.NewRequest(http.MethodPost, "/v1/messages?beta=true", nil)
			in.Header.Set("X-Api-Key", "client")
			body := []byte(`{"a" : 1}`)
			resp, err := c.Do(context.Background(), in, body)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusTemporaryRedirect {
				t.Errorf("redirect followed: status %d", resp.StatusCode)
			}
			if got.URL.Path != tt.wantPath || got.URL.RawQuery != "beta=true" || !bytes.Equal(gotBody, body) {
				t.Errorf("upstream saw %s?%s %s", got.URL.Path, got.URL.RawQuery, gotBody)
			}
			if got.Header.Get("X-Api-Key") != tt.wantKey {
				t.Errorf("x-api-key %q, want %q", got.Header.Get("X-Api-Key"), tt.wantKey)
			}
		})
	}
	if _, err := New(config.Upstream{BaseURL: "ftp://x"}, nil); err == nil {
		t.Error("non-http base accepted")
	}
}
