package softmax

import "unsafe"

// KernelOut is what a BatchKernel reports for one example: the sum S of
// exp(z_c − M) over the classes, the largest logit M, and the logit Zy of
// the true class. Grad adds up the loss from them, log S + M − Zy, with
// its own logarithm. The layout (16 bytes: S, M, Zy) is part of the
// contract with web/kernels.wat.
type KernelOut struct {
	S  float64
	M  float32
	Zy float32
}

// A BatchKernel computes, for the float32 examples of x at positions
// batch, exactly what Grad's loop computes, bit for bit: it adds the
// unnormalised gradient into gw and gb and fills out[k] for the k-th
// example. It returns an error, having written nothing for that example,
// if a feature index is out of range. The browser worker installs one that
// runs WebAssembly SIMD (web/kernels.wat).
type BatchKernel func(gw, gb, w, b []float32, x *Examples[float32], batch []int32, out []KernelOut) error

var (
	batchKernel BatchKernel
	kernelOut   []KernelOut
)

// SetBatchKernel makes Grad use k for float32 data; nil goes back to the
// Go code. It is meant for a single-threaded host (a Web Worker): Grad then
// shares one buffer of outputs, so it must not run concurrently.
func SetBatchKernel(k BatchKernel) { batchKernel = k }

// gradKernel runs the installed kernel for Grad and adds up the loss. It
// reports false if no kernel applies to F.
func gradKernel[F Float](gw, gb []F, w, b []F, x *Examples[F], batch []int32) (float64, bool) {
	if batchKernel == nil || unsafe.Sizeof(F(0)) != 4 || len(batch) == 0 {
		return 0, false
	}
	if cap(kernelOut) < len(batch) {
		kernelOut = make([]KernelOut, len(batch))
	}
	out := kernelOut[:len(batch)]
	err := batchKernel(f32(gw), f32(gb), f32(w), f32(b), (*Examples[float32])(unsafe.Pointer(x)), batch, out)
	if err != nil {
		panic("softmax: " + err.Error())
	}
	loss := 0.0
	for _, o := range out {
		loss += float64(o.M) + logOf(o.S) - float64(o.Zy)
	}
	return loss, true
}

// f32 views a slice of a float32-sized F as []float32.
func f32[F Float](s []F) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
