package softmax

// Update applies one gradient step to the weights w, in place, and zeroes
// the gradient sum g (same length):
//
//	w_i := w_i − a·(g_i·inv + λ·w_i),   g_i := 0
//
// where inv is 1/n for a batch of n examples, and returns Σ w_i² of the
// old weights, the L2 penalty's sum. The sum is kept in four lanes (i mod
// 4), each added in index order, and returned as (s₀ + s₁) + (s₂ + s₃), so
// that a four-lane SIMD kernel gives the same bits. With λ = 0 it applies
// w_i := w_i − a·(g_i·inv), the same step without the penalty's term (not
// the same bits for every signed zero), and returns 0. Every product is
// rounded to float32, so no FMA is fused. It panics if the lengths differ.
// The worker installs a WebAssembly SIMD kernel (SetUpdateKernel) with the
// same bits.
func Update(w, g []float32, a, inv, lam float32) (sq float64) {
	if len(g) != len(w) {
		panic("softmax: Update: the gradient and the weights differ in length")
	}
	if updateKernel != nil {
		return updateKernel(w, g, a, inv, lam)
	}
	if lam == 0 {
		for i, wi := range w {
			w[i] = wi - float32(a*float32(g[i]*inv))
			g[i] = 0
		}
		return 0
	}
	var s [4]float64
	for i, wi := range w {
		s[i&3] += float64(wi) * float64(wi)
		w[i] = wi - float32(a*(float32(g[i]*inv)+float32(lam*wi)))
		g[i] = 0
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// An UpdateKernel is Update, bit for bit.
type UpdateKernel func(w, g []float32, a, inv, lam float32) float64

var updateKernel UpdateKernel

// SetUpdateKernel makes Update use k; nil goes back to the Go code.
func SetUpdateKernel(k UpdateKernel) { updateKernel = k }
