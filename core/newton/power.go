package newton

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"softmaxdemo/core/softmax"
)

// Power finds the largest eigenvalue λ_max of the Hessian H of J at one θ,
// and its eigenvector, by power iteration on H·v products:
//
//	v₀ random, ‖v₀‖ = 1;   λₜ = vₜᵀ(H·vₜ),   vₜ₊₁ = H·vₜ / ‖H·vₜ‖
//
// H is symmetric and positive semidefinite (J is convex), so λₜ, the
// Rayleigh quotient, rises towards λ_max and is never above it; its error
// shrinks like (λ₂/λ_max)²ᵗ. It stops when λ changes by at most Tol·λ,
// or after Iterations products. 2/λ_max is the step size above which
// gradient descent on J's quadratic model at θ diverges (AlphaMax).
//
// Like Solver, a Power can be driven in slices of at most a given number
// of examples (Advance), so that a Web Worker can cut each pass over the
// data into slices of a few milliseconds; the arithmetic, and so the
// result, does not depend on how the work is cut. New allocates
// everything; Advance allocates nothing.
type Power struct {
	c   *Curvature             // nil for an operator (PowerIterate)
	op  func(dst, v []float64) // the operator when c is nil
	set PowerSettings
	v   []float64 // the current unit vector
	w   []float64 // H·v, being accumulated
	pos int       // the next example of the current product
	st  PowerStats
}

// NewPower returns a power iteration for the Hessian of J (objective o)
// at the model md on the examples x (see NewCurvature for the errors; s
// must be valid, and its Orthogonal vectors of length (d+1)·k). Its first
// pass evaluates μ at md; every later pass is one product. The Power
// keeps x (read only) and copies md.
func NewPower(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective, s PowerSettings) (*Power, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c, err := newCurvature(x, md, o)
	if err != nil {
		return nil, err
	}
	p := &Power{c: c, set: s.withDefaults()}
	if err := p.start(c.Len(), func(v []float64) { pin(v, c.d, c.o) }); err != nil {
		return nil, err
	}
	return p, nil
}

// Power returns a power iteration on the Hessian at c's θ; its products
// start at once, with no evaluation pass. It returns an error if s is
// invalid.
func (c *Curvature) Power(s PowerSettings) (*Power, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	p := &Power{c: c, set: s.withDefaults()}
	p.st.Passes = 1 // the evaluation NewCurvature made
	if err := p.start(c.Len(), func(v []float64) { pin(v, c.d, c.o) }); err != nil {
		return nil, err
	}
	return p, nil
}

// LambdaMax runs NewPower's iteration to its end and returns its Stats:
// Lambda is λ_max of H at md, AlphaMax 2/λ_max. For the digits (K = 10,
// 784 features) each product is one pass over the data, as one conjugate
// gradient step of Newton's method is; cut the work with NewPower and
// Advance where a pass is too long for one slice.
func LambdaMax(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective, s PowerSettings) (PowerStats, error) {
	p, err := NewPower(x, md, o, s)
	if err != nil {
		return PowerStats{}, err
	}
	return p.Run(), nil
}

// PowerIterate runs the same power iteration on any symmetric positive
// semidefinite operator of order n: hv(dst, v) writes H·v into dst. It
// returns the Stats and the last unit vector. It returns an error if s is
// invalid or n < 1.
func PowerIterate(hv func(dst, v []float64), n int, s PowerSettings) (PowerStats, []float64, error) {
	if err := s.Validate(); err != nil {
		return PowerStats{}, nil, err
	}
	if n < 1 {
		return PowerStats{}, nil, fmt.Errorf("newton: power iteration on %d dimensions", n)
	}
	p := &Power{op: hv, set: s.withDefaults()}
	if err := p.start(n, nil); err != nil {
		return PowerStats{}, nil, err
	}
	return p.Run(), p.v, nil
}

func (s PowerSettings) withDefaults() PowerSettings {
	if s.Iterations == 0 {
		s.Iterations = DefaultPowerIterations
	}
	if s.Tol == 0 {
		s.Tol = DefaultPowerTol
	}
	return s
}

// start allocates the vectors and sets v to the unit start vector: N(0, 1)
// entries, with the fixed entries zeroed (free) and the Orthogonal
// vectors projected out.
func (p *Power) start(n int, free func([]float64)) error {
	for i, u := range p.set.Orthogonal {
		if len(u) != n {
			return fmt.Errorf("newton: orthogonal vector %d has %d entries, want %d", i, len(u), n)
		}
	}
	p.v, p.w = make([]float64, n), make([]float64, n)
	r := rand.New(rand.NewPCG(p.set.Seed, 1))
	for i := range p.v {
		p.v[i] = r.NormFloat64()
	}
	if free != nil {
		free(p.v)
	}
	p.project(p.v)
	s := norm(p.v)
	if !(s > 0) {
		return errors.New("newton: no direction is left for the power iteration (every one is fixed or excluded)")
	}
	for i := range p.v {
		p.v[i] /= s
	}
	p.st.Change = math.Inf(1)
	return nil
}

// project removes from v its components along the Orthogonal vectors.
func (p *Power) project(v []float64) {
	for _, u := range p.set.Orthogonal {
		a := dot(v, u)
		for i := range v {
			v[i] -= float64(a * u[i])
		}
	}
}

// Stats returns the latest statistics.
func (p *Power) Stats() PowerStats { return p.st }

// Vector returns the current unit vector, the eigenvector estimate (flat,
// as Curvature's vectors). The slice is the Power's: it changes with the
// next product.
func (p *Power) Vector() []float64 { return p.v }

// Curvature returns the Curvature the products use, once its evaluation
// pass is complete (nil before, and for PowerIterate).
func (p *Power) Curvature() *Curvature {
	if p.c == nil || !p.c.ready {
		return nil
	}
	return p.c
}

// Run advances to the end and returns the Stats.
func (p *Power) Run() PowerStats {
	for !p.st.Done {
		p.Advance(math.MaxInt)
	}
	return p.st
}

// Advance does at most budget examples' worth of work (at least one
// example; for PowerIterate, one product per example of budget) and
// returns the Stats. Once the iteration has ended it does nothing.
func (p *Power) Advance(budget int) PowerStats {
	budget = max(budget, 1)
	for budget > 0 && !p.st.Done {
		if p.c == nil {
			p.op(p.w, p.v)
			budget--
			p.update()
			continue
		}
		c := p.c
		hi := p.pos + min(budget, c.m-p.pos)
		if !c.ready {
			c.evalTo(hi)
		} else {
			hvRange(p.w, p.v, c.mu, c.d, c.x, p.pos, hi)
		}
		budget -= hi - p.pos
		p.pos = hi
		if p.pos < c.m {
			continue
		}
		p.pos = 0
		p.st.Passes++
		if c.ready && p.st.Passes > 1 {
			finish(p.w, p.v, c.d, c.m, c.o)
			p.update()
		}
		clear(p.w)
	}
	return p.st
}

// update takes w = H·v: the Rayleigh quotient, the next unit vector and
// the stopping rule.
func (p *Power) update() {
	p.project(p.w)
	lambda := dot(p.v, p.w)
	s := norm(p.w)
	p.st.Iteration++
	if p.st.Iteration > 1 {
		p.st.Change = math.Abs(lambda - p.st.Lambda)
	}
	p.st.Lambda = lambda
	switch {
	case math.IsNaN(lambda) || math.IsInf(s, 0) || math.IsNaN(s):
		p.st.Done = true
		return
	case s == 0: // H·v = 0: H is zero on the directions left
		p.st.Lambda, p.st.Change = 0, 0
		p.st.Done, p.st.Converged = true, true
		return
	}
	for i, wi := range p.w {
		p.v[i] = wi / s
	}
	if p.st.Change <= p.set.Tol*math.Abs(lambda) {
		p.st.Done, p.st.Converged = true, true
	} else if p.st.Iteration >= p.set.Iterations {
		p.st.Done = true
	}
}
