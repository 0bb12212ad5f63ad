package newton

import (
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// hessianCase is one explicit Hessian on 7×7 images: H is n×n row-major.
type hessianCase struct {
	name string
	h    []float64
	n    int
}

// viewHessians returns the explicit Hessians of the null-space view on the
// default pack's first 2000 training images averaged down to 7×7 (50
// features with the bias, n = 500): at the zero model with λ = 0, as the
// page shows it (H = G ⊗ A(μ) with μ uniform, so every non-zero
// eigenvalue is nine-fold), and at TestNullSpace's model of small random
// weights with λ = 0 and with λ = 1e-3.
func viewHessians(tb testing.TB) []hessianCase {
	tb.Helper()
	full, _ := defaultPack(tb)
	x := Downsample(head(full, 2000), 28, 4)
	const d = 49
	zero := softmax.New[float64](d)
	random := softmax.New[float64](d)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random.W {
		random.W[i] = 0.1 * r.NormFloat64()
	}
	cases := []struct {
		name string
		md   *softmax.Model[float64]
		o    softmax.Objective
	}{
		{"zero-model-lambda-0", zero, softmax.Objective{}},
		{"random-model-lambda-0", random, softmax.Objective{}},
		{"random-model-lambda-1e-3", random, softmax.Objective{Lambda: 1e-3}},
	}
	out := make([]hessianCase, len(cases))
	for i, c := range cases {
		h, err := Hessian(x, c.md, c.o)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = hessianCase{c.name, h, (d + 1) * K}
	}
	return out
}
