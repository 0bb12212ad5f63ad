package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// TestInspectIsTheTrainersStep: the inspector's numbers are those the
// trainer computes, bit for bit. A trainer with B = 1 on a real training
// set is stopped mid-epoch; Inspect on the example it will take next gives
// the model that the trainer's Step then makes, and its logits,
// probabilities, loss and gradient are the kernels' for that example.
func TestInspectIsTheTrainersStep(t *testing.T) {
	const d = 784
	tests := []struct {
		name string
		cfg  func(*Config)
	}{
		{"without L2 (the sparse update)", func(c *Config) { c.L2 = 0 }},
		{"with L2 (the dense update)", func(c *Config) { c.L2 = 1e-3 }},
		{"with L2 on the bias too", func(c *Config) { c.L2, c.L2Bias = 1e-2, true }},
		{"with class 0 pinned", func(c *Config) { c.L2, c.PinFirst = 1e-4, true }},
		{"from normal weights", func(c *Config) { c.Init, c.InitStd, c.L2 = Normal, 0.1, 1e-4 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := synthetic(rand.New(rand.NewPCG(1, 2)), 60, d)
			cfg := Defaults()
			cfg.BatchSize, cfg.LearningRate, cfg.Epochs = 1, 0.3, 3
			tt.cfg(&cfg)
			tr, err := New(x, d, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for range 75 { // into the second epoch, away from a shuffle
				tr.Step()
			}
			i := tr.order[tr.pos]
			index, value := x.Example(int(i))
			y := x.Labels[i]
			before := tr.Model().Clone()
			in, err := Inspect(before, index, value, y, cfg.LearningRate, tr.obj)
			if err != nil {
				t.Fatal(err)
			}
			if !sameBits(before.W, tr.Model().W) || !sameBits(before.B, tr.Model().B) {
				t.Fatal("Inspect changed its model")
			}
			st := tr.Step()
			if !sameBits(in.After.W, tr.Model().W) || !sameBits(in.After.B, tr.Model().B) {
				t.Error("the inspected step and the trainer's step give different weights")
			}
			if got := in.Loss + in.Penalty; got != st.Loss {
				t.Errorf("loss %v + penalty %v = %v, the trainer's step says %v", in.Loss, in.Penalty, got, st.Loss)
			}

			var z [softmax.K]float32
			softmax.GradLogits(&z, before.W, before.B, index, value)
			if z != in.Z {
				t.Errorf("z = %v, GradLogits says %v", in.Z, z)
			}
			lse := softmax.Softmax(&z)
			if z != in.P {
				t.Errorf("p = %v, Softmax says %v", in.P, z)
			}
			if want := lse - float64(in.Z[y]); in.Loss != want || math.Abs(in.Loss+math.Log(float64(in.P[y]))) > 1e-5 {
				t.Errorf("loss %v, want %v = −log p_y = %v", in.Loss, want, -math.Log(float64(in.P[y])))
			}
			for c := range softmax.K {
				if in.Shifted[c] != in.Z[c]-in.Max || in.Shifted[c] > 0 {
					t.Errorf("z_%d − max = %v, want %v", c, in.Shifted[c], in.Z[c]-in.Max)
				}
				want := in.P[c]
				if c == int(y) {
					want--
				}
				if in.Diff[c] != want {
					t.Errorf("(p − y)_%d = %v, want %v", c, in.Diff[c], want)
				}
			}
			checkGradient(t, in, before, index, value, tr.obj)

			// After the step, the same example under the new weights.
			softmax.GradLogits(&z, in.After.W, in.After.B, index, value)
			if z != in.ZAfter {
				t.Errorf("z after = %v, GradLogits says %v", in.ZAfter, z)
			}
			lse = softmax.Softmax(&z)
			if z != in.PAfter || in.LossAfter != lse-float64(in.ZAfter[y]) {
				t.Errorf("p after = %v, loss after %v; want %v, %v", in.PAfter, in.LossAfter, z, lse-float64(in.ZAfter[y]))
			}
			// Where the example is not already learnt (the L2 term may then
			// outweigh it), one small step lowers its loss.
			if in.Loss > 1e-3 && in.LossAfter >= in.Loss {
				t.Errorf("one small step did not lower the example's loss: %v to %v", in.Loss, in.LossAfter)
			}
		})
	}
}

// checkGradient compares the inspected gradient with the notes' formula
// ∇θ_c = (p_c − y_c)x + λθ_c, rounded as the kernels round, and the
// update θ_c := θ_c − α∇θ_c with After.
func checkGradient(t *testing.T, in *Inspection, m *softmax.Model[float32], index []uint16, value []float32, obj softmax.Objective) {
	t.Helper()
	x := make([]float32, m.D)
	for k, j := range index {
		x[j] = value[k]
	}
	lam, a := float32(obj.Lambda), float32(in.Rate)
	bad := 0
	for j := range m.D {
		for c := range softmax.K {
			i := j*softmax.K + c
			g := float32(x[j]*in.Diff[c]) + float32(lam*m.W[i])
			w := m.W[i] - float32(a*g)
			if obj.PinFirst && c == 0 {
				g, w = 0, 0
			}
			if in.GW[i] != g || in.After.W[i] != w {
				if bad++; bad <= 3 {
					t.Errorf("pixel %d class %d: ∇θ = %v, θ after = %v; want %v, %v", j, c, in.GW[i], in.After.W[i], g, w)
				}
			}
		}
	}
	for c := range softmax.K {
		g := in.Diff[c]
		if obj.L2Bias {
			g += float32(lam * m.B[c])
		}
		b := m.B[c] - float32(a*g)
		if obj.PinFirst && c == 0 {
			g, b = 0, 0
		}
		if in.GB[c] != g || in.After.B[c] != b {
			t.Errorf("class %d: ∇b = %v, b after = %v; want %v, %v", c, in.GB[c], in.After.B[c], g, b)
		}
	}
}

// TestStepOnIsAOneExampleTrainer: StepOn changes a model as a Trainer with
// B = 1 on a training set of that one example does, and refuses what the
// trainer refuses.
func TestStepOnIsAOneExampleTrainer(t *testing.T) {
	const d = 784
	x := synthetic(rand.New(rand.NewPCG(3, 4)), 20, d)
	base, _ := run(t, x, d, Config{LearningRate: 0.5, BatchSize: 10, L2: 1e-3, Epochs: 2, Seed: 1})
	m := base.Model().Clone()
	for i := range 5 {
		index, value := x.Example(i)
		y := x.Labels[i]
		solo := &softmax.Examples[float32]{Labels: []uint8{y}, Start: []int32{0, int32(len(index))}, Index: index, Value: value}
		tr, err := New(solo, d, Config{LearningRate: 0.2, BatchSize: 1, L2: 1e-3, Epochs: 1, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		tr.Model().CopyFrom(m)
		want := tr.Step()
		got, err := StepOn(m, index, value, y, 0.2, softmax.Objective{Lambda: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		if !sameBits(m.W, tr.Model().W) || !sameBits(m.B, tr.Model().B) || got.Loss != want.Loss {
			t.Fatalf("example %d: StepOn and a one-example trainer differ", i)
		}
	}
	t.Run("a rate out of range is refused and changes nothing", func(t *testing.T) {
		index, value := x.Example(0)
		before := m.Clone()
		if _, err := StepOn(m, index, value, x.Labels[0], 0, softmax.Objective{}); err == nil {
			t.Error("no error")
		}
		if !sameBits(m.W, before.W) {
			t.Error("the model changed")
		}
	})
	t.Run("a pixel out of range is refused", func(t *testing.T) {
		if _, err := Inspect(m, []uint16{784}, []float32{1}, 3, 0.1, softmax.Objective{}); err == nil {
			t.Error("no error")
		}
	})
}

// BenchmarkInspect measures what the page computes when a person picks an
// image for the inspector: one Inspect on a 784-pixel example.
func BenchmarkInspect(b *testing.B) {
	const d = 784
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 10, d)
	m := softmax.New[float32](d)
	m.InitNormal(rand.New(rand.NewPCG(3, 4)), 0.01)
	index, value := x.Example(0)
	obj := softmax.Objective{Lambda: 1e-4}
	in, err := Inspect(m, index, value, x.Labels[0], 0.5, obj)
	if err != nil {
		b.Fatal(err)
	}
	after := m.Clone()
	if _, err := StepOn(after, index, value, x.Labels[0], 0.5, obj); err != nil || !sameBits(after.W, in.After.W) {
		b.Fatal("Inspect's update is not StepOn's")
	}
	b.ReportAllocs()
	for b.Loop() {
		Inspect(m, index, value, x.Labels[0], 0.5, obj)
	}
}
