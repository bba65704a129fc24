package config

import (
	"strings"
	"testing"
	"time"
)

func TestMetricsAndRedisDefaults(t *testing.T) {
	c, err := Parse(strings.NewReader("redis: {url: 'redis://127.0.0.1:6379/0'}\n"), env(nil))
	if err != nil {
		t.Fatal(err)
	}
	m, r := c.Metrics, c.Redis
	if !m.MetricsEnabled() || m.Path != "/metrics" || m.Public || m.ReadyRequiresRedis {
		t.Errorf("metrics defaults: %+v", m)
	}
	if !r.Enabled() || !r.CacheEnabled() || !r.CountersEnabled() || !r.AuditEnabled() {
		t.Errorf("redis with a url should share cache, counters and audit by default: %+v", r)
	}
	if r.KeyPrefix != "webgate:" || r.Timeout != 250*time.Millisecond || r.HealthInterval != 2*time.Second ||
		r.CacheMaxValueBytes != 1<<20 || r.AuditStream != "audit" || r.AuditMaxLen != 100000 || r.PoolSize != 0 {
		t.Errorf("redis defaults: %+v", r)
	}
	d := Default().Redis
	if d.Enabled() || d.CacheEnabled() || d.CountersEnabled() || d.AuditEnabled() {
		t.Errorf("no url must mean no redis: %+v", d)
	}
}

func TestMetricsAndRedisParse(t *testing.T) {
	tests := []struct {
		name, yaml string
		env        map[string]string
		wantErr    string
		check      func(t *testing.T, c *Config)
	}{
		{name: "toggles off", yaml: "metrics: {enabled: false, public: true, path: /internal/metrics}\nredis: {url: 'redis://r:6379', cache: false, counters: false, audit: false}\n",
			check: func(t *testing.T, c *Config) {
				if c.Metrics.MetricsEnabled() || !c.Metrics.Public || c.Metrics.Path != "/internal/metrics" {
					t.Errorf("metrics: %+v", c.Metrics)
				}
				if c.Redis.CacheEnabled() || c.Redis.CountersEnabled() || c.Redis.AuditEnabled() || !c.Redis.Enabled() {
					t.Errorf("redis: %+v", c.Redis)
				}
			}},
		{name: "url from env", yaml: "redis: {url: '${WEBGATE_REDIS_URL}'}\n", env: map[string]string{"WEBGATE_REDIS_URL": "rediss://u:secret@r:6380/2"},
			check: func(t *testing.T, c *Config) {
				if c.Redis.URL != "rediss://u:secret@r:6380/2" {
					t.Errorf("url = %q", c.Redis.URL)
				}
			}},
		{name: "bad scheme", yaml: "redis: {url: 'http://r:6379'}\n", wantErr: "redis.url"},
		{name: "bad db keeps password out", yaml: "redis: {url: 'redis://u:hunter2hunter2@r:6379/notanumber'}\n", wantErr: "redis.url",
			check: func(t *testing.T, c *Config) {}},
		{name: "timeout", yaml: "redis: {timeout: 0s}\nmetrics: {path: x}\n", wantErr: "metrics.path"},
		{name: "timeout too long", yaml: "redis: {timeout: 1m}\n", wantErr: "redis.timeout"},
		{name: "health interval", yaml: "redis: {health_interval: 10ms}\n", wantErr: "redis.health_interval"},
		{name: "value size", yaml: "redis: {cache_max_value_bytes: 10}\n", wantErr: "redis.cache_max_value_bytes"},
		{name: "prefix", yaml: "redis: {key_prefix: 'a b'}\n", wantErr: "redis.key_prefix"},
		{name: "stream", yaml: "redis: {audit_stream: 'a b'}\n", wantErr: "redis.audit_stream"},
		{name: "max len", yaml: "redis: {audit_max_len: -1}\n", wantErr: "redis.audit_max_len"},
		{name: "pool", yaml: "redis: {pool_size: -1}\n", wantErr: "redis.pool_size"},
		{name: "path clash", yaml: "metrics: {path: /v1/metrics}\n", wantErr: "used by another surface"},
		{name: "path healthz", yaml: "metrics: {path: /healthz}\n", wantErr: "used by another surface"},
		{name: "unknown key", yaml: "redis: {uri: 'redis://r'}\n", wantErr: "uri"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.yaml), env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Fatalf("the error leaks the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}
