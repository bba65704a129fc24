package fetch

import (
	"context"
	"sync"
)

// hostLimiter caps concurrent requests per host. Entries exist only while a
// host has requests in flight or waiting, so the map is bounded by the
// number of concurrent fetches, not by the number of hosts ever seen.
type hostLimiter struct {
	limit int
	mu    sync.Mutex
	hosts map[string]*hostSlot
}

type hostSlot struct {
	sem  chan struct{}
	refs int // holders plus waiters, guarded by hostLimiter.mu
}

func newHostLimiter(limit int) *hostLimiter {
	return &hostLimiter{limit: limit, hosts: make(map[string]*hostSlot)}
}

// acquire waits for a slot for host and returns its release function, or
// ctx's error.
func (l *hostLimiter) acquire(ctx context.Context, host string) (func(), error) {
	l.mu.Lock()
	s := l.hosts[host]
	if s == nil {
		s = &hostSlot{sem: make(chan struct{}, l.limit)}
		l.hosts[host] = s
	}
	s.refs++
	l.mu.Unlock()

	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		l.unref(host, s)
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-s.sem
			l.unref(host, s)
		})
	}, nil
}

func (l *hostLimiter) unref(host string, s *hostSlot) {
	l.mu.Lock()
	s.refs--
	if s.refs == 0 {
		delete(l.hosts, host)
	}
	l.mu.Unlock()
}

// size is the number of hosts tracked, for tests.
func (l *hostLimiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hosts)
}
