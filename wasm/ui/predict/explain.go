package predict

import (
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/paint"
)

// TopTerms is how many classes the contributions show: the most probable.
const TopTerms = 3

// Explanation is why the model reads a drawing as it does. For the input
// x, z_c = θ_c·x + b_c = Σ_j x_j θ_{c,j} + b_c: each pixel adds x_j θ_{c,j}
// to digit c's score. Terms holds those contributions for the most
// probable classes, most probable first.
type Explanation struct {
	Ready bool               // there is a drawing and a model
	Z     [softmax.K]float32 // the logits, from softmax.Logits as the prediction computes them
	P     [softmax.K]float32 // softmax(Z): the probabilities shown
	Scale float64            // the templates' scale (WeightScale of θ)
	Terms [TopTerms]Term
}

// Term is one class's share of the explanation.
type Term struct {
	Class int
	B     float32 // b_c
	Sum   float32 // Σ_j x_j θ_{c,j}, so that z_c = Sum + b_c up to rounding
	X     [784]float32
}

// Explain fills e for the sparse input (index, value) and the model m,
// which must have 784 features. It computes the logits with
// softmax.Logits, the call Model.Predict makes, so the sums shown are the
// prediction's to the bit; the contributions x_j θ_{c,j} are rounded to
// float32 as Logits rounds each product.
func Explain(e *Explanation, m *softmax.Model[float32], index []uint16, value []float32) {
	e.Ready = true
	softmax.Logits(&e.Z, m.W, m.B, index, value)
	e.P = e.Z
	softmax.Softmax(&e.P)
	e.Scale = paint.WeightScale(m.W)
	var taken [softmax.K]bool
	for i := range e.Terms {
		best := -1
		for c := range softmax.K {
			if !taken[c] && (best < 0 || e.Z[c] > e.Z[best]) {
				best = c
			}
		}
		taken[best] = true
		t := &e.Terms[i]
		t.Class, t.B, t.Sum = best, m.B[best], 0
		clear(t.X[:])
		for k, j := range index {
			v := float32(value[k] * m.W[int(j)*softmax.K+best])
			t.X[j] = v
			t.Sum += v
		}
	}
}
