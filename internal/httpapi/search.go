package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/webgate/webgate/internal/search"
)

// SearchRequest is the body of POST /v1/search. GET /v1/search takes the
// same fields as query parameters (q, n, allow, block, provider, country,
// language, freshness, safe_search).
type SearchRequest struct {
	Query          string   `json:"query"`
	MaxResults     int      `json:"max_results,omitempty"`
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	BlockedDomains []string `json:"blocked_domains,omitempty"`
	Provider       string   `json:"provider,omitempty"`
	Country        string   `json:"country,omitempty"`
	Language       string   `json:"language,omitempty"`
	Freshness      string   `json:"freshness,omitempty"`
	SafeSearch     string   `json:"safe_search,omitempty"`
}

func (a *API) searchGET(w http.ResponseWriter, r *http.Request) {
	sr, err := searchFromQuery(r.URL.Query())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.search(w, r, sr)
}

func (a *API) searchPOST(w http.ResponseWriter, r *http.Request) {
	var sr SearchRequest
	if err := a.decode(w, r, &sr); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.search(w, r, sr)
}

func (a *API) search(w http.ResponseWriter, r *http.Request, sr SearchRequest) {
	q, err := sr.query()
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	resp, err := a.opts.Searcher.Search(r.Context(), q)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, resp.JSON())
}

// searchFromQuery reads GET parameters. allow and block may repeat or hold
// comma-separated lists.
func searchFromQuery(v url.Values) (SearchRequest, error) {
	sr := SearchRequest{
		Query: v.Get("q"), Provider: v.Get("provider"), Country: v.Get("country"),
		Language: v.Get("language"), Freshness: v.Get("freshness"), SafeSearch: v.Get("safe_search"),
		AllowedDomains: splitList(v["allow"]), BlockedDomains: splitList(v["block"]),
	}
	if n := v.Get("n"); n != "" {
		i, err := strconv.Atoi(n)
		if err != nil {
			return sr, &badRequest{fmt.Sprintf("n: %q is not a number", n)}
		}
		sr.MaxResults = i
		if i == 0 {
			sr.MaxResults = -1 // explicit 0 is out of range, not "default"
		}
	}
	return sr, nil
}

func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// query validates sr and builds the engine query.
func (sr SearchRequest) query() (search.Query, error) {
	q := search.Query{
		Text:           strings.TrimSpace(sr.Query),
		MaxResults:     sr.MaxResults,
		AllowedDomains: sr.AllowedDomains,
		BlockedDomains: sr.BlockedDomains,
		Provider:       strings.TrimSpace(sr.Provider),
		Location:       search.Location{Country: strings.ToUpper(strings.TrimSpace(sr.Country))},
		Language:       strings.TrimSpace(sr.Language),
		Freshness:      search.Freshness(strings.TrimPrefix(sr.Freshness, "any")),
		SafeSearch:     search.SafeSearch(strings.TrimPrefix(sr.SafeSearch, "default")),
	}
	if err := q.Validate(search.DefaultLimits); err != nil {
		var ve *search.ValidationError
		if errors.As(err, &ve) {
			return q, &badRequest{ve.Describe(searchLabel)}
		}
		return q, &badRequest{err.Error()}
	}
	return q, nil
}

// searchLabel names a query field as this API does: the JSON field, and
// the GET parameter when it differs.
func searchLabel(field string) string {
	switch field {
	case "query":
		return "query (q)"
	case "max_results":
		return "max_results (n)"
	case "allowed_domains":
		return "allowed_domains (allow)"
	case "blocked_domains":
		return "blocked_domains (block)"
	case "user_location.country":
		return "country"
	}
	return field
}

// decode reads a JSON body (RFC 8259, https://www.rfc-editor.org/rfc/rfc8259)
// into v, bounded by MaxBodyBytes, rejecting unknown fields (a typo such as
// "max_result" should fail loudly, not be ignored) and trailing data (a
// JSON text is one value, RFC 8259 section 2).
func (a *API) decode(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return &badRequest{fmt.Sprintf("Content-Type must be application/json, not %q", ct)}
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, a.opts.MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		if errors.Is(err, io.EOF) {
			return &badRequest{"request body is empty; send a JSON object"}
		}
		return &badRequest{"invalid JSON body: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	if dec.More() {
		return &badRequest{"invalid JSON body: unexpected data after the object"}
	}
	return nil
}

// EngineQuery validates sr and builds the engine query, with the same rules and
// messages as /v1/search; the web console's playground uses it so both
// surfaces accept exactly the same searches. Its error is a bad request
// that WriteError answers with 400 invalid_request.
func (sr SearchRequest) EngineQuery() (search.Query, error) { return sr.query() }
