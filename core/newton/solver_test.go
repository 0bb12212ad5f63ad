package newton

import (
	"math"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
)

// run iterates s to its end and returns every iteration's Stats.
func runAll(s *Solver) []Stats {
	var all []Stats
	for {
		st := s.Iterate()
		all = append(all, st)
		if st.Stop != Running {
			return all
		}
	}
}

// goldenJ holds the bits of J after the initial evaluation and each of
// the first five iterations on randomProblem(200, 20, 7) with λ = 1e-3,
// written by this test natively (linux/amd64), with every pass summed
// shard by shard in shard order (core/shard). The same test compiled to
// WebAssembly must give the same bits.
var goldenJ = []uint64{
	0x40026bb1bbb55514, 0x3ffef774cb4bb27c, 0x3ffed4a775caf65f,
	0x3ffe0e76ce9e7c75, 0x3ffdfc2e7fb7b2fb, 0x3ffdf8ab6ec68066,
}

// goldenJacobi is goldenJ with Settings.Jacobi.
var goldenJacobi = []uint64{
	0x40026bb1bbb55514, 0x3fff1a606088da8b, 0x3ffeed6918e1d6fc,
	0x3ffe3f82fe670155, 0x3ffdfe32dd2c49c9, 0x3ffdfa013483e5f9,
}

func TestSameBitsEverywhere(t *testing.T) {
	x, _ := randomProblem(200, 20, 7)
	t.Run("with Jacobi preconditioning too", func(t *testing.T) {
		s, err := New(x, 20, softmax.Objective{Lambda: 1e-3}, Settings{Iterations: 5, GradTol: 1e-300, RelTol: 1e-300, Jacobi: true})
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range runAll(s) {
			if b := math.Float64bits(st.J); b != goldenJacobi[i] {
				t.Errorf("iteration %d: J bits %#x, golden %#x", i, b, goldenJacobi[i])
			}
		}
	})
	o := softmax.Objective{Lambda: 1e-3}
	s, err := New(x, 20, o, Settings{Iterations: 5, GradTol: 1e-300, RelTol: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	all := runAll(s)
	var got []uint64
	for _, st := range all {
		got = append(got, math.Float64bits(st.J))
	}
	t.Run("J matches the golden bits", func(t *testing.T) {
		if len(got) != len(goldenJ) {
			t.Fatalf("%d values, want %d: %#x", len(got), len(goldenJ), got)
		}
		for i := range got {
			if got[i] != goldenJ[i] {
				t.Errorf("iteration %d: J %v (%#x), golden %v (%#x)", i, math.Float64frombits(got[i]), got[i],
					math.Float64frombits(goldenJ[i]), goldenJ[i])
			}
		}
	})
	t.Run("the shards' workers change no bit", func(t *testing.T) {
		for _, workers := range []int{1, 2, 3, 8} {
			s, err := NewWith(newPool(x, 20, workers), x.Len(), 20, o, Settings{Iterations: 5, GradTol: 1e-300, RelTol: 1e-300})
			if err != nil {
				t.Fatal(err)
			}
			var js []uint64
			for _, st := range runAll(s) {
				js = append(js, math.Float64bits(st.J))
			}
			if len(js) != len(got) {
				t.Fatalf("%d workers: %d iterations, want %d", workers, len(js), len(got))
			}
			for i := range js {
				if js[i] != got[i] {
					t.Fatalf("%d workers: iteration %d: J bits %#x, want %#x", workers, i, js[i], got[i])
				}
			}
		}
	})
}

// TestAgreesWithGradientDescent: a long run of full-batch gradient descent
// in float64 approaches the point Newton finds.
func TestAgreesWithGradientDescent(t *testing.T) {
	x, _ := randomProblem(60, 6, 8)
	for _, o := range []softmax.Objective{{Lambda: 0.05}, {Lambda: 0.05, PinFirst: true}, {Lambda: 0.02, L2Bias: true}} {
		s, err := New(x, 6, o, Settings{GradTol: 1e-8, RelTol: 1e-300}) // J ≈ 2.1 here: below ~1e-9 its decrease is under rounding
		if err != nil {
			t.Fatal(err)
		}
		all := runAll(s)
		if st := all[len(all)-1]; st.Stop != Converged || st.Iteration > 10 {
			t.Fatalf("%+v: %s", o, s.Reason())
		}
		v := make([]float64, (6+1)*K)
		var gd float64
		for range 20000 {
			g := gradAt(v, 6, x, o)
			for i := range v {
				v[i] -= 1.0 * g[i]
			}
		}
		gd = lossRange(0, v, 6, x, 0, x.Len())/float64(x.Len()) + penalty(v, 6, o)
		nt := all[len(all)-1].J
		if gd < nt-1e-15 || gd-nt > 1e-10 {
			t.Errorf("%+v: gradient descent's J %.15f, Newton's %.15f", o, gd, nt)
		}
		w := flat(s.Model())
		if !o.PinFirst && !o.L2Bias {
			// The bias is determined up to a constant (its ψ direction):
			// gradient descent keeps Σb = 0, Newton need not.
			center(w[6*K:])
			center(v[6*K:])
		}
		for i := range v {
			if math.Abs(w[i]-v[i]) > 1e-6 {
				t.Errorf("%+v: parameter %d: Newton %v, gradient descent %v", o, i, w[i], v[i])
				break
			}
		}
		if o.PinFirst && (w[0] != 0 || w[6*K] != 0) {
			t.Errorf("class 0 moved under PinFirst: %v %v", w[0], w[6*K])
		}
	}
}

func TestStops(t *testing.T) {
	x, _ := randomProblem(80, 8, 9)
	t.Run("converged names the tolerance and the iterations", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{Lambda: 0.01}, Settings{GradTol: 1e-5, RelTol: 1e-300})
		all := runAll(s)
		last := all[len(all)-1]
		if last.Stop != Converged || last.GradNorm > 1e-5 || !strings.HasPrefix(s.Reason(), "‖∇J‖ ≤ 1e-05 after ") {
			t.Errorf("%+v: %s", last, s.Reason())
		}
		for i := 1; i < len(all); i++ {
			if all[i].J > all[i-1].J {
				t.Errorf("J rose at iteration %d", i)
			}
			if all[i].CG < 1 || all[i].Step <= 0 || all[i].Trials < 1 {
				t.Errorf("iteration %d: %+v", i, all[i])
			}
		}
	})
	t.Run("the relative rule names ‖∇J₀‖ and the iterations", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{Lambda: 0.01}, Settings{GradTol: 1e-300, RelTol: 1e-3})
		all := runAll(s)
		last, g0 := all[len(all)-1], all[0].GradNorm
		if last.Stop != Converged || last.GradNorm > 1e-3*g0 || all[len(all)-2].GradNorm <= 1e-3*g0 ||
			!strings.HasPrefix(s.Reason(), "‖∇J‖ ≤ 0.001·‖∇J₀‖ = ") {
			t.Errorf("%+v after ‖∇J₀‖ = %g: %s", last, g0, s.Reason())
		}
	})
	t.Run("the budget", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{Lambda: 0.01}, Settings{GradTol: 1e-300, RelTol: 1e-300, Iterations: 2})
		all := runAll(s)
		if last := all[len(all)-1]; last.Stop != Budget || last.Iteration != 2 || !strings.Contains(s.Reason(), "budget of 2") {
			t.Errorf("%+v: %s", last, s.Reason())
		}
	})
	t.Run("a CG cap of one step still descends", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{Lambda: 0.01}, Settings{GradTol: 1e-300, RelTol: 1e-300, Iterations: 5, CGSteps: 1})
		all := runAll(s)
		for i := 1; i < len(all); i++ {
			if all[i].CG != 1 || !(all[i].J < all[i-1].J) {
				t.Errorf("iteration %d: %+v", i, all[i])
			}
		}
	})
	t.Run("exact Newton on a singular H stops with the error", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{}, Settings{Exact: true})
		all := runAll(s)
		if last := all[len(all)-1]; last.Stop != Singular || s.Err() == nil ||
			!strings.Contains(s.Reason(), "not positive definite") || math.IsNaN(last.J) {
			t.Errorf("%+v: %s", last, s.Reason())
		}
		if !s.Model().Finite() {
			t.Error("the model is not finite")
		}
	})
	t.Run("exact Newton with λ > 0 converges in a few iterations", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{Lambda: 1e-3}, Settings{Exact: true, GradTol: 1e-10, RelTol: 1e-300})
		all := runAll(s)
		if last := all[len(all)-1]; last.Stop != Converged || last.Iteration > 10 {
			t.Errorf("%+v: %s", last, s.Reason())
		}
	})
	t.Run("after the end Advance does nothing", func(t *testing.T) {
		s, _ := New(x, 8, softmax.Objective{Lambda: 0.01}, Settings{Iterations: 1})
		all := runAll(s)
		again := s.Advance()
		if again.Passes != all[len(all)-1].Passes || again.Stop != Budget {
			t.Errorf("%+v", again)
		}
	})
}

func TestInvalidSettings(t *testing.T) {
	x, _ := randomProblem(10, 4, 1)
	tests := []struct {
		name string
		o    softmax.Objective
		s    Settings
		d    int
		want string
	}{
		{"a negative tolerance", softmax.Objective{}, Settings{GradTol: -1}, 4, "gradient tolerance -1"},
		{"a NaN tolerance", softmax.Objective{}, Settings{GradTol: math.NaN()}, 4, "gradient tolerance NaN"},
		{"a relative tolerance of 1", softmax.Objective{}, Settings{RelTol: 1}, 4, "relative gradient tolerance 1"},
		{"a negative relative tolerance", softmax.Objective{}, Settings{RelTol: -1e-4}, 4, "relative gradient tolerance -0.0001"},
		{"negative iterations", softmax.Objective{}, Settings{Iterations: -1}, 4, "iterations -1"},
		{"negative CG steps", softmax.Objective{}, Settings{CGSteps: -2}, 4, "CG steps -2"},
		{"a negative λ", softmax.Objective{Lambda: -1}, Settings{}, 4, "L2 strength -1"},
		{"exact on 784 features", softmax.Objective{}, Settings{Exact: true}, 784, "downsample"},
		{"features out of range", softmax.Objective{}, Settings{}, 2, "out of order or range"},
		{"a start of another shape", softmax.Objective{}, Settings{Start: softmax.New[float64](3)}, 4, "start with 3 features"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(x, tt.d, tt.o, tt.s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestAdvanceAllocatesNothing(t *testing.T) {
	x, _ := randomProblem(100, 10, 2)
	for _, exact := range []bool{false, true} {
		s, _ := New(x, 10, softmax.Objective{Lambda: 1e-3}, Settings{GradTol: 1e-300, RelTol: 1e-300, Iterations: 1000, Exact: exact})
		s.Advance()
		if n := testing.AllocsPerRun(50, func() { s.Advance() }); n != 0 {
			t.Errorf("exact %v: %v allocations per Advance", exact, n)
		}
	}
}

// center subtracts the mean from b.
func center(b []float64) {
	m := 0.0
	for _, v := range b {
		m += v
	}
	m /= float64(len(b))
	for i := range b {
		b[i] -= m
	}
}
