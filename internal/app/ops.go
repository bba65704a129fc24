package app

import (
	"time"

	"github.com/webgate/webgate/internal/cache"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/fetch/render"
	"github.com/webgate/webgate/internal/metrics"
	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/redisstore"
	"github.com/webgate/webgate/internal/search"
)

// startOps creates the metrics recorder and, when redis.url is set, the
// Redis client. Redis need not be up: the client starts degraded and
// recovers on its own.
func (s *Service) startOps() error {
	s.Metrics = metrics.New(metrics.Options{})
	rc := s.Config.Redis
	if !rc.Enabled() {
		return nil
	}
	c, err := redisstore.New(redisstore.Options{
		URL: rc.URL, KeyPrefix: rc.KeyPrefix, Timeout: rc.Timeout, HealthInterval: rc.HealthInterval,
		PoolSize: rc.PoolSize, Logger: s.Log, Metrics: s.Metrics,
	})
	if err != nil {
		return err
	}
	s.Redis = c
	s.Metrics.SetRedis(c.Status)
	return nil
}

// instrument wraps every provider so its calls are counted and timed.
func (s *Service) instrument(chain []search.Provider) []search.Provider {
	out := make([]search.Provider, len(chain))
	for i, p := range chain {
		out[i] = s.Metrics.Provider(p)
	}
	return out
}

// searchCache puts the shared Redis tier (when configured) behind the
// local search cache, and counts lookups in both. local nil means search
// caching is off, and stays off.
func (s *Service) searchCache(local cache.Cache[*search.Response]) cache.Cache[*search.Response] {
	if local == nil {
		return nil
	}
	t := &cache.Tiered[*search.Response]{Local: local, BackfillTTL: s.Config.Search.CacheTTL,
		Observe: func(tier string, hit bool) { s.Metrics.ObserveCache(metrics.CacheSearch, tier, hit) }}
	if s.Redis != nil && s.Config.Redis.CacheEnabled() {
		t.Shared = redisstore.NewCache[*search.Response](s.Redis, "search", redisstore.SearchCodec{}, s.Config.Redis.CacheMaxValueBytes)
	}
	return t
}

// fetchOptions gives the fetcher a page cache with the shared tier behind
// it and reports downloaded bytes to the metrics.
func (s *Service) fetchOptions(fo *fetch.Options) {
	fo.OnDownload = s.Metrics.AddFetchBytes
	fc := s.Config.Fetch
	if fc.CacheTTL <= 0 || fc.CacheSize <= 0 {
		return
	}
	t := &cache.Tiered[*fetch.Result]{Local: cache.NewLocal[*fetch.Result](fc.CacheSize), BackfillTTL: fc.CacheTTL,
		Observe: func(tier string, hit bool) { s.Metrics.ObserveCache(metrics.CacheFetch, tier, hit) }}
	if s.Redis != nil && s.Config.Redis.CacheEnabled() {
		// Raw bodies ride along only while they leave room for the text.
		max := s.Config.Redis.CacheMaxValueBytes
		t.Shared = redisstore.NewCache[*fetch.Result](s.Redis, "fetch", redisstore.FetchCodec{MaxBodyBytes: max / 2}, max)
	}
	fo.Cache = t
}

// renderOptions gives the fetcher a browser for pages that build their
// content with JavaScript, unless fetch.render is never. Nothing starts
// until a page needs it.
func (s *Service) renderOptions(fo *fetch.Options) {
	if fo.Render == fetch.RenderNever {
		return
	}
	ro := render.OptionsFromConfig(s.Config.Fetch.Browser)
	ro.Logger = s.Log
	ro.OnRender = s.Metrics.ObserveRender
	ro.OnStart = s.Metrics.BrowserStarted
	fo.Renderer = render.New(ro)
}

// shareOps hands the shared counter and the audit stream to the policy
// and audit layers, which decorate picks up, and points the metrics at the
// engine's breakers.
func (s *Service) shareOps() {
	s.Metrics.SetProviders(s.engine.Status)
	if s.Redis == nil {
		return
	}
	rc := s.Config.Redis
	if rc.CountersEnabled() {
		// Limits keep holding per replica while Redis is unreachable.
		s.Counter = redisstore.NewCounter(s.Redis, ratelimit.NewLocalCounter(nil))
	}
	if rc.AuditEnabled() {
		s.AuditSinks = append(s.AuditSinks, redisstore.NewSink(s.Redis, rc.AuditStream, rc.AuditMaxLen, 0))
	}
}

// Release closes the connections the Service holds: idle ones to search
// providers and fetched sites, and the Redis connection with its health
// check. Call it when the process stops serving, after the audit log has
// been flushed.
func (s *Service) Release() error {
	s.providerHTTP.CloseIdleConnections()
	s.fetcher.Close()
	if s.Redis == nil {
		return nil
	}
	return s.Redis.Close()
}

// ProvidersAvailable reports how many providers can be asked now (breaker
// closed, half-open, or open with its cooldown over) out of the chain.
func (s *Service) ProvidersAvailable() (available, total int) {
	for _, st := range s.engine.Status() {
		total++
		if st.State != search.BreakerOpen || !st.OpenUntil.After(time.Now()) {
			available++
		}
	}
	return available, total
}

// RedisStatus reports the shared tier's state; Configured is false without
// redis.url.
func (s *Service) RedisStatus() metrics.RedisStatus {
	if s.Redis == nil {
		return metrics.RedisStatus{}
	}
	return s.Redis.Status()
}
