package proxy

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/messages/emulate/emulatetest"
	"github.com/webgate/webgate/internal/search"
)

// TestFastPathResultRestoredByEmulation: a result the fast path answered
// and a later emulated turn restores from its encrypted_content shows the
// model what the fast path showed the client: its date (the fast path
// used to seal the provider's page_age only, so a result that had just a
// publication date lost it), its snippet on one line and its title.
func TestFastPathResultRestoredByEmulation(t *testing.T) {
	published := time.Date(2025, 5, 6, 0, 0, 0, 0, time.UTC)
	searcher := results(search.Result{
		Title: "Go 1.25\n release  notes", URL: "https://go.dev/doc/go1.25",
		Snippet: "Go 1.25 adds\n  container-aware GOMAXPROCS.", Published: published, Provider: "fake",
	})
	cfg := noEnrich()
	up := newFake(t, "anthropic", &cfg, emulatetest.Send(emulatetest.Message("end_turn", emulatetest.Usage{}, emulatetest.Text("It came out in May."))))
	h := newHandler(t, Options{Searcher: searcher, Upstream: cfg})

	// The fast path answers Claude Code's search request.
	rec := post(t, h, "/v1/messages", nil, oldStyleBody("go 1.25 release", false, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("fast path: status %d: %s", rec.Code, rec.Body)
	}
	var answer struct {
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || len(answer.Content) != 3 {
		t.Fatalf("fast path answer %s: %v", rec.Body, err)
	}
	if !strings.Contains(string(answer.Content[1]), `"page_age":"May 6, 2025"`) {
		t.Fatalf("the fast path shows no date: %s", answer.Content[1])
	}

	// A later turn sends its search blocks back; the emulation restores
	// them for the upstream model.
	body, err := json.Marshal(request([]any{searchTool},
		userMsg("When was Go 1.25 released?"),
		assistantContent(answer.Content[:2]),
		userMsg("And when was that?"),
	))
	if err != nil {
		t.Fatal(err)
	}
	rec = post(t, h, "/v1/messages", nil, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("emulated turn: status %d: %s", rec.Code, rec.Body)
	}
	reqs := up.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d upstream requests, want 1", len(reqs))
	}
	sent := string(reqs[0].Raw)
	for _, want := range []string{
		`Published: May 6, 2025`,
		`Go 1.25 adds container-aware GOMAXPROCS.`,
		`] Go 1.25 release notes\nURL: https://go.dev/doc/go1.25`,
	} {
		if !strings.Contains(sent, want) {
			t.Errorf("the restored result lacks %q; the upstream was sent:\n%s", want, sent)
		}
	}
}
