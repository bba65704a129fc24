// Package httpapi serves webgate's JSON HTTP API: GET and POST /v1/search,
// POST /v1/fetch and the OpenAPI 3.1 description at /openapi.json
// (https://spec.openapis.org/oas/v3.1.0).
//
// Responses use the same JSON shapes as the CLI's --json output
// (search.JSONResponse, fetch.JSONResult), so scripts can move between the
// two. Errors are {"error":{"type","message"}} with a fitting status; the
// mapping from errors to statuses lives in errors.go and nowhere else.
package httpapi

import (
	_ "embed"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/perf/batchconn"
	"github.com/webgate/webgate/internal/search"
)

// Limits on one request.
const (
	// MaxFetchURLs caps the URLs of one POST /v1/fetch.
	MaxFetchURLs = 20
)

// Options configures the API.
type Options struct {
	// Searcher answers /v1/search; required.
	Searcher search.Searcher
	// Fetcher answers /v1/fetch; required.
	Fetcher fetch.Getter
	// MaxBodyBytes caps request bodies (default 1 MiB).
	MaxBodyBytes int64
	// FetchConcurrency caps the URLs one /v1/fetch fetches at once
	// (default 5).
	FetchConcurrency int
	// Logger receives request errors; nil discards.
	Logger *slog.Logger
}

//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3.1 document served at /openapi.json.
func OpenAPI() []byte { return openAPI }

// API is the JSON HTTP API handler.
type API struct {
	opts Options
	log  *slog.Logger
	mux  *http.ServeMux
}

// New returns the API. Its routes are /v1/search, /v1/fetch and
// /openapi.json; any other /v1/ path answers a JSON 404, so a server can
// mount it at "/v1/" and still add more specific routes (such as the
// Anthropic-compatible /v1/messages) beside it.
func New(opts Options) *API {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	if opts.FetchConcurrency <= 0 {
		opts.FetchConcurrency = 5
	}
	a := &API{opts: opts, log: opts.Logger, mux: http.NewServeMux()}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	a.mux.HandleFunc("GET /v1/search", a.searchGET)
	a.mux.HandleFunc("POST /v1/search", a.searchPOST)
	a.mux.HandleFunc("POST /v1/fetch", a.fetchPOST)
	a.mux.HandleFunc("GET /openapi.json", serveOpenAPI)
	// Method-less patterns catch the other methods, so a wrong method gets
	// a JSON 405 with Allow rather than the mux's plain-text one (a 405
	// must list the allowed methods: RFC 9110 section 15.5.6,
	// https://www.rfc-editor.org/rfc/rfc9110#section-15.5.6).
	a.mux.Handle("/v1/search", methodNotAllowed("GET, POST"))
	a.mux.Handle("/v1/fetch", methodNotAllowed("POST"))
	a.mux.Handle("/openapi.json", methodNotAllowed("GET"))
	a.mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeErrorBody(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.URL.Path+" (see /openapi.json)", 0)
	})
	return a
}

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write(openAPI)
}

func methodNotAllowed(allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeErrorBody(w, http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed here; use "+allow, 0)
	})
}

// writeJSON writes v with status as one body of known length, handed to
// the connection in one write when r is given (see package batchconn).
// A write error can only mean the client went away, so it is dropped.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only a bug (an unencodable value) gets here.
		b, status = []byte(`{"error":{"type":"internal","message":"encode response"}}`), http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = batchconn.WriteResponse(w, r, status, append(b, '\n'))
}

// ErrorBody is the JSON shape of every error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail names the error kind (stable, machine-readable) and explains
// it (for people).
type ErrorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// WriteErrorBody writes an error response in the API's shape with the
// given status and type; it maps nothing (WriteError does that). Package
// server uses it so 403, 404, 413 and 503 from middleware look the same
// as the API's own errors. retryAfter > 0 sets Retry-After in whole
// seconds (delay-seconds, RFC 9110 section 10.2.3,
// https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3).
func WriteErrorBody(w http.ResponseWriter, status int, typ, msg string, retryAfter time.Duration) {
	writeErrorBody(w, status, typ, msg, retryAfter)
}

// writeErrorBody is WriteErrorBody.
func writeErrorBody(w http.ResponseWriter, status int, typ, msg string, retryAfter time.Duration) {
	if retryAfter > 0 {
		secs := int64((retryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	}
	writeJSON(w, nil, status, ErrorBody{Error: ErrorDetail{Type: typ, Message: msg}})
}
