//go:build js && wasm

package worker

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall/js"
	"unsafe"

	"softmaxdemo/core/softmax"
)

// simdKernel runs the batch gradient in web/kernels.wat, which worker.js
// instantiates on this program's own memory (self.softmaxKernels): Go's
// WebAssembly port emits no SIMD, that module does.
type simdKernel struct {
	grad js.Value
	tmp  []byte // 128 bytes of scratch for the module
}

// installKernel installs the SIMD kernel if worker.js could load it and it
// gives the Go code's bits on a test problem, and names the kernel in use
// (session.Env's Kernel). If the kernel loaded but gave other bits, refused
// is the check's finding: the page shows it with the kernel's name.
func installKernel() (name, refused string) {
	return install(js.Global().Get("softmaxKernels"))
}

// install is installKernel for the module's exports (undefined if it did
// not load).
func install(exports js.Value) (name, refused string) {
	if !exports.Truthy() {
		return "go", ""
	}
	k := &simdKernel{grad: exports.Get("grad"), tmp: make([]byte, 128)}
	if err := verifyKernel(k.run); err != nil {
		return "go", err.Error()
	}
	softmax.SetBatchKernel(k.run)
	return "wasm-simd", ""
}

func (k *simdKernel) run(gw, gb, w, b []float32, x *softmax.Examples[float32], batch []int32, out []softmax.KernelOut) error {
	if len(w) < softmax.K || len(gw) != len(w) || len(b) < softmax.K || len(gb) < softmax.K || len(out) < len(batch) {
		return fmt.Errorf("kernel: shapes disagree")
	}
	bad := k.grad.Invoke(addr(w), addr(b), addr(gw), addr(gb), addr(x.Start), addr(x.Index), addr(x.Value),
		addr(x.Labels), addr(batch), len(batch), len(w)/softmax.K, addr(out), addr(k.tmp)).Int()
	if bad >= 0 {
		return fmt.Errorf("feature out of range in example %d of the batch", batch[bad])
	}
	return nil
}

// addr is the address of s's first element in this program's memory, which
// is the module's memory too.
func addr[T any](s []T) int {
	if len(s) == 0 {
		return 0
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
}

// verifyKernel compares k with the Go code, bit for bit, on a random
// problem with MNIST's shape, large weights (so that some probabilities
// are tiny) and edge cases (an empty image, a pixel in the last row).
func verifyKernel(k softmax.BatchKernel) error {
	r := rand.New(rand.NewPCG(3, 5))
	const d, n = 784, 64
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for i := range n {
		if i != 7 {
			for j := 0; j < d; j += 1 + r.IntN(6) {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32(r.Float64()))
			}
		}
		if i == 9 {
			x.Index = append(x.Index, d-1)
			x.Value = append(x.Value, 1)
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(r.IntN(softmax.K)))
	}
	m := softmax.New[float32](d)
	for i := range m.W {
		m.W[i] = float32(r.NormFloat64() * 0.5)
	}
	for c := range m.B {
		m.B[c] = float32(r.NormFloat64())
	}
	batch := make([]int32, n)
	for i := range batch {
		batch[i] = int32(n - 1 - i)
	}
	gw, gb := make([]float32, d*softmax.K), make([]float32, softmax.K)
	softmax.SetBatchKernel(nil)
	want := softmax.Grad(gw, gb, m.W, m.B, x, batch)
	kw, kb := make([]float32, d*softmax.K), make([]float32, softmax.K)
	softmax.SetBatchKernel(k)
	defer softmax.SetBatchKernel(nil)
	got := softmax.Grad(kw, kb, m.W, m.B, x, batch)
	if math.Float64bits(got) != math.Float64bits(want) {
		return fmt.Errorf("loss %v, the Go code's %v", got, want)
	}
	for i := range gw {
		if math.Float32bits(kw[i]) != math.Float32bits(gw[i]) {
			return fmt.Errorf("gradient %d is %v, the Go code's %v", i, kw[i], gw[i])
		}
	}
	for c := range gb {
		if math.Float32bits(kb[c]) != math.Float32bits(gb[c]) {
			return fmt.Errorf("bias gradient %d is %v, the Go code's %v", c, kb[c], gb[c])
		}
	}
	return nil
}
