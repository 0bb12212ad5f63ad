package metrics

import (
	"unsafe"

	"softmaxdemo/core/softmax"
)

// An EvalKernel computes, for the float32 examples lo..hi−1 of x under a
// model of the K digit classes, exactly what EvaluateRange's loop
// computes, bit for bit: class[i−lo] gets each example's predicted class
// (the lowest of the largest logits), and it returns the log likelihood
// Σ z_y − (max z + log Σ_c exp(z_c − max z)), added in order, from which
// EvaluateRange adds up the counts. It returns an error if a feature index
// is out of range. The browser's workers install one that runs
// WebAssembly SIMD.
type EvalKernel func(w, b []float32, x *softmax.Examples[float32], lo, hi int, class []uint8) (float64, error)

var (
	evalKernel EvalKernel
	evalClass  []uint8
)

// SetEvalKernel makes Evaluate and EvaluateRange use k for float32 data
// of ten classes; nil goes back to the Go code. Like
// softmax.SetBatchKernel, it is meant for a single-threaded host.
func SetEvalKernel(k EvalKernel) { evalKernel = k }

// evalRange runs the installed kernel for EvaluateRange and reports false
// if none applies.
func evalRange[F softmax.Float](r *Result, m *softmax.Model[F], x *softmax.Examples[F], lo, hi int) bool {
	if evalKernel == nil || unsafe.Sizeof(F(0)) != 4 || len(m.B) != softmax.K {
		return false
	}
	n := hi - lo
	if cap(evalClass) < n {
		evalClass = make([]uint8, n)
	}
	class := evalClass[:n]
	x32 := (*softmax.Examples[float32])(unsafe.Pointer(x))
	w := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(m.W))), len(m.W))
	b := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(m.B))), len(m.B))
	ll, err := evalKernel(w, b, x32, lo, hi, class)
	if err != nil {
		panic("metrics: " + err.Error())
	}
	for i, p := range class {
		y, p := int(x.Labels[lo+i]), int(p)
		r.Confusion[y][p]++
		if p == y {
			r.Correct++
		}
	}
	r.N = n
	r.LogLikelihood = ll
	r.MeanLogLikelihood = ll / float64(n)
	return true
}
