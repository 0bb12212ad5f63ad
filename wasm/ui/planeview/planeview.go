// Package planeview lays out the plane's two pictures in canvas pixels:
// the regions' boundaries and points, and the loss surface with its
// contours, minimum, start and paths; it reads a class back from a
// region's colour (ClassOf). It is pure Go and draws nothing: the page's
// plane room replays what it returns onto canvases, so the geometry and
// the colours are tested natively, and fuzzed for values a canvas cannot
// draw. The regions' colours are wasm/planeimage's, which the plane's
// worker paints with.
package planeview

import (
	"math"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/planeimage"
	"softmaxdemo/wasm/ui/chart"
)

// Path colours of the three methods (gradient descent, SGD, Newton), and
// the surface's other marks.
var (
	PathColors = [3]string{"#1f4e9c", "#d95f02", "#7b2a8a"}
	Contour    = "rgba(60, 60, 60, 0.55)"
	Boundary   = "#222"
	MinMark    = "#111"
	StartMark  = "#111"
)

// ClassOf returns the class whose shades (planeimage.Shade, over every
// probability) come nearest to the colour rgb, and how near (the distance
// in RGB units): the inverse of the regions' colouring, for tests that
// read a canvas back.
func ClassOf(rgb [3]uint8, k int) (class int, dist float64) {
	dist = math.Inf(1)
	for c := range k {
		// The shades of c lie on the segment from white to its colour.
		col := planeimage.Classes[c]
		var d, num, den float64
		for i := range 3 {
			e := float64(col[i]) - 255
			num += (float64(rgb[i]) - 255) * e
			den += e * e
		}
		t := min(1, max(0, num/den))
		for i := range 3 {
			x := 255 + t*(float64(col[i])-255) - float64(rgb[i])
			d += x * x
		}
		if d = math.Sqrt(d); d < dist {
			class, dist = c, d
		}
	}
	return class, dist
}

// Frame maps the plane's view [−Extent, Extent]² onto a canvas of W×H
// pixels: x₁ to the right, x₂ up.
type Frame struct{ W, H float64 }

// ToCanvas returns the canvas pixel of the point x of the plane.
func (f Frame) ToCanvas(x [2]float64) chart.Pt {
	return chart.Pt{X: (x[0] + plane.Extent) / (2 * plane.Extent) * f.W, Y: (plane.Extent - x[1]) / (2 * plane.Extent) * f.H}
}

// FromCanvas returns the point of the plane at canvas pixel (px, py).
func (f Frame) FromCanvas(px, py float64) [2]float64 {
	return [2]float64{px/f.W*2*plane.Extent - plane.Extent, plane.Extent - py/f.H*2*plane.Extent}
}

// Units returns how many units of the plane one canvas pixel spans.
func (f Frame) Units() float64 { return 2 * plane.Extent / f.W }

// Segments returns the boundaries as canvas points, two per segment.
func (f Frame) Segments(segs []plane.Segment) []chart.Pt {
	out := make([]chart.Pt, 0, 2*len(segs))
	for _, s := range segs {
		out = append(out, f.ToCanvas(s.A), f.ToCanvas(s.B))
	}
	return out
}

// Nearest returns the segment of segs that passes nearest the canvas
// point (px, py): its index, its distance in canvas pixels, and where the
// nearest point of it lies, as a fraction of the way from A to B. The
// index is −1 when no segment has a length and a finite distance.
func (f Frame) Nearest(segs []plane.Segment, px, py float64) (i int, dist, along float64) {
	i, dist = -1, math.Inf(1)
	for k, s := range segs {
		a, b := f.ToCanvas(s.A), f.ToCanvas(s.B)
		dx, dy := b.X-a.X, b.Y-a.Y
		l2 := dx*dx + dy*dy
		if !(l2 > 0) || math.IsInf(l2, 0) {
			continue
		}
		t := min(1, max(0, ((px-a.X)*dx+(py-a.Y)*dy)/l2))
		if d := math.Hypot(a.X+t*dx-px, a.Y+t*dy-py); d < dist {
			i, dist, along = k, d, t
		}
	}
	return i, dist, along
}

// Points returns the canvas points of the data's points of class c.
func (f Frame) Points(d plane.Data, c int) []chart.Pt {
	var out []chart.Pt
	for _, p := range d.Points {
		if p.Class == c {
			out = append(out, f.ToCanvas(p.X))
		}
	}
	return out
}
