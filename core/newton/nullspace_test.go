package newton

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// smallWeights is the model of TestNullSpace and of the Hessian view's
// eigenvalue tests on d features: weights drawn from N(0, 0.1²) with the
// seed (1, 2), biases zero.
func smallWeights(d int) *softmax.Model[float64] {
	md := softmax.New[float64](d)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range md.W {
		md.W[i] = 0.1 * r.NormFloat64()
	}
	return md
}

// TestNullSpace shows the notes' warning as numbers, on the default pack's
// first 2000 images averaged down to 7×7 (50 features with the bias, 500
// parameters), at a model with small random weights. With λ = 0 and nothing
// pinned, H has one null direction per feature (ψ: adding one vector to
// every θ_c) plus nine for every feature that is zero in every image;
// pinning class 0 leaves the nine; λ > 0 leaves only the bias's ψ (the
// bias is not regularised), which Exact Newton's system removes.
func TestNullSpace(t *testing.T) {
	full, _ := defaultPack(t)
	x := Downsample(head(full, 2000), 28, 4)
	const d = 49
	present := make([]bool, d)
	for _, j := range x.Index {
		present[j] = true
	}
	zero := 0
	for _, p := range present {
		if !p {
			zero++
		}
	}
	md := smallWeights(d)
	tests := []struct {
		name string
		o    softmax.Objective
		want int
	}{
		{"λ = 0: one ψ per feature plus nine per feature no image has", softmax.Objective{}, (d + 1) + 9*zero},
		{"λ = 0, class 0 pinned: nine per feature no image has", softmax.Objective{PinFirst: true}, 9 * zero},
		{"λ > 0: only the unregularised bias's ψ", softmax.Objective{Lambda: 1e-3}, 1},
		{"λ > 0, class 0 pinned: none", softmax.Objective{Lambda: 1e-3, PinFirst: true}, 0},
		{"λ > 0 on the bias too: none", softmax.Objective{Lambda: 1e-3, L2Bias: true}, 0},
	}
	t.Logf("%d of %d features are zero in every image", zero, d)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := Hessian(x, md, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			a, n := FreeBlock(h, (d+1)*K, tt.o.PinFirst)
			ev, err := Eigenvalues(a, n)
			if err != nil {
				t.Fatal(err)
			}
			big := ev[n-1]
			null := 0
			for _, e := range ev {
				if math.Abs(e) <= 1e-13*big {
					null++
				}
			}
			t.Logf("%d null directions; smallest eigenvalues %.3g, next %.3g, largest %.3g", null, ev[:min(3, n)], ev[min(null, n-1)], big)
			if null != tt.want {
				t.Errorf("%d eigenvalues within 1e-13 of the largest's scale, want %d", null, tt.want)
			}
			if null < n && ev[null] < 1e-10*big { // rare features give eigenvalues near 1e-9·big
				t.Errorf("no clear gap: the first non-zero eigenvalue is %.3g of %.3g", ev[null], big)
			}
			system(h, d, tt.o)
			err = Cholesky(h, (d+1)*K)
			var npd *NotPositiveDefiniteError
			switch {
			case tt.o.Lambda == 0 && !errors.As(err, &npd):
				t.Errorf("Cholesky of a singular H: error %v, want NotPositiveDefiniteError", err)
			case tt.o.Lambda > 0 && err != nil:
				t.Errorf("Cholesky of Exact Newton's system: %v", err)
			}
		})
	}
}
