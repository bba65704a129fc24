package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkSearchGET measures the API's own cost per GET /v1/search over
// loopback HTTP with a fake searcher (one result).
func BenchmarkSearchGET(b *testing.B) {
	ts := httptest.NewServer(New(Options{Searcher: &fakeSearcher{}, Fetcher: fakeGetter{}}))
	defer ts.Close()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := http.Get(ts.URL + "/v1/search?q=benchmark&n=5")
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
}
