package chart

import (
	"math"
	"strconv"
)

// The scales: where a run's measurements stand on the x axis, the loss
// axis and the accuracy axis, and each axis's ticks.

// scales maps a run's measurements to canvas pixels: the x axis (steps,
// passes or seconds) and the loss axis (linear, logarithmic or J − J*).
type scales struct {
	ax                       Axes
	left, right, top, bottom float64 // the plot area
	xmax                     float64 // the x axis's last tick
	ylo, ytop                float64 // the loss axis's range, as yOf gives it
}

// xAt is where a measurement at step, t seconds into run r, stands on
// the x axis.
func (s *scales) xAt(r *Run, step int, t float64) float64 {
	switch s.ax.X {
	case AxisPasses:
		return float64(step) / max(r.StepsPerEpoch, 1)
	case AxisSeconds:
		return t
	}
	return float64(step)
}

// x is the pixel of v on the x axis.
func (s *scales) x(v float64) float64 { return s.left + (s.right-s.left)*v/s.xmax }

// yOf is what the loss axis plots of a loss, and whether it can.
func (s *scales) yOf(loss float64) (float64, bool) {
	if loss-loss != 0 { // NaN or ±Inf
		return 0, false
	}
	switch s.ax.Y {
	case AxisLog:
		if loss <= 0 {
			return 0, false
		}
		return math.Log10(loss), true
	case AxisGap:
		gap := loss - s.ax.Floor
		if gap <= 0 {
			return 0, false
		}
		return math.Log10(gap), true
	}
	return loss, true
}

// y is the pixel of v (as yOf gives it) on the loss axis, clipped to it.
func (s *scales) y(v float64) float64 {
	return s.bottom - (s.bottom-s.top)*(max(s.ylo, min(v, s.ytop))-s.ylo)/(s.ytop-s.ylo)
}

// xAxis sets the x axis's range to every run's data and returns its
// ticks.
func (s *scales) xAxis(runs []Run) []Tick {
	xmaxData := 0.0
	for _, r := range runs {
		for _, p := range r.Losses {
			xmaxData = max(xmaxData, s.xAt(&r, p.Step, p.T))
		}
		for _, a := range r.Acc {
			xmaxData = max(xmaxData, s.xAt(&r, a.Step, a.T))
		}
	}
	if xmaxData <= 0 {
		xmaxData = 1
		if s.ax.X != AxisSteps {
			xmaxData = 0.1
		}
	}
	xs := niceTicks(0, xmaxData, 6)
	s.xmax = xs[len(xs)-1]
	big := s.xmax >= 1e4
	var ticks []Tick
	for _, v := range xs {
		ticks = append(ticks, Tick{Pos: s.x(v), Label: tickLabel(v, xs, big)})
	}
	return ticks
}

// lossAxis sets the loss axis's range to every run's losses and returns
// its ticks.
func (s *scales) lossAxis(sc *Scratch, runs []Run) []Tick {
	var ys []float64
	var ticks []Tick
	if s.ax.Y == AxisLinear || s.ax.Y == "" {
		for _, r := range runs {
			for _, p := range r.Losses {
				if p.Loss-p.Loss == 0 { // finite
					sc.values = append(sc.values, p.Loss)
				}
			}
		}
		ys = niceTicks(0, ceilingOf(sc.values), 5)
		s.ylo, s.ytop = 0, ys[len(ys)-1]
		for _, v := range ys {
			ticks = append(ticks, Tick{Label: tickLabel(v, ys, false), Pos: 0})
		}
	} else {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range runs {
			for _, p := range r.Losses {
				if v, ok := s.yOf(p.Loss); ok {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
		if math.IsInf(lo, 1) {
			lo, hi = -2, 1
		}
		s.ylo, s.ytop = math.Floor(lo), math.Ceil(hi)
		if s.ytop <= s.ylo {
			s.ytop = s.ylo + 1
		}
		step := math.Max(1, math.Ceil((s.ytop-s.ylo)/6))
		for v := s.ylo; v <= s.ytop+1e-9; v += step {
			ys = append(ys, v)
			ticks = append(ticks, Tick{Label: strconv.FormatFloat(math.Pow(10, v), 'g', 3, 64)})
		}
	}
	for i, v := range ys {
		ticks[i].Pos = s.y(v)
	}
	return ticks
}

// accuracy returns run r's test accuracy on the right axis: its ticks and
// its points, none before the first evaluation.
func (s *scales) accuracy(r Run) (ticks []Tick, pts []Pt) {
	if len(r.Acc) == 0 {
		return nil, nil
	}
	lowest := 1.0
	for _, a := range r.Acc {
		lowest = math.Min(lowest, a.Acc)
	}
	amin := math.Max(0, math.Floor(lowest*10-0.5)/10) // at least 5 points of headroom below
	ya := func(v float64) float64 { return s.bottom - (s.bottom-s.top)*(v-amin)/(1-amin) }
	for _, v := range niceTicks(amin, 1, 5) {
		if v >= amin-1e-9 {
			ticks = append(ticks, Tick{Pos: ya(v), Label: strconv.FormatFloat(math.Round(1000*v)/10, 'f', -1, 64) + "%"})
		}
	}
	for _, a := range r.Acc {
		pts = append(pts, Pt{s.x(s.xAt(&r, a.Step, a.T)), ya(a.Acc)})
	}
	return ticks, pts
}
