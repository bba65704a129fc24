package fetch

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/extract"
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
	arrived := make(chan string, 16) // each page request's query, as it reaches the site
	srv, c := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case arrived <- r.URL.RawQuery:
		default:
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
		// Cancel only once the request has reached the site: cancelled
		// earlier (a loaded machine can be slow to dial), the handler never
		// runs and would never report.
		for q := range arrived {
			if q == "3" {
				break
			}
		}
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

// TestFetchTimeoutDuringExtraction checks that the fetch timeout holds
// even while HTML extraction, which cannot be interrupted, runs on: the
// caller gets ErrTimeout at the deadline, not when extraction returns.
func TestFetchTimeoutDuringExtraction(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(articleHTML))
	}))
	f := newTestFetcher(t, func(o *Options) { o.Timeout = 300 * time.Millisecond; o.IgnoreRobots = true })
	unblock := make(chan struct{})
	extracting := make(chan struct{}, 1)
	f.extractHTML = func(ctx context.Context, body []byte, opts extract.Options) (*extract.Document, error) {
		extracting <- struct{}{}
		<-unblock // ignores ctx, like a long extraction
		return extract.Extract(context.Background(), body, opts)
	}
	done := make(chan error, 1)
	go func() {
		_, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/slow-extract"})
		done <- err
	}()
	<-extracting
	select {
	case err := <-done:
		wantSentinel(t, err, ErrTimeout)
		if errors.Is(err, context.Canceled) {
			t.Errorf("deadline reported as a cancellation: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Fetch waited for extraction past its timeout")
	}
	close(unblock)
	// The flight is gone: the same URL is fetched afresh, not joined to
	// the expired one.
	f.extractHTML = extract.Extract
	f.opts.Timeout = time.Minute
	if _, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/slow-extract"}); err != nil {
		t.Fatalf("fetch after the timeout: %v", err)
	}
}
