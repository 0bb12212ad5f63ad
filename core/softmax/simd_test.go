package softmax

import "testing"

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
