package server_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// TestGatewayKeyNeverForwarded: a webgate key never reaches the upstream,
// whichever header carries it and however many do, on passthrough and on
// an emulated turn, while an upstream key sent beside it still passes.
func TestGatewayKeyNeverForwarded(t *testing.T) {
	e := newAccessEnv(t)
	key, other := e.keys["full"], e.keys["budget"]
	basic := func(user, pass string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	}
	chat := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`
	emulated := `{"model":"m","max_tokens":5,"tools":[{"type":"web_search_20250305","name":"web_search"}],` +
		`"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"},{"role":"user","content":"and?"}]}`
	tests := []struct {
		name string
		body string
		hdr  []string
		// keep is a header the upstream must still get, with its value.
		keep []string
	}{
		{"bearer and x-api-key", chat, []string{"Authorization", "Bearer " + key, "x-api-key", key}, nil},
		{"basic with the key as password, and x-api-key", chat, []string{"Authorization", basic("user", key), "x-api-key", key}, nil},
		{"basic with the key as user, and x-api-key", chat, []string{"Authorization", basic(key, ""), "x-api-key", key}, nil},
		{"another gateway key beside", chat, []string{"Authorization", "Bearer " + key, "x-api-key", other}, nil},
		{"the key in another header", chat, []string{"x-api-key", key, "X-Forward-Me", "token=" + key}, nil},
		{"upstream key beside the gateway key", chat, []string{"Authorization", "Bearer " + key, "x-api-key", "sk-upstream"}, []string{"X-Api-Key", "sk-upstream"}},
		{"emulated turn, bearer and x-api-key", emulated, []string{"Authorization", "Bearer " + key, "x-api-key", key}, nil},
		{"emulated turn, basic and x-api-key", emulated, []string{"Authorization", basic("u", key), "x-api-key", key}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.mu.Lock()
			e.upstream = nil
			e.mu.Unlock()
			if status, body, _ := e.do(t, "POST", "/v1/messages", tt.body, tt.hdr...); status != http.StatusOK {
				t.Fatalf("%d %s", status, body)
			}
			e.mu.Lock()
			defer e.mu.Unlock()
			if len(e.upstream) == 0 {
				t.Fatal("nothing reached the upstream")
			}
			for _, h := range e.upstream {
				for name, vals := range h {
					for _, v := range vals {
						if leaks(v, key) || leaks(v, other) {
							t.Errorf("the gateway key reached the upstream in %s: %s", name, v)
						}
					}
				}
				if tt.keep != nil && h.Get(tt.keep[0]) != tt.keep[1] {
					t.Errorf("upstream got %s %q, want %q", tt.keep[0], h.Get(tt.keep[0]), tt.keep[1])
				}
			}
		})
	}
}

// leaks reports whether a header value holds key, as it is or inside
// Basic credentials.
func leaks(v, key string) bool {
	if strings.Contains(v, key) {
		return true
	}
	if scheme, cred, ok := strings.Cut(v, " "); ok && strings.EqualFold(scheme, "Basic") {
		d, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
		return err == nil && bytes.Contains(d, []byte(key))
	}
	return false
}
