package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
)

// FetchRequest is the body of POST /v1/fetch.
type FetchRequest struct {
	// URLs to fetch, 1 to 20. URL is accepted as a shorthand for one.
	URLs       []string `json:"urls,omitempty"`
	URL        string   `json:"url,omitempty"`
	Format     string   `json:"format,omitempty"`
	MaxLength  int      `json:"max_length,omitempty"`
	StartIndex int      `json:"start_index,omitempty"`
	// Render is auto, always or never; "" means fetch.render.
	Render string `json:"render,omitempty"`
}

// FetchResponse is the body of a successful POST /v1/fetch: one entry per
// requested URL, in order, each a page or an error.
type FetchResponse struct {
	Results []fetch.JSONResult `json:"results"`
}

func (a *API) fetchPOST(w http.ResponseWriter, r *http.Request) {
	var fr FetchRequest
	if err := a.decode(w, r, &fr); err != nil {
		a.writeError(w, r, err)
		return
	}
	urls := fr.URLs
	if fr.URL != "" {
		urls = append([]string{fr.URL}, urls...)
	}
	format, ferr := extract.ParseFormat(fr.Format)
	var problems []string
	switch {
	case len(urls) == 0:
		problems = append(problems, `"urls" must list at least one URL`)
	case len(urls) > MaxFetchURLs:
		problems = append(problems, fmt.Sprintf(`"urls" holds %d URLs; at most %d per request`, len(urls), MaxFetchURLs))
	}
	for i, u := range urls {
		if strings.TrimSpace(u) == "" {
			problems = append(problems, fmt.Sprintf("urls[%d] is empty", i))
		}
	}
	if ferr != nil {
		problems = append(problems, ferr.Error())
	}
	render, rerr := fetch.ParseRenderMode(fr.Render)
	if rerr != nil {
		problems = append(problems, rerr.Error())
	}
	if fr.MaxLength < 0 || fr.StartIndex < 0 {
		problems = append(problems, "max_length and start_index must not be negative")
	}
	if len(problems) > 0 {
		a.writeError(w, r, &badRequest{strings.Join(problems, "; ")})
		return
	}

	// Per-URL failures are results, not a failed request: one dead link
	// must not hide nine good pages. The request fails only if the client
	// leaves.
	out := FetchResponse{Results: make([]fetch.JSONResult, len(urls))}
	errs := make([]error, len(urls))
	reqs := make([]fetch.Request, len(urls))
	for i, u := range urls {
		reqs[i] = fetch.Request{URL: strings.TrimSpace(u), Format: format, MaxLength: fr.MaxLength, StartIndex: fr.StartIndex, Render: render}
	}
	fetch.Each(r.Context(), a.opts.Fetcher, reqs, a.opts.FetchConcurrency, func(i int, res *fetch.Result, err error) {
		out.Results[i], errs[i] = fetch.NewJSONResult(urls[i], res, err), err
	}, func(i int) {
		out.Results[i] = fetch.NewJSONResult(urls[i], nil, fmt.Errorf("%w: %w", fetch.ErrTimeout, r.Context().Err()))
	})
	if err := r.Context().Err(); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := refusedWhole(errs); err != nil {
		// Every URL was refused by the key's policy or the guard: that
		// is the request's answer, not a list of per-page failures.
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, out)
}

// refusedWhole returns the first error when every URL failed because of
// a policy refusal or the query guard, and nil otherwise.
func refusedWhole(errs []error) error {
	for _, err := range errs {
		if err == nil || !policy.IsDenial(err) && !errors.Is(err, guard.ErrSecret) {
			return nil
		}
	}
	return errs[0]
}
