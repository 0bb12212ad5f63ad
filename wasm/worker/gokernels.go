package worker

import (
	"math"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// goKernels goes back to core's Go code for every kernel: the code the
// worker's kernels are checked against, bit for bit (verify in the
// browser, the tests natively under Node.js).
func goKernels() {
	softmax.SetBatchKernel(nil)
	softmax.SetUpdateKernel(nil)
	metrics.SetEvalKernel(nil)
	newton.SetKernels(newton.Kernels{})
	shard.SetAdd(nil, nil)
}

// bits32 returns the bits of the numbers of s, one slice after another,
// for those comparisons.
func bits32(s ...[]float32) []uint64 {
	var out []uint64
	for _, v := range s {
		for _, f := range v {
			out = append(out, uint64(math.Float32bits(f)))
		}
	}
	return out
}

// bits64 is bits32 for float64.
func bits64(s ...[]float64) []uint64 {
	var out []uint64
	for _, v := range s {
		for _, f := range v {
			out = append(out, math.Float64bits(f))
		}
	}
	return out
}
