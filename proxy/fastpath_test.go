package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
)

// TestFastPathWholeAnswerHasLength: an answer ready before anything was
// sent goes out as one body with a Content-Length (not chunked), and the
// SSE stream inside it is complete.
func TestFastPathWholeAnswerHasLength(t *testing.T) {
	h := newHandler(t, Options{Searcher: results(goResults...), Upstream: noEnrich()})
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", bytes.NewReader(oldStyleBody("golang", true, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if id := resp.Header.Get("request-id"); !regexp.MustCompile(`^req_[0-9A-Za-z]{24}$`).MatchString(id) {
		t.Errorf("request-id %q", id)
	}
	if len(resp.TransferEncoding) != 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("transfer encoding %v, Content-Length %q for a %d-byte body", resp.TransferEncoding, resp.Header.Get("Content-Length"), len(body))
	}
	evs := events(t, bytes.NewReader(body))
	if len(evs) == 0 || evs[0].Name != "message_start" || evs[len(evs)-1].Name != "message_stop" {
		t.Errorf("incomplete stream: %d events", len(evs))
	}
}
