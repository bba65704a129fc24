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
	"unicode/utf8"

	"github.com/webgate/webgate/search"
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
		a.writeErr(w, r, err)
		return
	}
	a.search(w, r, sr)
}

func (a *API) searchPOST(w http.ResponseWriter, r *http.Request) {
	var sr SearchRequest
	if err := a.decode(w, r, &sr); err != nil {
		a.writeErr(w, r, err)
		return
	}
	a.search(w, r, sr)
}

func (a *API) search(w http.ResponseWriter, r *http.Request, sr SearchRequest) {
	q, err := sr.query()
	if err != nil {
		a.writeErr(w, r, err)
		return
	}
	resp, err := a.opts.Searcher.Search(r.Context(), q)
	if err != nil {
		a.writeErr(w, r, err)
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
	var problems []string
	switch n := utf8.RuneCountInString(q.Text); {
	case n == 0:
		problems = append(problems, "query (q) is required")
	case n > maxQuery:
		problems = append(problems, fmt.Sprintf("query must be at most %d characters", maxQuery))
	}
	if sr.MaxResults < 0 || sr.MaxResults > maxResults {
		problems = append(problems, fmt.Sprintf("max_results (n) must be between 1 and %d", maxResults))
	}
	if len(q.AllowedDomains) > 0 && len(q.BlockedDomains) > 0 {
		problems = append(problems, "allowed_domains (allow) and blocked_domains (block) cannot be combined")
	}
	if len(q.AllowedDomains) > maxDomains || len(q.BlockedDomains) > maxDomains {
		problems = append(problems, fmt.Sprintf("at most %d domains per filter", maxDomains))
	}
	if c := q.Location.Country; c != "" && !isAlpha2(c) {
		problems = append(problems, fmt.Sprintf("country %q must be a two-letter code such as US", sr.Country))
	}
	if !q.Freshness.Valid() {
		problems = append(problems, fmt.Sprintf("freshness %q must be one of any, day, week, month, year", sr.Freshness))
	}
	if !q.SafeSearch.Valid() {
		problems = append(problems, fmt.Sprintf("safe_search %q must be one of default, off, moderate, strict", sr.SafeSearch))
	}
	if len(problems) > 0 {
		return q, &badRequest{strings.Join(problems, "; ")}
	}
	return q, nil
}

func isAlpha2(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// decode reads a JSON body into v, bounded by MaxBodyBytes, rejecting
// unknown fields (a typo such as "max_result" should fail loudly, not be
// ignored) and trailing data.
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
// that WriteErr answers with 400 invalid_request.
func (sr SearchRequest) EngineQuery() (search.Query, error) { return sr.query() }
