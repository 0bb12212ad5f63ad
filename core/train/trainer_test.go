package train

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
)

// synthetic returns n examples with d features in which class c lights up
// features near c·d/K, plus noise, so that a linear model can learn it.
func synthetic(r *rand.Rand, n, d int) *softmax.Examples[float32] {
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for range n {
		y := r.IntN(softmax.K)
		centre := y * d / softmax.K
		for j := range d {
			near := j >= centre && j < centre+d/softmax.K
			if near && r.IntN(4) > 0 || r.IntN(10) == 0 {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32(r.Float64()))
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(y))
	}
	return x
}

func run(t *testing.T, x *softmax.Examples[float32], d int, cfg Config) (*Trainer, []Stats) {
	t.Helper()
	tr, err := New(x, d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var all []Stats
	for tr.Stopped() == Running {
		all = append(all, tr.Step())
		if len(all) > 1e6 {
			t.Fatal("the run does not end")
		}
	}
	return tr, all
}

func sameBits(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

func TestRunsAreReproducible(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 300, 50)
	for _, tt := range []struct {
		name string
		cfg  Config
	}{
		{"minibatches from zeros", Config{LearningRate: 0.5, BatchSize: 16, L2: 1e-3, Epochs: 3, Seed: 7}},
		{"SGD from a normal draw", Config{LearningRate: 0.1, BatchSize: 1, Epochs: 2, Seed: 7, Init: Normal, InitStd: 1}},
	} {
		t.Run(tt.name+" give the same bits with one seed", func(t *testing.T) {
			a, _ := run(t, x, 50, tt.cfg)
			b, _ := run(t, x, 50, tt.cfg)
			if !sameBits(a.Model().W, b.Model().W) || !sameBits(a.Model().B, b.Model().B) {
				t.Error("two runs with one seed differ")
			}
		})
		t.Run(tt.name+" differ with another seed", func(t *testing.T) {
			a, _ := run(t, x, 50, tt.cfg)
			cfg := tt.cfg
			cfg.Seed++
			b, _ := run(t, x, 50, cfg)
			if sameBits(a.Model().W, b.Model().W) {
				t.Error("two seeds give the same weights")
			}
		})
	}
}

func TestFullBatchStepIsGradientDescent(t *testing.T) {
	const d = 40
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 64, d)
	cfg := Config{LearningRate: 0.3, L2: 0.01, Iterations: 3, Seed: 1, Init: Normal, InitStd: 0.1}
	tr, err := New(x, d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		before := tr.Model().Clone()
		all := make([]int32, x.Len())
		for i := range all {
			all[i] = int32(i)
		}
		gw, gb := make([]float32, d*softmax.K), make([]float32, softmax.K)
		want := softmax.Gradient(gw, gb, before, x, all, softmax.Objective{Lambda: cfg.L2})
		st := tr.Step()
		if math.Abs(st.Loss-want) > 1e-5 {
			t.Errorf("step %d: loss %v, softmax.Loss %v", st.Step, st.Loss, want)
		}
		for i, w := range tr.Model().W {
			if e := before.W[i] - float32(cfg.LearningRate)*gw[i]; math.Abs(float64(w-e)) > 1e-6 {
				t.Fatalf("step %d: weight %d is %v, θ − α·gradient is %v", st.Step, i, w, e)
			}
		}
	}
}

func TestSparseUpdateMatchesDense(t *testing.T) {
	const d = 200
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 100, d)
	cfg := Config{LearningRate: 0.2, BatchSize: 2, Epochs: 2, Seed: 3, PinFirst: true}
	sparse, _ := run(t, x, d, cfg)
	dense, err := New(x, d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for dense.Stopped() == Running {
		// The dense path, forced: what Step does when the batch is large.
		m := len(dense.order)
		if dense.pos == 0 {
			dense.rng.Shuffle(m, func(i, j int) { dense.order[i], dense.order[j] = dense.order[j], dense.order[i] })
		}
		n := min(cfg.BatchSize, m-dense.pos)
		softmax.Grad(dense.gw, dense.gb, dense.model.W, dense.model.B, x, dense.order[dense.pos:dense.pos+n])
		dense.updateDense(n)
		dense.step++
		if dense.pos += n; dense.pos == m {
			dense.endEpoch(0)
		}
	}
	if !sameBits(sparse.Model().W, dense.Model().W) || !sameBits(sparse.Model().B, dense.Model().B) {
		t.Error("the sparse update differs from the dense one")
	}
}

func TestBudgetsAndStops(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 100, 30)
	tests := []struct {
		name      string
		cfg       Config
		wantSteps int
		wantStop  Stop
	}{
		{"epochs bound the run", Config{LearningRate: 0.1, BatchSize: 30, Epochs: 2}, 8, Budget},
		{"iterations bound the run", Config{LearningRate: 0.1, BatchSize: 30, Iterations: 7}, 7, Budget},
		{"full batch takes one step per epoch", Config{LearningRate: 0.1, Epochs: 5}, 5, Budget},
		{"a loose tolerance stops after the second epoch", Config{LearningRate: 0.01, BatchSize: 50, Epochs: 100, Tolerance: 10}, 4, Converged},
		{"a huge rate with L2 diverges", Config{LearningRate: 100, BatchSize: 10, L2: 1, Epochs: 1000}, -1, Diverged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, all := run(t, x, 30, tt.cfg)
			if tt.wantSteps >= 0 && len(all) != tt.wantSteps {
				t.Errorf("%d steps, want %d", len(all), tt.wantSteps)
			}
			if got := all[len(all)-1].Stop; got != tt.wantStop || tr.Stopped() != tt.wantStop {
				t.Errorf("stopped with %v, want %v", got, tt.wantStop)
			}
			if !tr.Model().Finite() {
				t.Error("the model is not finite after the run")
			}
			if st := tr.Step(); st.Stop != tt.wantStop || st.Step != len(all) {
				t.Errorf("a step after the end changed something: %+v", st)
			}
		})
	}
}

func TestDecayLowersTheRate(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 10, 30)
	_, all := run(t, x, 30, Config{LearningRate: 0.8, BatchSize: 10, Epochs: 5, Decay: 0.5, DecayEvery: 2})
	want := []float64{0.8, 0.8, 0.4, 0.4, 0.2}
	for i, st := range all {
		if st.Rate != want[i] {
			t.Errorf("epoch %d: rate %v, want %v", i, st.Rate, want[i])
		}
	}
}

func TestPinFirstKeepsClassZeroAtZero(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 200, 30)
	for _, init := range []Init{Zeros, Normal} {
		t.Run(init.String(), func(t *testing.T) {
			tr, _ := run(t, x, 30, Config{LearningRate: 0.5, BatchSize: 20, L2: 1e-3, Epochs: 3, PinFirst: true, Init: init, InitStd: 1})
			m := tr.Model()
			for j := range 30 {
				if m.W[j*softmax.K] != 0 {
					t.Fatalf("θ_0[%d] = %v", j, m.W[j*softmax.K])
				}
			}
			if m.B[0] != 0 {
				t.Errorf("b_0 = %v", m.B[0])
			}
		})
	}
}

func TestValidateNamesTheProblem(t *testing.T) {
	ok := Defaults()
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"a negative learning rate", func(c *Config) { c.LearningRate = -1 }, "learning rate -1"},
		{"a NaN learning rate", func(c *Config) { c.LearningRate = math.NaN() }, "learning rate NaN"},
		{"an infinite learning rate", func(c *Config) { c.LearningRate = math.Inf(1) }, "learning rate +Inf"},
		{"a batch larger than the set", func(c *Config) { c.BatchSize = 1001 }, "batch size 1001"},
		{"a negative batch", func(c *Config) { c.BatchSize = -3 }, "batch size -3"},
		{"a negative L2", func(c *Config) { c.L2 = -0.1 }, "L2 strength -0.1"},
		{"no budget", func(c *Config) { c.Epochs = 0 }, "no budget"},
		{"a decay above one", func(c *Config) { c.Decay, c.DecayEvery = 2, 1 }, "decay 2"},
		{"a NaN tolerance", func(c *Config) { c.Tolerance = math.NaN() }, "tolerance NaN"},
		{"a zero standard deviation", func(c *Config) { c.Init, c.InitStd = Normal, 0 }, "standard deviation 0"},
	}
	if err := ok.Validate(1000); err != nil {
		t.Fatalf("defaults refused: %v", err)
	}
	if err := LectureNotes().Validate(1000); err != nil {
		t.Fatalf("lecture notes preset refused: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			c := ok
			tt.edit(&c)
			err := c.Validate(1000)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
			if _, err := New(synthetic(rand.New(rand.NewPCG(1, 2)), 1000, 5), 5, c); err == nil {
				t.Error("New accepted it")
			}
		})
	}
}

func TestSetRate(t *testing.T) {
	tr, err := New(synthetic(rand.New(rand.NewPCG(1, 2)), 200, 5), 5, Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetRate(-1); err == nil {
		t.Error("a rate of -1 was accepted")
	}
	if err := tr.SetRate(0.05); err != nil || tr.Step().Rate != 0.05 {
		t.Errorf("SetRate(0.05): %v", err)
	}
	if err := tr.SetL2(-1); err == nil {
		t.Error("an L2 strength of -1 was accepted")
	}
	if err := tr.SetL2(0.5); err != nil || tr.Config().L2 != 0.5 {
		t.Errorf("SetL2(0.5): %v", err)
	}
}

func TestStepAllocatesNothing(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 2000, 784)
	for _, b := range []int{1, 100} {
		tr, err := New(x, 784, Config{LearningRate: 0.1, BatchSize: b, L2: 1e-4, Epochs: 1000})
		if err != nil {
			t.Fatal(err)
		}
		tr.Step()
		if a := testing.AllocsPerRun(50, func() { tr.Step() }); a != 0 {
			t.Errorf("batch %d: Step allocates %v times", b, a)
		}
	}
}
