package newton

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// fewClasses returns m examples in d dimensions with labels below k, whose
// classes overlap (so that J has a finite minimum without λ), and a model
// of k classes with N(0, 0.5²) parameters.
func fewClasses(m, d, k int, seed uint64) (*softmax.Examples[float64], *softmax.Model[float64]) {
	r := rand.New(rand.NewPCG(seed, 7))
	x := &softmax.Examples[float64]{Start: []int32{0}}
	for i := range m {
		y := i % k
		for j := range d {
			x.Index = append(x.Index, uint16(j))
			x.Value = append(x.Value, r.NormFloat64()+float64((y+j)%k))
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(y))
	}
	md := softmax.NewClasses[float64](d, k)
	for i := range md.W {
		md.W[i] = 0.5 * r.NormFloat64()
	}
	for c := range md.B {
		md.B[c] = 0.5 * r.NormFloat64()
	}
	return x, md
}

// TestFewerClassesHessVecMatchesFiniteDifferences: H·u for k < K classes
// (the plane's models) is the derivative of the gradient along u, with
// and without the bias.
func TestFewerClassesHessVecMatchesFiniteDifferences(t *testing.T) {
	const h = 1e-5
	for _, k := range []int{2, 3, 5} {
		for _, o := range []softmax.Objective{{}, {Lambda: 0.1}, {PinFirst: true, NoBias: true}, {NoBias: true, Lambda: 0.01}} {
			t.Run(fmt.Sprintf("k=%d %+v", k, o), func(t *testing.T) {
				x, md := fewClasses(30, 2, k, uint64(k))
				v := flat(md)
				pin(v, md.D, o)
				u := direction(rand.New(rand.NewPCG(1, 2)), len(v), md.D, o)
				hu, num := hessVecAt(v, u, md.D, x, o), differences(v, u, h, md.D, x, o)
				for i := range hu {
					if e := relErr(hu[i], num[i]); e > 1e-6 && math.Abs(hu[i]-num[i]) > 1e-9 {
						t.Errorf("(H·u)[%d] = %.10g, finite differences %.10g", i, hu[i], num[i])
					}
				}
			})
		}
	}
}

// TestFewerClassesConverge: Newton's method on three overlapping classes
// in the plane reaches ‖∇J‖ ≤ 1e-10 in a few iterations, and NoBias keeps
// the biases at zero.
func TestFewerClassesConverge(t *testing.T) {
	x, _ := fewClasses(60, 2, 3, 5)
	for _, o := range []softmax.Objective{{}, {NoBias: true}, {PinFirst: true, NoBias: true}} {
		s, err := New(x, 2, o, Settings{Classes: 3, GradTol: 1e-10, RelTol: 1e-300})
		if err != nil {
			t.Fatal(err)
		}
		var st Stats
		for st = s.Iterate(); st.Stop == Running; st = s.Iterate() {
		}
		if st.Stop != Converged || st.Iteration > 15 {
			t.Errorf("%+v: %v after %d iterations, ‖∇J‖ = %g", o, st.Stop, st.Iteration, st.GradNorm)
		}
		m := s.Model()
		if m.Classes() != 3 {
			t.Fatalf("a model of %d classes", m.Classes())
		}
		if o.NoBias {
			for c, b := range m.B {
				if b != 0 {
					t.Errorf("%+v: bias %d is %v", o, c, b)
				}
			}
		}
		gw, gb := make([]float64, len(m.W)), make([]float64, len(m.B))
		j := softmax.Gradient(gw, gb, m, x, train.Positions(x.Len()), o)
		if math.Abs(j-st.J) > 1e-12 {
			t.Errorf("%+v: J %v, softmax.Gradient's %v", o, st.J, j)
		}
	}
	if _, err := New(x, 2, softmax.Objective{}, Settings{Classes: 2}); err == nil {
		t.Error("labels 0..2 were accepted for 2 classes")
	}
}

// TestHessianOnIsTheCurvaturesHessian: the operator over passes by shards
// gives Curvature's H·v (the same products, summed by shards, so equal to
// rounding) and PowerIterate on it Curvature's λ_max.
func TestHessianOnIsTheCurvaturesHessian(t *testing.T) {
	x, md := fewClasses(400, 3, 3, 9)
	for _, o := range []softmax.Objective{{Lambda: 0.01}, {PinFirst: true, NoBias: true}} {
		c, err := NewCurvature(x, md, o)
		if err != nil {
			t.Fatal(err)
		}
		theta := flat(md)
		pin(theta, md.D, o)
		hv, err := HessianOn(NewConcurrent(x, md.D, 3, 3), x.Len(), md.D, 3, theta, 1, o)
		if err != nil {
			t.Fatal(err)
		}
		v := make([]float64, len(theta))
		for i := range v {
			v[i] = float64(i%5) - 2
		}
		pin(v, md.D, o)
		a, b := make([]float64, len(v)), make([]float64, len(v))
		c.HessVec(a, v)
		hv(b, v)
		for i := range a {
			if relErr(a[i], b[i]) > 1e-12 && math.Abs(a[i]-b[i]) > 1e-15 {
				t.Errorf("%+v: (H·v)[%d] = %v by shards, %v by Curvature", o, i, b[i], a[i])
			}
		}
		want, err := LambdaMax(x, md, o, PowerSettings{})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := PowerIterate(hv, len(theta), PowerSettings{})
		if err != nil {
			t.Fatal(err)
		}
		if relErr(got.Lambda, want.Lambda) > 1e-9 {
			t.Errorf("%+v: λ_max %v by shards, %v by Curvature", o, got.Lambda, want.Lambda)
		}
	}
	if _, err := HessianOn(NewLocal(x, 3, 3), x.Len(), 3, 3, make([]float64, 5), 0, softmax.Objective{}); err == nil {
		t.Error("a θ of the wrong length was accepted")
	}
}
