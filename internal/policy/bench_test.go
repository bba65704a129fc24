package policy

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/search"
)

// BenchmarkEnforcerSearch is the policy layer's cost per search, around
// an engine that answers at once with ten results: without a key
// (anonymous), and for a key with tools, surfaces, an organisation-level
// domain block list, a rate limit and a daily budget, all counted in the
// process (the default without Redis).
func BenchmarkEnforcerSearch(b *testing.B) {
	var results []search.Result
	for i := range 10 {
		results = append(results, search.Result{Title: "Result", URL: fmt.Sprintf("https://site%d.example/page", i)})
	}
	s := NewEnforcer(ratelimit.NewLocalCounter(nil), nil).Searcher(fixedEngine{results})
	dom, err := NewDomains(nil, []string{"pinterest.com", "quora.com", "spam.example"})
	if err != nil {
		b.Fatal(err)
	}
	p := &Policy{Name: "team", Tools: []string{ToolSearch, ToolFetch}, Surfaces: []string{SurfaceAPI, SurfaceMCP}, Domains: dom,
		RateLimit: Rate{Requests: 1 << 30, Per: time.Minute}, DailySearches: 1 << 30}
	for _, bc := range []struct {
		name string
		ctx  context.Context
	}{
		{"anonymous", context.Background()},
		{"key-with-policy", WithCaller(context.Background(), Caller{KeyID: "ci-bot", Surface: SurfaceAPI, Policy: p})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			q := search.Query{Text: "golang generics tutorial"}
			for b.Loop() {
				if _, err := s.Search(bc.ctx, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAuthenticate is the cost of checking a presented key against a
// keyring of 50 hashed keys, once per request.
func BenchmarkAuthenticate(b *testing.B) {
	var tokens []string
	for range 50 {
		k, _ := GenerateKey()
		tokens = append(tokens, k)
	}
	kr := KeyringFromTokens(tokens)
	last := tokens[len(tokens)-1]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kr.Authenticate(last); err != nil {
			b.Fatal(err)
		}
	}
}

type fixedEngine struct{ results []search.Result }

func (f fixedEngine) Search(_ context.Context, q search.Query) (*search.Response, error) {
	return &search.Response{Query: q, Provider: "fake", Results: f.results}, nil
}
