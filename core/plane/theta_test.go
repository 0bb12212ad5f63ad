package plane

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"softmaxdemo/core/softmax"
)

// TestSetThetaSetsTheModelAndRefusesBadNumbers: θ set by hand is the
// live model, bit for bit as float32, with J at it; the pin and the bias
// apply; a number that is NaN, infinite or beyond ±MaxTheta is refused,
// naming its class, and so are lengths that are not the model's; the
// model stays as it was.
func TestSetThetaSetsTheModelAndRefusesBadNumbers(t *testing.T) {
	s := Defaults()
	s.Pin, s.Bias = false, true
	d, lab := newLab(t, "blobs", 3, 1, s, 0)
	w := []float64{0.5, -1, 0.25, 2, 0.125, -3}
	b := []float64{0.1, 0, -0.1}
	if err := lab.SetTheta(w, b); err != nil {
		t.Fatal(err)
	}
	m := lab.Model()
	for i := range w {
		if m.W[i] != float32(w[i]) {
			t.Fatalf("W[%d] = %v, want %v", i, m.W[i], float32(w[i]))
		}
	}
	for c := range b {
		if m.B[c] != float32(b[c]) {
			t.Fatalf("B[%d] = %v, want %v", c, m.B[c], float32(b[c]))
		}
	}
	m64 := softmax.NewClasses[float64](2, 3)
	softmax.Convert(m64, m)
	want := softmax.Loss(m64, Examples[float64](d), allOf(len(d.Points)), s.Objective())
	if got := lab.Status().Loss; got != want {
		t.Errorf("J at θ set by hand is %v, want %v", got, want)
	}

	kept := m.Clone()
	for _, c := range []struct {
		name  string
		w, b  []float64
		class int
		value float64
	}{
		{"NaN", []float64{0, 0, math.NaN(), 0, 0, 0}, nil, 2, math.NaN()},
		{"+Inf", nil, []float64{0, math.Inf(1), 0}, 1, math.Inf(1)},
		{"-Inf", []float64{math.Inf(-1), 0, 0, 0, 0, 0}, nil, 0, math.Inf(-1)},
		{"above the bound", []float64{0, 0, 0, 0, MaxTheta + 1e-9, 0}, nil, 1, MaxTheta + 1e-9},
		{"below the bound", nil, []float64{0, 0, -2 * MaxTheta}, 2, -2 * MaxTheta},
	} {
		t.Run(c.name+" is refused and θ is kept", func(t *testing.T) {
			cw, cb := c.w, c.b
			if cw == nil {
				cw = make([]float64, 6)
			}
			if cb == nil {
				cb = make([]float64, 3)
			}
			err := lab.SetTheta(cw, cb)
			var ie *InputError
			if !errors.As(err, &ie) || ie.Problem != BadTheta || ie.Class != c.class || !(ie.Value == c.value || math.IsNaN(c.value) && math.IsNaN(ie.Value)) {
				t.Fatalf("refused with %v, want BadTheta of class %d, %v", err, c.class, c.value)
			}
			if !slices.Equal(lab.Model().W, kept.W) || !slices.Equal(lab.Model().B, kept.B) {
				t.Error("the model changed")
			}
		})
	}
	t.Run("lengths other than the model's are an error", func(t *testing.T) {
		if err := lab.SetTheta(make([]float64, 4), make([]float64, 2)); err == nil {
			t.Error("θ for K = 2 was taken by a model of K = 3")
		}
	})
	t.Run("the bounds themselves are taken", func(t *testing.T) {
		if err := lab.SetTheta([]float64{MaxTheta, -MaxTheta, 0, 0, 0, 0}, []float64{-MaxTheta, 0, MaxTheta}); err != nil {
			t.Error(err)
		}
	})

	pinned := Defaults() // class 0 pinned, no bias
	lab2, err := NewLab(d, pinned)
	if err != nil {
		t.Fatal(err)
	}
	if err := lab2.SetTheta([]float64{1, 2, 3, 4, 5, 6}, []float64{7, 8, 9}); err != nil {
		t.Fatal(err)
	}
	if m := lab2.Model(); m.W[0] != 0 || m.W[3] != 0 || slices.ContainsFunc(m.B, func(v float32) bool { return v != 0 }) || m.W[1] != 2 {
		t.Errorf("pinned, without a bias: %v %v", m.W, m.B)
	}
}

// allOf returns the positions 0…n−1.
func allOf(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// TestTrainingGoesOnFromThetaSetByHand: the Trainer's next step starts
// from θ set by hand: the same step as a Trainer made from that θ.
func TestTrainingGoesOnFromThetaSetByHand(t *testing.T) {
	s := Defaults()
	d, lab := newLab(t, "overlap", 2, 1, s, 5)
	w, b := []float64{0, 1.5, 0, -0.75}, []float64{0, 0}
	if err := lab.SetTheta(w, b); err != nil {
		t.Fatal(err)
	}
	before := lab.Status().Loss
	lab.Step()
	from := softmax.NewClasses[float32](2, 2)
	from.W[1], from.W[3] = 1.5, -0.75
	ref, err := NewLabFrom(d, s, from)
	if err != nil {
		t.Fatal(err)
	}
	ref.Step()
	if !slices.Equal(lab.Model().W, ref.Model().W) {
		t.Errorf("a step from θ set by hand gives %v, from a Lab made at that θ %v", lab.Model().W, ref.Model().W)
	}
	if after := lab.Status().Loss; !(after < before) {
		t.Errorf("a step from θ set by hand took J from %v to %v", before, after)
	}
}

// tie returns z_I(x) − z_J(x) of m, in float64, and a scale for its
// rounding: |n|·|x| + |c| + 1.
func tie(m *softmax.Model[float32], i, j int, x [2]float64) (gap, scale float64) {
	var z [softmax.K]float64
	zs := logits(&z, m, x)
	k := m.Classes()
	n := math.Hypot(float64(m.W[i])-float64(m.W[j]), float64(m.W[k+i])-float64(m.W[k+j]))
	return zs[i] - zs[j], n*math.Hypot(x[0], x[1]) + math.Abs(float64(m.B[i])-float64(m.B[j])) + 1
}

// normal returns θ_I − θ_J and b_I − b_J of m.
func normal(m *softmax.Model[float32], i, j int) ([2]float64, float64) {
	k := m.Classes()
	return [2]float64{float64(m.W[i]) - float64(m.W[j]), float64(m.W[k+i]) - float64(m.W[k+j])}, float64(m.B[i]) - float64(m.B[j])
}

// TestDragPassesTheBoundaryThroughThePointer: after a drag the two
// classes' logits tie at the pointer (the boundary passes there, and
// their probabilities are equal), to float32's rounding; a shift keeps
// θ_I − θ_J exactly, a turn keeps its length and passes through the
// pivot; the other classes, and a pinned class 0, keep every number; and
// without a bias the line turns about the origin, its bias staying 0.
func TestDragPassesTheBoundaryThroughThePointer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name      string
		k         int
		bias, pin bool
	}{
		{"K = 3 with a bias", 3, true, false},
		{"K = 4 with a bias, class 0 pinned", 4, true, true},
		{"K = 2, pinned, no bias (the exact surface)", 2, false, true},
		{"K = 5 without a bias", 5, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Defaults()
			s.Bias, s.Pin = c.bias, c.pin
			for trial := range 200 {
				m := softmax.NewClasses[float32](2, c.k)
				for i := range m.W {
					m.W[i] = float32(4 * r.NormFloat64())
				}
				for i := range m.B {
					m.B[i] = float32(2 * r.NormFloat64())
				}
				if c.pin {
					m.W[0], m.W[c.k], m.B[0] = 0, 0, 0
				}
				if !c.bias {
					clear(m.B)
				}
				segs := Boundaries(m)
				if len(segs) == 0 {
					continue
				}
				seg := segs[r.IntN(len(segs))]
				g := Grab(seg, r.Float64(), c.bias)
				x := [2]float64{2 * Extent * (r.Float64() - 0.5), 2 * Extent * (r.Float64() - 0.5)}
				got, err := Drag(m, g, x, s)
				if err != nil {
					t.Fatal(err)
				}
				gap, scale := tie(got, g.I, g.J, x)
				if math.Abs(gap) > 1e-6*scale {
					t.Fatalf("trial %d: %+v to %v: z_I − z_J = %v there (scale %v)", trial, g, x, gap, scale)
				}
				p := probsAt(got, x)
				if math.Abs(p[g.I]-p[g.J]) > 1e-5*(p[g.I]+p[g.J])+1e-12 {
					t.Fatalf("trial %d: h_I = %v, h_J = %v at the pointer", trial, p[g.I], p[g.J])
				}
				n0, _ := normal(m, g.I, g.J)
				n1, c1 := normal(got, g.I, g.J)
				switch {
				case !c.bias:
					if c1 != 0 || !g.Turn {
						t.Fatalf("trial %d: without a bias, b_I − b_J = %v, turn %v", trial, c1, g.Turn)
					}
				case !g.Turn:
					if math.Abs(n1[0]-n0[0]) > 1e-5*math.Abs(n0[0])+1e-6 || math.Abs(n1[1]-n0[1]) > 1e-5*math.Abs(n0[1])+1e-6 {
						t.Fatalf("trial %d: a shift changed θ_I − θ_J from %v to %v", trial, n0, n1)
					}
				default:
					if gap, scale := tie(got, g.I, g.J, g.Pivot); math.Abs(gap) > 1e-6*scale {
						t.Fatalf("trial %d: the turned line misses its pivot by z_I − z_J = %v", trial, gap)
					}
				}
				if a, b := math.Hypot(n0[0], n0[1]), math.Hypot(n1[0], n1[1]); math.Abs(a-b) > 1e-5*a {
					t.Fatalf("trial %d: |θ_I − θ_J| went from %v to %v", trial, a, b)
				}
				if n0[0]*n1[0]+n0[1]*n1[1] < 0 && g.Turn {
					// The classes keep their sides: n' is the normal nearer n.
					t.Fatalf("trial %d: the turn flipped the classes' sides: n %v → %v", trial, n0, n1)
				}
				for cl := range c.k {
					moved := got.W[cl] != m.W[cl] || got.W[c.k+cl] != m.W[c.k+cl] || got.B[cl] != m.B[cl]
					if moved && (cl != g.I && cl != g.J || c.pin && cl == 0) {
						t.Fatalf("trial %d: class %d changed, dragging the boundary of %d and %d", trial, cl, g.I, g.J)
					}
				}
			}
		})
	}
}

// probsAt returns h(x) of m, by core/softmax's Logits and Softmax.
func probsAt(m *softmax.Model[float32], x [2]float64) []float64 {
	var z [softmax.K]float32
	softmax.Logits(&z, m.W, m.B, []uint16{0, 1}, []float32{float32(x[0]), float32(x[1])})
	softmax.Softmax(&z)
	out := make([]float64, m.Classes())
	for c := range out {
		out[c] = float64(z[c])
	}
	return out
}

// TestDragIsContinuous: a small move of the pointer makes a small change
// of θ (central differences of the dragged parameters stay bounded), so
// a boundary follows the pointer without jumps, even across its pivot.
func TestDragIsContinuous(t *testing.T) {
	m := softmax.NewClasses[float32](2, 3)
	copy(m.W, []float32{1, -1, 0.5, 0.5, 2, -1})
	copy(m.B, []float32{0.2, -0.3, 0.1})
	s := Defaults()
	s.Bias, s.Pin = true, false
	seg := Boundaries(m)[0]
	for _, at := range []float64{0.05, 0.5, 0.95} {
		g := Grab(seg, at, true)
		const h = 1e-4
		for _, x := range [][2]float64{{1, 1}, {-2, 0.5}, {0.3, -3}, {-3.9, 3.9}} {
			a, _ := Drag(m, g, [2]float64{x[0] - h, x[1]}, s)
			b, _ := Drag(m, g, [2]float64{x[0] + h, x[1]}, s)
			for i := range a.W {
				if d := math.Abs(float64(b.W[i]-a.W[i])) / (2 * h); d > 1e3 {
					t.Errorf("grab at %.2f, x = %v: ∂W[%d]/∂x₁ ≈ %v", at, x, i, d)
				}
			}
			for i := range a.B {
				if d := math.Abs(float64(b.B[i]-a.B[i])) / (2 * h); d > 1e3 {
					t.Errorf("grab at %.2f, x = %v: ∂B[%d]/∂x₁ ≈ %v", at, x, i, d)
				}
			}
		}
	}
}

// TestDragStaysWithinBounds: a pointer far off the view holds the line at
// the view's edge; a drag that would take a number past ±MaxTheta stops
// at the bound, finite, the line short of the pointer; x at the pivot
// changes nothing; a model already out of bounds, or classes not the
// model's, are refused.
func TestDragStaysWithinBounds(t *testing.T) {
	s := Defaults()
	s.Bias, s.Pin = true, true
	m := softmax.NewClasses[float32](2, 2)
	m.W[1] = 10 // class 1 above class 0 where x₁ > 0: the line x₁ = 0
	g := Grip{I: 0, J: 1}
	off, err := Drag(m, g, [2]float64{1e9, 0}, s)
	if err != nil {
		t.Fatal(err)
	}
	if gap, scale := tie(off, 0, 1, [2]float64{Extent, 0}); math.Abs(gap) > 1e-6*scale {
		t.Errorf("dragged off the view to the right, the line is not at its edge: gap %v", gap)
	}
	steep := softmax.NewClasses[float32](2, 2)
	steep.W[1] = 90
	far, err := Drag(steep, g, [2]float64{-Extent, 0}, s)
	if err != nil {
		t.Fatal(err)
	}
	// To pass through x₁ = −4, b₁ would be 90·4 = 360.
	if b := far.B[1]; b != MaxTheta {
		t.Errorf("a shift that needs b = 360 stops at %v, want %v", b, float32(MaxTheta))
	}
	if !far.Finite() || far.W[1] != 90 {
		t.Errorf("the stopped shift changed the weights or is not finite: %v %v", far.W, far.B)
	}
	turn := Grip{I: 0, J: 1, Turn: true, Pivot: [2]float64{1, 1}}
	same, err := Drag(m, turn, [2]float64{1, 1}, s)
	if err != nil || !slices.Equal(same.W, m.W) || !slices.Equal(same.B, m.B) {
		t.Errorf("a turn with the pointer at its pivot changed θ: %v %v, %v", same.W, same.B, err)
	}
	big := softmax.NewClasses[float32](2, 2)
	big.W[1] = 2 * MaxTheta
	var ie *InputError
	if _, err := Drag(big, g, [2]float64{1, 0}, s); !errors.As(err, &ie) || ie.Problem != BadTheta {
		t.Errorf("a model beyond ±MaxTheta dragged: %v", err)
	}
	for _, bad := range []Grip{{I: 1, J: 0}, {I: 0, J: 2}, {I: -1, J: 1}} {
		if _, err := Drag(m, bad, [2]float64{}, s); err == nil {
			t.Errorf("the boundary of classes %d and %d of a model of 2 was dragged", bad.I, bad.J)
		}
	}
}

// TestGrabShiftsInTheMiddleAndTurnsNearTheEnds: the middle of a segment
// shifts it, its ends turn it about its midpoint; without a bias every
// grip turns about the origin.
func TestGrabShiftsInTheMiddleAndTurnsNearTheEnds(t *testing.T) {
	seg := Segment{A: [2]float64{-2, 0}, B: [2]float64{2, 2}, Classes: [2]int{1, 3}}
	for _, c := range []struct {
		t    float64
		bias bool
		want Grip
	}{
		{0.5, true, Grip{I: 1, J: 3}},
		{0.3, true, Grip{I: 1, J: 3}},
		{0.1, true, Grip{I: 1, J: 3, Turn: true, Pivot: [2]float64{0, 1}}},
		{0.9, true, Grip{I: 1, J: 3, Turn: true, Pivot: [2]float64{0, 1}}},
		{0.5, false, Grip{I: 1, J: 3, Turn: true}},
		{0.05, false, Grip{I: 1, J: 3, Turn: true}},
	} {
		if got := Grab(seg, c.t, c.bias); got != c.want {
			t.Errorf("taken at %.2f, bias %v: %+v, want %+v", c.t, c.bias, got, c.want)
		}
	}
}
