// Package providertest is the contract every search.Provider must meet,
// run against an httptest server so no test reaches the internet.
//
// A provider's test supplies a Harness (constructor, credentials, fixture
// payloads in the provider's real wire format and the results they must
// produce) and calls Run. The suite then checks the behaviour the Engine
// relies on: parsing, empty results, the HTTP-status → error-kind mapping,
// Retry-After, deadlines, bounded bodies, and that the request carried the
// credential and the query text.
//
// Deadlines: when the caller's context or the per-request timeout
// (providers.<name>.timeout) ends a request, providers return a
// *search.ProviderError of kind search.ErrUnavailable that also wraps the
// context error, so both errors.Is(err, search.ErrUnavailable) and
// errors.Is(err, context.DeadlineExceeded) hold. The suite asserts both.
package providertest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/search/internal/httpx"
)

// Harness describes one provider to the contract suite.
type Harness struct {
	// Name is the provider's registry name; Name() must return it.
	Name string
	// New constructs the provider. Nil means the factory the provider
	// registered (search.Register), which is what webgate runs.
	New search.Factory
	// Config carries the credentials (APIKey, CX). The suite sets BaseURL
	// to its test server and may set Timeout.
	Config search.Settings
	// RequiresKey says construction must fail when Config.APIKey is empty.
	RequiresKey bool
	// Credential extracts the credential the request carried, to compare
	// with Config.APIKey. Nil for keyless providers.
	Credential func(r *http.Request, body []byte) string
	// QueryText extracts the query text the request carried.
	QueryText func(r *http.Request, body []byte) string
	// Method and Path, when set, are the expected request method and URL
	// path (relative to BaseURL).
	Method, Path string
	// ContentType is the Content-Type of the fixtures; default
	// application/json.
	ContentType string
	// Success is a realistic result payload; Want are the results its
	// first entries must produce (compared in full, so set Published and
	// PageAge where the payload has them). At most 5 entries.
	Success []byte
	Want    []search.Result
	// Empty is a genuine "no results" payload.
	Empty []byte
	// Malformed is a payload the provider cannot make sense of.
	Malformed []byte
}

// testQuery is the query the suite sends; MaxResults is small so that the
// suite can check providers cap what they return.
var testQuery = search.Query{Text: "golang generics", MaxResults: 5}

// recorded is one request as the fake server saw it.
type recorded struct {
	req  *http.Request
	body []byte
}

// server is a fake provider endpoint whose response the test sets.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	handler func(w http.ResponseWriter, r *http.Request)
	last    *recorded
}

func newServer(t *testing.T) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		s.mu.Lock()
		s.last = &recorded{req: r.Clone(context.Background()), body: body}
		h := s.handler
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) respond(h func(w http.ResponseWriter, r *http.Request)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = h
}

func (s *server) request() *recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Run runs the contract suite for h.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.ContentType == "" {
		h.ContentType = "application/json"
	}
	if len(h.Want) == 0 || len(h.Want) > testQuery.MaxResults {
		t.Fatalf("harness: Want must hold 1..%d results", testQuery.MaxResults)
	}
	reg, ok := search.Registered(h.Name)
	if !ok {
		t.Fatalf("harness: %q is not registered (search.Register)", h.Name)
	}
	if h.New == nil {
		h.New = reg.New
	}

	build := func(t *testing.T, srv *server, timeout time.Duration) search.Provider {
		t.Helper()
		cfg := h.Config
		cfg.BaseURL = srv.URL
		cfg.Timeout = timeout
		p, err := h.New(cfg, srv.Client())
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		return p
	}
	static := func(status int, body []byte, header ...string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", h.ContentType)
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			w.WriteHeader(status)
			w.Write(body)
		}
	}

	t.Run("Name", func(t *testing.T) {
		srv := newServer(t)
		if got := build(t, srv, 0).Name(); got != h.Name {
			t.Errorf("Name() = %q, want %q", got, h.Name)
		}
	})

	if h.RequiresKey {
		t.Run("MissingKey", func(t *testing.T) {
			cfg := h.Config
			cfg.APIKey = ""
			if _, err := h.New(cfg, http.DefaultClient); err == nil {
				t.Error("New without an API key succeeded, want an error")
			}
		})
	}

	t.Run("Success", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(static(http.StatusOK, h.Success))
		res, err := build(t, srv, 0).Search(context.Background(), testQuery)
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		if len(res) < len(h.Want) {
			t.Fatalf("got %d results, want at least %d: %+v", len(res), len(h.Want), res)
		}
		if len(res) > testQuery.MaxResults {
			t.Errorf("got %d results, want at most MaxResults=%d", len(res), testQuery.MaxResults)
		}
		if diff := cmp.Diff(h.Want, res[:len(h.Want)]); diff != "" {
			t.Errorf("leading results mismatch (-want +got):\n%s", diff)
		}
		for i, r := range res {
			if r.Rank != i+1 || r.Provider != h.Name || r.URL == "" || r.Title == "" {
				t.Errorf("result %d = %+v: want Rank %d, Provider %q, non-empty URL and Title", i, r, i+1, h.Name)
			}
			if strings.ContainsAny(r.Snippet, "<>") && strings.Contains(r.Snippet, "</") {
				t.Errorf("result %d snippet still has markup: %q", i, r.Snippet)
			}
		}

		rec := srv.request()
		if rec == nil {
			t.Fatal("the server saw no request")
		}
		if h.Method != "" && rec.req.Method != h.Method {
			t.Errorf("method = %s, want %s", rec.req.Method, h.Method)
		}
		if h.Path != "" && rec.req.URL.Path != h.Path {
			t.Errorf("path = %q, want %q", rec.req.URL.Path, h.Path)
		}
		if h.Credential != nil {
			if got := h.Credential(rec.req, rec.body); got != h.Config.APIKey {
				t.Errorf("credential = %q, want %q", got, h.Config.APIKey)
			}
		}
		if got := h.QueryText(rec.req, rec.body); !strings.Contains(got, testQuery.Text) {
			t.Errorf("query text = %q, want it to contain %q", got, testQuery.Text)
		}
	})

	t.Run("Empty", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(static(http.StatusOK, h.Empty))
		res, err := build(t, srv, 0).Search(context.Background(), testQuery)
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		if len(res) != 0 {
			t.Errorf("got %d results, want none: %+v", len(res), res)
		}
	})

	statuses := []struct {
		name       string
		status     int
		header     []string
		kind       error
		retryAfter time.Duration
	}{
		{name: "Unauthorized", status: http.StatusUnauthorized, kind: search.ErrAuth},
		{name: "RateLimited", status: http.StatusTooManyRequests, header: []string{"Retry-After", "7"}, kind: search.ErrRateLimited, retryAfter: 7 * time.Second},
		{name: "InternalServerError", status: http.StatusInternalServerError, kind: search.ErrUnavailable},
		{name: "BadGateway", status: http.StatusBadGateway, kind: search.ErrUnavailable},
		{name: "ServiceUnavailable", status: http.StatusServiceUnavailable, kind: search.ErrUnavailable},
	}
	for _, tc := range statuses {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t)
			// A short generic body: provider-specific error bodies are
			// covered by each provider's own tests.
			srv.respond(static(tc.status, []byte(`{"error":"test"}`), tc.header...))
			_, err := build(t, srv, 0).Search(context.Background(), testQuery)
			checkKind(t, h.Name, err, tc.kind)
			if got := search.RetryAfterOf(err); got != tc.retryAfter {
				t.Errorf("RetryAfter = %s, want %s", got, tc.retryAfter)
			}
		})
	}

	t.Run("Malformed", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(static(http.StatusOK, h.Malformed))
		_, err := build(t, srv, 0).Search(context.Background(), testQuery)
		checkKind(t, h.Name, err, search.ErrUnavailable)
	})

	t.Run("Oversized", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(static(http.StatusOK, bytes.Repeat([]byte(" "), httpx.MaxBody+1)))
		_, err := build(t, srv, 0).Search(context.Background(), testQuery)
		checkKind(t, h.Name, err, search.ErrUnavailable)
	})

	// block answers only when the client gives up, so the deadline and not
	// the server decides when the request ends.
	block := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

	t.Run("ContextDeadline", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(block)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := build(t, srv, 0).Search(ctx, testQuery)
		checkKind(t, h.Name, err, search.ErrUnavailable)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
		}
	})

	t.Run("RequestTimeout", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(block)
		_, err := build(t, srv, 50*time.Millisecond).Search(context.Background(), testQuery)
		checkKind(t, h.Name, err, search.ErrUnavailable)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
		}
	})

	t.Run("Canceled", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(static(http.StatusOK, h.Success))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := build(t, srv, 0).Search(ctx, testQuery)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want it to wrap context.Canceled", err)
		}
	})

	t.Run("EmptyQuery", func(t *testing.T) {
		srv := newServer(t)
		srv.respond(static(http.StatusOK, h.Success))
		_, err := build(t, srv, 0).Search(context.Background(), search.Query{Text: "  "})
		checkKind(t, h.Name, err, search.ErrInvalidQuery)
		if srv.request() != nil {
			t.Error("an empty query reached the server")
		}
	})
}

// checkKind asserts err is a *search.ProviderError from provider of kind.
func checkKind(t *testing.T, provider string, err, kind error) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %v", kind)
	}
	if !errors.Is(err, kind) {
		t.Errorf("err = %v, want kind %v", err, kind)
	}
	var pe *search.ProviderError
	if !errors.As(err, &pe) {
		t.Errorf("err = %T %v, want *search.ProviderError", err, err)
	} else if pe.Provider != provider {
		t.Errorf("ProviderError.Provider = %q, want %q", pe.Provider, provider)
	}
}
