package newton

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

var objectives = []softmax.Objective{
	{},
	{Lambda: 0.1},
	{PinFirst: true},
	{Lambda: 0.1, PinFirst: true},
	{Lambda: 0.1, L2Bias: true},
}

// TestGradientMatchesSoftmax: the solver's gradient and J are the trainer's
// objective's (softmax.Gradient in float64).
func TestGradientMatchesSoftmax(t *testing.T) {
	x, md := randomProblem(40, 6, 1)
	batch := train.Positions(x.Len())
	for _, o := range objectives {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			gw, gb := make([]float64, len(md.W)), make([]float64, K)
			j := softmax.Gradient(gw, gb, md, x, batch, o)
			v := flat(md)
			g := gradAt(v, md.D, x, o)
			for i, want := range append(gw, gb...) {
				if relErr(g[i], want) > 1e-12 {
					t.Fatalf("gradient %d: %v, softmax.Gradient %v", i, g[i], want)
				}
			}
			if jj := lossRange(0, v, md.D, x, 0, x.Len())/float64(x.Len()) + penalty(v, md.D, o); relErr(jj, j) > 1e-14 {
				t.Errorf("J %v, softmax.Gradient's %v", jj, j)
			}
		})
	}
}

// TestHessVecMatchesFiniteDifferences checks H·u against central
// differences of the gradient, (∇J(θ+hu) − ∇J(θ−hu)) / 2h with h = 1e-5,
// on a problem with d = 6, m = 40, for random directions u.
func TestHessVecMatchesFiniteDifferences(t *testing.T) {
	x, md := randomProblem(40, 6, 3)
	v := flat(md)
	r := rand.New(rand.NewPCG(1, 2))
	const h = 1e-5
	for _, o := range objectives {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			for range 3 {
				u := direction(r, len(v), md.D, o)
				hu, num := hessVecAt(v, u, md.D, x, o), differences(v, u, h, md.D, x, o)
				for i := range hu {
					if e := relErr(hu[i], num[i]); e > 1e-6 && math.Abs(hu[i]-num[i]) > 1e-9 {
						t.Fatalf("entry %d: H·u %v, differences %v (relative error %.1e)", i, hu[i], num[i], e)
					}
				}
			}
		})
	}
}

// naiveHessian builds H = (1/m) Σᵢ x̃ᵢx̃ᵢᵀ ⊗ (diag μᵢ − μᵢμᵢᵀ) + λI
// literally, with dense x̃ᵢ = (xᵢ, 1) and the Kronecker product's definition
// in the flat layout (parameter j*K+c), for the reference.
func naiveHessian(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective) []float64 {
	d := md.D
	n := (d + 1) * K
	h := make([]float64, n*n)
	xt := make([]float64, d+1)
	for i := range x.Len() {
		index, value := x.Example(i)
		clear(xt)
		for t, j := range index {
			xt[j] = value[t]
		}
		xt[d] = 1
		var mu [K]float64
		softmax.Logits(&mu, md.W, md.B, index, value)
		softmax.Softmax(&mu)
		for j := range d + 1 {
			for l := range d + 1 {
				for c := range K {
					for e := range K {
						a := -mu[c] * mu[e]
						if c == e {
							a += mu[c]
						}
						h[(j*K+c)*n+l*K+e] += xt[j] * xt[l] * a
					}
				}
			}
		}
	}
	for i := range h {
		h[i] /= float64(x.Len())
	}
	for i := range n {
		if i < d*K || o.L2Bias {
			h[i*n+i] += o.Lambda
		}
	}
	if o.PinFirst {
		for i := 0; i < n; i += K {
			for k := range n {
				h[i*n+k], h[k*n+i] = 0, 0
			}
		}
	}
	return h
}

func TestExplicitHessian(t *testing.T) {
	x, md := randomProblem(30, 5, 4)
	n := (md.D + 1) * K
	for _, o := range objectives {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			h, err := Hessian(x, md, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Run("equals the Kronecker formula", func(t *testing.T) {
				want := naiveHessian(x, md, o)
				for i := range h {
					if math.Abs(h[i]-want[i]) > 1e-13 {
						t.Fatalf("H[%d,%d] = %v, formula %v", i/n, i%n, h[i], want[i])
					}
				}
			})
			t.Run("its columns are H·v products", func(t *testing.T) {
				v := flat(md)
				for k := range n {
					e := make([]float64, n)
					e[k] = 1
					if o.PinFirst && k%K == 0 {
						continue
					}
					col := hessVecAt(v, e, md.D, x, o)
					for i := range n {
						if math.Abs(col[i]-h[i*n+k]) > 1e-13 {
							t.Fatalf("H[%d,%d] = %v, H·e_k gives %v", i, k, h[i*n+k], col[i])
						}
					}
				}
			})
			t.Run("is symmetric", func(t *testing.T) {
				for i := range n {
					for k := range i {
						if h[i*n+k] != h[k*n+i] {
							t.Fatalf("H[%d,%d] = %v, H[%d,%d] = %v", i, k, h[i*n+k], k, i, h[k*n+i])
						}
					}
				}
			})
		})
	}
	t.Run("refuses too many features", func(t *testing.T) {
		if _, err := Hessian(x, softmax.New[float64](MaxExactFeatures+1), softmax.Objective{}); err == nil {
			t.Error("no error")
		}
	})
}

// jacobiEigenvalues is the reference: cyclic Jacobi rotations until the
// off-diagonal part vanishes.
func jacobiEigenvalues(a []float64, n int) []float64 {
	m := append([]float64(nil), a...)
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for p := range n {
			for q := p + 1; q < n; q++ {
				off += m[p*n+q] * m[p*n+q]
			}
		}
		if off < 1e-30 {
			break
		}
		for p := range n {
			for q := p + 1; q < n; q++ {
				if m[p*n+q] == 0 {
					continue
				}
				theta := (m[q*n+q] - m[p*n+p]) / (2 * m[p*n+q])
				tt := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(tt*tt+1)
				s := tt * c
				for k := range n {
					mkp, mkq := m[k*n+p], m[k*n+q]
					m[k*n+p], m[k*n+q] = c*mkp-s*mkq, s*mkp+c*mkq
				}
				for k := range n {
					mpk, mqk := m[p*n+k], m[q*n+k]
					m[p*n+k], m[q*n+k] = c*mpk-s*mqk, s*mpk+c*mqk
				}
			}
		}
	}
	ev := make([]float64, n)
	for i := range n {
		ev[i] = m[i*n+i]
	}
	return ev
}

func TestEigenvalues(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	symmetric := func(n int) []float64 {
		a := make([]float64, n*n)
		for i := range n {
			for j := 0; j <= i; j++ {
				a[i*n+j] = r.NormFloat64()
				a[j*n+i] = a[i*n+j]
			}
		}
		return a
	}
	diagonal := func(n int) []float64 { // double eigenvalues and a zero one
		a := make([]float64, n*n)
		for i := range n {
			a[i*n+i] = float64(i / 2)
		}
		return a
	}
	blocks := func(n int) []float64 { // two blocks that the reduction must keep apart
		a := symmetric(n)
		for i := range n {
			for j := range n {
				if (i < n/2) != (j < n/2) {
					a[i*n+j] = 0
				}
			}
		}
		return a
	}
	tests := []struct {
		name string
		n    int
		a    []float64
	}{
		{"n=1", 1, symmetric(1)},
		{"n=2", 2, symmetric(2)},
		{"n=3", 3, symmetric(3)},
		{"n=10", 10, symmetric(10)},
		{"n=120", 120, symmetric(120)},
		{"n=40 diagonal with double and zero eigenvalues", 40, diagonal(40)},
		{"n=30 with two uncoupled blocks", 30, blocks(30)},
		{"n=12 rank one", 12, func() []float64 {
			u := symmetric(12)[:12]
			a := make([]float64, 144)
			for i := range 12 {
				for j := range 12 {
					a[i*12+j] = u[i] * u[j]
				}
			}
			return a
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name+" agrees with Jacobi rotations", func(t *testing.T) {
			orig := append([]float64(nil), tt.a...)
			got, err := Eigenvalues(tt.a, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tt.a, orig) {
				t.Error("Eigenvalues changed its input")
			}
			want := jacobiEigenvalues(tt.a, tt.n)
			sortAsc(want)
			for i := range tt.n {
				if math.Abs(got[i]-want[i]) > 1e-10 {
					t.Fatalf("eigenvalue %d: %v, Jacobi %v", i, got[i], want[i])
				}
			}
		})
	}
	t.Run("n=0 has none", func(t *testing.T) {
		ev, err := Eigenvalues(nil, 0)
		if err != nil || len(ev) != 0 {
			t.Errorf("Eigenvalues(nil, 0) = %v, %v", ev, err)
		}
	})
	t.Run("a NaN entry returns an error", func(t *testing.T) {
		a := symmetric(5)
		a[2*5+1] = math.NaN()
		if ev, err := Eigenvalues(a, 5); err == nil {
			t.Errorf("no error; eigenvalues %v", ev)
		}
	})
}

func sortAsc(s []float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

func TestCholesky(t *testing.T) {
	t.Run("solves a positive definite system", func(t *testing.T) {
		x, md := randomProblem(30, 5, 5)
		o := softmax.Objective{Lambda: 0.01, PinFirst: true}
		h, _ := Hessian(x, md, o)
		n := (md.D + 1) * K
		orig := append([]float64(nil), h...)
		system(h, md.D, o)
		sys := append([]float64(nil), h...)
		if err := Cholesky(h, n); err != nil {
			t.Fatal(err)
		}
		b := make([]float64, n)
		for i := range b {
			if i%K != 0 {
				b[i] = float64(i%7) - 3
			}
		}
		xs := append([]float64(nil), b...)
		CholeskySolve(h, n, xs)
		for i := range n {
			s := 0.0
			for k := range n {
				s += sys[i*n+k] * xs[k]
			}
			if math.Abs(s-b[i]) > 1e-9 {
				t.Fatalf("row %d: residual %v", i, s-b[i])
			}
			if i%K == 0 && xs[i] != 0 {
				t.Fatalf("pinned entry %d moved to %v", i, xs[i])
			}
		}
		_ = orig
	})
	t.Run("refuses a singular H with an error, not NaN", func(t *testing.T) {
		x, md := randomProblem(30, 5, 5)
		o := softmax.Objective{}
		h, _ := Hessian(x, md, o)
		system(h, md.D, o)
		err := Cholesky(h, (md.D+1)*K)
		var npd *NotPositiveDefiniteError
		if !errors.As(err, &npd) || math.IsNaN(npd.Pivot) {
			t.Fatalf("error %v", err)
		}
	})
}
