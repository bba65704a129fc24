package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestLocal(t *testing.T) {
	l := NewLocal(map[string]Limit{
		"ddg":  {RPS: 0.001, Burst: 2}, // one token per ~17 minutes: a third call can never fit
		"free": {RPS: 0},
		"one":  {RPS: 0.001}, // burst defaults to 1
	})
	ctx := context.Background()
	for i := range 2 {
		if err := l.Wait(ctx, "ddg"); err != nil {
			t.Fatalf("burst call %d: %v", i, err)
		}
	}
	dl, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := l.Wait(dl, "ddg"); !errors.Is(err, ErrWouldExceedDeadline) {
		t.Fatalf("third call = %v, want ErrWouldExceedDeadline", err)
	}
	if err := l.Wait(ctx, "one"); err != nil {
		t.Fatalf("first call with default burst: %v", err)
	}
	if err := l.Wait(dl, "one"); !errors.Is(err, ErrWouldExceedDeadline) {
		t.Fatalf("second call with default burst = %v, want ErrWouldExceedDeadline", err)
	}
	for range 100 {
		if err := l.Wait(ctx, "free"); err != nil {
			t.Fatal(err)
		}
		if err := l.Wait(ctx, "unknown"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLocalCancelled(t *testing.T) {
	l := NewLocal(map[string]Limit{"p": {RPS: 0.001, Burst: 1}})
	if err := l.Wait(context.Background(), "p"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Wait(ctx, "p") }() // no deadline: blocks until cancelled
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait after cancel = %v, want context.Canceled", err)
	}
	// Unlimited keys still report a dead context.
	if err := l.Wait(ctx, "other"); !errors.Is(err, context.Canceled) {
		t.Fatalf("unlimited Wait on cancelled ctx = %v", err)
	}
}
