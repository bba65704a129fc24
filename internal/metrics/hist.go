package metrics

import "math"

// latHist is a fixed log-scale latency histogram: bucket i counts
// latencies up to histBase·2^(i/4), so a quantile read from it is within
// about 19% of the truth (one bucket's width), which is what a p50/p95
// chart needs, in 400 bytes. It is a
// value type: adding two is adding their buckets.
type latHist [histBuckets]uint32

const (
	histBuckets = 100
	histBase    = 0.25 // milliseconds: the upper bound of bucket 0
)

var (
	histStep    = math.Pow(2, 0.25)
	histLogStep = math.Log(histStep)
)

// bucketOf returns the bucket for a latency in milliseconds.
func bucketOf(ms float64) int {
	if ms <= histBase {
		return 0
	}
	i := int(math.Ceil(math.Log(ms/histBase) / histLogStep))
	return min(i, histBuckets-1)
}

// upper is the upper bound, in milliseconds, of bucket i.
func upper(i int) float64 { return histBase * math.Pow(histStep, float64(i)) }

func (h *latHist) add(ms float64) { h[bucketOf(ms)]++ }

func (h *latHist) merge(o *latHist) {
	for i := range h {
		h[i] += o[i]
	}
}

// quantile returns the q-quantile (0 < q < 1) in milliseconds,
// interpolated linearly inside its bucket; 0 when the histogram is empty.
func (h *latHist) quantile(q float64) float64 {
	var total uint64
	for _, c := range h {
		total += uint64(c)
	}
	if total == 0 {
		return 0
	}
	rank := q * float64(total)
	var seen float64
	for i, c := range h {
		if c == 0 {
			continue
		}
		if seen+float64(c) >= rank {
			lo := 0.0
			if i > 0 {
				lo = upper(i - 1)
			}
			frac := (rank - seen) / float64(c)
			return lo + frac*(upper(i)-lo)
		}
		seen += float64(c)
	}
	return upper(histBuckets - 1)
}
