package server

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzCredential: any Authorization and x-api-key values parse without
// panicking into a trimmed key and the header it came from.
func FuzzCredential(f *testing.F) {
	f.Add("Bearer wgk_abc", "")
	f.Add("bearer   spaced  ", "x")
	f.Add("Basic dXNlcjpwYXNz", "wgk_key")
	f.Add("", " key ")
	f.Fuzz(func(t *testing.T, auth, apiKey string) {
		h := http.Header{}
		h.Set("Authorization", auth)
		h.Set("x-api-key", apiKey)
		key, header := Credential(h)
		if key != strings.TrimSpace(key) || header != "Authorization" && header != "X-Api-Key" {
			t.Fatalf("Credential = %q from %q", key, header)
		}
		if header == "X-Api-Key" && key != strings.TrimSpace(h.Get("x-api-key")) {
			t.Fatalf("x-api-key %q read as %q", apiKey, key)
		}
	})
}
