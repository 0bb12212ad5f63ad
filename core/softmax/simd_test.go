package softmax

import (
	"math"
	"math/rand/v2"
	"testing"
)

// withGo runs f with the Go kernels even where SIMD ones exist.
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
	if !haveSIMD {
		t.Skip("this platform runs the Go kernels only")
	}
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

	for i := range x.Len() {
		idx, val := x.Example(i)
		var simd, ref [K]float32
		Logits(&simd, m.W, m.B, idx, val)
		withGo(func() { Logits(&ref, m.W, m.B, idx, val) })
		for c := range K {
			if math.Float32bits(simd[c]) != math.Float32bits(ref[c]) {
				t.Fatalf("example %d, class %d: SIMD logit %v, Go %v", i, c, simd[c], ref[c])
			}
		}
	}
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

func TestKernelsPanicOnAFeatureOutOfRange(t *testing.T) {
	m := New[float32](3)
	for _, useSIMD := range []bool{false, true} {
		if useSIMD && !haveSIMD {
			continue
		}
		saved := haveSIMD
		haveSIMD = useSIMD
		x := &Examples[float32]{Start: []int32{0, 2, 4}, Index: []uint16{1, 3, 2, 3}, Value: []float32{1, 1, 1, 1}, Labels: []uint8{0, 0}}
		for name, f := range map[string]func(){
			"Logits":                  func() { var z [K]float32; Logits(&z, m.W, m.B, []uint16{1, 3}, []float32{1, 1}) },
			"scatter":                 func() { var d [K]float32; scatter(make([]float32, 3*K), []uint16{0, 7}, []float32{1, 1}, &d) },
			"Grad, a single":          func() { Grad(make([]float32, 3*K), make([]float32, K), m.W, m.B, x, []int32{0}) },
			"Grad, a pair's second":   func() { Grad(make([]float32, 3*K), make([]float32, K), m.W, m.B, x, []int32{1}) },
			"GradLogits, pair's last": func() { var z [K]float32; GradLogits(&z, m.W, m.B, []uint16{2, 3}, []float32{1, 1}) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s (SIMD %v) read past the weights without panicking", name, useSIMD)
					}
				}()
				f()
			}()
		}
		haveSIMD = saved
	}
}
