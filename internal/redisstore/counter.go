package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webgate/webgate/internal/ratelimit"
)

// Counter is a ratelimit.Counter shared by every replica through Redis:
// per-key fixed windows, aligned on the Redis server's clock (so replicas
// with skewed clocks still agree on when a window or a day starts),
// counted atomically by one Lua script. While Redis is down it counts in
// the fallback Counter (this process only) instead: limits then hold per
// replica, which is looser but keeps serving.
type Counter struct {
	c        *Client
	fallback ratelimit.Counter
}

var _ ratelimit.Counter = (*Counter)(nil)

// ErrInvalidCount means Allow was called with n < 1 or a window shorter
// than a millisecond.
var ErrInvalidCount = errors.New("n must be at least 1 and window at least 1ms")

// ErrUnavailable is returned while Redis is unreachable by a Counter that
// has no fallback.
var ErrUnavailable = errors.New("redis unreachable")

// NewCounter returns the shared Counter; fallback counts while Redis is
// unreachable. With a nil fallback, Allow fails with ErrUnavailable then,
// and the caller decides.
func NewCounter(c *Client, fallback ratelimit.Counter) *Counter {
	return &Counter{c: c, fallback: fallback}
}

// allowScript keeps one hash per key: s, the start of the current window
// (ms since the epoch, by the server's clock), and c, its count. A call in
// a later window starts the count afresh; a call that would exceed the
// limit changes nothing. The key expires when its window ends.
//
// KEYS[1] key; ARGV[1] n, ARGV[2] limit, ARGV[3] window in ms.
// Returns {allowed (0/1), remaining, ms until the window ends}.
var allowScript = redis.NewScript(`
local n = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local win = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local start = now - (now % win)
local left = start + win - now
local cur = redis.call('HMGET', KEYS[1], 's', 'c')
local count = 0
if tonumber(cur[1]) == start then
  count = tonumber(cur[2]) or 0
end
if count + n > limit then
  local remaining = limit - count
  if remaining < 0 then remaining = 0 end
  return {0, remaining, left}
end
redis.call('HSET', KEYS[1], 's', start, 'c', count + n)
redis.call('PEXPIRE', KEYS[1], left)
return {1, limit - count - n, left}
`)

// Allow implements ratelimit.Counter.
func (k *Counter) Allow(ctx context.Context, key string, n, limit int, window time.Duration) (ratelimit.Decision, error) {
	if n < 1 || window < time.Millisecond {
		return ratelimit.Decision{}, fmt.Errorf("allow %q n=%d window=%s: %w", key, n, window, ErrInvalidCount)
	}
	if err := ctx.Err(); err != nil {
		return ratelimit.Decision{}, err
	}
	if !k.c.Up() {
		return k.fallBack(ctx, key, n, limit, window)
	}
	win := window.Milliseconds()
	cctx, cancel := k.c.cmdCtx(ctx)
	defer cancel()
	// The window length is part of the key: the same caller key counted in
	// two windows (a rate per minute, a budget per day) is two counts.
	res, err := allowScript.Run(cctx, k.c.rdb, []string{k.c.key("count", fmt.Sprint(win), key)}, n, limit, win).Int64Slice()
	if err != nil || len(res) != 3 {
		if ctx.Err() != nil {
			return ratelimit.Decision{}, ctx.Err()
		}
		if err == nil {
			err = fmt.Errorf("unexpected reply %v", res)
		}
		k.c.failed(ctx, "counter", err)
		return k.fallBack(ctx, key, n, limit, window)
	}
	d := ratelimit.Decision{Allowed: res[0] == 1, Remaining: int(res[1])}
	if !d.Allowed {
		d.RetryAfter = time.Duration(res[2]) * time.Millisecond
	}
	return d, nil
}

func (k *Counter) fallBack(ctx context.Context, key string, n, limit int, window time.Duration) (ratelimit.Decision, error) {
	if k.fallback == nil {
		return ratelimit.Decision{}, fmt.Errorf("shared counter %q: %w", key, ErrUnavailable)
	}
	return k.fallback.Allow(ctx, key, n, limit, window)
}
