package newton

import (
	"errors"
	"fmt"
	"math"

	"softmaxdemo/core/softmax"
)

// Settings are a Newton run's options. The zero value is valid: it
// stops at ‖∇J‖ ≤ 1e-5 or after 100 iterations, with at most 250 conjugate
// gradient steps per iteration, not preconditioned, from all-zero
// parameters.
type Settings struct {
	GradTol    float64 // stop when ‖∇J‖ ≤ GradTol; 0 means 1e-5
	Iterations int     // outer budget; 0 means 100
	CGSteps    int     // conjugate-gradient steps per iteration at most; 0 means 250

	// Exact solves Newton's equation with the explicit H and Cholesky
	// instead of conjugate gradients: for at most MaxExactFeatures.
	Exact bool
	// Jacobi preconditions the conjugate gradients with diag H. It is
	// off by default because it took more steps on MNIST (see cgState).
	Jacobi bool
	// Start, if not nil, is the starting point (copied; class 0 is zeroed
	// under PinFirst, the biases under NoBias). Its D must be the data's
	// d, and its classes Classes.
	Start *softmax.Model[float64]
	// Classes is k, the model's number of classes, 2 to K; 0 means K (the
	// ten digits). Labels must be below it.
	Classes int
}

// Defaults of Settings' zero fields.
const (
	DefaultGradTol    = 1e-5
	DefaultIterations = 100
	DefaultCGSteps    = 250
)

// Validate reports the first option that is out of range, naming it.
func (s Settings) Validate() error {
	switch {
	case math.IsNaN(s.GradTol) || math.IsInf(s.GradTol, 0) || s.GradTol < 0:
		return fmt.Errorf("newton: gradient tolerance %v: want 0 or more (0 means %g)", s.GradTol, DefaultGradTol)
	case s.Iterations < 0 || s.Iterations > 10000:
		return fmt.Errorf("newton: iterations %d: want 1 to 10000 (0 means %d)", s.Iterations, DefaultIterations)
	case s.CGSteps < 0 || s.CGSteps > 100000:
		return fmt.Errorf("newton: CG steps %d: want 1 to 100000 (0 means %d)", s.CGSteps, DefaultCGSteps)
	case s.Classes != 0 && (s.Classes < 2 || s.Classes > K):
		return fmt.Errorf("newton: %d classes: want 2 to %d (0 means %d)", s.Classes, K, K)
	}
	return nil
}

func (s Settings) withDefaults() Settings {
	if s.GradTol == 0 {
		s.GradTol = DefaultGradTol
	}
	if s.Iterations == 0 {
		s.Iterations = DefaultIterations
	}
	if s.CGSteps == 0 {
		s.CGSteps = DefaultCGSteps
	}
	if s.Classes == 0 {
		s.Classes = K
	}
	return s
}

// Stats describes the solver after a call to Advance or Iterate.
type Stats struct {
	Iteration int     // outer iterations completed
	J         float64 // objective at the current parameters
	GradNorm  float64 // ‖∇J‖ at the current parameters (Euclidean, all free parameters)
	CG        int     // conjugate-gradient steps of the latest iteration
	TotalCG   int     // conjugate-gradient steps of the whole run
	Step      float64 // step length t of the latest iteration (1 is the full Newton step)
	Trials    int     // line search trials of the latest iteration
	Passes    int     // passes over the data so far (gradients, H·v products, trials, H)
	IterEnd   bool    // this call completed an iteration (or the initial evaluation)
	Stop      Stop    // not Running once the run has ended
}

// phase is what the current pass over the data computes.
type phase int

const (
	phaseEval phase = iota // J, ∇J, μ and diag H at the trial parameters
	phaseHv                // H·p for a conjugate-gradient step
	phaseHess              // the explicit H (Exact)
	phaseEnded
)

// Solver runs Newton's method on one problem. It is not safe for
// concurrent use. New allocates everything; Advance and Iterate
// allocate nothing.
type Solver struct {
	x   *softmax.Examples[float64]
	d   int
	m   int
	obj softmax.Objective
	set Settings
	err error

	theta, trial []float64 // current and trial parameters, flat
	g, gTrial    []float64 // ∇J there
	dg, dgTrial  []float64 // diag H there
	mu, muTrial  []float64 // m×k probabilities there
	j            float64   // J at theta

	ph   phase
	pos  int     // next example of the pass
	loss float64 // summed cross-entropy of the pass so far

	cg      cgState
	cgSteps int // conjugate-gradient steps of the current iteration
	ls      lineSearch
	hess    *gram
	hmat    []float64 // Exact: the n×n system

	st Stats
}

// New returns a solver for the examples x with d features and the
// objective o, at the starting point of s (all zeros by default). It
// returns an error if s is invalid, x is empty or fails x.Check(d), or
// Exact is asked for more than MaxExactFeatures. The solver keeps x (read
// only).
func New(x *softmax.Examples[float64], d int, o softmax.Objective, s Settings) (*Solver, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if x.Len() == 0 {
		return nil, errors.New("newton: the training set is empty")
	}
	k := s.Classes
	if k == 0 {
		k = K
	}
	if err := x.CheckClasses(d, k); err != nil {
		return nil, err
	}
	if math.IsNaN(o.Lambda) || math.IsInf(o.Lambda, 0) || o.Lambda < 0 {
		return nil, fmt.Errorf("newton: L2 strength %v: want 0 or more", o.Lambda)
	}
	if s.Exact && d > MaxExactFeatures {
		return nil, fmt.Errorf("newton: exact Newton on %d features: downsample to at most %d (7×7 images have 49)", d, MaxExactFeatures)
	}
	if s.Exact && k != K {
		return nil, fmt.Errorf("newton: exact Newton is for the %d digits, not %d classes", K, k)
	}
	if s.Start != nil && (s.Start.D != d || s.Start.Classes() != k) {
		return nil, fmt.Errorf("newton: a start with %d features and %d classes for data with %d and %d", s.Start.D, s.Start.Classes(), d, k)
	}
	s = s.withDefaults()
	n, m := (d+1)*k, x.Len()
	v := func(k int) []float64 { return make([]float64, k) }
	sv := &Solver{x: x, d: d, m: m, obj: o, set: s,
		theta: v(n), trial: v(n), g: v(n), gTrial: v(n), dg: v(n), dgTrial: v(n),
		mu: v(m * k), muTrial: v(m * k), cg: newCG(n)}
	if s.Start != nil {
		copy(sv.trial, s.Start.W)
		copy(sv.trial[d*k:], s.Start.B)
	}
	pin(sv.trial, d, o)
	if s.Exact {
		sv.hess = newGram(d)
		sv.hmat = v(n * n)
	}
	sv.ph = phaseEval // the initial evaluation, at trial
	sv.st.Stop = Running
	return sv, nil
}

// Model returns the current parameters as a model whose W and B share
// the solver's memory: they change with the next accepted step. Copy them
// (Clone) to keep a snapshot.
func (s *Solver) Model() *softmax.Model[float64] { return params(s.theta, s.d) }

// Stats returns the latest statistics.
func (s *Solver) Stats() Stats { return s.st }

// Err returns the error behind a Singular stop, or nil.
func (s *Solver) Err() error { return s.err }

// Reason says why the run ended, for people: "‖∇J‖ ≤ 1e-05 after 9
// iterations", or "running".
func (s *Solver) Reason() string {
	st := s.st
	switch st.Stop {
	case Converged:
		return fmt.Sprintf("‖∇J‖ ≤ %g after %d iterations", s.set.GradTol, st.Iteration)
	case Budget:
		return fmt.Sprintf("budget of %d iterations spent, ‖∇J‖ = %.3g", s.set.Iterations, st.GradNorm)
	case LineSearchFailed:
		return fmt.Sprintf("line search failed after %d iterations: no step lowered J (‖∇J‖ = %.3g)", st.Iteration, st.GradNorm)
	case NotDescent:
		return fmt.Sprintf("not a descent direction after %d iterations (‖∇J‖ = %.3g)", st.Iteration, st.GradNorm)
	case Singular:
		return fmt.Sprintf("singular Hessian after %d iterations: %v", st.Iteration, s.err)
	case Diverged:
		return fmt.Sprintf("J or ∇J stopped being finite after %d iterations", st.Iteration)
	}
	return "running"
}

// Iterate runs until the current outer iteration ends (or the run ends)
// and returns the Stats. The first call returns the initial evaluation
// (Iteration 0) unless Advance already made it.
func (s *Solver) Iterate() Stats {
	for {
		st := s.Advance(math.MaxInt)
		if st.IterEnd || st.Stop != Running {
			return st
		}
	}
}

// Advance does at most budget examples' worth of work (at least one
// example) and returns the Stats; IterEnd is set if an outer iteration (or
// the initial evaluation) was completed. A pass over the data (a gradient,
// a line-search trial, an H·v product, the explicit H) may span several
// calls; the arithmetic, and so the result, does not depend on how the
// work is cut. Once the run has ended, Advance does nothing.
func (s *Solver) Advance(budget int) Stats {
	s.st.IterEnd = false
	if s.st.Stop != Running {
		return s.st
	}
	budget = max(budget, 1)
	for budget > 0 && s.st.Stop == Running && !s.st.IterEnd {
		hi := s.pos + min(budget, s.m-s.pos)
		switch s.ph {
		case phaseEval:
			s.loss = evalRange(s.loss, s.gTrial, s.dgTrial, s.muTrial, s.trial, s.d, s.x, s.pos, hi)
		case phaseHv:
			hvRange(s.cg.hp, s.cg.p, s.mu, s.d, s.x, s.pos, hi)
		case phaseHess:
			s.hess.add(s.mu, s.x, s.pos, hi)
		}
		budget -= hi - s.pos
		s.pos = hi
		if s.pos == s.m {
			s.pos = 0
			s.st.Passes++
			s.endPass()
		}
	}
	return s.st
}

// endPass finishes the pass that just ended and decides what comes next.
func (s *Solver) endPass() {
	switch s.ph {
	case phaseEval:
		finish(s.gTrial, s.trial, s.d, s.m, s.obj)
		finish(s.dgTrial, nil, s.d, s.m, s.obj)
		jt := s.loss/float64(s.m) + penalty(s.trial, s.d, s.obj)
		s.loss = 0
		if s.st.Passes == 1 { // the initial evaluation
			s.accept(jt)
			return
		}
		if s.ls.accept(jt, s.j) {
			s.accept(jt)
			return
		}
		if !s.ls.backtrack() {
			s.end(LineSearchFailed)
			return
		}
		s.setTrial()
	case phaseHv:
		finish(s.cg.hp, s.cg.p, s.d, s.m, s.obj)
		s.cgSteps++
		s.st.TotalCG++
		if s.cg.step(s.cgSteps, s.set.CGSteps) {
			s.lineSearch()
		}
	case phaseHess:
		s.hess.matrix(s.hmat, s.m, s.obj)
		system(s.hmat, s.d, s.obj)
		n := len(s.theta)
		if err := Cholesky(s.hmat, n); err != nil {
			s.err = err
			s.end(Singular)
			return
		}
		for i, gi := range s.g {
			s.cg.x[i] = -gi
		}
		CholeskySolve(s.hmat, n, s.cg.x)
		s.lineSearch()
	}
}

// accept makes the trial parameters (whose J is jt) current, closes the
// iteration and applies the stopping rule.
func (s *Solver) accept(jt float64) {
	s.theta, s.trial = s.trial, s.theta
	s.g, s.gTrial = s.gTrial, s.g
	s.dg, s.dgTrial = s.dgTrial, s.dg
	s.mu, s.muTrial = s.muTrial, s.mu
	s.j = jt
	initial := s.st.Passes == 1
	if !initial {
		s.st.Iteration++
		s.st.Step, s.st.Trials, s.st.CG = s.ls.t, s.ls.trials, s.cgSteps
	}
	s.st.J, s.st.GradNorm, s.st.IterEnd = jt, norm(s.g), true
	switch {
	case math.IsNaN(jt) || math.IsInf(jt, 0) || math.IsNaN(s.st.GradNorm) || math.IsInf(s.st.GradNorm, 0):
		s.end(Diverged)
	case s.st.GradNorm <= s.set.GradTol:
		s.end(Converged)
	case s.st.Iteration >= s.set.Iterations:
		s.end(Budget)
	default:
		s.direction()
	}
}

// direction starts computing the next Newton direction: the method.
func (s *Solver) direction() {
	s.cgSteps = 0
	if s.set.Exact {
		s.hess.reset()
		s.ph = phaseHess
		return
	}
	s.cg.start(s.g, s.dg, s.st.GradNorm, s.set.GradTol, s.set.Jacobi)
	s.ph = phaseHv
}

// lineSearch starts the line search along the direction in s.cg.x.
func (s *Solver) lineSearch() {
	slope := dot(s.g, s.cg.x)
	if !(slope < 0) {
		s.end(NotDescent)
		return
	}
	s.ls.start(slope)
	s.setTrial()
}

// setTrial sets trial = θ + t·p for the line search's t, for the next
// evaluation pass.
func (s *Solver) setTrial() {
	t := s.ls.t
	for i, th := range s.theta {
		s.trial[i] = th + float64(t*s.cg.x[i])
	}
	clear(s.gTrial)
	clear(s.dgTrial)
	s.ph = phaseEval
}

func (s *Solver) end(why Stop) {
	s.st.Stop = why
	s.st.IterEnd = true
	s.ph = phaseEnded
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

func norm(a []float64) float64 { return math.Sqrt(dot(a, a)) }
