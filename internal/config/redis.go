package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis connects replicas of webgate through one Redis server. When url is
// set, the replicas share three things: a second-level cache of search and
// fetch results (each replica still answers from its own memory first),
// the counters behind per-key rate limits and daily budgets, and the audit
// log as a Redis stream. When Redis cannot be reached, each replica falls
// back to its local cache and local counters, logs the change once,
// reports it in /readyz and the metrics, keeps serving, and returns to
// Redis when it answers again.
type Redis struct {
	// URL is the Redis server, as redis://[user:password@]host:port/db or
	// rediss:// for TLS, for example redis://redis:6379/0. Put the password
	// in the environment: url: ${WEBGATE_REDIS_URL}. Empty (the default)
	// runs without Redis: everything is local to the process.
	URL string `yaml:"url"`
	// KeyPrefix starts every key webgate writes, so several deployments
	// can share one Redis without reading each other's entries.
	KeyPrefix string `yaml:"key_prefix"`
	// Timeout bounds every Redis command. A command that takes longer counts
	// as Redis being unreachable, and the request carries on with the local
	// tier.
	Timeout time.Duration `yaml:"timeout"`
	// HealthInterval is how often Redis is pinged. While Redis is down no
	// request waits for it; the next successful ping brings the shared tier
	// back.
	HealthInterval time.Duration `yaml:"health_interval"`
	// PoolSize is the most connections one replica opens to Redis. The
	// default, 0, lets the client choose (ten per CPU).
	PoolSize int `yaml:"pool_size"`
	// Cache shares search and fetch results through Redis, behind each
	// replica's in-memory cache. The default is true. Entries live as long
	// as search.cache_ttl and fetch.cache_ttl say.
	Cache *bool `yaml:"cache"`
	// CacheMaxValueBytes is the largest encoded entry written to the
	// shared cache; larger results (long documents) stay in the local
	// cache only.
	CacheMaxValueBytes int `yaml:"cache_max_value_bytes"`
	// Counters shares the per-key rate limits and daily search budgets
	// between replicas, so a key's limit holds for the whole deployment
	// rather than for each replica. The default is true. Windows follow the
	// Redis server's clock, so replicas agree on when a day starts.
	Counters *bool `yaml:"counters"`
	// Audit appends every audit record to a Redis stream, besides any
	// audit file. The default is true. Read it with XRANGE or a consumer
	// group (XREADGROUP).
	Audit *bool `yaml:"audit"`
	// AuditStream is the stream's name, after key_prefix: with the
	// defaults, records go to the key webgate:audit.
	AuditStream string `yaml:"audit_stream"`
	// AuditMaxLen caps the stream at about this many records (XADD MAXLEN ~):
	// the oldest are trimmed as new ones arrive.
	AuditMaxLen int64 `yaml:"audit_max_len"`
}

// Enabled reports whether a Redis server is configured.
func (r Redis) Enabled() bool { return r.URL != "" }

// CacheEnabled reports whether the shared cache tier is on.
func (r Redis) CacheEnabled() bool { return r.Enabled() && (r.Cache == nil || *r.Cache) }

// CountersEnabled reports whether rate limits and budgets are shared.
func (r Redis) CountersEnabled() bool { return r.Enabled() && (r.Counters == nil || *r.Counters) }

// AuditEnabled reports whether audit records go to the Redis stream.
func (r Redis) AuditEnabled() bool { return r.Enabled() && (r.Audit == nil || *r.Audit) }

func (r *Redis) applyDefaults() {
	if r.KeyPrefix == "" {
		r.KeyPrefix = "webgate:"
	}
	if r.Timeout == 0 {
		r.Timeout = 250 * time.Millisecond
	}
	if r.HealthInterval == 0 {
		r.HealthInterval = 2 * time.Second
	}
	if r.CacheMaxValueBytes == 0 {
		r.CacheMaxValueBytes = 1 << 20
	}
	if r.AuditStream == "" {
		r.AuditStream = "audit"
	}
	if r.AuditMaxLen == 0 {
		r.AuditMaxLen = 100000
	}
}

func (r *Redis) validate() []error {
	var errs []error
	if r.URL != "" {
		if _, err := redis.ParseURL(r.URL); err != nil {
			// The parser's message can quote the URL, password included.
			errs = append(errs, fmt.Errorf("redis.url: must look like redis://host:6379/0 or rediss://user:password@host:6380/0 (%s)", redactRedisError(err, r.URL)))
		}
	}
	if len(r.KeyPrefix) > 64 || strings.ContainsAny(r.KeyPrefix, " \t\r\n") {
		errs = append(errs, fmt.Errorf("redis.key_prefix: %q must be at most 64 characters without white space", r.KeyPrefix))
	}
	if r.Timeout < time.Millisecond || r.Timeout > 30*time.Second {
		errs = append(errs, fmt.Errorf("redis.timeout: %s must be between 1ms and 30s", r.Timeout))
	}
	if r.HealthInterval < 100*time.Millisecond || r.HealthInterval > 5*time.Minute {
		errs = append(errs, fmt.Errorf("redis.health_interval: %s must be between 100ms and 5m", r.HealthInterval))
	}
	if r.PoolSize < 0 || r.PoolSize > 10000 {
		errs = append(errs, fmt.Errorf("redis.pool_size: %d must be between 0 (automatic) and 10000", r.PoolSize))
	}
	if r.CacheMaxValueBytes < 1024 || r.CacheMaxValueBytes > 64<<20 {
		errs = append(errs, fmt.Errorf("redis.cache_max_value_bytes: %d must be between 1024 and 67108864 (64 MiB)", r.CacheMaxValueBytes))
	}
	if r.AuditStream == "" || len(r.AuditStream) > 128 || strings.ContainsAny(r.AuditStream, " \t\r\n") {
		errs = append(errs, fmt.Errorf("redis.audit_stream: %q must be 1 to 128 characters without white space", r.AuditStream))
	}
	if r.AuditMaxLen < 1 {
		errs = append(errs, fmt.Errorf("redis.audit_max_len: %d must be at least 1", r.AuditMaxLen))
	}
	return errs
}

// redactRedisError keeps the password of url out of a parse error.
func redactRedisError(err error, url string) string {
	msg := err.Error()
	if i := strings.Index(url, "://"); i >= 0 {
		if at := strings.LastIndex(url, "@"); at > i {
			msg = strings.ReplaceAll(msg, url[i+3:at], "xxxxx")
		}
	}
	return msg
}
