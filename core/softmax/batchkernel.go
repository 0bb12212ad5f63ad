package softmax

import "unsafe"

// A BatchKernel computes, for the float32 examples of x at positions
// batch, exactly what Grad's loop computes, bit for bit: it adds the
// unnormalised gradient into gw and gb and returns the summed
// cross-entropy, Σ (max z + log Σ_c exp(z_c − max z)) − z_y in batch
// order, with fmath's logarithm. It returns an error, having written
// nothing for that example, if a feature index is out of range. Grad
// calls it with x cut into pairs and singles (x.Blocks, which Block
// computes when x has none). The browser's workers install one that runs
// WebAssembly SIMD (web/kernels.wat).
type BatchKernel func(gw, gb, w, b []float32, x *Examples[float32], batch []int32) (float64, error)

var batchKernel BatchKernel

// SetBatchKernel makes Grad use k for float32 data of ten classes; nil
// goes back to the Go code. It is meant for a single-threaded host (a Web
// Worker).
func SetBatchKernel(k BatchKernel) { batchKernel = k }

// gradKernel runs the installed kernel for Grad. It reports false if no
// kernel applies to F.
func gradKernel[F Float](gw, gb []F, w, b []F, x *Examples[F], batch []int32) (float64, bool) {
	if batchKernel == nil || unsafe.Sizeof(F(0)) != 4 || len(batch) == 0 {
		return 0, false
	}
	x32 := (*Examples[float32])(unsafe.Pointer(x))
	Block(x32)
	loss, err := batchKernel(f32(gw), f32(gb), f32(w), f32(b), x32, batch)
	if err != nil {
		panic("softmax: " + err.Error())
	}
	return loss, true
}

// f32 views a slice of a float32-sized F as []float32.
func f32[F Float](s []F) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
