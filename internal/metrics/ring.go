package metrics

import (
	"slices"
	"time"
)

// ringMinutes is how far back the in-process view reaches: one slot per
// minute for the last hour.
const ringMinutes = 60

// minute is one slot of the ring: everything recorded during one wall-clock
// minute.
type minute struct {
	start     int64 // Unix minute this slot holds; 0 when never used
	surfaces  map[string]*series
	providers map[string]*series
	caches    map[cacheTier]*hitMiss
	bytes     int64
}

type series struct {
	count, errors uint64
	lat           latHist
}

type hitMiss struct{ hits, misses uint64 }

type cacheTier struct{ cache, tier string }

// slot returns the ring slot for unix minute m, clearing it if it holds
// an older minute. Callers hold r.mu.
func (r *Recorder) slot(m int64) *minute {
	s := &r.ring[m%ringMinutes]
	if s.start != m {
		*s = minute{start: m, surfaces: map[string]*series{}, providers: map[string]*series{}, caches: map[cacheTier]*hitMiss{}}
	}
	return s
}

func (m *minute) series(set map[string]*series, name string) *series {
	s := set[name]
	if s == nil {
		s = &series{}
		set[name] = s
	}
	return s
}

// Point is one minute of a series, for charts.
type Point struct {
	// Start is the beginning of the minute.
	Start time.Time `json:"start"`
	// Count is how many requests (or provider calls) ended in the minute.
	Count uint64 `json:"count"`
	// Errors is how many of them failed: a 5xx status for a surface, any
	// failure other than a cancellation for a provider.
	Errors uint64 `json:"errors"`
	// P50MS and P95MS are latency quantiles in milliseconds (0 without
	// requests).
	P50MS float64 `json:"p50_ms"`
	P95MS float64 `json:"p95_ms"`
}

// Summary aggregates a series over a span of minutes.
type Summary struct {
	Count  uint64 `json:"count"`
	Errors uint64 `json:"errors"`
	// ErrorRate is Errors/Count, 0 without requests.
	ErrorRate float64 `json:"error_rate"`
	// PerMinute is Count divided by the minutes in the span.
	PerMinute float64 `json:"per_minute"`
	P50MS     float64 `json:"p50_ms"`
	P95MS     float64 `json:"p95_ms"`
}

// collect walks the last ringMinutes minutes ending at now (oldest first)
// and returns, for every name pick yields a series for, its points, its
// summary over the hour and its summary over the last recent minutes.
// Callers hold r.mu.
func (r *Recorder) collect(now int64, recent int, pick func(*minute) map[string]*series) map[string]*collected {
	out := map[string]*collected{}
	first := now - ringMinutes + 1
	for m := first; m <= now; m++ {
		s := &r.ring[((m%ringMinutes)+ringMinutes)%ringMinutes]
		if s.start != m {
			continue
		}
		for name := range pick(s) {
			if out[name] == nil {
				out[name] = &collected{}
			}
		}
	}
	for name, c := range out {
		c.points = make([]Point, 0, ringMinutes)
		var hour, rec series
		for m := first; m <= now; m++ {
			p := Point{Start: time.Unix(m*60, 0).UTC()}
			s := &r.ring[((m%ringMinutes)+ringMinutes)%ringMinutes]
			if s.start == m {
				if v := pick(s)[name]; v != nil {
					p.Count, p.Errors = v.count, v.errors
					p.P50MS, p.P95MS = v.lat.quantile(0.5), v.lat.quantile(0.95)
					hour.add(v)
					if m > now-int64(recent) {
						rec.add(v)
					}
				}
			}
			c.points = append(c.points, p)
		}
		c.hour, c.recent = hour.summary(ringMinutes), rec.summary(recent)
	}
	return out
}

type collected struct {
	points       []Point
	hour, recent Summary
}

func (s *series) add(o *series) {
	s.count += o.count
	s.errors += o.errors
	s.lat.merge(&o.lat)
}

func (s *series) summary(minutes int) Summary {
	out := Summary{Count: s.count, Errors: s.errors, P50MS: s.lat.quantile(0.5), P95MS: s.lat.quantile(0.95)}
	if s.count > 0 {
		out.ErrorRate = float64(s.errors) / float64(s.count)
	}
	out.PerMinute = float64(s.count) / float64(minutes)
	return out
}

// sortedNames returns the keys of m in order, with the names in first
// (in their order) before the rest (sorted).
func sortedNames[V any](m map[string]V, first []string) []string {
	var out []string
	for _, n := range first {
		if _, ok := m[n]; ok {
			out = append(out, n)
		}
	}
	var rest []string
	for n := range m {
		if !slices.Contains(first, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
