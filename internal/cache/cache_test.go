package cache

import (
	"context"
	"testing"
	"time"
)

func TestLocal(t *testing.T) {
	ctx := context.Background()
	c := NewLocal[string](10)
	if _, ok := c.Get(ctx, "a"); ok {
		t.Fatal("empty cache returned a value")
	}
	c.Set(ctx, "a", "1", time.Minute)
	if v, ok := c.Get(ctx, "a"); !ok || v != "1" {
		t.Fatalf("Get(a) = %q, %v; want 1, true", v, ok)
	}
	c.Set(ctx, "b", "2", 0)
	if _, ok := c.Get(ctx, "b"); ok {
		t.Fatal("ttl 0 must not store")
	}
	if s := c.Stats(); s.Hits != 1 || s.Misses != 2 {
		t.Fatalf("stats = %+v; want 1 hit, 2 misses", s)
	}
}

func TestLocalExpiry(t *testing.T) {
	ctx := context.Background()
	c := NewLocal[int](10)
	c.Set(ctx, "k", 1, 20*time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := c.Get(ctx, "k"); !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("entry never expired")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLocalDisabled(t *testing.T) {
	c := NewLocal[int](0)
	c.Set(context.Background(), "k", 1, time.Minute)
	if _, ok := c.Get(context.Background(), "k"); ok {
		t.Fatal("disabled cache stored a value")
	}
}
