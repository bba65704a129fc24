package server

import "net/http"

// BearerTransport sends Token as Authorization: Bearer on every request
// (the MCP SDK's client takes an *http.Client, not headers). It is shared
// by this package's tests and the external server_test package's.
type BearerTransport struct {
	Token string
	Base  http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (b BearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	return b.Base.RoundTrip(r)
}
