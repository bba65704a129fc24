package fetch

import (
	"context"
	"sync"
)

// Each fetches reqs through g, at most limit at a time (at least one),
// and returns when every fetch it started has returned. It is the one
// bounded fan-out every surface uses for a batch of pages (the API's and
// MCP's web_fetch with several URLs, MCP's web_search with content, the
// CLI), so the limit, the order of the outcomes and what a cancelled
// batch does are the same everywhere.
//
// done(i, res, err) receives the outcome of reqs[i] from the goroutine
// that fetched it, so calls for different i run concurrently and in any
// order; a caller that wants input order collects by i. A request still
// waiting for its turn when ctx ends is not fetched: skipped(i) is called
// instead, and the caller says why in its own terms.
func Each(ctx context.Context, g Getter, reqs []Request, limit int,
	done func(i int, res *Result, err error), skipped func(i int)) {
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for i := range reqs {
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				skipped(i)
				return
			}
			res, err := g.Fetch(ctx, reqs[i])
			done(i, res, err)
		})
	}
	wg.Wait()
}
