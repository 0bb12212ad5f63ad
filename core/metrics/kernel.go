package metrics

import (
	"unsafe"

	"softmaxdemo/core/internal/fmath"
	"softmaxdemo/core/softmax"
)

// An EvalKernel computes, for the float32 examples lo..hi−1 of x under a
// model of the K digit classes, exactly what EvaluateRange's loop computes
// for each, bit for bit: out[i−lo] gets the sum S of exp(z_c − M), the
// largest logit M, the true class's logit Zy and the predicted class (the
// lowest of the largest logits), from which EvaluateRange adds up the
// counts and the log likelihood Zy − (M + log S). It returns an error,
// having written nothing for that example, if a feature index is out of
// range. The browser worker installs one that runs WebAssembly SIMD.
type EvalKernel func(w, b []float32, x *softmax.Examples[float32], lo, hi int, out []softmax.KernelOut, class []uint8) error

var (
	evalKernel EvalKernel
	evalOut    []softmax.KernelOut
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
	if cap(evalOut) < n {
		evalOut, evalClass = make([]softmax.KernelOut, n), make([]uint8, n)
	}
	out, class := evalOut[:n], evalClass[:n]
	x32 := (*softmax.Examples[float32])(unsafe.Pointer(x))
	w := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(m.W))), len(m.W))
	b := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(m.B))), len(m.B))
	if err := evalKernel(w, b, x32, lo, hi, out, class); err != nil {
		panic("metrics: " + err.Error())
	}
	ll := 0.0
	for i, o := range out {
		y, p := int(x.Labels[lo+i]), int(class[i])
		ll += float64(o.Zy) - (float64(o.M) + fmath.Log(o.S))
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
