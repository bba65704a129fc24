package search

import "time"

// JSONResponse is the stable JSON shape of a search answer, shared by
// `webgate search --json` and the HTTP API's /v1/search.
type JSONResponse struct {
	Query    string       `json:"query"`
	Provider string       `json:"provider"`
	Results  []JSONResult `json:"results"`
}

// JSONResult is one result in JSONResponse.
type JSONResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
	// Published is an RFC 3339 time when known, else the provider's own
	// age string, else empty.
	Published string `json:"published,omitempty"`
	Provider  string `json:"provider"`
}

// JSON converts r to its wire shape.
func (r *Response) JSON() JSONResponse {
	out := JSONResponse{Query: r.Query.Text, Provider: r.Provider, Results: make([]JSONResult, len(r.Results))}
	for i, res := range r.Results {
		out.Results[i] = JSONResult{
			Title: res.Title, URL: res.URL, Snippet: res.Snippet,
			Published: res.PublishedString(), Provider: res.Provider,
		}
	}
	return out
}

// PublishedString renders the publication time for people and models: an
// RFC 3339 date when known, else the provider's age string.
func (r Result) PublishedString() string {
	if !r.Published.IsZero() {
		if r.Published.Hour() == 0 && r.Published.Minute() == 0 && r.Published.Second() == 0 {
			return r.Published.Format(time.DateOnly)
		}
		return r.Published.UTC().Format(time.RFC3339)
	}
	return r.PageAge
}
