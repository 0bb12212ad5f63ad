package softmax

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/internal/fmath"
)

// specKernel is the BatchKernel contract written out in Go, the way
// web/kernels.wat implements it: Grad must give the same bits through it
// as without it.
func specKernel(gw, gb, w, b []float32, x *Examples[float32], batch []int32) (float64, error) {
	loss := 0.0
	for _, i := range batch {
		index, value := x.Example(int(i))
		for _, j := range index {
			if int(j) >= len(w)/K {
				return 0, errors.New("feature out of range")
			}
		}
		var z [K]float32
		pairLogits(&z, w, b, index, value)
		m := z[0]
		for c := 1; c < K; c++ {
			if z[c] > m {
				m = z[c]
			}
		}
		zy := z[x.Labels[i]]
		var e [K]float64
		s := 0.0
		for c := range K {
			e[c] = fmath.Exp(float64(z[c] - m))
			s += e[c]
		}
		loss += float64(m) + fmath.Log(s) - float64(zy)
		for c := range K {
			p := e[c] * (1 / s)
			if p < 0x1p-100 {
				p = 0
			}
			z[c] = float32(p)
		}
		z[x.Labels[i]]--
		scatterGo(gw, index, value, &z)
		for c := range K {
			gb[c] += z[c]
		}
	}
	return loss, nil
}

func TestGradThroughABatchKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := mnistLike(r, 300)
	m := randomModel[float32](r, 784, 0.3)
	batch := iota32(x.Len())
	gw, gb := make([]float32, 784*K), make([]float32, K)
	want := Grad(gw, gb, m.W, m.B, x, batch)

	SetBatchKernel(specKernel)
	defer SetBatchKernel(nil)
	kw, kb := make([]float32, 784*K), make([]float32, K)
	got := Grad(kw, kb, m.W, m.B, x, batch)
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("loss %v through the kernel, %v without", got, want)
	}
	for i := range gw {
		if math.Float32bits(kw[i]) != math.Float32bits(gw[i]) {
			t.Fatalf("gradient %d: %v through the kernel, %v without", i, kw[i], gw[i])
		}
	}
	for c := range gb {
		if math.Float32bits(kb[c]) != math.Float32bits(gb[c]) {
			t.Fatalf("bias gradient %d differs", c)
		}
	}
	if a := testing.AllocsPerRun(5, func() { Grad(kw, kb, m.W, m.B, x, batch) }); a != 0 {
		t.Errorf("Grad through a kernel allocates %v times", a)
	}
}

func TestFloat64NeverGoesToTheBatchKernel(t *testing.T) {
	calls := 0
	SetBatchKernel(func(gw, gb, w, b []float32, x *Examples[float32], batch []int32) (float64, error) {
		calls++
		return 0, nil
	})
	defer SetBatchKernel(nil)
	r := rand.New(rand.NewPCG(1, 2))
	x, m := randomExamples[float64](r, 5, 7), randomModel[float64](r, 7, 1)
	loss := Grad(make([]float64, 7*K), make([]float64, K), m.W, m.B, x, iota32(5))
	if calls != 0 {
		t.Errorf("float64 data went to the float32 kernel %d times", calls)
	}
	if want := naiveLoss(m, x, iota32(5), Objective{}) * 5; math.Abs(loss-want) > 1e-9 {
		t.Errorf("loss %v, the reference %v", loss, want)
	}
	// And a float32 batch does go to it.
	Grad(make([]float32, 784*K), make([]float32, K), make([]float32, 784*K), make([]float32, K), mnistLike(r, 3), iota32(3))
	if calls != 1 {
		t.Errorf("a float32 batch went to the kernel %d times, want once", calls)
	}
}

func TestABatchKernelErrorPanics(t *testing.T) {
	SetBatchKernel(func([]float32, []float32, []float32, []float32, *Examples[float32], []int32) (float64, error) {
		return 0, errors.New("feature out of range in example 3 of the batch")
	})
	defer SetBatchKernel(nil)
	defer func() {
		if r := recover(); r == nil {
			t.Error("a kernel's error was ignored")
		}
	}()
	Grad(make([]float32, 784*K), make([]float32, K), make([]float32, 784*K), make([]float32, K), mnistLike(rand.New(rand.NewPCG(1, 2)), 3), iota32(3))
}
