package plane

import (
	"softmaxdemo/core/internal/fmath"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
)

// GridSize is the number of nodes on each side of a Scene's surface.
const GridSize = 64

// Scene is the loss surface with the paths of the three methods from one
// start. A point (a, b) of the surface is the parameter vector
//
//	θ(a, b) = Centre + a·U + b·V
//
// (flat: the 2×K weights as softmax.Model stores them, then the K biases).
// For Exact settings, Centre is 0 and U, V pick class 1's two weights, so
// (a, b) = (θ₁, θ₂) and the surface is J itself. Otherwise Centre is the
// minimum θ* that Newton's method found (or, with none, where it stopped)
// and U, V are the two unit eigenvectors of the Hessian there with the
// largest eigenvalues, the directions in which J curves most: the surface
// is a slice of J, and the paths are projected onto it.
type Scene struct {
	K        int
	Settings Settings
	Exact    bool

	Centre, U, V []float64

	// HasMin: Newton's method reached ‖∇J‖ ≤ NewtonTol from θ = 0, at Min
	// (surface coordinates), with J = MinLoss there after MinIterations
	// iterations and ‖∇J‖ = MinGrad. Without it, J has no minimum that
	// Newton's method found: with Separated, none at all.
	HasMin        bool
	Min           [2]float64
	MinLoss       float64
	MinGrad       float64
	MinIterations int
	// Separated: where Newton's method ended every point is on its class's
	// side and λ = 0, so J falls towards 0 as ‖θ‖ grows and has no minimum.
	Separated bool

	// LambdaMax is the largest eigenvalue of the Hessian at the minimum
	// (without one, at the start: CurvatureAtStart), and AlphaMax =
	// 2/LambdaMax, the step above which gradient descent on J's quadratic
	// model there diverges. Lambda2 is the second largest (the slice's V).
	LambdaMax, Lambda2, AlphaMax float64
	CurvatureAtStart             bool

	Window [4]float64 // a₀, a₁, b₀, b₁: the square of the surface shown
	J      []float64  // GridSize² values: row r at b = b₁ − r·(b₁ − b₀)/(GridSize−1), from the top
	Levels []float64  // the contours' levels, increasing
	Lines  [][]Line   // Lines[l]: the contour of Levels[l]

	Paths [3]Path // GD, SGD, Newton, in Methods' order
}

// Line is a piece of a contour, from A to B in surface coordinates.
type Line struct{ A, B [2]float64 }

// Node returns the surface coordinates of grid node (i, r): column i from
// a₀, row r from b₁ (the top).
func (s *Scene) Node(i, r int) [2]float64 {
	w := s.Window
	return [2]float64{w[0] + (w[1]-w[0])*float64(i)/(GridSize-1), w[3] - (w[3]-w[2])*float64(r)/(GridSize-1)}
}

// Theta returns θ(a, b), flat.
func (s *Scene) Theta(p [2]float64) []float64 {
	t := make([]float64, len(s.Centre))
	for i := range t {
		t[i] = s.Centre[i] + p[0]*s.U[i] + p[1]*s.V[i]
	}
	return t
}

// Project returns the surface coordinates of θ (flat: weights, then
// biases): θ itself for Exact, its projection onto the slice otherwise,
// as the paths are drawn.
func (s *Scene) Project(theta []float64) [2]float64 { return s.project(theta) }

// project returns the surface coordinates of θ: its components along U
// and V from Centre (U and V are orthonormal).
func (s *Scene) project(theta []float64) [2]float64 {
	var a, b float64
	for i, t := range theta {
		d := t - s.Centre[i]
		a += d * s.U[i]
		b += d * s.V[i]
	}
	return [2]float64{a, b}
}

// surface evaluates J on the grid's rows from the logits of Centre, U and
// V at every point: z_ic(a, b) = z⁰_ic + a·zᵁ_ic + b·zⱽ_ic.
type surface struct {
	x          *softmax.Examples[float64]
	k          int
	z0, zu, zv []float64 // m×k
	o          softmax.Objective
}

func newSurface(s *Scene, x *softmax.Examples[float64], o softmax.Objective) *surface {
	k, m := s.K, x.Len()
	sf := &surface{x: x, k: k, o: o, z0: make([]float64, m*k), zu: make([]float64, m*k), zv: make([]float64, m*k)}
	var z [softmax.K]float64
	for i := range m {
		index, value := x.Example(i)
		for _, t := range []struct {
			v   []float64
			dst []float64
		}{{s.Centre, sf.z0}, {s.U, sf.zu}, {s.V, sf.zv}} {
			softmax.Logits(&z, t.v[:2*k], t.v[2*k:], index, value)
			copy(t.dst[i*k:(i+1)*k], z[:k])
		}
	}
	return sf
}

// at returns J(θ(a, b)) for the scene s.
func (sf *surface) at(s *Scene, p [2]float64) float64 {
	k := sf.k
	loss := 0.0
	for i, y := range sf.x.Labels {
		z0, zu, zv := sf.z0[i*k:(i+1)*k], sf.zu[i*k:(i+1)*k], sf.zv[i*k:(i+1)*k]
		var z [softmax.K]float64
		top := 0
		for c := range k {
			z[c] = z0[c] + p[0]*zu[c] + p[1]*zv[c]
			if z[c] > z[top] {
				top = c
			}
		}
		e := 1.0 // exp(z_top − z_top)
		for c := range k {
			if c != top {
				e += fmath.Exp(z[c] - z[top])
			}
		}
		loss += z[top] + fmath.Log(e) - z[y]
	}
	pen := 0.0
	if sf.o.Lambda != 0 {
		for i := range 2 * k {
			t := s.Centre[i] + p[0]*s.U[i] + p[1]*s.V[i]
			pen += t * t
		}
		pen *= sf.o.Lambda / 2
	}
	return loss/float64(len(sf.x.Labels)) + pen
}

// curvature returns λ_max and its unit eigenvector of the Hessian of J at
// theta, and, if second, the next eigenvalue and vector too, by core/newton's
// power iteration.
func curvature(x *softmax.Examples[float64], o softmax.Objective, k int, theta []float64, second bool) (l1, l2 float64, u, v []float64, err error) {
	md := &softmax.Model[float64]{D: 2, W: theta[:2*k], B: theta[2*k:]}
	c, err := newton.NewCurvature(x, md, o)
	if err != nil {
		return 0, 0, nil, nil, err
	}
	s := newton.PowerSettings{Tol: 1e-12, Iterations: 2000, Seed: 1}
	p, err := c.Power(s)
	if err != nil {
		return 0, 0, nil, nil, err
	}
	l1 = p.Run().Lambda
	u = append([]float64(nil), p.Vector()...)
	if !second {
		return l1, 0, u, nil, nil
	}
	// From another start: where H is zero the first iteration ends at its
	// own start vector, which excluding it would leave nothing of.
	s.Orthogonal, s.Seed = [][]float64{u}, 2
	q, err := c.Power(s)
	if err != nil {
		return 0, 0, nil, nil, err
	}
	l2 = q.Run().Lambda
	return l1, l2, u, append([]float64(nil), q.Vector()...), nil
}
