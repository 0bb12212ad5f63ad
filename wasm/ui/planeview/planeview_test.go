package planeview

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/planeimage"
	"softmaxdemo/wasm/ui/chart"
)

// TestClassOfReadsShadeBack: every shade of every class, at every
// probability from 1/K to 1, reads back as its class, after rounding to
// bytes and with a canvas's small blending errors.
func TestClassOfReadsShadeBack(t *testing.T) {
	for k := plane.MinClasses; k <= plane.MaxClasses; k++ {
		for c := range k {
			for i := 0; i <= 20; i++ {
				p := 1/float64(k) + (1-1/float64(k))*float64(i)/20
				r, g, b := planeimage.Shade(c, p, k)
				for _, d := range []int{-3, 0, 3} {
					rgb := [3]uint8{clamp(int(r) + d), clamp(int(g) - d), clamp(int(b) + d)}
					if got, dist := ClassOf(rgb, k); got != c || dist > 8 {
						t.Fatalf("K = %d, class %d at p = %.2f: %v reads as class %d (%.1f away)", k, c, p, rgb, got, dist)
					}
				}
			}
		}
	}
	if r, g, b := planeimage.Shade(0, 1, 2); [3]uint8{r, g, b} != planeimage.Classes[0] {
		t.Errorf("a certain class 0 is %v, want its colour %v", [3]uint8{r, g, b}, planeimage.Classes[0])
	}
}

func clamp(v int) uint8 { return uint8(max(0, min(255, v))) }

// TestFramesMapBothWays: the view's corners go to the canvas's corners
// (x₂ up), and FromCanvas undoes ToCanvas, for the plane and the surface.
func TestFramesMapBothWays(t *testing.T) {
	f := Frame{W: 400, H: 400}
	if p := f.ToCanvas([2]float64{-plane.Extent, plane.Extent}); p != (chart.Pt{X: 0, Y: 0}) {
		t.Errorf("the view's top left is at %v", p)
	}
	if p := f.ToCanvas([2]float64{plane.Extent, -plane.Extent}); p != (chart.Pt{X: 400, Y: 400}) {
		t.Errorf("the view's bottom right is at %v", p)
	}
	x := [2]float64{1.25, -2.5}
	p := f.ToCanvas(x)
	if y := f.FromCanvas(p.X, p.Y); math.Abs(y[0]-x[0]) > 1e-12 || math.Abs(y[1]-x[1]) > 1e-12 {
		t.Errorf("%v → %v → %v", x, p, y)
	}
	s := SurfaceFrame{Window: [4]float64{-3, 1, -1, 3}, W: 200, H: 200}
	if p := s.ToCanvas([2]float64{-3, 3}); p != (chart.Pt{X: 0, Y: 0}) {
		t.Errorf("the window's top left is at %v", p)
	}
	q := s.ToCanvas([2]float64{0.5, 0.25})
	if y := s.FromCanvas(q.X, q.Y); math.Abs(y[0]-0.5) > 1e-12 || math.Abs(y[1]-0.25) > 1e-12 {
		t.Errorf("the surface frame does not round-trip: %v", y)
	}
}

// TestClipSegment keeps the part of a segment inside a box.
func TestClipSegment(t *testing.T) {
	box := [4]float64{0, 10, 0, 10}
	tests := []struct {
		a, b   chart.Pt
		ok     bool
		ca, cb chart.Pt
	}{
		{chart.Pt{X: 1, Y: 1}, chart.Pt{X: 2, Y: 2}, true, chart.Pt{X: 1, Y: 1}, chart.Pt{X: 2, Y: 2}},
		{chart.Pt{X: 5, Y: 5}, chart.Pt{X: 5e12, Y: 5}, true, chart.Pt{X: 5, Y: 5}, chart.Pt{X: 10, Y: 5}},
		{chart.Pt{X: -5, Y: -5}, chart.Pt{X: -1, Y: 20}, false, chart.Pt{}, chart.Pt{}},
		{chart.Pt{X: 5, Y: 5}, chart.Pt{X: math.NaN(), Y: 5}, false, chart.Pt{}, chart.Pt{}},
	}
	for _, tt := range tests {
		a, b, ok := clipSegment(tt.a, tt.b, box)
		if ok != tt.ok || (ok && (a != tt.ca || b != tt.cb)) {
			t.Errorf("%v–%v: %v–%v %v", tt.a, tt.b, a, b, ok)
		}
	}
}

// TestLayoutSurfaceDrawsTheScene: the minimum and the start are where the
// frame puts them, each path starts at the start, and Newton's ends at
// the minimum, on overlap's exact surface.
func TestLayoutSurfaceDrawsTheScene(t *testing.T) {
	d, _ := plane.Generate("overlap", 2, 1)
	sc, err := plane.Build(d, plane.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	s := LayoutSurface(sc, 300, 300)
	if err := finiteSurface(s); err != nil {
		t.Fatal(err)
	}
	f := SurfaceFrame{Window: sc.Window, W: 300, H: 300}
	if !s.HasMin || s.Min != f.ToCanvas(sc.Min) || s.Start != f.ToCanvas(sc.Settings.Start) {
		t.Errorf("minimum %v, start %v", s.Min, s.Start)
	}
	for m := range s.Paths {
		if len(s.Paths[m]) == 0 || s.Paths[m][0][0] != s.Start {
			t.Errorf("path %d does not start at the start", m)
		}
	}
	if end := s.Ends[plane.Newton]; !s.EndsIn[plane.Newton] || math.Hypot(end.X-s.Min.X, end.Y-s.Min.Y) > 0.01 {
		t.Errorf("Newton's path ends at %v, the minimum is at %v", end, s.Min)
	}
	if len(s.Contours) != len(sc.Levels) || len(s.Shade) != 4*plane.GridSize*plane.GridSize {
		t.Errorf("%d contours for %d levels; %d bytes of shade", len(s.Contours), len(sc.Levels), len(s.Shade))
	}
}

// finiteSurface returns an error naming a coordinate of s that a canvas
// could not draw: not a finite number, or absurdly far off the canvas.
func finiteSurface(s Surface) error {
	lim := 4 * max(s.Frame.W, s.Frame.H)
	bad := func(p chart.Pt) bool {
		return math.IsNaN(p.X) || math.IsNaN(p.Y) || math.Abs(p.X) > lim || math.Abs(p.Y) > lim
	}
	for _, c := range s.Contours {
		for _, p := range c {
			if bad(p) {
				return fmt.Errorf("a contour at %v", p)
			}
		}
	}
	for m, lines := range s.Paths {
		for _, l := range lines {
			for _, p := range l {
				if bad(p) {
					return fmt.Errorf("path %d at %v", m, p)
				}
			}
		}
	}
	for _, p := range []chart.Pt{s.Min, s.Start, s.Ends[0], s.Ends[1], s.Ends[2]} {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return fmt.Errorf("a mark at %v", p)
		}
	}
	return nil
}

// FuzzPlane feeds the plane arbitrary input (points, K, the model's
// options, λ, α, B and the start) as the page would: bad input must be an
// *plane.InputError, never a panic, and good input must give regions,
// boundaries, points, a status, a surface and paths whose every value a
// canvas draws is a finite number.
//
//	go test -run '^$' -fuzz '^FuzzPlane$' -fuzztime 3000x ./wasm/ui/planeview/
func FuzzPlane(f *testing.F) {
	f.Add(uint8(2), uint8(2), 0.0, 1.0, -2.0, 2.0, uint8(1), []byte{10, 0, 20, 0, 0, 200, 255, 100, 250, 1, 0, 0, 0, 0, 0})
	f.Add(uint8(3), uint8(1), 0.01, 5.0, 1.0, -1.0, uint8(2), []byte{1, 2, 3, 4, 0, 200, 200, 200, 200, 1, 90, 30, 40, 60, 2})
	f.Add(uint8(5), uint8(0), 0.0, 999.0, 100.0, -100.0, uint8(9), []byte{0, 128, 0, 128, 4, 255, 127, 255, 127, 3})
	f.Add(uint8(2), uint8(3), math.NaN(), math.Inf(1), 0.0, 0.0, uint8(0), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint8(6), uint8(2), -1.0, 1e300, math.Inf(-1), 1e-300, uint8(255), []byte{7, 7, 7, 7, 9})
	f.Fuzz(func(t *testing.T, k, flags uint8, lambda, alpha, a, b float64, batch uint8, raw []byte) {
		d := plane.Data{K: int(k % 8)}
		for i := 0; i+5 <= len(raw) && len(d.Points) < 64; i += 5 {
			// Coordinates from −10 to 10: some outside the view.
			x := float64(int16(uint16(raw[i])|uint16(raw[i+1])<<8)) / 3276.7
			y := float64(int16(uint16(raw[i+2])|uint16(raw[i+3])<<8)) / 3276.7
			d.Points = append(d.Points, plane.Point{X: [2]float64{x, y}, Class: int(raw[i+4] % 7)})
		}
		s := plane.Settings{Bias: flags&1 != 0, Pin: flags&2 != 0, Lambda: lambda, Rate: alpha, Batch: int(batch),
			Start: [2]float64{a, b}, Seed: 1, Steps: 1 + int(flags>>2)%40}
		checkPlane(t, d, s)
	})
}

// checkPlane does what the page does with d and s, failing t where a
// refusal is not an *plane.InputError or a drawn value is not finite.
func checkPlane(t *testing.T, d plane.Data, s plane.Settings) {
	refused := func(err error) bool {
		if err == nil {
			return false
		}
		var ie *plane.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("refused with %T %v, not an *InputError", err, err)
		}
		return true
	}
	lab, err := plane.NewLab(d, s)
	if refused(err) {
		return
	}
	for range 5 {
		lab.Step()
	}
	const n = 24
	class, prob := make([]uint8, n*n), make([]float32, n*n)
	plane.Regions(class, prob, lab.Model(), n, n)
	rgba := make([]byte, 4*n*n)
	planeimage.RegionImage(rgba, class, prob, d.K)
	fr := Frame{W: 300, H: 300}
	pts := fr.Segments(plane.Boundaries(lab.Model()))
	for c := range d.K {
		pts = append(pts, fr.Points(d, c)...)
	}
	for _, p := range pts {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || p.X < -1 || p.X > 301 || p.Y < -1 || p.Y > 301 {
			t.Fatalf("the plane draws at %v", p)
		}
	}
	st := lab.Status()
	for _, v := range []float64{st.Accuracy, st.Loss, st.ThetaNorm} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("status %+v", st)
		}
	}
	if !s.Pin {
		if r, err := lab.AddPsi([3]float64{0.5, -0.25, 1}); err != nil || math.IsNaN(r.MaxDP) {
			t.Fatalf("ψ: %+v, %v", r, err)
		}
	}
	sc, err := plane.Build(d, s)
	if refused(err) {
		return
	}
	if err := finiteSurface(LayoutSurface(sc, 300, 300)); err != nil {
		t.Fatalf("surface: %v", err)
	}
	for _, p := range sc.Paths {
		if p.Stop == plane.Running {
			t.Fatalf("%v did not end", p.Method)
		}
	}
}

// TestNearestFindsTheSegmentUnderThePointer: the segment nearest a canvas
// point, its distance in pixels and where along it; a segment of no
// length is passed over, and none at all gives −1.
func TestNearestFindsTheSegmentUnderThePointer(t *testing.T) {
	f := Frame{W: 400, H: 400} // 50 pixels a unit, the origin at (200, 200)
	segs := []plane.Segment{
		{A: [2]float64{-4, 0}, B: [2]float64{4, 0}, Classes: [2]int{0, 1}}, // across the middle
		{A: [2]float64{2, -4}, B: [2]float64{2, 4}, Classes: [2]int{1, 2}}, // x₁ = 2: canvas x = 300
		{A: [2]float64{1, 1}, B: [2]float64{1, 1}, Classes: [2]int{0, 2}},  // a point: no length
	}
	for _, c := range []struct {
		px, py      float64
		i           int
		dist, along float64
	}{
		{100, 203, 0, 3, 0.25},
		{296, 100, 1, 4, 0.75}, // A is at the bottom
		{0, 200, 0, 0, 0},
		{500, 190, 0, math.Hypot(100, 10), 1}, // off the canvas: the nearest end
	} {
		i, d, a := f.Nearest(segs, c.px, c.py)
		if i != c.i || math.Abs(d-c.dist) > 1e-9 || math.Abs(a-c.along) > 1e-9 {
			t.Errorf("(%v, %v): segment %d, %v px away at %v; want %d, %v, %v", c.px, c.py, i, d, a, c.i, c.dist, c.along)
		}
	}
	if i, _, _ := f.Nearest(segs[2:], 200, 200); i != -1 {
		t.Errorf("a segment of no length was found: %d", i)
	}
	if i, _, _ := f.Nearest(nil, 200, 200); i != -1 {
		t.Errorf("no segments: %d", i)
	}
}
