package predict

import (
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/paint"
)

// TestExplainAgreesWithThePrediction: the contributions of a drawing add
// up, in Logits' order, to the very logits the prediction uses, to the
// bit, and their softmax is the probabilities the bars show.
func TestExplainAgreesWithThePrediction(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := softmax.New[float32](784)
	for i := range m.W {
		m.W[i] = float32(r.NormFloat64() * 0.3)
	}
	for c := range m.B {
		m.B[c] = float32(r.NormFloat64())
	}
	for n := range 20 {
		cls := NewClassifier()
		for range 100 + 10*n { // a blot of ink on the 28×28 input
			cls.Image[r.IntN(784)] = uint8(1 + r.IntN(255))
		}
		p := cls.Predict(true, m)
		var e Explanation
		Explain(&e, m, cls.index, cls.value)
		if e.P != p.Probs {
			t.Fatalf("input %d: softmax of the explained logits %v, the prediction's %v", n, e.P, p.Probs)
		}
		if e.Terms[0].Class != p.Digit {
			t.Errorf("input %d: the first term is digit %d, the prediction %d", n, e.Terms[0].Class, p.Digit)
		}
		for i, tm := range e.Terms {
			if i > 0 && e.Z[tm.Class] > e.Z[e.Terms[i-1].Class] {
				t.Errorf("input %d: terms out of order: %+v", n, e.Terms)
			}
			z := tm.B // b_c + Σ x_j θ_cj in the order Logits adds them
			for _, j := range cls.index {
				z += tm.X[j]
			}
			if math.Float32bits(z) != math.Float32bits(e.Z[tm.Class]) {
				t.Errorf("input %d, digit %d: b + Σ x⊙θ = %v, Logits gives %v", n, tm.Class, z, e.Z[tm.Class])
			}
			if got, want := float64(tm.Sum+tm.B), float64(e.Z[tm.Class]); math.Abs(got-want) > 1e-5*(1+math.Abs(want)) {
				t.Errorf("input %d, digit %d: Sum + b = %v, z = %v", n, tm.Class, got, want)
			}
			for j := range 784 {
				if tm.X[j] != 0 && cls.Image[j] == 0 {
					t.Fatalf("input %d: pixel %d has no ink but contributes %v", n, j, tm.X[j])
				}
			}
		}
		if e.Scale != paint.WeightScale(m.W) {
			t.Errorf("the contributions' scale %v is not the templates' %v", e.Scale, paint.WeightScale(m.W))
		}
	}
}
