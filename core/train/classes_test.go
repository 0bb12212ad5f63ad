package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
)

// plane returns m points in two dimensions, k overlapping classes.
func plane(m, k int) *softmax.Examples[float32] {
	r := rand.New(rand.NewPCG(11, 3))
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for i := range m {
		y := i % k
		a := 2 * math.Pi * float64(y) / float64(k)
		x.Index = append(x.Index, 0, 1)
		x.Value = append(x.Value, float32(math.Cos(a)+0.8*r.NormFloat64()), float32(math.Sin(a)+0.8*r.NormFloat64()))
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(y))
	}
	return x
}

// TestTheTrainerLearnsFewerClasses: the digits' trainer, given points in
// the plane and three classes, descends to the optimum Newton's method
// finds on the same data, with and without the bias.
func TestTheTrainerLearnsFewerClasses(t *testing.T) {
	x := plane(90, 3)
	x64 := &softmax.Examples[float64]{Labels: x.Labels, Start: x.Start, Index: x.Index, Value: make([]float64, len(x.Value))}
	for i, v := range x.Value {
		x64.Value[i] = float64(v)
	}
	for _, noBias := range []bool{false, true} {
		o := softmax.Objective{Lambda: 0.01, NoBias: noBias}
		s, err := newton.New(x64, 2, o, newton.Settings{Classes: 3, GradTol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		var st newton.Stats
		for st = s.Iterate(); st.Stop == newton.Running; st = s.Iterate() {
		}
		tr, err := New(x, 2, Config{LearningRate: 1, BatchSize: x.Len(), L2: 0.01, NoBias: noBias, Classes: 3, Iterations: 3000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var last Stats
		for last = tr.Step(); last.Stop == Running; last = tr.Step() {
		}
		m := tr.Model()
		if m.Classes() != 3 || len(m.W) != 6 {
			t.Fatalf("a model of %d classes, %d weights", m.Classes(), len(m.W))
		}
		j := softmax.Loss(m, x, Positions(x.Len()), o)
		if j < st.J-1e-6 || j-st.J > 1e-4 {
			t.Errorf("bias %v: gradient descent ends at J = %.8f, Newton's optimum %.8f", !noBias, j, st.J)
		}
		if noBias && (m.B[0] != 0 || m.B[1] != 0 || m.B[2] != 0) {
			t.Errorf("NoBias: biases %v", m.B)
		}
	}
}

// TestFullBatchByShards: a full-batch step's gradient is the shards'
// parts added in shard order, whoever computes them: goroutines give
// Local's bits, and both differ from one sum over all examples (the test
// would not see a change of order otherwise).
func TestFullBatchByShards(t *testing.T) {
	x := synthetic(rand.New(rand.NewPCG(5, 5)), 403, 30)
	run := func(p Passes) *softmax.Model[float32] {
		tr, err := New(x, 30, Config{LearningRate: 0.5, BatchSize: x.Len(), L2: 1e-3, Iterations: 15, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		tr.SetPasses(p)
		for tr.Stopped() == Running {
			tr.Step()
		}
		return tr.Model()
	}
	want := run(nil)
	for _, n := range []int{1, 2, 3, 8} {
		if got := run(NewConcurrent(x, n)); !sameBits(got.W, want.W) || !sameBits(got.B, want.B) {
			t.Errorf("%d goroutines: other weights than Local's", n)
		}
	}
	gw, gb := make([]float32, 30*softmax.K), make([]float32, softmax.K)
	one := softmax.Grad(gw, gb, want.W, want.B, x, Positions(x.Len()))
	f := newFullBatch(x, 30, softmax.K)
	gw2, gb2 := make([]float32, len(gw)), make([]float32, len(gb))
	sharded := f.grad(gw2, gb2, want.W, want.B)
	if sameBits(gw, gw2) && math.Float64bits(one) == math.Float64bits(sharded) {
		t.Error("the shards' sum has the bits of one sum over all examples: the test cannot tell the orders apart")
	}
}
