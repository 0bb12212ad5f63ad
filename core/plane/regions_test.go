package plane

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// randomModel returns a model of k classes on two features with N(0, 1)
// weights and biases (zero biases without bias).
func randomModel(k int, bias bool, seed uint64) *softmax.Model[float64] {
	r := rand.New(rand.NewPCG(seed, 4))
	m := softmax.NewClasses[float64](2, k)
	for i := range m.W {
		m.W[i] = r.NormFloat64()
	}
	if bias {
		for c := range m.B {
			m.B[c] = r.NormFloat64()
		}
	}
	return m
}

// TestRegionsAreThePredictions: at every cell's centre, Regions gives
// the class and probability of core/softmax's Predict (away from ties,
// where rounding may choose either).
func TestRegionsAreThePredictions(t *testing.T) {
	const w, h = 40, 30
	for k := MinClasses; k <= MaxClasses; k++ {
		for _, bias := range []bool{false, true} {
			m := randomModel(k, bias, uint64(k))
			class, prob := make([]uint8, w*h), make([]float32, w*h)
			Regions(class, prob, m, w, h)
			for j := range h {
				for i := range w {
					x := Cell(i, j, w, h)
					c, p := m.Predict([]uint16{0, 1}, []float64{x[0], x[1]})
					second := 0.0
					for cc := range k {
						if cc != c {
							second = max(second, p[cc])
						}
					}
					if p[c]-second < 1e-9 {
						continue
					}
					if int(class[j*w+i]) != c || math.Abs(float64(prob[j*w+i])-p[c]) > 1e-6 {
						t.Fatalf("K = %d, cell (%d, %d) at %v: class %d p %v, Predict %d %v", k, i, j, x, class[j*w+i], prob[j*w+i], c, p[c])
					}
				}
			}
		}
	}
	if x := Cell(0, 0, 4, 4); x != [2]float64{-3, 3} {
		t.Errorf("the top left cell's centre is %v, want (−3, 3)", x)
	}
}

// TestBoundariesAreWhereClassesTie: along every segment the two classes
// tie and no other is above them; a step to either side gives each of the
// two; and wherever two neighbouring cells of a fine grid are predicted
// differently, a segment passes between them.
func TestBoundariesAreWhereClassesTie(t *testing.T) {
	for k := MinClasses; k <= MaxClasses; k++ {
		for _, bias := range []bool{false, true} {
			t.Run(fmt.Sprintf("K=%d bias=%v", k, bias), func(t *testing.T) {
				m := randomModel(k, bias, uint64(10+k))
				segs := Boundaries(m)
				var z [softmax.K]float64
				for _, s := range segs {
					a, b := s.Classes[0], s.Classes[1]
					for _, f := range []float64{0.01, 0.5, 0.99} {
						p := [2]float64{s.A[0] + f*(s.B[0]-s.A[0]), s.A[1] + f*(s.B[1]-s.A[1])}
						if math.Abs(p[0]) > Extent+1e-9 || math.Abs(p[1]) > Extent+1e-9 {
							t.Fatalf("segment %+v leaves the view", s)
						}
						zz := logits(&z, m, p)
						if math.Abs(zz[a]-zz[b]) > 1e-9 {
							t.Errorf("classes %d and %d do not tie at %v: %v", a, b, p, zz)
						}
						for c := range k {
							if zz[c] > zz[a]+1e-9 {
								t.Errorf("class %d is above the boundary of %d and %d at %v", c, a, b, p)
							}
						}
					}
				}
				const n = 120
				class, prob := make([]uint8, n*n), make([]float32, n*n)
				Regions(class, prob, m, n, n)
				cell := 2 * Extent / n
				for j := range n {
					for i := range n - 1 {
						if class[j*n+i] == class[j*n+i+1] {
							continue
						}
						p, q := Cell(i, j, n, n), Cell(i+1, j, n, n)
						mid := [2]float64{(p[0] + q[0]) / 2, (p[1] + q[1]) / 2}
						if d := nearest(segs, mid); d > cell {
							t.Fatalf("cells %v (class %d) and %v (class %d) differ, but the nearest boundary is %.3g away", p, class[j*n+i], q, class[j*n+i+1], d)
						}
					}
				}
			})
		}
	}
}

// nearest returns the distance from p to the nearest segment.
func nearest(segs []Segment, p [2]float64) float64 {
	best := math.Inf(1)
	for _, s := range segs {
		dx, dy := s.B[0]-s.A[0], s.B[1]-s.A[1]
		t := ((p[0]-s.A[0])*dx + (p[1]-s.A[1])*dy) / (dx*dx + dy*dy)
		t = max(0, min(1, t))
		best = min(best, math.Hypot(s.A[0]+t*dx-p[0], s.A[1]+t*dy-p[1]))
	}
	return best
}

// TestBoundariesOfEqualClassesAreNone: a model whose classes all have the
// same weights has no boundary (one class wins everywhere).
func TestBoundariesOfEqualClassesAreNone(t *testing.T) {
	m := softmax.NewClasses[float64](2, 3)
	if segs := Boundaries(m); len(segs) != 0 {
		t.Errorf("the zero model has boundaries %+v", segs)
	}
}
