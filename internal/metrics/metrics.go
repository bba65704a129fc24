// Package metrics counts what webgate does, for two readers: Prometheus,
// through /metrics on a private registry, and the web console, through
// Snapshot, which keeps the same numbers per minute over the last hour in
// memory. Surfaces, providers and cache tiers report events to one
// Recorder; nothing here reads the global default registry.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/webgate/webgate/internal/search"
)

// Cache and tier names used in labels and snapshots.
const (
	CacheSearch = "search"
	CacheFetch  = "fetch"
	TierLocal   = "local"
	TierRedis   = "redis"
)

// RedisStatus is the state of the shared Redis tier.
type RedisStatus struct {
	// Configured reports whether redis.url is set.
	Configured bool `json:"configured"`
	// Up reports whether the last health check reached Redis.
	Up bool `json:"up"`
	// Since is when Up last changed.
	Since time.Time `json:"since,omitzero"`
	// LastError is the most recent failure, "" if none.
	LastError string `json:"last_error,omitempty"`
}

// Options configures a Recorder.
type Options struct {
	// Version is reported by webgate_build_info.
	Version string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Recorder receives events from every part of webgate and serves them to
// Prometheus and to Snapshot. It is safe for concurrent use; a nil
// *Recorder ignores every event, so callers need no checks.
type Recorder struct {
	reg *prometheus.Registry
	now func() time.Time
	t0  time.Time

	requests        *prometheus.CounterVec
	requestLatency  *prometheus.HistogramVec
	streams         *prometheus.GaugeVec
	providerCalls   *prometheus.CounterVec
	providerLatency *prometheus.HistogramVec
	cacheLookups    *prometheus.CounterVec
	fetchBytes      prometheus.Counter
	renders         *prometheus.CounterVec
	renderLatency   prometheus.Histogram
	browserStarts   prometheus.Counter
	redisErrors     *prometheus.CounterVec
	degraded        *prometheus.CounterVec
	draining        prometheus.Gauge
	buildInfo       *prometheus.GaugeVec

	activeStreams atomic.Int64
	// cacheCounters holds the hit and miss counters of the known cache
	// tiers, resolved once: a cache hit costs a few hundred nanoseconds,
	// and a label lookup per event would double it.
	cacheCounters map[cacheTier][2]prometheus.Counter
	// surfaces caches each surface's series (*surfaceSeries by name) for
	// the same reason: every request reports to them.
	surfaces sync.Map

	mu   sync.Mutex
	ring [ringMinutes]minute

	srcMu     sync.RWMutex
	providers func() []search.ProviderStatus
	redis     func() RedisStatus
}

// latencyBuckets span a cache hit (sub-millisecond) to a slow fetch or a
// long stream (minutes).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// New returns a Recorder with its own Prometheus registry, which also
// carries the Go runtime and process collectors.
func New(opts Options) *Recorder {
	r := &Recorder{reg: prometheus.NewRegistry(), now: opts.Now}
	if r.now == nil {
		r.now = time.Now
	}
	r.t0 = r.now()
	f := promAuto{r.reg}
	r.requests = f.counterVec("webgate_http_requests_total", "HTTP requests served, by surface (api, mcp, messages, ops, other) and status code.", "surface", "code")
	r.requestLatency = f.histogramVec("webgate_http_request_duration_seconds", "Time from request to the end of the response (whole streams included), by surface.", "surface")
	r.streams = f.gaugeVec("webgate_http_streams_active", "Streamed responses (text/event-stream) in progress, by surface.", "surface")
	r.providerCalls = f.counterVec("webgate_provider_requests_total", "Calls to search providers by provider and outcome (ok, rate_limited, quota, auth, blocked, unavailable, invalid_query, timeout, canceled).", "provider", "outcome")
	r.providerLatency = f.histogramVec("webgate_provider_request_duration_seconds", "Search provider call latency, by provider.", "provider")
	r.cacheLookups = f.counterVec("webgate_cache_requests_total", "Cache lookups by cache (search, fetch), tier (local, redis) and result (hit, miss).", "cache", "tier", "result")
	r.cacheCounters = map[cacheTier][2]prometheus.Counter{}
	for _, c := range []string{CacheSearch, CacheFetch} {
		for _, tier := range []string{TierLocal, TierRedis} {
			r.cacheCounters[cacheTier{c, tier}] = [2]prometheus.Counter{
				r.cacheLookups.WithLabelValues(c, tier, "miss"), r.cacheLookups.WithLabelValues(c, tier, "hit"),
			}
		}
	}
	r.fetchBytes = f.counter("webgate_fetch_bytes_total", "Bytes of page bodies downloaded by the fetcher (after decompression; cache hits excluded).")
	r.renders = f.counterVec("webgate_fetch_renders_total", "Pages rendered in the headless browser, by outcome (ok, error, timeout, canceled).", "outcome")
	r.renderLatency = f.histogram("webgate_fetch_render_duration_seconds", "Time a page spent in the headless browser, waiting for a tab included.")
	r.browserStarts = f.counter("webgate_browser_starts_total", "Headless browser processes started (the first render, restarts after fetch.browser.restart_after pages, after a crash or after idling).")
	r.redisErrors = f.counterVec("webgate_redis_errors_total", "Failed Redis commands by operation (cache_get, cache_set, counter, audit, ping).", "op")
	r.degraded = f.counterVec("webgate_messages_degraded_total", "Messages requests translated for a Chat Completions upstream in which a part with no equivalent was dropped or turned into text, by item (member:thinking, block:server_tool, document:url, tool_call:unanswered, ...).", "item")
	r.draining = f.gauge("webgate_draining", "1 while the server is shutting down and draining in-flight requests.")
	r.buildInfo = f.gaugeVec("webgate_build_info", "Always 1; labels carry the webgate version.", "version")
	r.SetVersion(opts.Version)
	r.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		stateCollector{r},
	)
	return r
}

// SetVersion sets the version webgate_build_info reports.
func (r *Recorder) SetVersion(v string) {
	if r == nil {
		return
	}
	r.buildInfo.Reset()
	r.buildInfo.WithLabelValues(orDefault(v, "dev")).Set(1)
}

// Registry returns the private registry, for tests and for callers that
// add collectors of their own.
func (r *Recorder) Registry() *prometheus.Registry { return r.reg }

// Handler serves the Prometheus exposition format.
func (r *Recorder) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{
		// A slow or stuck scrape must not pile up.
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
}

// SetProviders registers the source of provider breaker states (the search
// engine's Status).
func (r *Recorder) SetProviders(f func() []search.ProviderStatus) {
	if r == nil {
		return
	}
	r.srcMu.Lock()
	r.providers = f
	r.srcMu.Unlock()
}

// SetRedis registers the source of the Redis tier's state.
func (r *Recorder) SetRedis(f func() RedisStatus) {
	if r == nil {
		return
	}
	r.srcMu.Lock()
	r.redis = f
	r.srcMu.Unlock()
}

func (r *Recorder) providerStatus() []search.ProviderStatus {
	r.srcMu.RLock()
	f := r.providers
	r.srcMu.RUnlock()
	if f == nil {
		return nil
	}
	return f()
}

func (r *Recorder) redisStatus() RedisStatus {
	r.srcMu.RLock()
	f := r.redis
	r.srcMu.RUnlock()
	if f == nil {
		return RedisStatus{}
	}
	return f()
}

// surfaceSeries are one surface's request series, resolved once.
type surfaceSeries struct {
	latency prometheus.Observer
	streams prometheus.Gauge
	// ok counts status 200, by far the most common; other codes are
	// looked up by label.
	ok prometheus.Counter
}

func (r *Recorder) surface(name string) *surfaceSeries {
	if s, ok := r.surfaces.Load(name); ok {
		return s.(*surfaceSeries)
	}
	s, _ := r.surfaces.LoadOrStore(name, &surfaceSeries{
		latency: r.requestLatency.WithLabelValues(name),
		streams: r.streams.WithLabelValues(name),
		ok:      r.requests.WithLabelValues(name, "200"),
	})
	return s.(*surfaceSeries)
}

// ObserveRequest records one finished HTTP request.
func (r *Recorder) ObserveRequest(surface string, status int, took time.Duration) {
	if r == nil {
		return
	}
	ss := r.surface(surface)
	if status == http.StatusOK {
		ss.ok.Inc()
	} else {
		r.requests.WithLabelValues(surface, strconv.Itoa(status)).Inc()
	}
	ss.latency.Observe(took.Seconds())
	r.mu.Lock()
	m := r.slot(r.unixMinute())
	s := m.series(m.surfaces, surface)
	s.count++
	if status >= 500 {
		s.errors++
	}
	s.lat.add(ms(took))
	r.mu.Unlock()
}

// StreamStarted records that a streamed response began. Call StreamEnded
// with the same surface once when it ends.
func (r *Recorder) StreamStarted(surface string) {
	if r == nil {
		return
	}
	r.surface(surface).streams.Inc()
	r.activeStreams.Add(1)
}

// StreamEnded records that a streamed response counted by StreamStarted
// has ended.
func (r *Recorder) StreamEnded(surface string) {
	if r == nil {
		return
	}
	r.surface(surface).streams.Dec()
	r.activeStreams.Add(-1)
}

// SetDraining reports whether the server is draining for shutdown.
func (r *Recorder) SetDraining(on bool) {
	if r == nil {
		return
	}
	if on {
		r.draining.Set(1)
	} else {
		r.draining.Set(0)
	}
}

// ObserveProvider records one call to a search provider.
func (r *Recorder) ObserveProvider(provider string, took time.Duration, err error) {
	if r == nil {
		return
	}
	outcome := Outcome(err)
	r.providerCalls.WithLabelValues(provider, outcome).Inc()
	if outcome == "canceled" {
		// A call we cancelled (a hedge lost, the caller left) says nothing
		// about the provider's speed or health.
		return
	}
	r.providerLatency.WithLabelValues(provider).Observe(took.Seconds())
	r.mu.Lock()
	m := r.slot(r.unixMinute())
	s := m.series(m.providers, provider)
	s.count++
	if err != nil {
		s.errors++
	}
	s.lat.add(ms(took))
	r.mu.Unlock()
}

// ObserveCache records one cache lookup in one tier.
func (r *Recorder) ObserveCache(cache, tier string, hit bool) {
	if r == nil {
		return
	}
	k := cacheTier{cache, tier}
	i := 0
	if hit {
		i = 1
	}
	if cs, ok := r.cacheCounters[k]; ok {
		cs[i].Inc()
	} else {
		r.cacheLookups.WithLabelValues(cache, tier, [2]string{"miss", "hit"}[i]).Inc()
	}
	r.mu.Lock()
	m := r.slot(r.unixMinute())
	hm := m.caches[k]
	if hm == nil {
		hm = &hitMiss{}
		m.caches[k] = hm
	}
	if hit {
		hm.hits++
	} else {
		hm.misses++
	}
	r.mu.Unlock()
}

// AddFetchBytes records n body bytes downloaded by the fetcher.
func (r *Recorder) AddFetchBytes(n int) {
	if r == nil || n <= 0 {
		return
	}
	r.fetchBytes.Add(float64(n))
	r.mu.Lock()
	r.slot(r.unixMinute()).bytes += int64(n)
	r.mu.Unlock()
}

// ObserveRender records one page rendered in the browser.
func (r *Recorder) ObserveRender(outcome string, took time.Duration) {
	if r == nil {
		return
	}
	r.renders.WithLabelValues(outcome).Inc()
	r.renderLatency.Observe(took.Seconds())
}

// BrowserStarted records a browser process start.
func (r *Recorder) BrowserStarted() {
	if r == nil {
		return
	}
	r.browserStarts.Inc()
}

// RedisError records a failed Redis command.
func (r *Recorder) RedisError(op string) {
	if r == nil {
		return
	}
	r.redisErrors.WithLabelValues(op).Inc()
}

// ObserveDegraded records a Messages request in which the translation
// for a Chat Completions upstream dropped or degraded item.
func (r *Recorder) ObserveDegraded(item string) {
	if r == nil {
		return
	}
	r.degraded.WithLabelValues(item).Inc()
}

// Outcome classifies a provider error into the outcome label.
func Outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, search.ErrRateLimited):
		return "rate_limited"
	case errors.Is(err, search.ErrQuota):
		return "quota"
	case errors.Is(err, search.ErrAuth):
		return "auth"
	case errors.Is(err, search.ErrBlocked):
		return "blocked"
	case errors.Is(err, search.ErrInvalidQuery):
		return "invalid_query"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "unavailable"
}

func (r *Recorder) unixMinute() int64 { return r.now().Unix() / 60 }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// stateCollector exports the states read at scrape time, so they are
// never stale: provider breakers (from the engine) and Redis reachability.
type stateCollector struct{ r *Recorder }

var (
	breakerDesc = prometheus.NewDesc("webgate_provider_breaker_state",
		"Circuit breaker state per provider: 1 for the current state (closed, open, half-open), 0 for the others.", []string{"provider", "state"}, nil)
	breakerOpenDesc = prometheus.NewDesc("webgate_provider_breaker_open_seconds",
		"Seconds until an open breaker lets a trial request through (a provider's Retry-After included); 0 when not open.", []string{"provider"}, nil)
	redisUpDesc = prometheus.NewDesc("webgate_redis_up",
		"1 while the configured Redis answers, 0 while webgate serves from its local tiers because it does not; absent without redis.url.", nil, nil)
)

func (c stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- breakerDesc
	ch <- breakerOpenDesc
	ch <- redisUpDesc
}

func (c stateCollector) Collect(ch chan<- prometheus.Metric) {
	if st := c.r.redisStatus(); st.Configured {
		up := 0.0
		if st.Up {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(redisUpDesc, prometheus.GaugeValue, up)
	}
	now := c.r.now()
	for _, st := range c.r.providerStatus() {
		for _, s := range [...]search.BreakerState{search.BreakerClosed, search.BreakerOpen, search.BreakerHalfOpen} {
			v := 0.0
			if st.State == s {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(breakerDesc, prometheus.GaugeValue, v, st.Name, string(s))
		}
		open := 0.0
		if st.State == search.BreakerOpen && st.OpenUntil.After(now) {
			open = st.OpenUntil.Sub(now).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(breakerOpenDesc, prometheus.GaugeValue, open, st.Name)
	}
}

// promAuto registers metrics on a private registry as they are made.
type promAuto struct{ reg *prometheus.Registry }

func (f promAuto) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(v)
	return v
}

func (f promAuto) histogramVec(name, help string, labels ...string) *prometheus.HistogramVec {
	v := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets}, labels)
	f.reg.MustRegister(v)
	return v
}

func (f promAuto) histogram(name, help string) prometheus.Histogram {
	v := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets})
	f.reg.MustRegister(v)
	return v
}

func (f promAuto) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	v := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(v)
	return v
}

func (f promAuto) counter(name, help string) prometheus.Counter {
	v := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	f.reg.MustRegister(v)
	return v
}

func (f promAuto) gauge(name, help string) prometheus.Gauge {
	v := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	f.reg.MustRegister(v)
	return v
}
