package search

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQueryValidate(t *testing.T) {
	messages := DefaultLimits
	messages.MaxQueryLen = 500
	tests := []struct {
		name   string
		q      Query
		limits Limits
		want   []Problem
	}{
		{name: "valid", q: Query{Text: " go generics ", MaxResults: 50, AllowedDomains: []string{"go.dev"}}, limits: DefaultLimits},
		{name: "default result count", q: Query{Text: "go", MaxResults: 0}, limits: DefaultLimits},
		{name: "one character", q: Query{Text: " a "}, limits: DefaultLimits,
			want: []Problem{{"query", ProblemTooShort, "must be at least 2 characters (got 1)"}}},
		{name: "empty", q: Query{Text: " "}, limits: DefaultLimits,
			want: []Problem{{"query", ProblemRequired, "is required"}}},
		{name: "longest", q: Query{Text: strings.Repeat("é", 2000)}, limits: DefaultLimits},
		{name: "too long counts characters, not bytes", q: Query{Text: strings.Repeat("é", 2001)}, limits: DefaultLimits,
			want: []Problem{{"query", ProblemTooLong, "must be at most 2000 characters (got 2001)"}}},
		{name: "the Messages surfaces' own maximum", q: Query{Text: strings.Repeat("x", 501)}, limits: messages,
			want: []Problem{{"query", ProblemTooLong, "must be at most 500 characters (got 501)"}}},
		{name: "every problem at once, field by field", limits: DefaultLimits,
			q: Query{Text: "x", MaxResults: 51, AllowedDomains: []string{"a.com"}, BlockedDomains: []string{"b.com"},
				Location: Location{Country: "USA"}, Freshness: "hour", SafeSearch: "max"},
			want: []Problem{
				{"query", ProblemTooShort, "must be at least 2 characters (got 1)"},
				{"max_results", ProblemOutOfRange, "must be between 1 and 50 (got 51)"},
				{"blocked_domains", ProblemConflict, "cannot be combined with allowed_domains"},
				{"user_location.country", ProblemInvalid, `"USA" must be a two-letter ISO 3166-1 code such as US`},
				{"freshness", ProblemInvalid, `"hour" must be one of any, day, week, month, year`},
				{"safe_search", ProblemInvalid, `"max" must be one of off, moderate, strict`},
			}},
		{name: "negative result count", q: Query{Text: "go", MaxResults: -1}, limits: DefaultLimits,
			want: []Problem{{"max_results", ProblemOutOfRange, "must be between 1 and 50 (got -1)"}}},
		{name: "too many domains", q: Query{Text: "go", BlockedDomains: make([]string, 101)}, limits: DefaultLimits,
			want: []Problem{{"blocked_domains", ProblemTooMany, "must have at most 100 entries (got 101)"}}},
		{name: "control characters", q: Query{Text: "a\x00b", Language: "en\n"}, limits: DefaultLimits,
			want: []Problem{{"query", ProblemInvalid, "contains control characters"}, {"language", ProblemInvalid, `"en\n" is not a valid value`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.q.Validate(tt.limits)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, ErrInvalidQuery) {
				t.Fatalf("Validate = %v, want a *ValidationError matching ErrInvalidQuery", err)
			}
			if diff := cmp.Diff(tt.want, ve.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorDescribe(t *testing.T) {
	err := Query{Text: "x", MaxResults: 99}.Validate(DefaultLimits)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	got := ve.Describe(func(f string) string { return map[string]string{"max_results": "n"}[f] + "<" + f + ">" })
	want := "<query> must be at least 2 characters (got 1); n<max_results> must be between 1 and 50 (got 99)"
	if got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if !ve.Has("query", ProblemTooShort) || ve.Has("query", ProblemTooLong) {
		t.Error("Has")
	}
}

// TestErrQueryTooLong: the errors that say a query is too long, and only
// those, match ErrQueryTooLong, wrapped or not, and still match
// ErrInvalidQuery.
func TestErrQueryTooLong(t *testing.T) {
	long := Query{Text: strings.Repeat("a", 11)}.Validate(MessagesLimits(10))
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"validation: query too long", fmt.Errorf("search: %w", long), true},
		{"validation: query too short", Query{Text: "a"}.Validate(DefaultLimits), false},
		{"provider says too long", fmt.Errorf("search: %w", &ProviderError{Provider: "p", Kind: ErrInvalidQuery, Err: errors.New("Query too long (max 400)")}), true},
		{"provider counts characters", &ProviderError{Provider: "p", Kind: ErrInvalidQuery, Err: errors.New("too many characters in q")}, true},
		{"provider names the query length", &ProviderError{Provider: "p", Kind: ErrInvalidQuery, Err: errors.New("Invalid query length")}, true},
		{"provider rejects an operator", &ProviderError{Provider: "p", Kind: ErrInvalidQuery, Err: errors.New("unsupported operator")}, false},
		{"provider rate limit that says too long", &ProviderError{Provider: "p", Kind: ErrRateLimited, Err: errors.New("too long a burst")}, false},
		{"joined chain", errors.Join(&ProviderError{Provider: "a", Kind: ErrUnavailable}, &ProviderError{Provider: "b", Kind: ErrInvalidQuery, Err: errors.New("query too long")}), true},
		{"bare sentinel text", fmt.Errorf("%w: query too long", ErrInvalidQuery), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errors.Is(tt.err, ErrQueryTooLong); got != tt.want {
				t.Errorf("errors.Is(%v, ErrQueryTooLong) = %v, want %v", tt.err, got, tt.want)
			}
			if tt.want && !errors.Is(tt.err, ErrInvalidQuery) {
				t.Errorf("%v matches ErrQueryTooLong but not ErrInvalidQuery", tt.err)
			}
		})
	}
}
