// Package redisstore connects webgate replicas through one Redis server:
// a second-level cache tier (Cache), a distributed ratelimit.Counter
// (Counter) and an audit stream (Sink), all over one Client that tracks
// whether Redis answers.
//
// Redis is a help, never a dependency: while it is unreachable every part
// falls back at once, without waiting on it per request (the cache
// reports misses and drops writes, the counter counts in this process,
// the sink keeps a bounded backlog), the change is logged once, and the
// Client's health check brings the shared tier back when Redis answers
// again.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webgate/webgate/internal/metrics"
)

// Options configures a Client. config.Redis maps onto it one to one.
type Options struct {
	// URL is redis://[user:password@]host:port/db or rediss://.
	URL string
	// KeyPrefix starts every key (default "webgate:").
	KeyPrefix string
	// Timeout bounds every command (default 250ms).
	Timeout time.Duration
	// HealthInterval is the ping period (default 2s).
	HealthInterval time.Duration
	// PoolSize caps connections; 0 lets go-redis choose.
	PoolSize int
	// Logger receives state changes; nil discards.
	Logger *slog.Logger
	// Metrics counts failed commands; nil counts nothing.
	Metrics *metrics.Recorder
}

// Client is a Redis connection with a health state. It is safe for
// concurrent use.
type Client struct {
	rdb     *redis.Client
	prefix  string
	timeout time.Duration
	log     *slog.Logger
	rec     *metrics.Recorder

	up      atomic.Bool
	mu      sync.Mutex
	since   time.Time
	lastErr string

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

var setLoggerOnce sync.Once

// New connects to opts.URL and starts the health check. Redis need not be
// up: a Client whose first ping fails starts degraded and recovers when
// Redis answers. Only a malformed URL is an error.
func New(opts Options) (*Client, error) {
	ro, err := redis.ParseURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("redis: invalid url: %w", err)
	}
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = "webgate:"
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 250 * time.Millisecond
	}
	if opts.HealthInterval <= 0 {
		opts.HealthInterval = 2 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// Commands are bounded by our own contexts; go-redis must honour them
	// and must not retry behind our back (a retry doubles the wait on a
	// dead server).
	ro.ContextTimeoutEnabled = true
	ro.MaxRetries = -1
	ro.ReadTimeout, ro.WriteTimeout = opts.Timeout, opts.Timeout
	ro.DialTimeout = max(4*opts.Timeout, time.Second)
	ro.PoolTimeout = opts.Timeout
	ro.PoolSize = opts.PoolSize
	// CLIENT SETINFO is unknown before Redis 7.2 and worth nothing here.
	ro.DisableIdentity = true
	setLoggerOnce.Do(func() { redis.SetLogger(slogAdapter{log}) })

	c := &Client{
		rdb: redis.NewClient(ro), prefix: opts.KeyPrefix, timeout: opts.Timeout,
		log: log.With("component", "redis", "addr", ro.Addr), rec: opts.Metrics,
		since: time.Now(),
		stop:  make(chan struct{}), done: make(chan struct{}),
	}
	if err := c.ping(context.Background()); err != nil {
		c.lastErr = err.Error()
		c.log.Warn("redis unreachable at start; serving from local tiers until it answers", "err", err)
	} else {
		c.up.Store(true)
		c.log.Info("redis connected: cache, counters and audit stream are shared")
	}
	go c.health(opts.HealthInterval)
	return c, nil
}

// Up reports whether Redis answered the last health check and no command
// has failed since.
func (c *Client) Up() bool { return c.up.Load() }

// Status reports the Client's state for /readyz, metrics and the console.
func (c *Client) Status() metrics.RedisStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	return metrics.RedisStatus{Configured: true, Up: c.up.Load(), Since: c.since, LastError: c.lastErr}
}

// Close stops the health check and closes the connections.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.stop)
		<-c.done
		err = c.rdb.Close()
	})
	return err
}

// Redis returns the underlying go-redis client, for tests and tools.
func (c *Client) Redis() *redis.Client { return c.rdb }

// key returns the full name of a key.
func (c *Client) key(parts ...string) string {
	n := len(c.prefix)
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, c.prefix...)
	for i, p := range parts {
		if i > 0 {
			b = append(b, ':')
		}
		b = append(b, p...)
	}
	return string(b)
}

// cmdCtx bounds one command by the Client's timeout.
func (c *Client) cmdCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.timeout)
}

// failed records a failed command. Unless the caller's own context ended
// (the caller left; Redis is not to blame), Redis is marked down, so no
// further request waits on it until the health check sees it answer.
func (c *Client) failed(ctx context.Context, op string, err error) {
	if ctx.Err() != nil {
		return
	}
	c.rec.RedisError(op)
	c.setDown(fmt.Errorf("%s: %w", op, err))
}

func (c *Client) setDown(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastErr = err.Error()
	if c.up.CompareAndSwap(true, false) {
		c.since = time.Now()
		c.log.Warn("redis unreachable; serving from local cache and counters until it answers", "err", err)
	}
}

func (c *Client) setUp() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.up.CompareAndSwap(false, true) {
		down := time.Since(c.since)
		c.since = time.Now()
		c.log.Info("redis reachable again; shared cache, counters and audit stream resumed", "down_for", down.Round(time.Millisecond))
	}
}

func (c *Client) ping(ctx context.Context) error {
	// A ping may take a new connection (after a restart, every pooled one
	// is dead), so it gets more time than a command.
	ctx, cancel := context.WithTimeout(ctx, max(4*c.timeout, time.Second))
	defer cancel()
	return c.rdb.Ping(ctx).Err()
}

// health pings Redis every interval until Close.
func (c *Client) health(every time.Duration) {
	defer close(c.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		if err := c.ping(context.Background()); err != nil {
			c.rec.RedisError("ping")
			c.setDown(fmt.Errorf("ping: %w", err))
			continue
		}
		c.setUp()
	}
}

// isMiss reports whether err means "no such key" rather than a failure.
func isMiss(err error) bool { return errors.Is(err, redis.Nil) }

// slogAdapter routes go-redis's own log lines into slog at debug level,
// so they never interleave unstructured text with JSON logs.
type slogAdapter struct{ log *slog.Logger }

func (a slogAdapter) Printf(ctx context.Context, format string, v ...any) {
	a.log.DebugContext(ctx, "go-redis: "+fmt.Sprintf(format, v...))
}
