//go:build amd64 && !purego

package softmax

// The SSE kernels against the Go code they must match bit for bit; they
// exist, and these tests are built, on amd64 without the purego tag only.

import (
	"math"
	"math/rand/v2"
	"testing"
)

// withGo runs f with the Go kernels instead of the SSE ones.
func withGo(f func()) {
	saved := haveSIMD
	haveSIMD = false
	defer func() { haveSIMD = saved }()
	f()
}

// TestSIMDKernelsMatchGoBitForBit: where the float32 kernels run in SIMD
// (amd64), they must give exactly the bits of the Go code that WebAssembly
// runs, or a run would differ between the browser and the native tools.
func TestSIMDKernelsMatchGoBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const d = 784
	x := mnistLike(r, 200)
	// Edge cases: no features, only the last feature, every feature.
	x.Index = append(x.Index, d-1)
	x.Value = append(x.Value, 0.5)
	x.Start = append(x.Start, x.Start[len(x.Start)-1], int32(len(x.Index)))
	for j := range d {
		x.Index = append(x.Index, uint16(j))
		x.Value = append(x.Value, float32(r.Float64()))
	}
	x.Start = append(x.Start, int32(len(x.Index)))
	x.Labels = append(x.Labels, 0, 9, 3)
	m := randomModel[float32](r, d, 1) // large weights: far-apart logits, tiny probabilities
	batch := iota32(x.Len())

	compareLogits(t, x, "SIMD logits, Go",
		func(z *[K]float32, _ int, index []uint16, value []float32) { Logits(z, m.W, m.B, index, value) },
		func(z *[K]float32, _ int, index []uint16, value []float32) {
			withGo(func() { Logits(z, m.W, m.B, index, value) })
		},
		sameBits32)
	gs, bs := make([]float32, d*K), make([]float32, K)
	gr, br := make([]float32, d*K), make([]float32, K)
	ls := Grad(gs, bs, m.W, m.B, x, batch)
	var lr float64
	withGo(func() { lr = Grad(gr, br, m.W, m.B, x, batch) })
	if ls != lr {
		t.Errorf("loss %v with SIMD, %v in Go", ls, lr)
	}
	for i := range gs {
		if math.Float32bits(gs[i]) != math.Float32bits(gr[i]) {
			t.Fatalf("gradient %d: SIMD %v, Go %v", i, gs[i], gr[i])
		}
	}
}

// TestPairLogitsSIMDMatchGo: the SSE pairs give the Go code's bits on
// the edges: no pixel, singles only, pairs only, a pair at the last two
// pixels, subnormal, huge and zero values and weights, negative zeros.
func TestPairLogitsSIMDMatchGo(t *testing.T) {
	const d = 784
	r := rand.New(rand.NewPCG(5, 6))
	lists := [][]uint16{nil, {5, 9, 700}, {0, 1, 2, 3, 100, 101}, {782, 783}, {1, 2, 3, 5, 6, 781, 782, 783}}
	var all []uint16
	for j := range d {
		all = append(all, uint16(j))
	}
	lists = append(lists, all)
	values := map[string]func() float32{
		"pixels":    func() float32 { return float32(r.IntN(256)) / 255 },
		"subnormal": func() float32 { return math.Float32frombits(uint32(1 + r.IntN(1<<23-1))) },
		"huge":      func() float32 { return float32(math.Pow(10, float64(30-60*r.IntN(2)))) },
		"zero":      func() float32 { return float32(math.Copysign(0, float64(r.IntN(2)*2-1))) },
	}
	for vname, value := range values {
		for wname, weight := range values {
			x := &Examples[float32]{Start: []int32{0}}
			for _, l := range lists {
				for _, j := range l {
					x.Index = append(x.Index, j)
					x.Value = append(x.Value, value())
				}
				x.Start = append(x.Start, int32(len(x.Index)))
				x.Labels = append(x.Labels, 0)
			}
			m := New[float32](d)
			for i := range m.W {
				m.W[i] = weight()
			}
			for c := range m.B {
				m.B[c] = weight()
			}
			bl := Block(x)
			compareLogits(t, x, vname+" values, "+wname+" weights: SSE, Go",
				func(z *[K]float32, i int, _ []uint16, _ []float32) { pairLogitsSIMD(z, m.W, m.B, bl, i) },
				func(z *[K]float32, _ int, index []uint16, value []float32) { pairLogits(z, m.W, m.B, index, value) },
				sameBits32)
		}
	}
}

// sameBits32 says whether a and b are the same float32, bit for bit.
func sameBits32(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }
