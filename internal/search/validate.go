package search

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits bounds the fields of a Query. Every surface validates with the
// same Validate; DefaultLimits is webgate's own contract (CLI, JSON API,
// MCP, the web console, and the Engine itself), and the Anthropic Messages
// surfaces lower MaxQueryLen to Anthropic's documented 500 characters
// (upstream.web_search.max_query_length).
type Limits struct {
	// MinQueryLen and MaxQueryLen bound the query text, in characters,
	// after surrounding white space is trimmed.
	MinQueryLen, MaxQueryLen int
	// MaxResults is the most results a query may ask for.
	MaxResults int
	// MaxDomains is the most entries in allowed_domains or
	// blocked_domains.
	MaxDomains int
}

// The limits of DefaultLimits, for JSON schemas and documentation.
const (
	// MinQueryLen is the shortest query text accepted, in characters: a
	// single character finds nothing useful, and Claude Code's own
	// WebSearch tool asks for at least 2.
	MinQueryLen = 2
	// MaxQueryLen is the longest query text accepted, in characters.
	MaxQueryLen = 2000
	// MaxResultsLimit is the most results one query may ask for.
	MaxResultsLimit = 50
	// MaxDomainFilter is the most entries one domain filter may hold.
	MaxDomainFilter = 100
	// maxOptionLen bounds free-form option values (language, region,
	// city, time zone, provider name).
	maxOptionLen = 200
)

// DefaultLimits is webgate's query contract.
var DefaultLimits = Limits{MinQueryLen: MinQueryLen, MaxQueryLen: MaxQueryLen, MaxResults: MaxResultsLimit, MaxDomains: MaxDomainFilter}

// MessagesLimits are the limits of the Anthropic Messages surfaces (the
// search fast path and the emulated web_search tool): DefaultLimits with
// the query length of Anthropic's web search tool, maxQueryLen
// (upstream.web_search.max_query_length, 500 by default), and any
// non-empty query, as Anthropic's server tool accepts.
func MessagesLimits(maxQueryLen int) Limits {
	l := DefaultLimits
	l.MinQueryLen, l.MaxQueryLen = 1, maxQueryLen
	return l
}

// Problem codes, so a surface can map one problem to its own error (the
// Messages surfaces answer a too-long query with query_too_long).
const (
	ProblemRequired   = "required"
	ProblemTooShort   = "too_short"
	ProblemTooLong    = "too_long"
	ProblemInvalid    = "invalid"
	ProblemOutOfRange = "out_of_range"
	ProblemTooMany    = "too_many"
	ProblemConflict   = "conflict"
)

// Problem is one invalid field of a Query. Field is the Query's JSON name
// ("query", "max_results", "allowed_domains", "user_location.country",
// ...); surfaces show it under their own argument names.
type Problem struct {
	Field string
	Code  string
	// Msg completes the sentence that starts with the field's name, e.g.
	// "must be at least 2 characters".
	Msg string
}

// ValidationError lists every problem found in a Query, so a caller can
// fix them all at once. It matches ErrInvalidQuery with errors.Is.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	return "search: invalid query: " + e.Describe(nil)
}

// Is makes errors.Is(err, ErrInvalidQuery) true, and errors.Is(err,
// ErrQueryTooLong) when the query is too long.
func (e *ValidationError) Is(target error) bool {
	return target == ErrInvalidQuery || target == ErrQueryTooLong && e.Has("query", ProblemTooLong)
}

// Describe joins the problems into one sentence, naming each field with
// label(field) when label is not nil (a surface's own argument names).
func (e *ValidationError) Describe(label func(field string) string) string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		name := p.Field
		if label != nil {
			name = label(p.Field)
		}
		parts[i] = name + " " + p.Msg
	}
	return strings.Join(parts, "; ")
}

// Has reports whether the error holds a problem with this field and code.
func (e *ValidationError) Has(field, code string) bool {
	for _, p := range e.Problems {
		if p.Field == field && p.Code == code {
			return true
		}
	}
	return false
}

// Validate checks q against l and reports every problem, field by field,
// as a *ValidationError (nil when q is valid). It does not modify q: the
// query text is measured after trimming surrounding white space, and a
// MaxResults of 0 means the engine default. Provider names are checked
// against the configuration by the Engine, not here.
func (q Query) Validate(l Limits) error {
	var ps []Problem
	add := func(field, code, format string, args ...any) {
		ps = append(ps, Problem{Field: field, Code: code, Msg: fmt.Sprintf(format, args...)})
	}
	text := strings.TrimSpace(q.Text)
	switch n := utf8.RuneCountInString(text); {
	case text == "":
		add("query", ProblemRequired, "is required")
	case !utf8.ValidString(text):
		add("query", ProblemInvalid, "is not valid UTF-8")
	case hasControl(text, true):
		add("query", ProblemInvalid, "contains control characters")
	case n < l.MinQueryLen:
		add("query", ProblemTooShort, "must be at least %d characters (got %d)", l.MinQueryLen, n)
	case n > l.MaxQueryLen:
		add("query", ProblemTooLong, "must be at most %d characters (got %d)", l.MaxQueryLen, n)
	}
	if q.MaxResults < 0 || q.MaxResults > l.MaxResults {
		add("max_results", ProblemOutOfRange, "must be between 1 and %d (got %d)", l.MaxResults, q.MaxResults)
	}
	for _, f := range [...]struct {
		name string
		list []string
	}{{"allowed_domains", q.AllowedDomains}, {"blocked_domains", q.BlockedDomains}} {
		if len(f.list) > l.MaxDomains {
			add(f.name, ProblemTooMany, "must have at most %d entries (got %d)", l.MaxDomains, len(f.list))
		}
		for _, d := range f.list {
			if hasControl(d, false) {
				add(f.name, ProblemInvalid, "entry %q contains control characters", d)
				break
			}
		}
	}
	if len(q.AllowedDomains) > 0 && len(q.BlockedDomains) > 0 {
		add("blocked_domains", ProblemConflict, "cannot be combined with allowed_domains")
	}
	if c := q.Location.Country; c != "" && (len(c) != 2 || !isASCIIAlpha(c)) {
		add("user_location.country", ProblemInvalid, "%q must be a two-letter ISO 3166-1 code such as US", c)
	}
	if !q.Freshness.Valid() {
		add("freshness", ProblemInvalid, "%q must be one of any, day, week, month, year", q.Freshness)
	}
	if !q.SafeSearch.Valid() {
		add("safe_search", ProblemInvalid, "%q must be one of off, moderate, strict", q.SafeSearch)
	}
	for _, f := range [...]struct{ name, v string }{
		{"language", q.Language}, {"user_location.region", q.Location.Region}, {"user_location.city", q.Location.City},
		{"user_location.timezone", q.Location.Timezone}, {"provider", q.Provider},
	} {
		if hasControl(f.v, false) || len(f.v) > maxOptionLen {
			add(f.name, ProblemInvalid, "%q is not a valid value", f.v)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return &ValidationError{Problems: ps}
}
