package planeview

import (
	"math"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/chart"
)

// SurfaceFrame maps a Scene's window of surface coordinates (a, b) onto a
// canvas of W×H pixels: a to the right, b up.
type SurfaceFrame struct {
	Window [4]float64 // a₀, a₁, b₀, b₁
	W, H   float64
}

// ToCanvas returns the canvas pixel of the surface point p.
func (f SurfaceFrame) ToCanvas(p [2]float64) chart.Pt {
	w := f.Window
	return chart.Pt{X: (p[0] - w[0]) / (w[1] - w[0]) * f.W, Y: (w[3] - p[1]) / (w[3] - w[2]) * f.H}
}

// FromCanvas returns the surface point at canvas pixel (px, py).
func (f SurfaceFrame) FromCanvas(px, py float64) [2]float64 {
	w := f.Window
	return [2]float64{w[0] + px/f.W*(w[1]-w[0]), w[3] - py/f.H*(w[3]-w[2])}
}

// Surface is the loss surface's picture in canvas pixels.
type Surface struct {
	Frame    SurfaceFrame
	Shade    []byte          // plane.GridSize² RGBA pixels: J's band between the contours, lighter higher
	Contours [][]chart.Pt    // per level, two points per piece
	Paths    [3][][]chart.Pt // per method, its polylines (a path that leaves the canvas far is cut there)
	Ends     [3]chart.Pt     // per method, where the path ends
	EndsIn   [3]bool         // the end is on the canvas
	Min      chart.Pt
	HasMin   bool
	Start    chart.Pt
}

// LayoutSurface lays out sc on a canvas of w×h pixels. Every coordinate
// it returns is a finite number within a few canvas sizes of the canvas.
func LayoutSurface(sc *plane.Scene, w, h float64) Surface {
	f := SurfaceFrame{Window: sc.Window, W: w, H: h}
	s := Surface{Frame: f, Shade: shade(sc), Start: f.ToCanvas(sc.Settings.Start), HasMin: sc.HasMin}
	if sc.HasMin {
		s.Min = f.ToCanvas(sc.Min)
	}
	box := [4]float64{-w, 2 * w, -h, 2 * h}
	for _, lines := range sc.Lines {
		pts := make([]chart.Pt, 0, 2*len(lines))
		for _, ln := range lines {
			if a, b, ok := clipSegment(f.ToCanvas(ln.A), f.ToCanvas(ln.B), box); ok {
				pts = append(pts, a, b)
			}
		}
		s.Contours = append(s.Contours, pts)
	}
	for m, p := range sc.Paths {
		var cur []chart.Pt
		for i := 1; i < len(p.Points); i++ {
			a, b, ok := clipSegment(f.ToCanvas(p.Points[i-1]), f.ToCanvas(p.Points[i]), box)
			if !ok {
				continue
			}
			if n := len(cur); n == 0 || cur[n-1] != a {
				if n > 0 {
					s.Paths[m] = append(s.Paths[m], cur)
				}
				cur = []chart.Pt{a}
			}
			cur = append(cur, b)
		}
		if len(cur) > 0 {
			s.Paths[m] = append(s.Paths[m], cur)
		}
		if n := len(p.Points); n > 0 {
			end := f.ToCanvas(p.Points[n-1])
			s.EndsIn[m] = end.X >= 0 && end.X <= w && end.Y >= 0 && end.Y <= h
			if s.EndsIn[m] {
				s.Ends[m] = end
			}
		}
	}
	return s
}

// clipSegment clips the segment a–b to the box [x₀, x₁]×[y₀, y₁]
// (Liang–Barsky), reporting whether any of it is inside. A segment with
// an end that is not a finite number is outside.
func clipSegment(a, b chart.Pt, box [4]float64) (chart.Pt, chart.Pt, bool) {
	for _, v := range []float64{a.X, a.Y, b.X, b.Y} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return a, b, false
		}
	}
	dx, dy := b.X-a.X, b.Y-a.Y
	lo, hi := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, a.X - box[0]}, {dx, box[1] - a.X}, {-dy, a.Y - box[2]}, {dy, box[3] - a.Y}} {
		p, q := e[0], e[1]
		switch {
		case p == 0:
			if q < 0 {
				return a, b, false
			}
		case p < 0:
			lo = max(lo, q/p)
		default:
			hi = min(hi, q/p)
		}
	}
	if lo > hi {
		return a, b, false
	}
	return chart.Pt{X: a.X + lo*dx, Y: a.Y + lo*dy}, chart.Pt{X: a.X + hi*dx, Y: a.Y + hi*dy}, true
}

// shade colours the surface's nodes by the band of levels J lies in: the
// lowest band a light blue, the highest white, so the valley shows.
func shade(sc *plane.Scene) []byte {
	out := make([]byte, 4*len(sc.J))
	n := len(sc.Levels)
	for i, j := range sc.J {
		band := 0
		for band < n && j > sc.Levels[band] {
			band++
		}
		t := 1.0
		if n > 0 {
			t = float64(band) / float64(n)
		}
		mix := func(v float64) byte { return byte(math.Round(v + (255-v)*t)) }
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = mix(198), mix(219), mix(239), 255
	}
	return out
}
