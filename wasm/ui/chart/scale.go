package chart

import (
	"math"
	"slices"
	"softmaxdemo/wasm/protocol"
	"strconv"
)

// The axes' scales: round ticks and their labels, the loss axis's
// ceiling, and the smoothed loss curve.

// tickLabel formats the tick value v of the ticks all (evenly spaced) with
// just the decimals their spacing needs, so that no label shows rounding
// noise (0.6, not 0.6000000000000001); with big, in thousands or millions
// (12k, 1.5M).
func tickLabel(v float64, all []float64, big bool) string {
	step := 1.0
	if len(all) > 1 {
		step = all[1] - all[0]
	}
	suffix := ""
	if big {
		div := 1e3
		suffix = "k"
		if all[len(all)-1] >= 1e6 {
			div, suffix = 1e6, "M"
		}
		v, step = v/div, step/div
	}
	decimals := 0
	for d := 0; d <= 12; d++ {
		scaled := step * math.Pow(10, float64(d))
		if math.Abs(scaled-math.Round(scaled)) < 1e-6*math.Max(1, scaled) {
			decimals = d
			break
		}
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if s == "-0" {
		s = "0"
	}
	if v == 0 {
		return "0"
	}
	return s + suffix
}

// smoothInto appends to dst[:0] an exponential moving average of the
// losses with bias correction (as TensorBoard smooths), weight 0.95 on the
// past, and returns it.
func smoothInto(dst []float64, losses []protocol.Point) []float64 {
	const beta = 0.95
	out := slices.Grow(dst[:0], len(losses))[:len(losses)]
	avg, weight := 0.0, 0.0
	for i, p := range losses {
		if p.Loss-p.Loss == 0 { // finite
			avg = beta*avg + (1-beta)*p.Loss
			weight = beta*weight + (1 - beta)
		}
		out[i] = 0
		if weight > 0 {
			out[i] = avg / weight
		}
	}
	return out
}

// ceilingOf returns the top of the loss axis for the finite losses v,
// which it reorders: the largest, so the whole curve shows from its first
// step, unless that is a wild outlier (over ten times the 90th
// percentile): then the largest loss that is not, and the outliers are
// drawn clipped at the top. 1 when there are no losses. It selects the
// 90th percentile instead of sorting: it runs for every frame of the
// chart, over every loss point of every run shown.
func ceilingOf(v []float64) float64 {
	if len(v) == 0 {
		return 1
	}
	limit := 10 * kthSmallest(v, int(0.9*float64(len(v)-1)))
	top, low, found := 0.0, v[0], false
	for _, x := range v {
		low = min(low, x)
		if x <= limit && (!found || x > top) {
			top, found = x, true
		}
	}
	if !found {
		top = low
	}
	if top <= 0 {
		return 1
	}
	return top
}

// kthSmallest returns the k-th smallest of v (from 0), reordering v
// (quickselect, with the median of three as the pivot). v holds no NaN.
func kthSmallest(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		pivot := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// niceTicks returns about n evenly spaced round values covering [lo, hi]:
// the step of 1, 2, 2.5 or 5 times a power of ten nearest to the exact
// one, the first at or below lo and the last at or above hi.
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(max(n-1, 1))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step, best := mag, math.Inf(1)
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if d := math.Abs(math.Log(m * mag / raw)); d < best {
			step, best = m*mag, d
		}
	}
	start := math.Floor(lo/step+1e-9) * step
	var out []float64
	for v := start; ; v += step {
		r := math.Round(v/step) * step // no drift from repeated addition
		out = append(out, r)
		if r >= hi-1e-9*step || len(out) > 100 {
			break
		}
	}
	return out
}
