package metrics

import (
	"errors"
	"time"

	"github.com/webgate/webgate/internal/search"
)

// RecentMinutes is the span of the "recent" summaries in a Snapshot.
const RecentMinutes = 5

// Snapshot is the in-process view of the metrics, for the web console:
// per-minute points over the last hour and summaries over the hour and the
// last RecentMinutes minutes. It marshals to JSON as is.
type Snapshot struct {
	// Time is when the snapshot was taken.
	Time time.Time `json:"time"`
	// Started is when the Recorder was created (the process start).
	Started time.Time `json:"started"`
	// Surfaces are request counts by surface (api, mcp, messages, ...).
	Surfaces []SurfaceStats `json:"surfaces"`
	// Providers are the search providers in chain order, then any other
	// provider seen in the last hour.
	Providers []ProviderStats `json:"providers"`
	// Caches are the search and fetch caches.
	Caches []CacheStats `json:"caches"`
	// FetchBytes is the bytes downloaded by the fetcher in the last hour.
	FetchBytes int64 `json:"fetch_bytes"`
	// ActiveStreams is the number of streamed responses in progress.
	ActiveStreams int64 `json:"active_streams"`
	// Redis is the shared tier's state.
	Redis RedisStatus `json:"redis"`
}

// SurfaceStats is one surface's traffic.
type SurfaceStats struct {
	Name   string  `json:"name"`
	Hour   Summary `json:"hour"`
	Recent Summary `json:"recent"`
	// Points are the last 60 minutes, oldest first, one per minute (empty
	// minutes included, so charts need no gap filling).
	Points []Point `json:"points"`
}

// ProviderStats is one provider's health.
type ProviderStats struct {
	Name string `json:"name"`
	// State is the breaker state: closed, open or half-open ("" for a
	// provider no longer in the chain).
	State string `json:"state"`
	// OpenUntil is when an open breaker lets a trial through: the
	// cooldown, or the provider's own Retry-After when it asked for longer.
	OpenUntil time.Time `json:"open_until,omitzero"`
	// ConsecutiveFailures counts failures since the last success.
	ConsecutiveFailures int `json:"consecutive_failures"`
	// LastError is the latest failure's message and LastErrorKind its
	// outcome label (rate_limited and quota say the provider's quota is
	// the problem).
	LastError     string    `json:"last_error,omitempty"`
	LastErrorKind string    `json:"last_error_kind,omitempty"`
	LastErrorAt   time.Time `json:"last_error_at,omitzero"`
	// RetryAfter is the wait the provider asked for in its last error, if
	// it did.
	RetryAfter time.Duration `json:"retry_after,omitempty"`
	Hour       Summary       `json:"hour"`
	Recent     Summary       `json:"recent"`
	Points     []Point       `json:"points"`
}

// CacheStats is one cache's effectiveness. A lookup that misses the local
// tier and hits Redis counts as a miss of the local tier and a hit of the
// Redis tier; HitRatio counts it as a hit.
type CacheStats struct {
	Name string `json:"name"`
	// Hits and Misses are over the last hour, all tiers together: a lookup
	// is a hit when any tier answered.
	Hits   uint64 `json:"hits"`
	Misses uint64 `json:"misses"`
	// HitRatio is Hits/(Hits+Misses), 0 without lookups.
	HitRatio float64     `json:"hit_ratio"`
	Tiers    []TierStats `json:"tiers"`
	// Points are per-minute hits and misses (all tiers), oldest first.
	Points []CachePoint `json:"points"`
}

// TierStats is one tier of a cache over the last hour.
type TierStats struct {
	Tier   string `json:"tier"`
	Hits   uint64 `json:"hits"`
	Misses uint64 `json:"misses"`
}

// CachePoint is one minute of a cache.
type CachePoint struct {
	Start  time.Time `json:"start"`
	Hits   uint64    `json:"hits"`
	Misses uint64    `json:"misses"`
}

var knownSurfaces = []string{"api", "mcp", "messages"}

// Snapshot returns the current in-process view.
func (r *Recorder) Snapshot() Snapshot {
	if r == nil {
		return Snapshot{}
	}
	now := r.now()
	status := r.providerStatus()
	snap := Snapshot{Time: now, Started: r.t0, ActiveStreams: r.activeStreams.Load(), Redis: r.redisStatus()}
	cur := now.Unix() / 60

	r.mu.Lock()
	surfaces := r.collect(cur, RecentMinutes, func(m *minute) map[string]*series { return m.surfaces })
	providers := r.collect(cur, RecentMinutes, func(m *minute) map[string]*series { return m.providers })
	caches := r.cacheStats(cur)
	for m := cur - ringMinutes + 1; m <= cur; m++ {
		if s := &r.ring[m%ringMinutes]; s.start == m {
			snap.FetchBytes += s.bytes
		}
	}
	r.mu.Unlock()

	for _, name := range knownSurfaces {
		if surfaces[name] == nil {
			surfaces[name] = r.empty(cur)
		}
	}
	for _, name := range sortedNames(surfaces, knownSurfaces) {
		c := surfaces[name]
		snap.Surfaces = append(snap.Surfaces, SurfaceStats{Name: name, Hour: c.hour, Recent: c.recent, Points: c.points})
	}
	var chain []string
	byName := map[string]search.ProviderStatus{}
	for _, st := range status {
		chain = append(chain, st.Name)
		byName[st.Name] = st
		if providers[st.Name] == nil {
			providers[st.Name] = r.empty(cur)
		}
	}
	for _, name := range sortedNames(providers, chain) {
		c := providers[name]
		ps := ProviderStats{Name: name, Hour: c.hour, Recent: c.recent, Points: c.points}
		if st, ok := byName[name]; ok {
			ps.State = string(st.State)
			ps.ConsecutiveFailures = st.ConsecutiveFailures
			if st.State == search.BreakerOpen {
				ps.OpenUntil = st.OpenUntil
			}
			if st.LastError != nil {
				ps.LastError = st.LastError.Error()
				ps.LastErrorKind = Outcome(st.LastError)
				ps.LastErrorAt = st.LastErrorAt
				var pe *search.ProviderError
				if errors.As(st.LastError, &pe) {
					ps.RetryAfter = pe.RetryAfter
				}
			}
		}
		snap.Providers = append(snap.Providers, ps)
	}
	snap.Caches = caches
	return snap
}

// empty is a series with no events: 60 zero points.
func (r *Recorder) empty(cur int64) *collected {
	c := &collected{points: make([]Point, 0, ringMinutes)}
	for m := cur - ringMinutes + 1; m <= cur; m++ {
		c.points = append(c.points, Point{Start: time.Unix(m*60, 0).UTC()})
	}
	return c
}

// cacheStats builds the search and fetch cache views. A lookup's outcome
// for the cache as a whole is read from the tiers: every lookup asks the
// local tier, so local misses that no tier answered are misses, and local
// hits plus Redis hits are hits. Callers hold r.mu.
func (r *Recorder) cacheStats(cur int64) []CacheStats {
	var out []CacheStats
	for _, name := range []string{CacheSearch, CacheFetch} {
		cs := CacheStats{Name: name, Points: make([]CachePoint, 0, ringMinutes)}
		tiers := map[string]*TierStats{}
		for m := cur - ringMinutes + 1; m <= cur; m++ {
			p := CachePoint{Start: time.Unix(m*60, 0).UTC()}
			if s := &r.ring[m%ringMinutes]; s.start == m {
				for k, hm := range s.caches {
					if k.cache != name {
						continue
					}
					t := tiers[k.tier]
					if t == nil {
						t = &TierStats{Tier: k.tier}
						tiers[k.tier] = t
					}
					t.Hits += hm.hits
					t.Misses += hm.misses
					p.Hits += hm.hits
					if k.tier == TierLocal {
						p.Misses += hm.misses
					}
				}
				// A miss of the local tier that Redis answered is a hit.
				if hm := s.caches[cacheTier{name, TierRedis}]; hm != nil {
					p.Misses -= min(p.Misses, hm.hits)
				}
			}
			cs.Hits += p.Hits
			cs.Misses += p.Misses
			cs.Points = append(cs.Points, p)
		}
		for _, tier := range sortedNames(tiers, []string{TierLocal, TierRedis}) {
			cs.Tiers = append(cs.Tiers, *tiers[tier])
		}
		if n := cs.Hits + cs.Misses; n > 0 {
			cs.HitRatio = float64(cs.Hits) / float64(n)
		}
		out = append(out, cs)
	}
	return out
}
