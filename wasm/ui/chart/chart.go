// Package chart lays out the loss chart: the runs' loss curves, the test
// accuracy, the axes and their ticks, in canvas pixels. It is pure Go and
// draws nothing: LayoutRuns returns the geometry, which the page's loss
// plot replays onto a canvas, so the scaling is tested without a browser.
package chart

import (
	"math"
	"strconv"

	"softmaxdemo/wasm/protocol"
)

// AccPoint is the test accuracy (a fraction) measured at a step.
type AccPoint struct {
	Epoch int
	Step  int
	Acc   float64
	T     float64 // seconds of training at the measurement
}

// Tick is one labelled mark on an axis, at pixel position Pos.
type Tick struct {
	Pos   float64
	Label string
}

// Pt is a point in canvas pixels.
type Pt struct{ X, Y float64 }

// Geometry is everything the loss chart draws, in canvas pixels. It
// is computed by LayoutRuns, a pure function, so the scaling is tested
// natively; loss-plot.go only replays it onto a canvas.
type Geometry struct {
	W, H                     float64
	Left, Right, Top, Bottom float64 // the plot area
	XTicks, LossTicks        []Tick
	AccTicks                 []Tick  // right axis, empty before the first evaluation
	Raw                      [][]Pt  // the current run's per-step loss: one vertical min–max segment per pixel column
	Smooth                   []Pt    // the current run's smoothed loss
	Acc                      []Pt    // the current run's test accuracy per epoch
	Others                   []Line  // the other runs' smoothed losses, oldest first
	Font                     float64 // label size in canvas pixels
	// Mark is the x of the step the slider #scrub shows, in MarkColor,
	// its run's colour; NaN for none.
	Mark      float64
	MarkColor string
}

// Line is one run's loss curve.
type Line struct {
	Color string
	Pts   []Pt
}

// Run is one run as the chart draws it.
type Run struct {
	Losses        []protocol.Point
	Acc           []AccPoint
	Color         string
	StepsPerEpoch float64 // steps in one pass over the data, for the passes axis
	// Exact says the losses are the objective J itself (full batch, Newton),
	// drawn as they are; a minibatch's loss is a noisy estimate of J, drawn
	// smoothed over a band of the raw values.
	Exact bool
	// Marked says the chart marks step Mark of this run: the keyframe the
	// slider shows.
	Mark   int
	Marked bool
}

// The x axis can count steps, passes over the data or seconds of
// training; the loss axis can be linear, logarithmic, or show J − J* (the
// distance to the best loss any run reached, J*) on a logarithmic scale,
// where linear and quadratic convergence take visibly different shapes.
const (
	AxisSteps   = "steps"
	AxisPasses  = "passes"
	AxisSeconds = "seconds"
	AxisLinear  = "linear"
	AxisLog     = "log"
	AxisGap     = "gap"
)

// Axes says what the chart's axes show. Floor is J* for axisGap.
type Axes struct {
	X, Y  string
	Floor float64
}

// Layout lays out one run on steps and a linear loss axis.
func Layout(losses []protocol.Point, acc []AccPoint, w, h, scale float64) Geometry {
	return LayoutRuns([]Run{{Losses: losses, Acc: acc, StepsPerEpoch: 1}}, Axes{X: AxisSteps, Y: AxisLinear}, w, h, scale)
}

// Scratch holds the buffers LayoutRuns reuses from one draw to the
// next: the chart is drawn up to ten times a second while training, and
// in WebAssembly the page's garbage collection runs inside one task, so
// every draw that allocates its hundreds of kilobytes anew brings the
// next long pause closer. The geometry LayoutRuns returns lives in these
// buffers until the next call.
type Scratch struct {
	values []float64
	smooth []float64
	pts    []Pt
	segs   [][]Pt
	lines  []Line
}

// LayoutRuns lays out the loss chart for a canvas of w×h pixels, where
// scale is the device pixel ratio (labels grow with it). The last run is
// the current one, drawn on top with its per-step band and its accuracy.
func LayoutRuns(runs []Run, ax Axes, w, h, scale float64) Geometry {
	return LayoutRunsInto(&Scratch{}, runs, ax, w, h, scale)
}

// LayoutRunsInto is LayoutRuns with its buffers in sc.
func LayoutRunsInto(sc *Scratch, runs []Run, ax Axes, w, h, scale float64) Geometry {
	sc.values, sc.pts, sc.segs, sc.lines = sc.values[:0], sc.pts[:0], sc.segs[:0], sc.lines[:0]
	if scale <= 0 {
		scale = 1
	}
	g := Geometry{W: w, H: h, Font: 15 * scale, Mark: math.NaN()}
	g.Left, g.Right = 58*scale, w-58*scale
	g.Top, g.Bottom = 14*scale, h-40*scale
	if g.Right <= g.Left+10 || g.Bottom <= g.Top+10 {
		return g
	}
	// Where a measurement at step, t seconds into run r, stands on the x axis.
	xAt := func(r Run, step int, t float64) float64 {
		switch ax.X {
		case AxisPasses:
			return float64(step) / math.Max(r.StepsPerEpoch, 1)
		case AxisSeconds:
			return t
		}
		return float64(step)
	}
	// What the loss axis plots of a loss, and whether it can.
	yOf := func(loss float64) (float64, bool) {
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return 0, false
		}
		switch ax.Y {
		case AxisLog:
			if loss <= 0 {
				return 0, false
			}
			return math.Log10(loss), true
		case AxisGap:
			gap := loss - ax.Floor
			if gap <= 0 {
				return 0, false
			}
			return math.Log10(gap), true
		}
		return loss, true
	}

	xmaxData := 0.0
	for _, r := range runs {
		for _, p := range r.Losses {
			xmaxData = math.Max(xmaxData, xAt(r, p.Step, p.T))
		}
		for _, a := range r.Acc {
			xmaxData = math.Max(xmaxData, xAt(r, a.Step, a.T))
		}
	}
	if xmaxData <= 0 {
		xmaxData = 1
		if ax.X != AxisSteps {
			xmaxData = 0.1
		}
	}
	xs := niceTicks(0, xmaxData, 6)
	xmax := xs[len(xs)-1]
	x := func(v float64) float64 { return g.Left + (g.Right-g.Left)*v/xmax }
	big := xmax >= 1e4
	for _, v := range xs {
		g.XTicks = append(g.XTicks, Tick{Pos: x(v), Label: tickLabel(v, xs, big)})
	}

	var ylo, ytop float64
	var ys []float64
	if ax.Y == AxisLinear || ax.Y == "" {
		for _, r := range runs {
			for _, p := range r.Losses {
				if !math.IsNaN(p.Loss) && !math.IsInf(p.Loss, 0) {
					sc.values = append(sc.values, p.Loss)
				}
			}
		}
		ys = niceTicks(0, ceilingOf(sc.values), 5)
		ylo, ytop = 0, ys[len(ys)-1]
		for _, v := range ys {
			g.LossTicks = append(g.LossTicks, Tick{Label: tickLabel(v, ys, false), Pos: 0})
		}
	} else {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range runs {
			for _, p := range r.Losses {
				if v, ok := yOf(p.Loss); ok {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
		if math.IsInf(lo, 1) {
			lo, hi = -2, 1
		}
		ylo, ytop = math.Floor(lo), math.Ceil(hi)
		if ytop <= ylo {
			ytop = ylo + 1
		}
		step := math.Max(1, math.Ceil((ytop-ylo)/6))
		for v := ylo; v <= ytop+1e-9; v += step {
			ys = append(ys, v)
			g.LossTicks = append(g.LossTicks, Tick{Label: strconv.FormatFloat(math.Pow(10, v), 'g', 3, 64)})
		}
	}
	y := func(v float64) float64 {
		return g.Bottom - (g.Bottom-g.Top)*(math.Max(ylo, math.Min(v, ytop))-ylo)/(ytop-ylo)
	}
	for i, v := range ys {
		g.LossTicks[i].Pos = y(v)
	}

	for _, r := range runs {
		if r.Marked {
			g.Mark, g.MarkColor = x(xAt(r, r.Mark, timeAt(r.Losses, r.Mark))), r.Color
		}
	}
	for i, r := range runs {
		current := i == len(runs)-1
		sc.smooth = smoothInto(sc.smooth[:0], r.Losses)
		smooth := sc.smooth
		if r.Exact {
			for k, p := range r.Losses {
				smooth[k] = p.Loss
			}
		}
		start := len(sc.pts)
		last := math.Inf(-1)
		for k, p := range r.Losses {
			c := math.Round(x(xAt(r, p.Step, p.T)))
			if c == last && k != len(r.Losses)-1 {
				continue
			}
			v, ok := yOf(smooth[k])
			if !ok {
				continue
			}
			last = c
			sc.pts = append(sc.pts, Pt{x(xAt(r, p.Step, p.T)), y(v)})
		}
		line := sc.pts[start:len(sc.pts):len(sc.pts)]
		if !current {
			sc.lines = append(sc.lines, Line{Color: r.Color, Pts: line})
			g.Others = sc.lines
			continue
		}
		g.Smooth = line
		// One min–max segment per pixel column keeps every spike visible
		// and bounds the drawing work by the chart's width, not the run's
		// length.
		col, lo, hi := math.Inf(-1), 0.0, 0.0
		flush := func() {
			if !math.IsInf(col, -1) {
				sc.pts = append(sc.pts, Pt{col, y(lo)}, Pt{col, y(hi)})
				n := len(sc.pts)
				sc.segs = append(sc.segs, sc.pts[n-2:n:n])
				g.Raw = sc.segs
			}
		}
		for _, p := range r.Losses {
			v, ok := yOf(p.Loss)
			if !ok {
				continue
			}
			c := math.Round(x(xAt(r, p.Step, p.T)))
			if c != col {
				flush()
				col, lo, hi = c, v, v
				continue
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		flush()

		if len(r.Acc) > 0 {
			lowest := 1.0
			for _, a := range r.Acc {
				lowest = math.Min(lowest, a.Acc)
			}
			amin := math.Max(0, math.Floor(lowest*10-0.5)/10) // at least 5 points of headroom below
			ya := func(v float64) float64 { return g.Bottom - (g.Bottom-g.Top)*(v-amin)/(1-amin) }
			for _, v := range niceTicks(amin, 1, 5) {
				if v >= amin-1e-9 {
					g.AccTicks = append(g.AccTicks, Tick{Pos: ya(v), Label: strconv.FormatFloat(math.Round(1000*v)/10, 'f', -1, 64) + "%"})
				}
			}
			for _, a := range r.Acc {
				g.Acc = append(g.Acc, Pt{x(xAt(r, a.Step, a.T)), ya(a.Acc)})
			}
		}
	}
	return g
}

// timeAt returns the seconds of training at step, from the first loss
// point at or after it (its slice's end), or the last point's for a step
// past them; 0 for step 0 or without points.
func timeAt(losses []protocol.Point, step int) float64 {
	if step <= 0 || len(losses) == 0 {
		return 0
	}
	for _, p := range losses {
		if p.Step >= step {
			return p.T
		}
	}
	return losses[len(losses)-1].T
}
