package plane

import (
	"math"
	"testing"
)

// gridScene returns a Scene over the square [−1, 1]² whose surface is f
// at the grid's nodes.
func gridScene(f func(a, b float64) float64) *Scene {
	sc := &Scene{Window: [4]float64{-1, 1, -1, 1}, J: make([]float64, GridSize*GridSize)}
	for r := range GridSize {
		for i := range GridSize {
			p := sc.Node(i, r)
			sc.J[r*GridSize+i] = f(p[0], p[1])
		}
	}
	return sc
}

// TestContoursOfABowlAreClosedCircles: the contours of a² + b² lie on
// their circles (to the linear interpolation's error along an edge, h²/4
// for a grid spacing h) and close up: every end of a piece is the end of
// exactly one other.
func TestContoursOfABowlAreClosedCircles(t *testing.T) {
	sc := gridScene(func(a, b float64) float64 { return a*a + b*b })
	h := 2.0 / (GridSize - 1)
	for _, v := range []float64{0.1, 0.5, 0.81} {
		lines := contour(sc, v)
		if len(lines) < 20 {
			t.Fatalf("level %v: %d pieces", v, len(lines))
		}
		ends := map[[2]int64]int{}
		for _, l := range lines {
			for _, p := range [][2]float64{l.A, l.B} {
				if d := math.Abs(p[0]*p[0] + p[1]*p[1] - v); d > h*h/4+1e-12 {
					t.Fatalf("level %v: %v is off the circle by %.3g", v, p, d)
				}
				ends[[2]int64{int64(math.Round(p[0] * 1e9)), int64(math.Round(p[1] * 1e9))}]++
			}
		}
		for p, n := range ends {
			if n != 2 {
				t.Fatalf("level %v: the end %v is shared by %d pieces", v, p, n)
			}
		}
	}
}

// TestContoursResolveSaddles: the level set (a − a₀)(b − b₀) = v > 0 is
// two branches, in the quadrants where both factors have one sign; the
// saddle cell around (a₀, b₀) must join its crossings within each branch,
// never across.
func TestContoursResolveSaddles(t *testing.T) {
	h := 2.0 / (GridSize - 1)
	a0, b0 := -1+h*10.5, 1-h*20.5 // the centre of cell (10, 20)
	sc := gridScene(func(a, b float64) float64 { return (a - a0) * (b - b0) })
	for _, v := range []float64{1e-6, 1e-3, 0.1} {
		lines := contour(sc, v)
		if len(lines) == 0 {
			t.Fatalf("level %v: no contour", v)
		}
		for _, l := range lines {
			if (l.A[0] > a0) != (l.B[0] > a0) || (l.A[1] > b0) != (l.B[1] > b0) {
				t.Fatalf("level %v: the piece %v–%v joins the two branches", v, l.A, l.B)
			}
		}
	}
}

// TestLevelsRiseFromTheBottom: twelve levels between the lowest value and
// the 80th percentile, closer together near the bottom; none for a flat
// surface.
func TestLevelsRiseFromTheBottom(t *testing.T) {
	j := make([]float64, 100)
	for i := range j {
		j[i] = float64(i)
	}
	lv := levels(j, false, 0)
	if len(lv) != 12 || lv[11] != 80 || !(lv[0] > 0) || !(lv[1]-lv[0] < lv[11]-lv[10]) {
		t.Errorf("levels %v", lv)
	}
	if lv := levels(make([]float64, 10), false, 0); lv != nil {
		t.Errorf("a flat surface has levels %v", lv)
	}
}
