package metrics

import (
	"context"
	"time"

	"github.com/webgate/webgate/internal/search"
)

// Provider wraps p so that every call is counted and timed under p's name.
// The engine sees the same Name, so breakers, limits and configuration
// are unaffected.
func (r *Recorder) Provider(p search.Provider) search.Provider {
	if r == nil {
		return p
	}
	return provider{p, r}
}

type provider struct {
	search.Provider
	r *Recorder
}

func (p provider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	start := time.Now()
	res, err := p.Provider.Search(ctx, q)
	p.r.ObserveProvider(p.Name(), time.Since(start), err)
	return res, err
}
