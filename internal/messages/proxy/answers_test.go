package proxy

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestAnswersLookup: an answer is found again by its content, whether the
// results are the slice the engine shares or a copy of it, never for
// another query, filter or result list, and not once it has expired.
func TestAnswersLookup(t *testing.T) {
	ctx := context.Background()
	a := newAnswers()
	t0 := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	results := slices.Clone(goResults)
	call := &searchCall{Query: "golang generics"}
	o := &outcome{results: results, cached: true}
	ans, key := a.get(ctx, call, o, t0)
	if ans != nil || key == "" {
		t.Fatalf("empty cache: get = %v, %q", ans, key)
	}
	want := &composed{}
	a.put(ctx, key, call, o, want, t0)

	other := &searchCall{Query: "golang generic"}
	filtered := &searchCall{Query: "golang generics"}
	filtered.Tool.BlockedDomains = []string{"example.com"}
	tests := []struct {
		name string
		call *searchCall
		o    *outcome
		at   time.Time
		want *composed
	}{
		{"same slice", call, o, t0.Add(time.Second), want},
		{"a copy of the results", call, &outcome{results: slices.Clone(results), cached: true}, t0.Add(time.Second), want},
		{"same slice, other query", other, o, t0.Add(time.Second), nil},
		{"same slice, other filter", filtered, o, t0.Add(time.Second), nil},
		{"same slice, other results", call, &outcome{results: results[:1], cached: true}, t0.Add(time.Second), nil},
		{"expired, same slice", call, o, t0.Add(answerTTL), nil},
		{"expired, a copy", call, &outcome{results: slices.Clone(results), cached: true}, t0.Add(answerTTL), nil},
		{"not from the engine's cache", call, &outcome{results: results}, t0.Add(time.Second), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := a.get(ctx, tt.call, tt.o, tt.at); got != tt.want {
				t.Errorf("get = %p, want %p", got, tt.want)
			}
		})
	}
}
