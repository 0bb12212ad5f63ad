//go:build js && wasm

package worker

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall/js"
	"unsafe"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// simdKernels runs the kernels of web/kernels.wat, which worker.js
// instantiates on this program's own memory (self.softmaxKernels): Go's
// WebAssembly port emits no SIMD, that module does. Each method is the
// signature core installs (softmax.BatchKernel, softmax.UpdateKernel,
// metrics.EvalKernel, newton.Kernels, shard.SetAdd).
type simdKernels struct {
	grad, update, eval, neval, hv, add32, add64 js.Value
	sum                                         []float64 // where grad and eval write their sums
}

// installKernel installs the SIMD kernels if worker.js could load them and
// each gives the Go code's bits on test problems, and names the kernel in
// use (session.Env's Kernel). If the module loaded but a kernel gave other
// bits, refused is the check's finding: the page shows it with the
// kernel's name, and none of the module's kernels is used.
func installKernel() (name, refused string) {
	return install(js.Global().Get("softmaxKernels"))
}

// install is installKernel for the module's exports (undefined if it did
// not load).
func install(exports js.Value) (name, refused string) {
	if !exports.Truthy() {
		return "go", ""
	}
	k := &simdKernels{sum: make([]float64, 1)}
	for _, f := range []struct {
		name string
		v    *js.Value
	}{{"grad", &k.grad}, {"update", &k.update}, {"eval", &k.eval}, {"neval", &k.neval}, {"hv", &k.hv}, {"add32", &k.add32}, {"add64", &k.add64}} {
		*f.v = exports.Get(f.name)
		if f.v.Type() != js.TypeFunction {
			return "go", fmt.Sprintf("the kernel module has no %s function", f.name)
		}
	}
	if err := verify(k); err != nil {
		goKernels()
		return "go", err.Error()
	}
	k.installAll()
	return "wasm-simd", ""
}

func (k *simdKernels) installAll() {
	softmax.SetBatchKernel(k.runGrad)
	softmax.SetUpdateKernel(k.runUpdate)
	metrics.SetEvalKernel(k.runEval)
	newton.SetKernels(newton.Kernels{Eval: k.runNewtonEval, Hv: k.runHv})
	shard.SetAdd(k.runAdd32, k.runAdd64)
}

func (k *simdKernels) runGrad(gw, gb, w, b []float32, x *softmax.Examples[float32], batch []int32) (float64, error) {
	if len(w) < softmax.K || len(gw) != len(w) || len(b) != softmax.K || len(gb) != softmax.K {
		return 0, errors.New("kernel: shapes disagree")
	}
	bl := softmax.Block(x)
	bad := k.grad.Invoke(addr(w), addr(b), addr(gw), addr(gb), addr(bl.PairStart), addr(bl.Pairs), addr(bl.SingleStart),
		addr(bl.Singles), addr(x.Labels), addr(batch), len(batch), len(w)/softmax.K, addr(k.sum)).Int()
	if bad >= 0 {
		return 0, fmt.Errorf("feature out of range in example %d of the batch", batch[bad])
	}
	return k.sum[0], nil
}

func (k *simdKernels) runUpdate(w, g []float32, a, inv, lam float32) float64 {
	return k.update.Invoke(addr(w), addr(g), len(w), a, inv, lam).Float()
}

func (k *simdKernels) runEval(w, b []float32, x *softmax.Examples[float32], lo, hi int, class []uint8) (float64, error) {
	if len(w) < softmax.K || len(b) != softmax.K || len(class) < hi-lo {
		return 0, errors.New("kernel: shapes disagree")
	}
	bad := k.eval.Invoke(addr(w), addr(b), addr(x.Start), addr(x.Index), addr(x.Value), addr(x.Labels),
		lo, hi, len(w)/softmax.K, addr(k.sum), addr(class)).Int()
	if bad >= 0 {
		return 0, fmt.Errorf("feature out of range in example %d", bad)
	}
	return k.sum[0], nil
}

func (k *simdKernels) runNewtonEval(g, h, mu, theta []float64, d int, x *softmax.Examples[float32], out []newton.EvalOut) error {
	n := (d + 1) * softmax.K
	if len(g) != n || len(h) != n || len(theta) != n || len(mu) < x.Len()*softmax.K || len(out) < x.Len() {
		return errors.New("kernel: shapes disagree")
	}
	bl := softmax.Block(x)
	bad := k.neval.Invoke(addr(theta), addr(g), addr(h), addr(mu), addr(out), addr(bl.PairStart), addr(bl.Pairs),
		addr(bl.SingleStart), addr(bl.Singles), addr(x.Labels), x.Len(), d).Int()
	if bad >= 0 {
		return fmt.Errorf("feature out of range in example %d", bad)
	}
	return nil
}

func (k *simdKernels) runHv(out, v, mu []float64, d int, x *softmax.Examples[float32]) error {
	n := (d + 1) * softmax.K
	if len(out) != n || len(v) != n || len(mu) < x.Len()*softmax.K {
		return errors.New("kernel: shapes disagree")
	}
	bl := softmax.Block(x)
	bad := k.hv.Invoke(addr(v), addr(out), addr(mu), addr(bl.PairStart), addr(bl.Pairs), addr(bl.SingleStart),
		addr(bl.Singles), x.Len(), d).Int()
	if bad >= 0 {
		return fmt.Errorf("feature out of range in example %d", bad)
	}
	return nil
}

func (k *simdKernels) runAdd32(dst, src []float32) { k.add32.Invoke(addr(dst), addr(src), len(dst)) }

func (k *simdKernels) runAdd64(dst, src []float64) { k.add64.Invoke(addr(dst), addr(src), len(dst)) }

// addr is the address of s's first element in this program's memory, which
// is the module's memory too.
func addr[T any](s []T) int {
	if len(s) == 0 {
		return 0
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
}

// verify compares every kernel of k with the Go code, bit for bit, on a
// random problem with MNIST's shape, large weights (so that some
// probabilities are tiny) and edge cases (an empty image, a pixel in the
// last row, a pair at the last two), leaving the Go code installed.
func verify(k *simdKernels) error {
	r := rand.New(rand.NewPCG(3, 5))
	const d, n = 784, 64
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for i := range n {
		if i != 7 && i != 11 {
			for j := 0; j < d; j += 1 + r.IntN(6) {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32(r.Float64()))
			}
		}
		if i == 9 && x.Index[len(x.Index)-1] != d-1 {
			x.Index = append(x.Index, d-1)
			x.Value = append(x.Value, 1)
		}
		if i == 11 {
			for j := d - 5; j < d; j++ { // a single and two pairs
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32(r.Float64()))
			}
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
	// Each case runs once with the Go code and once with k, returning the
	// bits of everything it computed.
	cases := []struct {
		name string
		run  func() []uint64
	}{
		{"the batch gradient", func() []uint64 {
			gw, gb := make([]float32, d*softmax.K), make([]float32, softmax.K)
			loss := softmax.Grad(gw, gb, m.W, m.B, x, batch)
			return append(bits32(gw, gb), math.Float64bits(loss))
		}},
		{"the update", func() []uint64 {
			var out []uint64
			gr := rand.New(rand.NewPCG(7, 7))
			for _, lam := range []float32{0, 1e-3} {
				// A length that is not a multiple of four: the lanes' tail.
				w, g := append([]float32(nil), m.W[:d*softmax.K-3]...), make([]float32, d*softmax.K-3)
				for i := range g {
					g[i] = float32(gr.NormFloat64())
				}
				sq := softmax.Update(w, g, 0.5, 1.0/64, lam)
				out = append(append(out, bits32(w, g)...), math.Float64bits(sq))
			}
			return out
		}},
		{"the evaluation", func() []uint64 {
			res := metrics.Evaluate(m, x)
			out := []uint64{math.Float64bits(res.LogLikelihood), uint64(res.Correct)}
			for y := range res.Confusion {
				for _, c := range res.Confusion[y] {
					out = append(out, uint64(c))
				}
			}
			return out
		}},
		{"Newton's passes", func() []uint64 {
			p := newton.NewShard(x, d, softmax.K)
			nn := (d + 1) * softmax.K
			theta, v := make([]float64, nn), make([]float64, nn)
			for i := range theta {
				theta[i] = 0.3 * float64(m.W[i%len(m.W)])
				v[i] = float64(m.W[(i*7)%len(m.W)])
			}
			g, h, hv := make([]float64, nn), make([]float64, nn), make([]float64, nn)
			loss := p.Eval(g, h, theta, 1)
			p.Hv(hv, v, 1)
			return append(bits64(g, h, hv), math.Float64bits(loss))
		}},
		{"the shards' sum", func() []uint64 {
			a, b := append([]float32(nil), m.W[:101]...), append([]float32(nil), m.W[200:301]...)
			shard.Add32(a, b)
			c := []float64{1e16, -3, 0.1, 7, 1e-300}
			shard.Add64(c, []float64{1, 1e16, 0.2, -7, 1e-300})
			return append(bits32(a), bits64(c)...)
		}},
	}
	for _, c := range cases {
		goKernels()
		want := c.run()
		k.installAll()
		got := c.run()
		goKernels()
		if len(got) != len(want) {
			return fmt.Errorf("%s: %d numbers, the Go code's %d", c.name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				return fmt.Errorf("%s: number %d has bits %#x, the Go code's %#x", c.name, i, got[i], want[i])
			}
		}
	}
	return nil
}
