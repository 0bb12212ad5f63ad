package train

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
)

// relabelled returns n examples drawn like synthetic's class from, labelled
// to: digits a person drew and labelled against what the data teach.
func relabelled(r *rand.Rand, n, d int, from, to uint8) *softmax.Examples[float32] {
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for len(x.Labels) < n {
		one := synthetic(r, 1, d)
		if one.Labels[0] != from {
			continue
		}
		x.Index = append(x.Index, one.Index...)
		x.Value = append(x.Value, one.Value...)
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, to)
	}
	return x
}

func runWith(t *testing.T, x, more *softmax.Examples[float32], d int, cfg Config) *Trainer {
	t.Helper()
	tr, err := New(x, d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetMyDigits(more); err != nil {
		t.Fatal(err)
	}
	for i := 0; tr.Stopped() == Running; i++ {
		if st := tr.Step(); more != nil && more.Len() > 0 && cfg.MyDigitsRate > 0 && st.MyDigits == 0 {
			t.Fatalf("step %d mixed in no my digits", st.Step)
		}
	}
	return tr
}

func TestMyDigitsAreLearnt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := synthetic(r, 2000, 50)
	mine := relabelled(r, 5, 50, 3, 8) // five 3s that the person calls 8
	cfg := Config{LearningRate: 0.5, BatchSize: 100, Epochs: 3, Seed: 1}
	without := runWith(t, x, nil, 50, cfg)
	if n := metrics.Evaluate(without.Model(), mine).Correct; n > 1 {
		t.Fatalf("without them, the model already reads %d of 5 relabelled examples as 8", n)
	}
	cfg.MyDigitsRate = 0.05 // 5 of my examples in every batch of 100
	with := runWith(t, x, mine, 50, cfg)
	if n := metrics.Evaluate(with.Model(), mine).Correct; n != 5 {
		t.Errorf("with them at rate 0.05, the model reads %d of 5 as labelled, want 5", n)
	}
	a, b := metrics.Evaluate(with.Model(), x).Correct, metrics.Evaluate(without.Model(), x).Correct
	t.Logf("training examples read: %d of 2000 with my 5 at rate 0.05, %d without", a, b)
	if a < b-b/20 {
		t.Errorf("with them, the model reads %d of 2000 training examples, without %d", a, b)
	}
}

func TestNoMyDigitsChangeNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := synthetic(r, 300, 50)
	mine := relabelled(r, 3, 50, 1, 2)
	for _, b := range []int{1, 100} { // the sparse and the dense update
		cfg := Config{LearningRate: 0.3, BatchSize: b, Epochs: 2, Seed: 4}
		plain, _ := run(t, x, 50, cfg)
		t.Run("rate 0 with my digits", func(t *testing.T) {
			if tr := runWith(t, x, mine, 50, cfg); !sameBits(tr.Model().W, plain.Model().W) || !sameBits(tr.Model().B, plain.Model().B) {
				t.Errorf("B=%d: the weights differ from a run without my digits", b)
			}
		})
		t.Run("a rate without my digits", func(t *testing.T) {
			c := cfg
			c.MyDigitsRate = 0.5
			if tr := runWith(t, x, nil, 50, c); !sameBits(tr.Model().W, plain.Model().W) {
				t.Errorf("B=%d: the weights differ from a run without my digits", b)
			}
		})
	}
}

func TestMyDigitsRunsAreReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := synthetic(r, 300, 50)
	mine := relabelled(r, 7, 50, 1, 2)
	for _, b := range []int{1, 30} {
		cfg := Config{LearningRate: 0.3, BatchSize: b, Epochs: 2, Seed: 4, MyDigitsRate: 0.2}
		a, c := runWith(t, x, mine, 50, cfg), runWith(t, x, mine, 50, cfg)
		if !sameBits(a.Model().W, c.Model().W) {
			t.Errorf("B=%d: two runs with the same seed differ", b)
		}
	}
}

func TestSparseUpdateMatchesDenseWithMyDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := synthetic(r, 200, 784)
	mine := relabelled(r, 4, 784, 5, 6)
	cfg := Config{LearningRate: 0.3, BatchSize: 20, Iterations: 30, Seed: 2, MyDigitsRate: 0.1}
	sparse := runWith(t, x, mine, 784, cfg) // λ = 0, (20+2)·8 ≤ 784: sparse
	dense, err := New(x, 784, cfg)
	if err != nil {
		t.Fatal(err)
	}
	dense.SetMyDigits(mine)
	for dense.Stopped() == Running {
		// The dense update, by hand, for the same batches.
		dense.obj.Lambda = 0
		dense.mark = dense.mark[:0] // forces updateDense: n·8 > len(mark)
		dense.Step()
		dense.mark = dense.mark[:784]
	}
	if !sameBits(sparse.Model().W, dense.Model().W) || !sameBits(sparse.Model().B, dense.Model().B) {
		t.Error("the sparse update with my digits differs from the dense one")
	}
}

func TestMyDigitsStepAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := synthetic(r, 2000, 784)
	mine := relabelled(r, 3, 784, 5, 6)
	for _, b := range []int{1, 100} {
		for _, l2 := range []float64{0, 1e-4} {
			tr, err := New(x, 784, Config{LearningRate: 0.1, BatchSize: b, L2: l2, Epochs: 1000, MyDigitsRate: 0.1})
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.SetMyDigits(mine); err != nil {
				t.Fatal(err)
			}
			tr.Step()
			if a := testing.AllocsPerRun(50, func() { tr.Step() }); a != 0 {
				t.Errorf("batch %d, λ %g: Step with my digits allocates %v times", b, l2, a)
			}
		}
	}
}

func TestMyDigitsErrors(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 100, 5)
	tr, err := New(x, 5, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	wide := synthetic(rand.New(rand.NewPCG(1, 2)), 10, 50)
	if err := tr.SetMyDigits(wide); err == nil || !strings.Contains(err.Error(), "my digits") {
		t.Errorf("examples with 50 features for a model of 5: %v", err)
	}
	for _, rate := range []float64{-0.1, 1.5, math.NaN()} {
		if err := tr.SetMyDigitsRate(rate); err == nil || !strings.Contains(err.Error(), "my digits rate") {
			t.Errorf("SetMyDigitsRate(%v): %v", rate, err)
		}
	}
	if err := tr.SetMyDigitsRate(0.25); err != nil || tr.Config().MyDigitsRate != 0.25 {
		t.Errorf("SetMyDigitsRate(0.25): %v", err)
	}
}

func TestSetModel(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 500, 50)
	cfg := Config{LearningRate: 0.5, BatchSize: 50, Epochs: 2, Seed: 3}
	first, _ := run(t, x, 50, cfg)
	fresh, err := New(x, 50, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the model is copied", func(t *testing.T) {
		if err := fresh.SetModel(first.Model()); err != nil {
			t.Fatal(err)
		}
		if !sameBits(fresh.Model().W, first.Model().W) || &fresh.Model().W[0] == &first.Model().W[0] {
			t.Error("SetModel did not copy the model")
		}
	})
	t.Run("training goes on from it", func(t *testing.T) {
		zero, _ := New(x, 50, cfg)
		if a, b := fresh.Step().Loss, zero.Step().Loss; a >= b {
			t.Errorf("first loss from the trained model %v, from zeros %v", a, b)
		}
	})
	t.Run("a model of another shape is refused", func(t *testing.T) {
		if err := fresh.SetModel(softmax.New[float32](49)); err == nil || !strings.Contains(err.Error(), "49 features") {
			t.Errorf("SetModel(49 features): %v", err)
		}
	})
	t.Run("a model with NaN is refused", func(t *testing.T) {
		m := softmax.New[float32](50)
		m.B[3] = float32(math.NaN())
		if err := fresh.SetModel(m); err == nil || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("SetModel(NaN): %v", err)
		}
	})
}
