package newton

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/internal/numpytest"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// curvatureCase is one problem whose Hessian's largest eigenvalue the
// power iteration finds: its name and the explicit H (hessianCase), the
// data, the point and the objective.
type curvatureCase struct {
	hessianCase
	x  *softmax.Examples[float64]
	md *softmax.Model[float64]
	o  softmax.Objective
}

// hessians returns the cases' explicit Hessians.
func hessians(cases []curvatureCase) []hessianCase {
	out := make([]hessianCase, len(cases))
	for i, c := range cases {
		out[i] = c.hessianCase
	}
	return out
}

// pinned returns a copy of md with the parameters o fixes (class 0 under
// PinFirst, the biases under NoBias) at zero: a point of o's model.
func pinned(md *softmax.Model[float64], o softmax.Objective) *softmax.Model[float64] {
	v := flat(md)
	pin(v, md.D, o)
	out := md.Clone()
	copy(out.W, v)
	copy(out.B, v[len(md.W):])
	return out
}

// curvatureCases returns the digits' Hessian on 7×7 images at
// TestNullSpace's model of small random weights with λ = 1e-3 (n = 500,
// from core/newton's explicit Hessian; the first 500 images), and three models of points in the
// plane (from kroneckerHessian): three classes with the bias, two classes
// with class 0 pinned and no bias (the plane's surface: two free numbers),
// and five classes without the bias at λ = 0.1.
func curvatureCases(tb testing.TB) []curvatureCase {
	tb.Helper()
	full, _ := defaultPack(tb)
	digits := Downsample(head(full, 500), 28, 4)
	dm := smallWeights(49)
	do := softmax.Objective{Lambda: 1e-3}
	h, err := Hessian(digits, dm, do)
	if err != nil {
		tb.Fatal(err)
	}
	out := []curvatureCase{{hessianCase{"digits-7x7-lambda-1e-3", h, 50 * K}, digits, dm, do}}
	for _, c := range []struct {
		name string
		k    int
		o    softmax.Objective
	}{
		{"plane-k3-bias", 3, softmax.Objective{}},
		{"plane-k2-pinned-nobias", 2, softmax.Objective{PinFirst: true, NoBias: true}},
		{"plane-k5-nobias-lambda-0.1", 5, softmax.Objective{NoBias: true, Lambda: 0.1}},
	} {
		x, md := fewClasses(80, 2, c.k, uint64(10+c.k))
		md = pinned(md, c.o)
		h := kroneckerHessian(x, md, c.o)
		out = append(out, curvatureCase{hessianCase{c.name, h, 3 * c.k}, x, md, c.o})
	}
	return out
}

// kroneckerHessian builds the Hessian of J at md on x entry by entry from
// the notes' formula, for any number of classes k:
//
//	H[(j,c),(l,e)] = (1/m) Σᵢ x̃ᵢⱼ x̃ᵢₗ (δ_ce μᵢc − μᵢc μᵢe) + λ·[(j,c) = (l,e) is a regularised weight]
//
// with x̃ the features and the bias's constant 1 as feature d, in the flat
// layout (weight j*k+c, bias d*k+c); the rows and columns PinFirst and
// NoBias fix are zero. It shares no code with hvRange.
func kroneckerHessian(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective) []float64 {
	d, k := md.D, md.Classes()
	n := (d + 1) * k
	h := make([]float64, n*n)
	dense := make([]float64, d+1)
	for i := range x.Len() {
		index, value := x.Example(i)
		var z [K]float64
		softmax.Logits(&z, md.W, md.B, index, value)
		softmax.Softmax(&z)
		clear(dense)
		for t, j := range index {
			dense[j] = value[t]
		}
		dense[d] = 1
		for j := range d + 1 {
			for l := range d + 1 {
				xx := dense[j] * dense[l]
				if xx == 0 {
					continue
				}
				for c := range k {
					for e := range k {
						a := -z[c] * z[e]
						if c == e {
							a += z[c]
						}
						h[(j*k+c)*n+l*k+e] += xx * a
					}
				}
			}
		}
	}
	m := float64(x.Len())
	fixed := func(p int) bool { return (o.PinFirst && p%k == 0) || (o.NoBias && p >= d*k) }
	for p := range n {
		for q := range n {
			h[p*n+q] /= m
			if fixed(p) || fixed(q) {
				h[p*n+q] = 0
			}
		}
		if !fixed(p) && (p < d*k || o.L2Bias) {
			h[p*n+p] += o.Lambda
		}
	}
	return h
}

// TestKroneckerHessianIsCoreHessian: the test's explicit Hessian is
// core/newton's for the ten digits, so the plane's cases rest on the same
// formula as the digits'.
func TestKroneckerHessianIsCoreHessian(t *testing.T) {
	x, md := randomProblem(30, 4, 9)
	for _, o := range []softmax.Objective{{}, {Lambda: 0.1, PinFirst: true}} {
		want, err := Hessian(x, md, o)
		if err != nil {
			t.Fatal(err)
		}
		got := kroneckerHessian(x, md, o)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-14 {
				t.Fatalf("%+v: entry %d: %v, Hessian %v", o, i, got[i], want[i])
			}
		}
	}
}

// TestCurvatureHessVecMatchesFiniteDifferences: Curvature's H·u is the
// derivative of its gradient along u, (∇J(θ+hu) − ∇J(θ−hu)) / 2h with
// h = 1e-5, for models of 2, 3 and 10 classes.
func TestCurvatureHessVecMatchesFiniteDifferences(t *testing.T) {
	const h = 1e-5
	digits, dmd := randomProblem(40, 6, 4)
	for _, c := range []struct {
		k int
		o softmax.Objective
	}{{2, softmax.Objective{PinFirst: true, NoBias: true}}, {3, softmax.Objective{Lambda: 0.1}}, {K, softmax.Objective{Lambda: 0.01, L2Bias: true}}} {
		t.Run(fmt.Sprintf("k=%d %+v", c.k, c.o), func(t *testing.T) {
			x, md := fewClasses(40, 2, c.k, 3)
			if c.k == K {
				x, md = digits, dmd
			}
			md = pinned(md, c.o)
			cv, err := NewCurvature(x, md, c.o)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(5, 6))
			u := make([]float64, cv.Len())
			for i := range u {
				u[i] = r.NormFloat64()
			}
			pin(u, md.D, c.o)
			hu := make([]float64, cv.Len())
			cv.HessVec(hu, u)
			at := func(s float64) []float64 {
				m := md.Clone()
				theta := flat(m)
				for i := range theta {
					theta[i] += s * u[i]
				}
				copy(m.W, theta)
				copy(m.B, theta[len(m.W):])
				cs, err := NewCurvature(x, m, c.o)
				if err != nil {
					t.Fatal(err)
				}
				return cs.Gradient()
			}
			gp, gm := at(h), at(-h)
			for i := range hu {
				num := (gp[i] - gm[i]) / (2 * h)
				if e := relErr(hu[i], num); e > 1e-6 && math.Abs(hu[i]-num) > 1e-9 {
					t.Errorf("(H·u)[%d] = %.10g, finite differences %.10g", i, hu[i], num)
				}
			}
			gw, gb := make([]float64, len(md.W)), make([]float64, len(md.B))
			j := softmax.Gradient(gw, gb, md, x, train.Positions(x.Len()), c.o)
			if relErr(cv.J(), j) > 1e-14 {
				t.Errorf("J %v, softmax.Gradient's %v", cv.J(), j)
			}
		})
	}
}

// TestLambdaMaxMatchesTheExplicitHessian: the power iteration's λ_max is
// the largest eigenvalue of the explicit Hessian (Eigenvalues), and with
// its eigenvector excluded it finds the second largest.
func TestLambdaMaxMatchesTheExplicitHessian(t *testing.T) {
	for _, c := range curvatureCases(t) {
		t.Run(c.name, func(t *testing.T) {
			ev := c.eigenvalues(t)
			first, second := powerPair(t, c)
			if e := relErr(first.Lambda, ev[c.n-1]); e > 1e-9 {
				t.Errorf("λ_max %.15g after %d products, the explicit H's %.15g", first.Lambda, first.Iteration, ev[c.n-1])
			}
			if e := relErr(second.Lambda, ev[c.n-2]); e > 1e-8 {
				t.Errorf("λ₂ %.15g after %d products, the explicit H's %.15g", second.Lambda, second.Iteration, ev[c.n-2])
			}
			if !first.Converged || first.Lambda > ev[c.n-1]*(1+1e-12) {
				t.Errorf("%+v: not converged, or above λ_max", first)
			}
			t.Logf("λ_max %.6g after %d products (%d passes), λ₂ %.6g after %d", first.Lambda, first.Iteration, first.Passes, second.Lambda, second.Iteration)
		})
	}
}

// powerPair runs the power iteration for c's two largest eigenvalues: the
// first as the digits' worker would (NewPower, in slices of 333
// examples), the second on the first's Curvature with its vector excluded.
func powerPair(t *testing.T, c curvatureCase) (first, second PowerStats) {
	t.Helper()
	s := PowerSettings{Tol: 1e-14, Iterations: 5000}
	p, err := NewPower(c.x, c.md, c.o, s)
	if err != nil {
		t.Fatal(err)
	}
	for first = p.Advance(333); !first.Done; first = p.Advance(333) {
	}
	v := append([]float64(nil), p.Vector()...)
	s.Orthogonal = [][]float64{v}
	q, err := p.Curvature().Power(s)
	if err != nil {
		t.Fatal(err)
	}
	return first, q.Run()
}

// TestPowerIsTheSameInSlices: slicing the passes changes no bit.
func TestPowerIsTheSameInSlices(t *testing.T) {
	x, md := fewClasses(50, 2, 3, 2)
	o := softmax.Objective{Lambda: 0.01}
	whole, err := LambdaMax(x, md, o, PowerSettings{Iterations: 40, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{1, 7, 49, 50, 51} {
		p, err := NewPower(x, md, o, PowerSettings{Iterations: 40, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var st PowerStats
		for st = p.Advance(budget); !st.Done; st = p.Advance(budget) {
		}
		if st != whole {
			t.Errorf("in slices of %d: %+v, whole %+v", budget, st, whole)
		}
	}
}

// TestPowerIterateOnAKnownMatrix: on diag(4, 1, 0.5) the iteration finds
// 4, AlphaMax is 0.5, and excluding e₁ gives 1; H = 0 gives λ = 0 and an
// infinite AlphaMax.
func TestPowerIterateOnAKnownMatrix(t *testing.T) {
	diag := []float64{4, 1, 0.5}
	hv := func(dst, v []float64) {
		for i := range v {
			dst[i] = diag[i] * v[i]
		}
	}
	st, v, err := PowerIterate(hv, 3, PowerSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if relErr(st.Lambda, 4) > 1e-10 || relErr(st.AlphaMax(), 0.5) > 1e-10 || math.Abs(math.Abs(v[0])-1) > 1e-5 {
		t.Errorf("diag(4, 1, 0.5): %+v, vector %v", st, v)
	}
	st, _, err = PowerIterate(hv, 3, PowerSettings{Orthogonal: [][]float64{{1, 0, 0}}})
	if err != nil || relErr(st.Lambda, 1) > 1e-10 {
		t.Errorf("with e₁ excluded: %+v, %v", st, err)
	}
	st, _, err = PowerIterate(func(dst, v []float64) { clear(dst) }, 3, PowerSettings{})
	if err != nil || st.Lambda != 0 || !st.Converged || !math.IsInf(st.AlphaMax(), 1) {
		t.Errorf("H = 0: %+v, %v", st, err)
	}
}

// TestPowerRefusesBadInput: an empty set, a model with NaN, a negative λ,
// bad settings, and an orthogonal vector of the wrong length are errors.
func TestPowerRefusesBadInput(t *testing.T) {
	x, md := fewClasses(10, 2, 3, 1)
	nan := md.Clone()
	nan.W[2] = math.NaN()
	tests := []struct {
		name string
		x    *softmax.Examples[float64]
		md   *softmax.Model[float64]
		o    softmax.Objective
		s    PowerSettings
	}{
		{"an empty set", &softmax.Examples[float64]{Start: []int32{0}}, md, softmax.Objective{}, PowerSettings{}},
		{"a NaN weight", x, nan, softmax.Objective{}, PowerSettings{}},
		{"a negative λ", x, md, softmax.Objective{Lambda: -1}, PowerSettings{}},
		{"a NaN tolerance", x, md, softmax.Objective{}, PowerSettings{Tol: math.NaN()}},
		{"negative iterations", x, md, softmax.Objective{}, PowerSettings{Iterations: -1}},
		{"a short orthogonal vector", x, md, softmax.Objective{}, PowerSettings{Orthogonal: [][]float64{{1}}}},
		{"labels above the classes", x, softmax.NewClasses[float64](2, 2), softmax.Objective{}, PowerSettings{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewPower(tt.x, tt.md, tt.o, tt.s); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// lambdaGolden holds NumPy's two largest eigenvalues of curvatureCases'
// Hessians, as lambdaScript prints them.
const (
	lambdaGolden = "testdata/lambdamax.golden"
	lambdaScript = "testdata/lambdamax.py"
)

// parseLambdas reads lambdamax.py's output: after comment lines, one line
// "NAME λ_max λ_2" per matrix.
func parseLambdas(b []byte) (map[string][2]float64, error) {
	out := map[string][2]float64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: %q is not \"NAME λ_max λ_2\"", line, text)
		}
		a, err1 := strconv.ParseFloat(f[1], 64)
		b, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("line %d: %q has a number that does not read", line, text)
		}
		out[f[0]] = [2]float64{a, b}
	}
	return out, sc.Err()
}

// compareLambdas checks the power iteration on each case against NumPy's
// two largest eigenvalues (ref). As in compareWithNumPy, each side is
// within a small multiple of ε·λ_max of the truth; the power iteration
// adds its own stopping error, far below 1e-9 at Tol = 1e-14.
func compareLambdas(t *testing.T, cases []curvatureCase, ref map[string][2]float64, source string) {
	t.Helper()
	eachCase(t, hessians(cases), ref, source, func(t *testing.T, i int, want [2]float64) {
		first, second := powerPair(t, cases[i])
		if e := relErr(first.Lambda, want[0]); e > 1e-9 {
			t.Errorf("λ_max %.15g, NumPy %.15g", first.Lambda, want[0])
		}
		if e := relErr(second.Lambda, want[1]); e > 1e-8 {
			t.Errorf("λ₂ %.15g, NumPy %.15g", second.Lambda, want[1])
		}
	})
}

// TestLambdaMaxMatchesNumPy compares the power iteration with NumPy's
// eigvalsh on curvatureCases' Hessians, using the values committed in
// testdata/lambdamax.golden, so it runs without Python and under
// WebAssembly. -update rewrites the file with testdata/lambdamax.py.
func TestLambdaMaxMatchesNumPy(t *testing.T) {
	cases := curvatureCases(t)
	ref := numpyReference(t, lambdaScript, lambdaGolden, hessians(cases), parseLambdas)
	compareLambdas(t, cases, ref, lambdaGolden)
}

// TestLambdaMaxNumPyLive runs NumPy's eigvalsh on the same Hessians now.
// It is skipped under WebAssembly and, outside CI, without NumPy.
func TestLambdaMaxNumPyLive(t *testing.T) {
	numpytest.Need(t)
	cases := curvatureCases(t)
	ref := numpyReference(t, lambdaScript, "", hessians(cases), parseLambdas)
	compareLambdas(t, cases, ref, "lambdamax.py")
}
