//go:build !js

package worker

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"
	"unsafe"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// The kernels of web/kernels.wasm against core's Go code, bit for bit, on
// random and adversarial problems: the test installs into core kernels
// that run the module under Node (testdata/kernels.js), calls core's own
// functions with and without them, and compares every number they
// compute. The worker makes the same check once at start (verify) on one
// problem; this one covers the edges: zeros, huge logits (probabilities
// that underflow, and exponents below −707, where the vector exp hands
// over to the scalar one), subnormal pixels and weights, empty images,
// the last row, and lengths that are not a multiple of the vector width.

// node runs testdata/kernels.js.
type node struct {
	t   testing.TB
	in  io.WriteCloser
	out *bufio.Reader
}

func startNode(t *testing.T) *node {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is missing (apt-get install -y nodejs): the SIMD kernels cannot be checked")
		}
		t.Skip("node is not installed (apt-get install -y nodejs): the SIMD kernels are not checked")
	}
	cmd := exec.Command(bin, "testdata/kernels.js", "../../web/kernels.wasm")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return &node{t: t, in: in, out: bufio.NewReader(out)}
}

// image is a memory image for one call: slices are copied in at aligned
// offsets, and copied back out after the call.
type image struct {
	b     []byte
	backs []func()
}

// put copies the n bytes at p into the image and returns their offset;
// with back, they are copied back to p after the call.
func (m *image) put(p unsafe.Pointer, n int, back bool) int {
	off := (len(m.b) + 15) &^ 15
	if off == 0 {
		off = 16 // address 0 is nil to the kernels' callers
	}
	m.b = append(m.b, make([]byte, off+n-len(m.b))...)
	if n > 0 {
		copy(m.b[off:], unsafe.Slice((*byte)(p), n))
		if back {
			m.backs = append(m.backs, func() { copy(unsafe.Slice((*byte)(p), n), m.b[off:off+n]) })
		}
	}
	return off
}

func put[T any](m *image, s []T, back bool) int {
	var z T
	return m.put(unsafe.Pointer(unsafe.SliceData(s)), len(s)*int(unsafe.Sizeof(z)), back)
}

// call runs fn on the image and copies the results back.
func (n *node) call(m *image, fn string, args ...any) float64 {
	n.t.Helper()
	js, _ := json.Marshal(map[string]any{"fn": fn, "args": args})
	var head [4]byte
	binary.LittleEndian.PutUint32(head[:], uint32(len(m.b)))
	n.in.Write(head[:])
	n.in.Write(m.b)
	binary.LittleEndian.PutUint32(head[:], uint32(len(js)))
	n.in.Write(head[:])
	n.in.Write(js)
	out := make([]byte, len(m.b)+8)
	if _, err := io.ReadFull(n.out, out); err != nil {
		n.t.Fatalf("%s: reading Node's answer: %v", fn, err)
	}
	copy(m.b, out)
	for _, b := range m.backs {
		b()
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(out[len(m.b):]))
}

func examples(m *image, x *softmax.Examples[float32]) (start, index, value, labels int) {
	return put(m, x.Start, false), put(m, x.Index, false), put(m, x.Value, false), put(m, x.Labels, false)
}

// blocks copies x's pairs and singles (softmax.Block) and labels into m.
func blocks(m *image, x *softmax.Examples[float32]) (pstart, pairs, sstart, singles, labels int) {
	bl := softmax.Block(x)
	return put(m, bl.PairStart, false), put(m, bl.Pairs, false), put(m, bl.SingleStart, false), put(m, bl.Singles, false), put(m, x.Labels, false)
}

// install makes core run the module's kernels through n.
func (n *node) install() {
	softmax.SetBatchKernel(func(gw, gb, w, b []float32, x *softmax.Examples[float32], batch []int32) (float64, error) {
		m := &image{}
		sum := make([]float64, 1)
		pw, pb, pgw, pgb := put(m, w, false), put(m, b, false), put(m, gw, true), put(m, gb, true)
		ps, pp, ss, sp, l := blocks(m, x)
		bad := int(n.call(m, "grad", pw, pb, pgw, pgb, ps, pp, ss, sp, l, put(m, batch, false), len(batch), len(w)/softmax.K, put(m, sum, true)))
		if bad >= 0 {
			return 0, errOutOfRange
		}
		return sum[0], nil
	})
	softmax.SetUpdateKernel(func(w, g []float32, a, inv, lam float32) float64 {
		m := &image{}
		return n.call(m, "update", put(m, w, true), put(m, g, true), len(w), a, inv, lam)
	})
	metrics.SetEvalKernel(func(w, b []float32, x *softmax.Examples[float32], lo, hi int, class []uint8) (float64, error) {
		m := &image{}
		sum := make([]float64, 1)
		pw, pb := put(m, w, false), put(m, b, false)
		st, ix, v, l := examples(m, x)
		if int(n.call(m, "eval", pw, pb, st, ix, v, l, lo, hi, len(w)/softmax.K, put(m, sum, true), put(m, class, true))) >= 0 {
			return 0, errOutOfRange
		}
		return sum[0], nil
	})
	newton.SetKernels(newton.Kernels{
		Eval: func(g, h, mu, theta []float64, d int, x *softmax.Examples[float32], out []newton.EvalOut) error {
			m := &image{}
			pt, pg, ph, pmu, po := put(m, theta, false), put(m, g, true), put(m, h, true), put(m, mu, true), put(m, out, true)
			ps, pp, ss, sp, l := blocks(m, x)
			if int(n.call(m, "neval", pt, pg, ph, pmu, po, ps, pp, ss, sp, l, x.Len(), d)) >= 0 {
				return errOutOfRange
			}
			return nil
		},
		Hv: func(out, v, mu []float64, d int, x *softmax.Examples[float32]) error {
			m := &image{}
			pv, po, pmu := put(m, v, false), put(m, out, true), put(m, mu, false)
			ps, pp, ss, sp, _ := blocks(m, x)
			if int(n.call(m, "hv", pv, po, pmu, ps, pp, ss, sp, x.Len(), d)) >= 0 {
				return errOutOfRange
			}
			return nil
		},
	})
	shard.SetAdd(func(dst, src []float32) {
		m := &image{}
		n.call(m, "add32", put(m, dst, true), put(m, src, false), len(dst))
	}, func(dst, src []float64) {
		m := &image{}
		n.call(m, "add64", put(m, dst, true), put(m, src, false), len(dst))
	})
}

type outOfRange struct{}

func (outOfRange) Error() string { return "feature out of range" }

var errOutOfRange error = outOfRange{}

// problem is a set of examples of 784 features and a model for them.
type problem struct {
	name string
	x    *softmax.Examples[float32]
	m    *softmax.Model[float32]
}

// problems are the adversarial cases, each built from a seed.
func problems() []problem {
	const d = 784
	mnist := func(r *rand.Rand, n int, value func() float32) *softmax.Examples[float32] {
		x := &softmax.Examples[float32]{Start: []int32{0}}
		for i := range n {
			if i%13 != 7 { // some images are empty
				for j := r.IntN(5); j < d; j += 1 + r.IntN(8) {
					x.Index = append(x.Index, uint16(j))
					x.Value = append(x.Value, value())
				}
			}
			if i%5 == 2 && (len(x.Index) == int(x.Start[i]) || x.Index[len(x.Index)-1] != d-1) {
				x.Index = append(x.Index, d-1) // the last row
				x.Value = append(x.Value, value())
			}
			x.Start = append(x.Start, int32(len(x.Index)))
			x.Labels = append(x.Labels, uint8(r.IntN(softmax.K)))
		}
		return x
	}
	// strokes are MNIST's runs of neighbouring pixels, which the kernels
	// take in pairs: runs of 1 to 7 with gaps of 1 to 9, up to the last
	// pixel.
	strokes := func(r *rand.Rand, n int, value func() float32) *softmax.Examples[float32] {
		x := &softmax.Examples[float32]{Start: []int32{0}}
		for i := range n {
			if i%11 != 5 {
				for j := r.IntN(40); j < d; j += 1 + r.IntN(9) {
					for run := 1 + r.IntN(7); run > 0 && j < d; run-- {
						x.Index = append(x.Index, uint16(j))
						x.Value = append(x.Value, value())
						j++
					}
				}
			}
			x.Start = append(x.Start, int32(len(x.Index)))
			x.Labels = append(x.Labels, uint8(r.IntN(softmax.K)))
		}
		return x
	}
	model := func(r *rand.Rand, weight func() float32) *softmax.Model[float32] {
		m := softmax.New[float32](d)
		for i := range m.W {
			m.W[i] = weight()
		}
		for c := range m.B {
			m.B[c] = weight()
		}
		return m
	}
	r := rand.New(rand.NewPCG(11, 12))
	pixel := func() float32 { return float32(r.IntN(256)) / 255 }
	normal := func(std float64) func() float32 { return func() float32 { return float32(std * r.NormFloat64()) } }
	subnormal := func() float32 { return math.Float32frombits(uint32(1 + r.IntN(1<<23-1))) }
	zero := func() float32 { return 0 }
	noNine := strokes(r, 40, pixel)
	for i, y := range noNine.Labels {
		noNine.Labels[i] = y % 9 // no example of class 9
	}
	return []problem{
		{"MNIST-like", mnist(r, 70, pixel), model(r, normal(0.05))},
		{"strokes: pairs and singles", strokes(r, 60, pixel), model(r, normal(0.05))},
		{"strokes, large weights", strokes(r, 30, pixel), model(r, normal(40))},
		{"strokes, subnormal pixels", strokes(r, 30, subnormal), model(r, normal(0.5))},
		{"strokes, pixels and weights of 1e30 and 1e-30", strokes(r, 20, func() float32 { return float32(math.Pow(10, float64(30-60*r.IntN(2)))) }), model(r, normal(1e-20))},
		{"strokes, zero pixels, signed", strokes(r, 20, func() float32 { return float32(math.Copysign(0, float64(r.IntN(2)*2-1))) }), model(r, normal(1))},
		{"a class with no examples", noNine, model(r, normal(0.05))},
		{"large weights: huge logits, probabilities that underflow", mnist(r, 40, pixel), model(r, normal(40))},
		{"enormous weights: exponents below −707", mnist(r, 30, pixel), model(r, normal(3000))},
		{"all weights zero", mnist(r, 30, pixel), model(r, zero)},
		{"subnormal pixels", mnist(r, 30, subnormal), model(r, normal(0.5))},
		{"subnormal weights", mnist(r, 30, pixel), model(r, subnormal)},
		{"pixels and weights of 1e30 and 1e-30", mnist(r, 20, func() float32 { return float32(math.Pow(10, float64(30-60*r.IntN(2)))) }), model(r, normal(1e-20))},
	}
}

// compare runs f with Go's kernels and with the module's and compares the
// bits of what it returns.
func compare(t *testing.T, n *node, what string, f func() []uint64) {
	t.Helper()
	goKernels()
	want := f()
	n.install()
	got := f()
	goKernels()
	same(t, what, want, got)
}

// same fails t unless got has want's bits, number for number.
func same(t *testing.T, what string, want, got []uint64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d numbers, the Go code's %d", what, len(got), len(want))
	}
	bad := 0
	for i := range got {
		if got[i] != want[i] {
			if bad < 5 {
				t.Errorf("%s: number %d of %d has bits %#x, the Go code's %#x", what, i, len(got), got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d numbers differ", what, bad)
	}
}

func TestKernelsMatchGoBitForBit(t *testing.T) {
	n := startNode(t)
	defer goKernels()
	for _, p := range problems() {
		t.Run(p.name, func(t *testing.T) {
			x, m := p.x, p.m
			shuffled, inOrder := make([]int32, x.Len()), make([]int32, x.Len())
			for i := range shuffled {
				shuffled[i] = int32((i * 7) % x.Len()) // not in order, with repeats: in pairs
				inOrder[i] = int32(i)                  // as a full-batch pass: one at a time
			}
			for _, batch := range [][]int32{shuffled, inOrder} {
				compare(t, n, "the batch gradient", func() []uint64 {
					gw, gb := make([]float32, len(m.W)), make([]float32, softmax.K)
					loss := softmax.Grad(gw, gb, m.W, m.B, x, batch)
					return append(bits32(gw, gb), math.Float64bits(loss))
				})
			}
			for _, size := range []int{len(m.W), 8, 9, 10, 11} {
				for _, lam := range []float32{0, 1e-4, 3} {
					compare(t, n, "the update", func() []uint64 {
						w, g := append([]float32(nil), m.W[:size]...), append([]float32(nil), m.W[len(m.W)-size:]...)
						sq := softmax.Update(w, g, 0.5, 1.0/100, lam)
						return append(bits32(w, g), math.Float64bits(sq))
					})
				}
			}
			compare(t, n, "the evaluation", func() []uint64 {
				var out []uint64
				for _, r := range []metrics.Result{metrics.Evaluate(m, x), metrics.EvaluateRange(m, x, 3, x.Len()-2)} {
					out = append(out, math.Float64bits(r.LogLikelihood), uint64(r.Correct), uint64(r.N))
					for y := range r.Confusion {
						for _, c := range r.Confusion[y] {
							out = append(out, uint64(c))
						}
					}
				}
				return out
			})
			compare(t, n, "Newton's passes", func() []uint64 {
				p := newton.NewShard(x, 784, softmax.K)
				nn := 785 * softmax.K
				theta, v := make([]float64, nn), make([]float64, nn)
				for i := range theta {
					theta[i] = float64(m.W[i%len(m.W)])
					v[i] = float64(m.W[(i*7+3)%len(m.W)])
				}
				g, h, hv := make([]float64, nn), make([]float64, nn), make([]float64, nn)
				loss := p.Eval(g, h, theta, 0)
				p.Hv(hv, v, 0)
				return append(bits64(g, h, hv), math.Float64bits(loss))
			})
			compare(t, n, "the shards' sums", func() []uint64 {
				a := append([]float32(nil), m.W[:103]...)
				shard.Add32(a, m.W[200:303])
				b := make([]float64, 101)
				for i := range b {
					b[i] = float64(m.W[i]) * 1e300
				}
				shard.Add64(b, theta64(m.W[300:401]))
				return append(bits32(a), bits64(b)...)
			})
		})
	}
}

func theta64(w []float32) []float64 {
	out := make([]float64, len(w))
	for i, v := range w {
		out[i] = float64(v) * 1e-300
	}
	return out
}

// TestKernelsRefuseAPixelOutOfRange: each kernel reports the first
// example with a pixel index not below the model's rows, so that core
// refuses it as the Go code does (by panicking: a bug in the caller).
func TestKernelsRefuseAPixelOutOfRange(t *testing.T) {
	n := startNode(t)
	defer goKernels()
	n.install()
	x := &softmax.Examples[float32]{Start: []int32{0, 2, 4}, Index: []uint16{1, 2, 3, 784}, Value: []float32{1, 1, 1, 1}, Labels: []uint8{1, 2}}
	m := softmax.New[float32](784)
	panics := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s accepted pixel 784 of a 784-pixel model", what)
			}
		}()
		f()
	}
	panics("the batch gradient", func() {
		softmax.Grad(make([]float32, len(m.W)), make([]float32, softmax.K), m.W, m.B, x, []int32{0, 1})
	})
	panics("the evaluation", func() { metrics.EvaluateRange(m, x, 0, 2) })
	p := newton.NewShard(x, 784, softmax.K)
	nn := 785 * softmax.K
	panics("Newton's evaluation", func() { p.Eval(make([]float64, nn), make([]float64, nn), make([]float64, nn), 0) })
	panics("Newton's H·v", func() { p.Hv(make([]float64, nn), make([]float64, nn), 0) })
}

// TestGradStopsAtTheFirstBadExample: a pixel out of range, a single or
// the second pixel of a pair, at an example's start or end, ends the call
// at that example, whether the batch is shuffled or in order: the
// examples before it are added in, bit for bit as the Go code adds them,
// nothing of it or after it is, and the loss is not written.
func TestGradStopsAtTheFirstBadExample(t *testing.T) {
	n := startNode(t)
	defer goKernels()
	goKernels()
	r := rand.New(rand.NewPCG(5, 6))
	lengths := []int{3, 7, 2, 6, 5} // of unequal length
	m := softmax.New[float32](784)
	for i := range m.W {
		m.W[i] = float32(r.NormFloat64() * 0.05)
	}
	for _, batch := range [][]int32{
		{3, 0, 4, 1, 2}, // shuffled
		{0, 1, 2, 3, 4}, // in order
	} {
		for badAt := range batch {
			for _, where := range []string{"first pixel", "last pixel", "second pixel of a pair"} {
				x := &softmax.Examples[float32]{Start: []int32{0}}
				for e, l := range lengths {
					for p := range l {
						x.Index = append(x.Index, uint16(100+60*p+e))
						x.Value = append(x.Value, float32(r.Float64()))
					}
					x.Start = append(x.Start, int32(len(x.Index)))
					x.Labels = append(x.Labels, uint8(e))
				}
				e := batch[badAt]
				bad := int(x.Start[e])
				switch where {
				case "last pixel":
					bad = int(x.Start[e+1]) - 1
				case "second pixel of a pair": // 783 and 784, the pair's first in range
					bad = int(x.Start[e+1]) - 1
					x.Index[bad-1] = 783
				}
				x.Index[bad] = 784
				wantW, wantB := make([]float32, len(m.W)), make([]float32, softmax.K)
				softmax.Grad(wantW, wantB, m.W, m.B, x, batch[:badAt])
				gw, gb, sum := make([]float32, len(m.W)), make([]float32, softmax.K), []float64{-1}
				img := &image{}
				pw, pb, pgw, pgb := put(img, m.W, false), put(img, m.B, false), put(img, gw, true), put(img, gb, true)
				ps, pp, ss, sp, l := blocks(img, x)
				got := int(n.call(img, "grad", pw, pb, pgw, pgb, ps, pp, ss, sp, l, put(img, batch, false), len(batch), 784, put(img, sum, true)))
				what := fmt.Sprintf("batch %v, pixel 784 as example %d's %s", batch, e, where)
				if got != badAt {
					t.Errorf("%s: grad returned %d, want %d", what, got, badAt)
				}
				if sum[0] != -1 {
					t.Errorf("%s: grad wrote the loss %v", what, sum[0])
				}
				same(t, what, bits32(wantW, wantB), bits32(gw, gb))
			}
		}
	}
}
