package ui

import (
	"math"
	"slices"
	"strconv"

	"softmaxdemo/wasm/protocol"
)

// accPoint is the test accuracy (a fraction) measured at a step.
type accPoint struct {
	Epoch int
	Step  int
	Acc   float64
}

// tick is one labelled mark on an axis, at pixel position Pos.
type tick struct {
	Pos   float64
	Label string
}

// pt is a point in canvas pixels.
type pt struct{ X, Y float64 }

// chartGeometry is everything the loss chart draws, in canvas pixels. It
// is computed by layoutChart, a pure function, so the scaling is tested
// natively; loss-plot.go only replays it onto a canvas.
type chartGeometry struct {
	W, H                     float64
	Left, Right, Top, Bottom float64 // the plot area
	XTicks, LossTicks        []tick
	AccTicks                 []tick  // right axis, empty before the first evaluation
	Raw                      [][]pt  // per-step loss: one vertical min–max segment per pixel column
	Smooth                   []pt    // smoothed loss
	Acc                      []pt    // test accuracy per epoch
	Font                     float64 // label size in canvas pixels
}

// layoutChart lays out the loss chart for a canvas of w×h pixels, where
// scale is the device pixel ratio (labels grow with it).
func layoutChart(losses []protocol.Point, acc []accPoint, w, h, scale float64) chartGeometry {
	if scale <= 0 {
		scale = 1
	}
	g := chartGeometry{W: w, H: h, Font: 15 * scale}
	g.Left, g.Right = 58*scale, w-58*scale
	g.Top, g.Bottom = 14*scale, h-40*scale
	if g.Right <= g.Left+10 || g.Bottom <= g.Top+10 {
		return g
	}
	maxStep := 1
	if n := len(losses); n > 0 {
		maxStep = max(maxStep, losses[n-1].Step)
	}
	if n := len(acc); n > 0 {
		maxStep = max(maxStep, acc[n-1].Step)
	}
	xs := niceTicks(0, float64(maxStep), 6)
	xmax := xs[len(xs)-1]
	x := func(s float64) float64 { return g.Left + (g.Right-g.Left)*s/xmax }
	for _, v := range xs {
		g.XTicks = append(g.XTicks, tick{Pos: x(v), Label: shortNumber(v)})
	}

	smooth := smoothLosses(losses)
	ymax := lossCeiling(losses)
	ys := niceTicks(0, ymax, 5)
	ytop := ys[len(ys)-1]
	y := func(v float64) float64 {
		return g.Bottom - (g.Bottom-g.Top)*math.Min(v, ytop)/ytop
	}
	for _, v := range ys {
		g.LossTicks = append(g.LossTicks, tick{Pos: y(v), Label: strconv.FormatFloat(v, 'g', 3, 64)})
	}

	// One min–max segment per pixel column keeps every spike visible and
	// bounds the drawing work by the chart's width, not the run's length.
	col, lo, hi := math.Inf(-1), 0.0, 0.0
	flush := func() {
		if !math.IsInf(col, -1) {
			g.Raw = append(g.Raw, []pt{{col, y(lo)}, {col, y(hi)}})
		}
	}
	for _, p := range losses {
		if math.IsNaN(p.Loss) || math.IsInf(p.Loss, 0) {
			continue
		}
		c := math.Round(x(float64(p.Step)))
		if c != col {
			flush()
			col, lo, hi = c, p.Loss, p.Loss
			continue
		}
		lo, hi = math.Min(lo, p.Loss), math.Max(hi, p.Loss)
	}
	flush()
	last := math.Inf(-1)
	for i, p := range losses {
		c := math.Round(x(float64(p.Step)))
		if c == last && i != len(losses)-1 {
			continue
		}
		last = c
		g.Smooth = append(g.Smooth, pt{x(float64(p.Step)), y(smooth[i])})
	}

	if len(acc) > 0 {
		lowest := 1.0
		for _, a := range acc {
			lowest = math.Min(lowest, a.Acc)
		}
		amin := math.Max(0, math.Floor(lowest*10-0.5)/10) // at least 5 points of headroom below
		ya := func(v float64) float64 { return g.Bottom - (g.Bottom-g.Top)*(v-amin)/(1-amin) }
		for _, v := range niceTicks(amin, 1, 5) {
			if v >= amin-1e-9 {
				g.AccTicks = append(g.AccTicks, tick{Pos: ya(v), Label: strconv.FormatFloat(math.Round(1000*v)/10, 'f', -1, 64) + "%"})
			}
		}
		for _, a := range acc {
			g.Acc = append(g.Acc, pt{x(float64(a.Step)), ya(a.Acc)})
		}
	}
	return g
}

// smoothLosses returns an exponential moving average of the losses with
// bias correction (as TensorBoard smooths), weight 0.95 on the past.
func smoothLosses(losses []protocol.Point) []float64 {
	const beta = 0.95
	out := make([]float64, len(losses))
	avg, weight := 0.0, 0.0
	for i, p := range losses {
		if !math.IsNaN(p.Loss) && !math.IsInf(p.Loss, 0) {
			avg = beta*avg + (1-beta)*p.Loss
			weight = beta*weight + (1 - beta)
		}
		if weight > 0 {
			out[i] = avg / weight
		}
	}
	return out
}

// lossCeiling returns the top of the loss axis: the largest finite loss,
// so the whole curve shows from its first step, unless that is a wild
// outlier (over ten times the 90th percentile): then the largest loss that
// is not, and the outliers are drawn clipped at the top. 1 when there are
// no losses.
func lossCeiling(losses []protocol.Point) float64 {
	var v []float64
	for _, p := range losses {
		if !math.IsNaN(p.Loss) && !math.IsInf(p.Loss, 0) {
			v = append(v, p.Loss)
		}
	}
	if len(v) == 0 {
		return 1
	}
	slices.Sort(v)
	limit := 10 * v[int(0.9*float64(len(v)-1))]
	top := v[0]
	for _, x := range v {
		if x <= limit {
			top = x
		}
	}
	if top <= 0 {
		return 1
	}
	return top
}

// niceTicks returns about n evenly spaced round values covering [lo, hi]:
// the step of 1, 2, 2.5 or 5 times a power of ten nearest to the exact one, the first at or below lo and the
// last at or above hi.
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

// shortNumber formats a step count compactly: 950, 1.5k, 12k, 1.2M.
func shortNumber(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
