package providertest

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// Fake is a canned provider endpoint for a provider's own table tests
// (push-down, provider-specific error bodies). It answers every request
// with the same status, headers and body and records the last request.
type Fake struct {
	s *server
}

// NewFake starts a Fake answering status and body with the given content
// type; header is a list of name, value pairs.
func NewFake(t *testing.T, contentType string, status int, body []byte, header ...string) *Fake {
	t.Helper()
	s := newServer(t)
	s.respond(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		w.Write(body)
	})
	return &Fake{s: s}
}

// URL is the base URL to configure the provider with.
func (f *Fake) URL() string { return f.s.URL }

// Client is an HTTP client for the fake.
func (f *Fake) Client() *http.Client { return f.s.Client() }

// Last returns the last request and its body; it fails the test if there
// was none.
func (f *Fake) Last(t *testing.T) (*http.Request, []byte) {
	t.Helper()
	rec := f.s.request()
	if rec == nil {
		t.Fatal("the fake saw no request")
	}
	return rec.req, rec.body
}

// Fixture reads testdata/name from the calling package's directory: the
// realistic payloads each provider's fake serves.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
