package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCrossSiteRequests checks the browser rules on a loopback server
// with no keys, where nothing but them stops a web page from spending the
// user's search quota: a page's <img src> or no-cors fetch() to
// /v1/search carries Sec-Fetch-Site: cross-site and no Origin, and was
// served. Navigations to the console page, the probes and clients that
// are not browsers are unaffected.
func TestCrossSiteRequests(t *testing.T) {
	opts := testOptions()
	opts.AllowedOrigins = []string{"https://console.example.com"}
	opts.Console = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "console:"+r.URL.Path) })
	ts := httptest.NewServer(Handler(opts))
	defer ts.Close()
	host := strings.TrimPrefix(ts.URL, "http://")
	tests := []struct {
		name   string
		path   string
		hdr    []string
		status int
	}{
		// Refused: a browser sent it for a page of another site.
		{"cross-site search, no Origin", "/v1/search?q=go", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site fetch, no Origin", "/v1/fetch?url=https://go.dev/", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site mcp", "/mcp", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site messages", "/v1/messages", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site models", "/v1/models", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site console api", "/console/api/status", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"same-site, another origin, no Origin", "/v1/search?q=go", []string{"Sec-Fetch-Site", "same-site"}, 403},
		{"foreign Origin", "/v1/search?q=go", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, 403},
		{"null Origin (sandboxed frame, file page)", "/v1/search?q=go", []string{"Origin", "null"}, 403},
		// Served.
		{"not a browser", "/v1/search?q=go", nil, 200},
		{"same origin", "/v1/search?q=go", []string{"Sec-Fetch-Site", "same-origin"}, 200},
		{"typed into the address bar", "/v1/search?q=go", []string{"Sec-Fetch-Site", "none"}, 200},
		{"the console page's own POST", "/v1/search?q=go", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://" + host}, 200},
		// An Origin naming the Host is not enough: a DNS-rebinding page
		// names its own host in both (the Host check refuses it here).
		{"rebinding page", "/v1/search?q=go", []string{"Sec-Fetch-Site", "same-origin", "Origin", "http://evil.example:8788", "Host", "evil.example:8788"}, 403},
		{"listed origin, cross-site", "/v1/search?q=go", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://console.example.com"}, 200},
		{"loopback origin, cross-site", "/v1/search?q=go", []string{"Sec-Fetch-Site", "cross-site", "Origin", "http://localhost:6274"}, 200},
		{"link to the console page", "/", []string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate"}, 200},
		{"console asset", "/console/app.js", []string{"Sec-Fetch-Site", "cross-site"}, 200},
		{"probe", "/healthz", []string{"Sec-Fetch-Site", "cross-site"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, _ := get(t, ts.URL+tt.path, tt.hdr...)
			if status != tt.status {
				t.Fatalf("GET %s = %d %s, want %d", tt.path, status, body, tt.status)
			}
			if status == 403 && (!strings.Contains(body, `"forbidden_origin"`) || !strings.Contains(body, "server.allowed_origins")) {
				t.Errorf("refusal does not say why or what to do: %s", body)
			}
		})
	}
}
