package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/webgate/webgate/internal/cache"
)

// Codec turns cached values into bytes and back. Version names the
// encoding and goes into every key, so a replica running a newer build
// never decodes an older one's entries (it misses instead).
type Codec[V any] interface {
	Version() string
	Encode(V) ([]byte, error)
	Decode([]byte) (V, error)
}

// Cache is a cache.Cache in Redis, shared by every replica; it is meant as
// the second tier of a cache.Tiered. Keys are hashed (SHA-256), so any
// caller key fits; values larger than the size limit are not stored.
// While Redis is down it reports misses and drops writes without a round
// trip.
type Cache[V any] struct {
	c        *Client
	name     string
	codec    Codec[V]
	maxBytes int
}

var (
	_ cache.Cache[int]     = (*Cache[int])(nil)
	_ cache.TTLGetter[int] = (*Cache[int])(nil)
)

// NewCache returns the shared tier for one kind of value: name ("search",
// "fetch") keeps kinds apart, maxBytes caps one encoded entry.
func NewCache[V any](c *Client, name string, codec Codec[V], maxBytes int) *Cache[V] {
	return &Cache[V]{c: c, name: name, codec: codec, maxBytes: maxBytes}
}

// redisKey is prefix + "cache:" + name + ":" + codec version + ":" + the
// first 128 bits of SHA-256(key), hex.
func (k *Cache[V]) redisKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return k.c.key("cache", k.name, k.codec.Version(), hex.EncodeToString(sum[:16]))
}

// Get implements cache.Cache.
func (k *Cache[V]) Get(ctx context.Context, key string) (V, bool) {
	v, _, ok := k.GetTTL(ctx, key)
	return v, ok
}

// GetTTL implements cache.TTLGetter: one round trip reads the value and
// its remaining lifetime.
func (k *Cache[V]) GetTTL(ctx context.Context, key string) (V, time.Duration, bool) {
	var zero V
	if !k.c.Up() {
		return zero, 0, false
	}
	rk := k.redisKey(key)
	cctx, cancel := k.c.cmdCtx(ctx)
	defer cancel()
	pipe := k.c.rdb.Pipeline()
	get := pipe.Get(cctx, rk)
	ttl := pipe.PTTL(cctx, rk)
	if _, err := pipe.Exec(cctx); err != nil && !isMiss(err) {
		k.c.failed(ctx, "cache_get", err)
		return zero, 0, false
	}
	b, err := get.Bytes()
	if err != nil {
		return zero, 0, false // a miss
	}
	v, err := k.codec.Decode(b)
	if err != nil {
		// Not Redis's fault: a corrupt or foreign entry. Treat as a miss;
		// the next Set overwrites it.
		k.c.log.Debug("redis cache: undecodable entry", "cache", k.name, "err", err)
		return zero, 0, false
	}
	return v, ttl.Val(), true
}

// Set implements cache.Cache. Values whose encoding exceeds the size limit
// are skipped: they stay in the local tier only.
func (k *Cache[V]) Set(ctx context.Context, key string, v V, ttl time.Duration) {
	if ttl <= 0 || !k.c.Up() {
		return
	}
	b, err := k.codec.Encode(v)
	if err != nil || len(b) > k.maxBytes {
		return
	}
	cctx, cancel := k.c.cmdCtx(ctx)
	defer cancel()
	if err := k.c.rdb.Set(cctx, k.redisKey(key), b, ttl).Err(); err != nil {
		k.c.failed(ctx, "cache_set", err)
	}
}
