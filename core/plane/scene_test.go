package plane

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// generate returns the data set name with k classes and the seed, failing
// the test on an error.
func generate(t *testing.T, name string, k int, seed uint64) Data {
	t.Helper()
	d, err := Generate(name, k, seed)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// build returns the Scene of the data set name with k classes (seed 1)
// and s, failing the test on an error.
func build(t *testing.T, name string, k int, s Settings) (Data, *Scene) {
	t.Helper()
	d := generate(t, name, k, 1)
	sc, err := Build(d, s)
	if err != nil {
		t.Fatal(err)
	}
	return d, sc
}

// directJ computes J(θ) for flat θ straight from its definition, with
// math.Exp and math.Log: the mean over the points of
// log Σ_c exp z_c − z_y, z_c = θ_c·x + b_c, plus (λ/2)Σθ².
func directJ(d Data, theta []float64, lambda float64) float64 {
	k := d.K
	s := 0.0
	for _, p := range d.Points {
		z := make([]float64, k)
		top := math.Inf(-1)
		for c := range k {
			z[c] = theta[2*k+c] + theta[c]*p.X[0] + theta[k+c]*p.X[1]
			top = max(top, z[c])
		}
		e := 0.0
		for _, zc := range z {
			e += math.Exp(zc - top)
		}
		s += top + math.Log(e) - z[p.Class]
	}
	pen := 0.0
	for _, w := range theta[:2*k] {
		pen += w * w
	}
	return s/float64(len(d.Points)) + lambda/2*pen
}

// TestTheSurfaceIsJ: the surface's values at sample nodes, and J along
// the paths, are J computed directly, for the exact surface and for
// slices (K = 3 with the bias, λ > 0); core/softmax's Loss agrees too.
func TestTheSurfaceIsJ(t *testing.T) {
	exact := Defaults()
	slice := Defaults()
	slice.Bias, slice.Pin, slice.Lambda, slice.Start = true, false, 0.01, [2]float64{1, -0.5}
	for _, c := range []struct {
		name string
		k    int
		s    Settings
	}{{"overlap", 2, exact}, {"separable", 2, exact}, {"blobs", 3, slice}, {"ring", 4, slice}} {
		t.Run(fmt.Sprintf("%s K=%d exact=%v", c.name, c.k, c.s.Exact(c.k)), func(t *testing.T) {
			d, sc := build(t, c.name, c.k, c.s)
			if sc.Exact != c.s.Exact(c.k) {
				t.Fatalf("Exact %v", sc.Exact)
			}
			x := Examples[float64](d)
			r := rand.New(rand.NewPCG(1, 2))
			for range 40 {
				i, row := r.IntN(GridSize), r.IntN(GridSize)
				theta := sc.Theta(sc.Node(i, row))
				want := directJ(d, theta, c.s.Lambda)
				if got := sc.J[row*GridSize+i]; math.Abs(got-want) > 1e-12*max(1, want) {
					t.Errorf("node (%d, %d) θ = %v: surface %.15g, J %.15g", i, row, theta, got, want)
				}
				md := &softmax.Model[float64]{D: 2, W: theta[:2*c.k], B: theta[2*c.k:]}
				if core := softmax.Loss(md, x, train.Positions(x.Len()), c.s.Objective()); math.Abs(core-want) > 1e-12*max(1, want) {
					t.Errorf("core/softmax's Loss %.15g, J %.15g", core, want)
				}
			}
			for _, p := range sc.Paths {
				for i, theta := range p.Theta {
					if want := directJ(d, theta, c.s.Lambda); math.Abs(p.Loss[i]-want) > 1e-12*max(1, want) {
						t.Fatalf("%v step %d: J %.15g, direct %.15g", p.Method, i, p.Loss[i], want)
					}
					if q := sc.project(theta); sc.Exact && (q[0] != theta[1] || q[1] != theta[3]) {
						t.Fatalf("%v step %d: the exact surface shows θ %v at %v", p.Method, i, theta, q)
					}
				}
			}
			if sc.Exact && (sc.Paths[0].Points[0] != c.s.Start) {
				t.Errorf("the paths start at %v, not at %v", sc.Paths[0].Points[0], c.s.Start)
			}
		})
	}
}

// TestNewtonFindsTheMinimumOfOverlap: on overlap, for K = 2…5, with and
// without the bias, Newton's method brings ‖∇J‖ to 1e-8 or less within
// 15 iterations, from θ = 0 (the minimum) and from the start (its path);
// gradient descent and SGD never go below its final J.
func TestNewtonFindsTheMinimumOfOverlap(t *testing.T) {
	for k := MinClasses; k <= MaxClasses; k++ {
		for _, bias := range []bool{false, true} {
			s := Defaults()
			s.Bias, s.Pin = bias, !bias
			t.Run(fmt.Sprintf("K=%d bias=%v", k, bias), func(t *testing.T) {
				_, sc := build(t, "overlap", k, s)
				if !sc.HasMin || sc.MinGrad > 1e-8 || sc.MinIterations > 15 {
					t.Errorf("the minimum: found %v, ‖∇J‖ = %.3g after %d iterations", sc.HasMin, sc.MinGrad, sc.MinIterations)
				}
				nt := sc.Paths[Newton]
				if nt.Stop != Converged || nt.Grad > 1e-8 || nt.Steps > 15 {
					t.Errorf("Newton's path: %v, ‖∇J‖ = %.3g after %d steps", nt.Stop, nt.Grad, nt.Steps)
				}
				final := nt.Loss[len(nt.Loss)-1]
				if math.Abs(final-sc.MinLoss) > 1e-12 {
					t.Errorf("Newton's path ends at J = %.15g, the minimum is %.15g", final, sc.MinLoss)
				}
				for _, m := range []Method{GD, SGD} {
					for i, j := range sc.Paths[m].Loss {
						// Both J are exact to about 1e-15: a GD step can land
						// at most that far below a minimum it has reached.
						if j < final-1e-13 {
							t.Fatalf("%v step %d: J = %.15g, below Newton's %.15g", m, i, j, final)
						}
					}
				}
			})
		}
	}
}

// TestSeparableDataHaveNoMinimumWithoutLambda: on separable data with
// λ = 0, ‖θ‖ grows at every one of 1,000 steps of gradient descent while
// J falls towards 0, and the Scene says there is no minimum; with λ > 0
// gradient descent converges to Newton's minimum, and ‖θ‖ stays there.
func TestSeparableDataHaveNoMinimumWithoutLambda(t *testing.T) {
	s := Defaults()
	s.Steps, s.Start = 1000, [2]float64{0, 0}
	_, sc := build(t, "separable", 2, s)
	gd := sc.Paths[GD]
	if gd.Steps != 1000 || gd.Stop != Budget {
		t.Fatalf("gradient descent: %d steps, %v", gd.Steps, gd.Stop)
	}
	for i := 1; i < len(gd.Norm); i++ {
		if !(gd.Norm[i] > gd.Norm[i-1]) || !(gd.Loss[i] < gd.Loss[i-1]) {
			t.Fatalf("step %d: ‖θ‖ %.9g → %.9g, J %.9g → %.9g", i, gd.Norm[i-1], gd.Norm[i], gd.Loss[i-1], gd.Loss[i])
		}
	}
	if j := gd.Loss[len(gd.Loss)-1]; j > 0.01 || sc.HasMin || !sc.Separated {
		t.Errorf("after 1000 steps J = %.3g; minimum %v, separated %v", j, sc.HasMin, sc.Separated)
	}
	t.Logf("λ = 0: ‖θ‖ %.3g → %.3g, J %.3g → %.3g", gd.Norm[1], gd.Norm[1000], gd.Loss[1], gd.Loss[1000])
	s.Lambda = 0.01
	_, sc = build(t, "separable", 2, s)
	gd = sc.Paths[GD]
	if !sc.HasMin || sc.Separated || gd.Stop != Converged {
		t.Fatalf("λ = 0.01: minimum %v, separated %v, gradient descent %v after %d steps (‖∇J‖ = %.3g)", sc.HasMin, sc.Separated, gd.Stop, gd.Steps, gd.Grad)
	}
	if min := math.Hypot(sc.Min[0], sc.Min[1]); math.Abs(gd.Norm[len(gd.Norm)-1]-min) > 1e-4 {
		t.Errorf("λ = 0.01: gradient descent ends at ‖θ‖ = %.6g, the minimum's is %.6g", gd.Norm[len(gd.Norm)-1], min)
	}
}

// quadratic is a test-only loss J(θ) = ½θᵀAθ with A = QΛQᵀ symmetric
// positive definite, eigenvalues 3, 1 and 0.2.
type quadratic struct{ a [3][3]float64 }

func newQuadratic() quadratic {
	q := [3][3]float64{{2, 1, 0}, {-1, 2, 1}, {1, 0, 3}} // made orthonormal below
	for i := range 3 {
		for j := range i {
			d := q[i][0]*q[j][0] + q[i][1]*q[j][1] + q[i][2]*q[j][2]
			for c := range 3 {
				q[i][c] -= d * q[j][c]
			}
		}
		n := math.Sqrt(q[i][0]*q[i][0] + q[i][1]*q[i][1] + q[i][2]*q[i][2])
		for c := range 3 {
			q[i][c] /= n
		}
	}
	l := [3]float64{3, 1, 0.2}
	var a quadratic
	for i := range 3 {
		for j := range 3 {
			for e := range 3 {
				a.a[i][j] += q[e][i] * l[e] * q[e][j]
			}
		}
	}
	return a
}

func (q quadratic) hv(dst, v []float64) {
	for i := range 3 {
		dst[i] = q.a[i][0]*v[0] + q.a[i][1]*v[1] + q.a[i][2]*v[2]
	}
}

// TestTheStepSizeCeilingOnAQuadratic: on a quadratic, core/newton's power
// iteration finds λ_max = 3; gradient descent with α just above
// 2/λ_max diverges (the plane's Verdict says so), just below it converges.
func TestTheStepSizeCeilingOnAQuadratic(t *testing.T) {
	q := newQuadratic()
	st, _, err := newton.PowerIterate(q.hv, 3, newton.PowerSettings{})
	if err != nil || math.Abs(st.Lambda-3) > 1e-9 {
		t.Fatalf("λ_max %v, want 3: %v", st.Lambda, err)
	}
	for _, c := range []struct {
		f    float64
		want PathStop
	}{{0.99, Converged}, {1.01, Diverged}} {
		alpha := c.f * st.AlphaMax()
		theta := []float64{1, 1, 1}
		g := make([]float64, 3)
		j := func() float64 { q.hv(g, theta); return 0.5 * (theta[0]*g[0] + theta[1]*g[1] + theta[2]*g[2]) }
		j0 := j()
		stop := Running
		step := 0
		for stop == Running {
			for i := range theta {
				theta[i] -= alpha * g[i]
			}
			step++
			jt := j()
			stop = Verdict(j0, jt, math.Sqrt(g[0]*g[0]+g[1]*g[1]+g[2]*g[2]), step, 100000)
		}
		if stop != c.want {
			t.Errorf("α = %.3g·2/λ_max: %v after %d steps, want %v", c.f, stop, step, c.want)
		}
	}
}

// TestAnAlphaAboveTheMarkZigZags: on overlap near the minimum, gradient
// descent with α below 2/λ_max converges; just above it the path
// zig-zags at every step and never settles; far above it diverges, and
// the path says so.
func TestAnAlphaAboveTheMarkZigZags(t *testing.T) {
	d, sc := build(t, "overlap", 2, Defaults())
	for _, c := range []struct {
		f    float64
		want PathStop
	}{{0.9, Converged}, {1.2, Budget}, {5, Diverged}} {
		s := Defaults()
		s.Rate = c.f * sc.AlphaMax
		s.Start = [2]float64{sc.Min[0] + 0.5, sc.Min[1] - 0.5}
		at, err := Build(d, s)
		if err != nil {
			t.Fatal(err)
		}
		gd := at.Paths[GD]
		if gd.Stop != c.want {
			t.Errorf("α = %.2g·2/λ_max: %v after %d steps, want %v", c.f, gd.Stop, gd.Steps, c.want)
		}
		if c.want == Budget && (gd.ZigZags < gd.Steps-1 || gd.Loss[len(gd.Loss)-1] < sc.MinLoss+1e-3) {
			t.Errorf("α = %.2g·2/λ_max: %d zig-zags in %d steps, J = %.6g (minimum %.6g)", c.f, gd.ZigZags, gd.Steps, gd.Loss[len(gd.Loss)-1], sc.MinLoss)
		}
	}
}

// TestScenesAreFinite: no scene of any data set, K, model or λ has a
// value that is not a finite number where the page draws.
func TestScenesAreFinite(t *testing.T) {
	for _, name := range DataSets {
		for k := MinClasses; k <= MaxClasses; k++ {
			for _, s := range []Settings{Defaults(), {Bias: true, Rate: 3, Batch: 5, Lambda: 0.1, Start: [2]float64{2, 2}}, {Rate: 400, Batch: 1}} {
				_, sc := build(t, name, k, s)
				if err := sceneFinite(sc); err != nil {
					t.Errorf("%s, K = %d, %+v: %v", name, k, s, err)
				}
			}
		}
	}
}

// sceneFinite returns an error naming the first value of sc the page
// draws that is not a finite number.
func sceneFinite(sc *Scene) error {
	ok := func(v ...float64) bool { return finite(v) }
	switch {
	case !ok(sc.Window[:]...) || !(sc.Window[1] > sc.Window[0]) || !(sc.Window[3] > sc.Window[2]):
		return fmt.Errorf("window %v", sc.Window)
	case !ok(sc.J...):
		return fmt.Errorf("a surface value is not finite")
	case !ok(sc.Levels...) || !ok(sc.Min[:]...) || !ok(sc.LambdaMax, sc.MinLoss):
		return fmt.Errorf("levels %v, minimum %v, λ_max %v", sc.Levels, sc.Min, sc.LambdaMax)
	}
	for _, lines := range sc.Lines {
		for _, l := range lines {
			if !ok(l.A[0], l.A[1], l.B[0], l.B[1]) {
				return fmt.Errorf("a contour %+v", l)
			}
		}
	}
	for _, p := range sc.Paths {
		if p.Stop == Running || len(p.Points) != p.Steps+1 || len(p.Loss) != len(p.Points) {
			return fmt.Errorf("%v: %v with %d steps and %d points", p.Method, p.Stop, p.Steps, len(p.Points))
		}
		for i, q := range p.Points {
			if !ok(q[0], q[1], p.Loss[i], p.Norm[i]) {
				return fmt.Errorf("%v step %d: %v, J %v", p.Method, i, q, p.Loss[i])
			}
		}
	}
	return nil
}

// TestPathBuilderMovesOnlyTheStart: a Scene rebuilt for a new start by
// NewPathBuilder has the paths Build gives from that start, and keeps the
// previous Scene's surface.
func TestPathBuilderMovesOnlyTheStart(t *testing.T) {
	for _, s := range []Settings{Defaults(), {Bias: true, Rate: 1, Batch: 3, Start: [2]float64{0.5, 0.5}}} {
		d, prev := build(t, "overlap", 3, s)
		s.Start = [2]float64{-1, 0.25}
		full, err := Build(d, s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewPathBuilder(d, s, prev)
		if err != nil {
			t.Fatal(err)
		}
		for !b.Advance() {
		}
		sc := b.Scene()
		if sc == nil || &sc.J[0] != &prev.J[0] || sc.Window != prev.Window || sc.Settings.Start != s.Start {
			t.Fatal("the path builder did not keep the surface, or did not move the start")
		}
		for m := range sc.Paths {
			if !reflect.DeepEqual(sc.Paths[m].Points, full.Paths[m].Points) || sc.Paths[m].Stop != full.Paths[m].Stop {
				t.Errorf("%v: the path differs from Build's", Method(m))
			}
		}
		if sc.AlphaMax != full.AlphaMax {
			t.Errorf("2/λ_max %v, Build's %v", sc.AlphaMax, full.AlphaMax)
		}
	}
}

// TestSceneWhereTheHessianVanishes: from a start where every probability
// is 0 or 1 to float64's precision, H is zero: λ_max is 0, 2/λ_max
// infinite, and the scene is still made (both eigen-directions found).
func TestSceneWhereTheHessianVanishes(t *testing.T) {
	d := Data{K: 4, Points: []Point{{X: [2]float64{3.84, 3.77}, Class: 0}}}
	s := Settings{Rate: 16, Start: [2]float64{-28.7, 22.7}, Seed: 1, Steps: 4}
	sc, err := Build(d, s)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.CurvatureAtStart || sc.LambdaMax != 0 || !math.IsInf(sc.AlphaMax, 1) {
		t.Errorf("at the start: λ_max %v, 2/λ_max %v", sc.LambdaMax, sc.AlphaMax)
	}
	if err := sceneFinite(sc); err != nil {
		t.Error(err)
	}
}
