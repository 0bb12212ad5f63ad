package newton

import (
	"errors"
	"fmt"
	"math"

	"softmaxdemo/core/softmax"
)

// Curvature is the Hessian of J at one point θ, for Hessian-vector
// products: the probabilities μᵢ at θ are computed once (one pass over the
// data), and every product after that is one more pass,
//
//	H·v = (1/m) Σᵢ xᵢ ⊗ (A(μᵢ)·(Vᵀxᵢ)) + λv,   A(μ) = diag μ − μμᵀ
//
// by the same code as Newton's conjugate gradients (hvRange, finish). The
// vectors are flat, as the solver's: the d×k weights as softmax.Model
// stores them, then the k biases; the entries PinFirst and NoBias fix are
// zero in every product.
type Curvature struct {
	x       *softmax.Examples[float64]
	d, k, m int
	o       softmax.Objective
	theta   []float64
	grad    []float64
	diag    []float64 // diag H, which evalRange computes on the way
	mu      []float64
	j       float64

	pos   int     // the evaluation's next example
	loss  float64 // its summed cross-entropy so far
	ready bool    // the evaluation is complete
}

// NewCurvature evaluates J, ∇J and the probabilities at md on x, for
// products with the Hessian there. md's classes k = len(md.B) set the
// labels allowed. It returns an error if x is empty or not well formed for
// md (softmax.Examples.CheckClasses), md has a parameter that is not
// finite, or λ is not a finite number ≥ 0. The Curvature keeps x (read
// only) and copies md. The evaluation is one pass over x; NewPower cuts it
// into slices instead.
func NewCurvature(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective) (*Curvature, error) {
	c, err := newCurvature(x, md, o)
	if err != nil {
		return nil, err
	}
	c.evalTo(c.m)
	return c, nil
}

// newCurvature checks the problem and allocates a Curvature whose
// evaluation has not started (see evalTo).
func newCurvature(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective) (*Curvature, error) {
	if md == nil {
		return nil, errors.New("newton: no model")
	}
	if x.Len() == 0 {
		return nil, errors.New("newton: the training set is empty")
	}
	k := md.Classes()
	if md.D < 1 || k < 2 || k > K || len(md.W) != md.D*k {
		return nil, fmt.Errorf("newton: a model of %d features, %d classes and %d weights", md.D, k, len(md.W))
	}
	if err := x.CheckClasses(md.D, k); err != nil {
		return nil, err
	}
	if !md.Finite() {
		return nil, errors.New("newton: the model has a parameter that is NaN or infinite")
	}
	if math.IsNaN(o.Lambda) || math.IsInf(o.Lambda, 0) || o.Lambda < 0 {
		return nil, fmt.Errorf("newton: L2 strength %v: want 0 or more", o.Lambda)
	}
	m, n := x.Len(), (md.D+1)*k
	c := &Curvature{x: x, d: md.D, k: k, m: m, o: o,
		theta: make([]float64, n), grad: make([]float64, n), diag: make([]float64, n), mu: make([]float64, m*k)}
	copy(c.theta, md.W)
	copy(c.theta[md.D*k:], md.B)
	pin(c.theta, c.d, o)
	return c, nil
}

// evalTo goes on with the evaluation at θ up to example hi (from where it
// stopped), and finishes it at m: J, ∇J and μ, as the solver's evaluation
// pass computes them.
func (c *Curvature) evalTo(hi int) {
	c.loss = evalRange(c.loss, c.grad, c.diag, c.mu, c.theta, c.d, c.x, c.pos, hi)
	c.pos = hi
	if hi == c.m {
		finish(c.grad, c.theta, c.d, c.m, c.o)
		c.j = c.loss/float64(c.m) + penalty(c.theta, c.d, c.o)
		c.ready = true
	}
}

// Len returns n = (d+1)·k, the length of the vectors H acts on.
func (c *Curvature) Len() int { return len(c.theta) }

// J returns the objective at θ.
func (c *Curvature) J() float64 { return c.j }

// Gradient returns ∇J at θ, flat. The slice is the Curvature's: read it,
// do not change it.
func (c *Curvature) Gradient() []float64 { return c.grad }

// HessVec writes H·v into dst, one pass over the data. Both have length
// Len; v is left unchanged. It panics if the lengths disagree, which is a
// bug in the caller. It allocates nothing.
func (c *Curvature) HessVec(dst, v []float64) {
	c.check(dst, v)
	clear(dst)
	hvRange(dst, v, c.mu, c.d, c.x, 0, c.m)
	finish(dst, v, c.d, c.m, c.o)
}

func (c *Curvature) check(dst, v []float64) {
	if len(dst) != len(c.theta) || len(v) != len(c.theta) {
		panic(fmt.Sprintf("newton: H·v with vectors of %d and %d for %d parameters", len(v), len(dst), len(c.theta)))
	}
}

// PowerSettings are the options of a power iteration. The zero value is
// valid: at most 500 products, stopping when the estimate changes by at
// most 1e-10 of itself, from the start vector of seed 0.
type PowerSettings struct {
	Iterations int     // products at most; 0 means 500
	Tol        float64 // stop when |λₜ − λₜ₋₁| ≤ Tol·λₜ; 0 means 1e-10
	Seed       uint64  // the start vector: N(0, 1) entries from PCG(Seed, 1)
	// Orthogonal lists orthonormal vectors the iteration keeps v
	// orthogonal to (deflation): with the first eigenvector there, it
	// finds the second largest eigenvalue and its vector.
	Orthogonal [][]float64
}

// Defaults of PowerSettings' zero fields.
const (
	DefaultPowerIterations = 500
	DefaultPowerTol        = 1e-10
)

// Validate reports the first setting that is out of range, naming it.
func (s PowerSettings) Validate() error {
	switch {
	case s.Iterations < 0 || s.Iterations > 100000:
		return fmt.Errorf("newton: power iterations %d: want 1 to 100000 (0 means %d)", s.Iterations, DefaultPowerIterations)
	case math.IsNaN(s.Tol) || math.IsInf(s.Tol, 0) || s.Tol < 0:
		return fmt.Errorf("newton: power tolerance %v: want 0 or more (0 means %g)", s.Tol, DefaultPowerTol)
	}
	return nil
}

// PowerStats describes a power iteration after a call to Advance.
type PowerStats struct {
	Iteration int     // products H·v taken
	Lambda    float64 // the Rayleigh quotient vᵀHv with ‖v‖ = 1
	Change    float64 // |Lambda − its previous value|, +Inf before the second product
	Passes    int     // passes over the data (the first evaluation included)
	Done      bool    // the iteration has ended
	Converged bool    // it ended because Change ≤ Tol·Lambda (or H·v was 0)
}

// AlphaMax returns 2/Lambda, the step size above which gradient descent
// on J's quadratic model at θ diverges along the eigenvector: +Inf when H
// is zero there.
func (s PowerStats) AlphaMax() float64 {
	if s.Lambda <= 0 {
		return math.Inf(1)
	}
	return 2 / s.Lambda
}
