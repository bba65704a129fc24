package fetch

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// gate is a Getter whose fetches announce themselves and then wait for
// release.
type gate struct {
	entered chan string
	release chan struct{}
}

func (g *gate) Fetch(ctx context.Context, req Request) (*Result, error) {
	g.entered <- req.URL
	<-g.release
	return &Result{URL: req.URL}, nil
}

// TestEach: at most limit fetches run at once, each outcome comes with
// its own index, and requests still waiting when the context ends are
// skipped, not fetched. No timing: the fetches in flight hold their
// slots until the test has seen every skip.
func TestEach(t *testing.T) {
	const n, limit = 5, 2
	g := &gate{entered: make(chan string, n), release: make(chan struct{})}
	reqs := make([]Request, n)
	for i := range reqs {
		reqs[i] = Request{URL: fmt.Sprintf("https://example.com/%d", i)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var fetched []int
	skipped := make(chan int, n)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		Each(ctx, g, reqs, limit, func(i int, res *Result, err error) {
			if err != nil || res.URL != reqs[i].URL {
				t.Errorf("outcome %d = %v, %v; want %s", i, res, err, reqs[i].URL)
			}
			mu.Lock()
			fetched = append(fetched, i)
			mu.Unlock()
		}, func(i int) { skipped <- i })
	}()
	for range limit {
		<-g.entered
	}
	cancel()
	for range n - limit {
		select {
		case <-skipped:
		case u := <-g.entered:
			t.Fatalf("%s fetched beyond the limit of %d", u, limit)
		}
	}
	close(g.release)
	<-finished
	if len(fetched) != limit {
		t.Errorf("fetched %v, want %d outcomes", fetched, limit)
	}
}

// TestEachZeroLimit: a limit below one still fetches, one at a time.
func TestEachZeroLimit(t *testing.T) {
	g := &gate{entered: make(chan string, 2), release: make(chan struct{})}
	close(g.release)
	var mu sync.Mutex
	got := 0
	Each(context.Background(), g, []Request{{URL: "a"}, {URL: "b"}}, 0, func(int, *Result, error) {
		mu.Lock()
		got++
		mu.Unlock()
	}, func(int) { t.Error("skipped") })
	if got != 2 {
		t.Errorf("%d outcomes, want 2", got)
	}
}
