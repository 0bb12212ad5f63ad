// Package chart lays out the loss chart: the runs' loss curves, the test
// accuracy, the axes and their ticks, in canvas pixels. It is pure Go and
// draws nothing: LayoutRuns returns the geometry, which the page's loss
// plot replays onto a canvas, so the scaling is tested without a browser.
package chart

import (
	"math"

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

// Scratch holds the buffers LayoutRunsInto reuses from one draw to the
// next: the chart is drawn up to ten times a second while training, and
// in WebAssembly the page's garbage collection runs inside one task, so
// every draw that allocates its hundreds of kilobytes anew brings the
// next long pause closer. The geometry LayoutRunsInto returns lives in
// these buffers until the next call that lays the chart out anew.
//
// It also keeps what it laid out last: the loss panel asks for a draw
// whenever any of its inputs changes, the legend's and the slider's too,
// and a run's message that adds no loss point (a third to a half of the
// draws of a run, more for Newton's), and a call with the same runs, axes
// and size as the last returns the same geometry without laying it out
// again. The same runs means the same points, compared one by one: a run
// rewound and trained again holds other points in the same slice.
type Scratch struct {
	values []float64
	smooth []float64
	pts    []Pt
	segs   [][]Pt
	lines  []Line

	laid    bool     // last holds a layout of the inputs below
	layouts int      // layouts made, for the tests
	last    Geometry // the last layout
	ax      Axes
	w, h    float64
	scale   float64
	runs    []Run            // the last runs, their points in losses and acc
	losses  []protocol.Point // a copy of their loss points, one run after another
	acc     []AccPoint       // a copy of their accuracies, the same
}

// LayoutRuns lays out the loss chart for a canvas of w×h pixels, where
// scale is the device pixel ratio (labels grow with it). The last run is
// the current one, drawn on top with its per-step band and its accuracy.
func LayoutRuns(runs []Run, ax Axes, w, h, scale float64) Geometry {
	return LayoutRunsInto(&Scratch{}, runs, ax, w, h, scale)
}

// LayoutRunsInto is LayoutRuns with its buffers in sc, and the geometry of
// the last call again if nothing it draws has changed since (Scratch).
func LayoutRunsInto(sc *Scratch, runs []Run, ax Axes, w, h, scale float64) Geometry {
	if sc.laid && sc.same(runs, ax, w, h, scale) {
		return sc.last
	}
	sc.last = layoutRuns(sc, runs, ax, w, h, scale)
	sc.remember(runs, ax, w, h, scale)
	return sc.last
}

// Layouts is how many times LayoutRunsInto has laid the chart out anew
// in sc: a caller that replays the geometry onto a canvas has nothing new
// to draw from it while this stays the same (what it draws besides, such
// as the axes' names, may have changed).
func (sc *Scratch) Layouts() int { return sc.layouts }

// same says whether the inputs are those of the last layout.
func (sc *Scratch) same(runs []Run, ax Axes, w, h, scale float64) bool {
	if ax.X != sc.ax.X || ax.Y != sc.ax.Y || !sameFloat(ax.Floor, sc.ax.Floor) ||
		!sameFloat(w, sc.w) || !sameFloat(h, sc.h) || !sameFloat(scale, sc.scale) || len(runs) != len(sc.runs) {
		return false
	}
	for i, r := range runs {
		was := sc.runs[i]
		if r.Color != was.Color || !sameFloat(r.StepsPerEpoch, was.StepsPerEpoch) || r.Exact != was.Exact ||
			r.Mark != was.Mark || r.Marked != was.Marked || len(r.Losses) != len(was.Losses) || len(r.Acc) != len(was.Acc) ||
			!samePoints(r.Losses, was.Losses) || !sameAcc(r.Acc, was.Acc) {
			return false
		}
	}
	return true
}

// remember keeps the inputs of the layout in sc.last: the runs, their
// points copied into sc's buffers, since the caller's may change.
func (sc *Scratch) remember(runs []Run, ax Axes, w, h, scale float64) {
	sc.laid, sc.ax, sc.w, sc.h, sc.scale = true, ax, w, h, scale
	sc.runs, sc.losses, sc.acc = sc.runs[:0], sc.losses[:0], sc.acc[:0]
	for _, r := range runs {
		sc.losses = append(sc.losses, r.Losses...)
		sc.acc = append(sc.acc, r.Acc...)
	}
	losses, acc := sc.losses, sc.acc
	for _, r := range runs {
		r.Losses, losses = losses[:len(r.Losses):len(r.Losses)], losses[len(r.Losses):]
		r.Acc, acc = acc[:len(r.Acc):len(r.Acc)], acc[len(r.Acc):]
		sc.runs = append(sc.runs, r)
	}
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func samePoints(a, b []protocol.Point) bool {
	for i := range a {
		if a[i].Step != b[i].Step || !sameFloat(a[i].Loss, b[i].Loss) || !sameFloat(a[i].T, b[i].T) {
			return false
		}
	}
	return true
}

func sameAcc(a, b []AccPoint) bool {
	for i := range a {
		if a[i].Epoch != b[i].Epoch || a[i].Step != b[i].Step || !sameFloat(a[i].Acc, b[i].Acc) || !sameFloat(a[i].T, b[i].T) {
			return false
		}
	}
	return true
}

// layoutRuns lays the chart out anew, in sc's buffers.
func layoutRuns(sc *Scratch, runs []Run, ax Axes, w, h, scale float64) Geometry {
	sc.layouts++
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
	s := &scales{ax: ax, left: g.Left, right: g.Right, top: g.Top, bottom: g.Bottom}
	g.XTicks = s.xAxis(runs)
	g.LossTicks = s.lossAxis(sc, runs)
	for _, r := range runs {
		if r.Marked {
			g.Mark, g.MarkColor = s.x(s.xAt(&r, r.Mark, timeAt(r.Losses, r.Mark))), r.Color
		}
	}
	for i, r := range runs {
		line := sc.line(s, r)
		if i < len(runs)-1 {
			sc.lines = append(sc.lines, Line{Color: r.Color, Pts: line})
			g.Others = sc.lines
			continue
		}
		g.Smooth = line
		if sc.band(s, r) {
			g.Raw = sc.segs
		}
		g.AccTicks, g.Acc = s.accuracy(r)
	}
	return g
}

// line appends run r's loss curve to sc.pts, a point per pixel column
// (and the last point), smoothed unless the losses are J itself, and
// returns it.
func (sc *Scratch) line(s *scales, r Run) []Pt {
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
		x := s.x(s.xAt(&r, p.Step, p.T))
		c := math.Round(x)
		if c == last && k != len(r.Losses)-1 {
			continue
		}
		v, ok := s.yOf(smooth[k])
		if !ok {
			continue
		}
		last = c
		sc.pts = append(sc.pts, Pt{x, s.y(v)})
	}
	return sc.pts[start:len(sc.pts):len(sc.pts)]
}

// band appends to sc.segs run r's raw losses as one min–max segment per
// pixel column, which keeps every spike visible and bounds the drawing
// work by the chart's width, not the run's length; it says whether there
// is any.
func (sc *Scratch) band(s *scales, r Run) bool {
	col, lo, hi := math.Inf(-1), 0.0, 0.0
	flush := func() {
		if !math.IsInf(col, -1) {
			sc.pts = append(sc.pts, Pt{col, s.y(lo)}, Pt{col, s.y(hi)})
			n := len(sc.pts)
			sc.segs = append(sc.segs, sc.pts[n-2:n:n])
		}
	}
	for _, p := range r.Losses {
		v, ok := s.yOf(p.Loss)
		if !ok {
			continue
		}
		c := math.Round(s.x(s.xAt(&r, p.Step, p.T)))
		if c != col {
			flush()
			col, lo, hi = c, v, v
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	flush()
	return len(sc.segs) > 0
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
