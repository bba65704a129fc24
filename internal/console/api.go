package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/metrics"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/setup"
)

// The JSON API. Errors use the JSON API's shape and status mapping
// (httpapi.WriteError, the one place that maps them), so a refusal reads
// the same on both surfaces; writeJSON writes success bodies.

// Session is GET /console/api/session: who the key is. The page calls it
// first; a 401 there is what shows the sign-in form.
type Session struct {
	// Auth reports whether the server requires keys.
	Auth bool `json:"auth"`
	// KeyID is the key's id ("" without auth).
	KeyID string `json:"key_id,omitempty"`
	// Operator reports whether the caller sees every key's audit records.
	Operator bool   `json:"operator"`
	Version  string `json:"version"`
}

func (c *Console) caller(r *http.Request) (policy.Caller, bool) {
	cl, _ := policy.CallerFrom(r.Context())
	// Without keys the server lets everyone in anonymously, and they all
	// see everything: there is no one to hide records from.
	return cl, cl.KeyID == "" || slices.Contains(c.opts.Operators, cl.KeyID)
}

func (c *Console) session(w http.ResponseWriter, r *http.Request) {
	cl, op := c.caller(r)
	writeJSON(w, http.StatusOK, Session{Auth: cl.KeyID != "", KeyID: cl.KeyID, Operator: op, Version: c.opts.Version})
}

// Status is GET /console/api/status: the process's metrics snapshot
// (metrics.Snapshot, inlined) with the version and uptime.
type Status struct {
	Version       string  `json:"version"`
	UptimeSeconds float64 `json:"uptime_seconds"`
	metrics.Snapshot
}

func (c *Console) status(w http.ResponseWriter, r *http.Request) {
	var snap metrics.Snapshot
	if c.opts.Snapshot != nil {
		snap = c.opts.Snapshot()
	}
	if snap.Time.IsZero() {
		snap.Time = time.Now().UTC()
	}
	up := snap.Time.Sub(snap.Started)
	if snap.Started.IsZero() {
		up = time.Since(c.started)
	}
	writeJSON(w, http.StatusOK, Status{Version: c.opts.Version, UptimeSeconds: up.Seconds(), Snapshot: snap})
}

// AuditPage is GET /console/api/audit.
type AuditPage struct {
	// Scope is "all" for operators and "own" for other keys, whose view is
	// limited to their own records whatever the key filter says.
	Scope   string         `json:"scope"`
	Records []audit.Record `json:"records"`
}

// Audit view limits.
const (
	defaultAuditLimit = 100
	maxAuditLimit     = 1000
)

func (c *Console) audit(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	f := audit.Filter{KeyID: v.Get("key"), Surface: v.Get("surface"), Outcome: v.Get("outcome"), Kind: v.Get("kind"), Limit: defaultAuditLimit}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxAuditLimit {
			httpapi.WriteError(w, r, badRequest(fmt.Sprintf("limit %q must be a number from 1 to %d", s, maxAuditLimit)))
			return
		}
		f.Limit = n
	}
	page := AuditPage{Scope: "all", Records: []audit.Record{}}
	cl, op := c.caller(r)
	if !op {
		page.Scope = "own"
		if f.KeyID != "" && f.KeyID != cl.KeyID {
			// Another key's records: none that this key may see.
			writeJSON(w, http.StatusOK, page)
			return
		}
		f.KeyID = cl.KeyID
	}
	if c.opts.Audit != nil {
		if recs := c.opts.Audit.Recent(f); recs != nil {
			page.Records = recs
		}
	}
	writeJSON(w, http.StatusOK, page)
}

// SetupPage is GET /console/api/setup: for every client, what `webgate
// setup <client>` prints with the same transport options.
type SetupPage struct {
	// Transport is "http" (point the client at this server's /mcp) or
	// "stdio" (the client starts `webgate mcp` on this machine).
	Transport string `json:"transport"`
	// URL is the MCP endpoint for http.
	URL string `json:"url,omitempty"`
	// TokenEnv is the environment variable the client reads the gateway
	// key from, when keys are required.
	TokenEnv string        `json:"token_env,omitempty"`
	Clients  []ClientSetup `json:"clients"`
}

// ClientSetup is one client's configuration.
type ClientSetup struct {
	Client string `json:"client"`
	// CLI is the `webgate setup` command that prints or writes the same.
	CLI string `json:"cli"`
	// Command is the client's own command that does the same, if any.
	Command string `json:"command,omitempty"`
	// Files are the files to change, each with the fragment to merge.
	Files []FileChange `json:"files,omitempty"`
	Notes []string     `json:"notes,omitempty"`
	// Error says why this client cannot be set up with this transport.
	Error string `json:"error,omitempty"`
}

// FileChange is one file of a client's configuration and the fragment
// to merge into it.
type FileChange struct {
	Path    string `json:"path"`
	Snippet string `json:"snippet"`
}

func (c *Console) setup(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	page := SetupPage{Transport: v.Get("transport")}
	switch page.Transport {
	case "", "http":
		page.Transport = "http"
		page.URL = v.Get("url")
		if page.URL == "" {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			page.URL = scheme + "://" + r.Host + "/mcp"
		}
		if u, err := url.Parse(page.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			httpapi.WriteError(w, r, badRequest(fmt.Sprintf("url %q must be an absolute http(s) URL such as http://127.0.0.1:8788/mcp", page.URL)))
			return
		}
		if cl, _ := c.caller(r); cl.KeyID != "" {
			page.TokenEnv = c.opts.TokenEnv
		}
	case "stdio":
	default:
		httpapi.WriteError(w, r, badRequest(fmt.Sprintf("transport %q must be http or stdio", page.Transport)))
		return
	}
	for _, client := range setup.Clients {
		o := c.opts.Setup
		o.Client, o.HTTP, o.URL, o.TokenEnv = client, page.Transport == "http", page.URL, page.TokenEnv
		cs := ClientSetup{Client: client, CLI: setupCLI(client, c.opts.Setup.ConfigFile, page)}
		plan, err := setup.NewPlan(o)
		if err != nil {
			cs.Error = err.Error()
		} else {
			cs.Command, cs.Notes = plan.Command, plan.Notes
			for _, f := range plan.Files {
				cs.Files = append(cs.Files, FileChange{Path: f.Path, Snippet: f.Snippet})
			}
		}
		page.Clients = append(page.Clients, cs)
	}
	writeJSON(w, http.StatusOK, page)
}

// setupCLI is the `webgate setup` command line for client and page.
func setupCLI(client, configFile string, page SetupPage) string {
	cmd := "webgate setup " + client
	if configFile != "" {
		cmd = "webgate --config " + configFile + " setup " + client
	}
	if page.Transport == "http" {
		cmd += " --http"
		if page.URL != setup.DefaultURL {
			cmd += " --url " + page.URL
		}
		if page.TokenEnv != "" {
			cmd += " --token-env " + page.TokenEnv
		}
	}
	return cmd
}

// SearchResult is POST /console/api/search's answer: the search as an
// agent gets it (Digest, the web_search tool's text) and as the JSON API
// returns it, with how it was answered.
type SearchResult struct {
	// TookMS is the server-side time of the whole search (policy, guard,
	// cache and providers).
	TookMS float64 `json:"took_ms"`
	// ContentMS is the time spent fetching the top results' pages for
	// include_content.
	ContentMS float64 `json:"content_ms,omitempty"`
	Provider  string  `json:"provider"`
	Cached    bool    `json:"cached"`
	// Attempts are the provider calls made, in order (none on a cache
	// hit).
	Attempts []Attempt           `json:"attempts"`
	Digest   string              `json:"digest"`
	JSON     search.JSONResponse `json:"json"`
}

// Attempt is one provider call.
type Attempt struct {
	Provider string  `json:"provider"`
	TookMS   float64 `json:"took_ms"`
	Results  int     `json:"results"`
	Error    string  `json:"error,omitempty"`
}

// SearchRequest is the body of POST /console/api/search: the JSON API's
// search body, plus include_content, which also fetches the top results'
// pages into the digest, as the MCP web_search tool does.
type SearchRequest struct {
	httpapi.SearchRequest
	IncludeContent bool `json:"include_content,omitempty"`
}

func (c *Console) search(w http.ResponseWriter, r *http.Request) {
	var sr SearchRequest
	if err := decode(w, r, &sr); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	q, err := sr.EngineQuery()
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	start := time.Now()
	resp, err := c.opts.Searcher.Search(r.Context(), q)
	took := time.Since(start)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	out := SearchResult{TookMS: ms(took), Provider: resp.Provider, Cached: resp.Cached, Attempts: []Attempt{}, JSON: resp.JSON()}
	for _, a := range resp.Attempts {
		at := Attempt{Provider: a.Provider, TookMS: ms(a.Took), Results: a.Results}
		if a.Err != nil {
			at.Error = a.Err.Error()
		}
		out.Attempts = append(out.Attempts, at)
	}
	if c.opts.Digest == nil {
		out.Digest = plainDigest(resp)
	} else {
		start = time.Now()
		out.Digest = c.opts.Digest(r.Context(), resp, sr.IncludeContent)
		if sr.IncludeContent {
			out.ContentMS = ms(time.Since(start))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// plainDigest is the fallback digest: a numbered list.
func plainDigest(resp *search.Response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Search results for %q (provider: %s):\n", resp.Query.Text, resp.Provider)
	for i, res := range resp.Results {
		fmt.Fprintf(&b, "\n%d. %s\n   URL: %s\n   %s\n", i+1, res.Title, res.URL, res.Snippet)
	}
	return b.String()
}

// FetchRequest is the body of POST /console/api/fetch.
type FetchRequest struct {
	URL string `json:"url"`
	// Format is markdown (default), text, html or raw.
	Format string `json:"format,omitempty"`
}

// FetchResult is POST /console/api/fetch's answer: the page as an agent
// gets it (Result, the JSON API's shape, which carries an error instead
// when the page could not be fetched), its metadata, and the raw page.
type FetchResult struct {
	TookMS float64          `json:"took_ms"`
	Cached bool             `json:"cached"`
	Result fetch.JSONResult `json:"result"`
	// Metadata is what extraction found: title, author, date, language,
	// canonical URL, site name, description.
	Metadata extract.Metadata `json:"metadata"`
	// TotalLength is the length of the whole content in characters.
	TotalLength int `json:"total_length"`
	// Raw is the page as served (up to MaxRawBytes), decoded as UTF-8
	// with invalid bytes replaced; empty for binary bodies.
	Raw string `json:"raw"`
	// RawBytes is the size of the whole body.
	RawBytes     int  `json:"raw_bytes"`
	RawTruncated bool `json:"raw_truncated,omitempty"`
	// RawBinary reports a body that is not text (a PDF, an image).
	RawBinary bool `json:"raw_binary,omitempty"`
	// RawMissing reports a cached page whose body was too large to keep.
	RawMissing bool `json:"raw_missing,omitempty"`
}

func (c *Console) fetch(w http.ResponseWriter, r *http.Request) {
	var fr FetchRequest
	if err := decode(w, r, &fr); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	fr.URL = strings.TrimSpace(fr.URL)
	format, ferr := extract.ParseFormat(fr.Format)
	switch {
	case fr.URL == "":
		httpapi.WriteError(w, r, badRequest(`"url" is required`))
		return
	case ferr != nil:
		httpapi.WriteError(w, r, badRequest(ferr.Error()))
		return
	}
	start := time.Now()
	res, err := c.opts.Fetcher.Fetch(r.Context(), fetch.Request{URL: fr.URL, Format: format})
	took := time.Since(start)
	if err != nil && (policy.IsDenial(err) || errors.Is(err, guard.ErrSecret) || r.Context().Err() != nil) {
		// A refusal is the request's answer, as on /v1/fetch.
		httpapi.WriteError(w, r, err)
		return
	}
	out := FetchResult{TookMS: ms(took), Result: fetch.NewJSONResult(fr.URL, res, err)}
	if err == nil {
		out.Cached, out.Metadata, out.TotalLength = res.Cached, res.Metadata, res.TotalLength
		c.raw(&out, res)
	}
	writeJSON(w, http.StatusOK, out)
}

// raw fills the raw-page fields from res.Body.
func (c *Console) raw(out *FetchResult, res *fetch.Result) {
	body := res.Body
	out.RawBytes = len(body)
	switch {
	case body == nil && res.Cached:
		out.RawMissing = true
		return
	case !textual(res.ContentType):
		out.RawBinary = true
		return
	}
	if len(body) > c.opts.MaxRawBytes {
		body, out.RawTruncated = body[:c.opts.MaxRawBytes], true
		// Do not cut a UTF-8 sequence in half.
		for i := 0; i < utf8.UTFMax && len(body) > 0 && !utf8.Valid(body); i++ {
			body = body[:len(body)-1]
		}
	}
	out.Raw = strings.ToValidUTF8(string(body), "\uFFFD")
}

// textual reports whether a content type is worth showing as text.
func textual(ctype string) bool {
	ct := strings.ToLower(ctype)
	return ct == "" || strings.HasPrefix(ct, "text/") || strings.Contains(ct, "html") ||
		strings.Contains(ct, "xml") || strings.Contains(ct, "json") || strings.Contains(ct, "javascript")
}

// badRequest makes an error that httpapi.WriteError answers with 400
// invalid_request: it wraps search.ErrInvalidQuery, which the API maps
// so, with the message as is.
type badRequest string

func (e badRequest) Error() string { return string(e) }
func (e badRequest) Unwrap() error { return search.ErrInvalidQuery }

// maxBody bounds a console request body. The server caps bodies too
// (server.max_request_bytes); this cap holds when the console is mounted
// alone.
const maxBody = 1 << 20

// decode reads a JSON body into v; unknown fields are an error, as in
// the JSON API. A body over maxBody is *http.MaxBytesError (413): an
// io.LimitReader here would end the body early and report the cut as the
// client's malformed JSON (400 "unexpected EOF").
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return badRequest(fmt.Sprintf("Content-Type must be application/json, not %q", ct))
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return badRequest("request body is empty; send a JSON object")
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("invalid JSON body: " + strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
