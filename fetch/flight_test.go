package fetch

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"
)

// waitWaiters blocks until the flight for key has n waiters. It polls a
// condition rather than sleeping a guessed time, so it is not flaky; the
// test's own deadline bounds it.
func waitWaiters(t *testing.T, f *Fetcher, key string, n int) {
	t.Helper()
	for {
		f.mu.Lock()
		fl := f.flights[key]
		got := 0
		if fl != nil {
			got = fl.waiters
		}
		f.mu.Unlock()
		if got == n {
			return
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

func TestFetchCoalescesConcurrentMisses(t *testing.T) {
	release := make(chan struct{})
	handlerDone := make(chan error, 4)
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case <-release:
			_, _ = w.Write([]byte("shared page"))
			handlerDone <- nil
		case <-r.Context().Done():
			handlerDone <- r.Context().Err()
		}
	}))
	f := newTestFetcher(t, nil)
	u := srv.URL + "/page"
	key := "markdown " + u

	t.Run("shared", func(t *testing.T) {
		const n = 5
		var wg sync.WaitGroup
		results := make(chan *Result, n)
		errs := make(chan error, n)
		for range n {
			wg.Go(func() {
				r, err := f.Fetch(context.Background(), Request{URL: u, NoCache: true})
				errs <- err
				results <- r
			})
		}
		waitWaiters(t, f, key, n)
		close(release)
		wg.Wait()
		close(errs)
		close(results)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		for r := range results {
			if r.Content != "shared page" {
				t.Errorf("content %q", r.Content)
			}
		}
		if got := c.get("/page"); got != 1 {
			t.Errorf("site asked %d times, want 1", got)
		}
		<-handlerDone
	})

	t.Run("one caller leaving does not fail the others", func(t *testing.T) {
		release = make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		leaver := make(chan error, 1)
		stayer := make(chan error, 1)
		go func() {
			_, err := f.Fetch(ctx, Request{URL: u + "?2", NoCache: true})
			leaver <- err
		}()
		go func() {
			_, err := f.Fetch(context.Background(), Request{URL: u + "?2", NoCache: true})
			stayer <- err
		}()
		waitWaiters(t, f, key+"?2", 2)
		cancel()
		err := <-leaver
		wantSentinel(t, err, ErrTimeout)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("leaver error %v does not wrap context.Canceled", err)
		}
		close(release)
		if err := <-stayer; err != nil {
			t.Fatalf("stayer error = %v", err)
		}
		<-handlerDone
	})

	t.Run("last caller leaving cancels the fetch", func(t *testing.T) {
		release = make(chan struct{}) // never closed: only cancellation ends the handler
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := f.Fetch(ctx, Request{URL: u + "?3", NoCache: true})
			done <- err
		}()
		waitWaiters(t, f, key+"?3", 1)
		cancel()
		wantSentinel(t, <-done, ErrTimeout)
		if err := <-handlerDone; !errors.Is(err, context.Canceled) {
			t.Errorf("server saw %v, want the request cancelled", err)
		}
		f.mu.Lock()
		n := len(f.flights)
		f.mu.Unlock()
		if n != 0 {
			t.Errorf("%d flights left", n)
		}
	})
}
