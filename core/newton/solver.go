package newton

import (
	"errors"
	"fmt"
	"math"

	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// Settings are a Newton run's options. The zero value is valid: it
// stops at ‖∇J‖ ≤ 1e-5 or after 100 iterations, with at most 250 conjugate
// gradient steps per iteration, not preconditioned, from all-zero
// parameters.
type Settings struct {
	GradTol float64 // stop when ‖∇J‖ ≤ GradTol; 0 means 1e-5
	// RelTol stops the run, too, when ‖∇J‖ ≤ RelTol·‖∇J(θ₀)‖, the
	// gradient at the start; 0 means DefaultRelTol.
	RelTol     float64
	Iterations int // outer budget; 0 means 100
	CGSteps    int // conjugate-gradient steps per iteration at most; 0 means 250

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
//
// DefaultRelTol stops where the test accuracy stops moving. Measured on
// the default pack (the page's evaluation: float32 weights on the test
// images), Newton to ‖∇J‖ ≤ 1e-5 against the same with ‖∇J‖ ≤ 3e-5·‖∇J₀‖
// as well: raw at λ = 1e-4 91.10% both, in 255 and 228 passes; raw at
// λ = 1e-3 91.70%, 162 and 140; straightened at λ = 1e-4 94.45%, 235 and
// 189; straightened at λ = 1e-3 95.10%, 169 and 150. A looser 1e-4·‖∇J₀‖
// took fewer passes still but changed the accuracy in three of the four
// (91.20%, 94.40%, 95.15%).
const (
	DefaultRelTol     = 3e-5
	DefaultGradTol    = 1e-5
	DefaultIterations = 100
	DefaultCGSteps    = 250
)

// Validate reports the first option that is out of range, naming it.
func (s Settings) Validate() error {
	switch {
	case math.IsNaN(s.GradTol) || math.IsInf(s.GradTol, 0) || s.GradTol < 0:
		return fmt.Errorf("newton: gradient tolerance %v: want 0 or more (0 means %g)", s.GradTol, DefaultGradTol)
	case math.IsNaN(s.RelTol) || s.RelTol < 0 || s.RelTol >= 1:
		return fmt.Errorf("newton: relative gradient tolerance %v: want 0 to below 1 (0 means %g)", s.RelTol, DefaultRelTol)
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
	if s.RelTol == 0 {
		s.RelTol = DefaultRelTol
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
	p     Passes
	local *Local[float64] // the data in this process, for Exact; nil if p is another kind
	d     int
	m     int
	obj   softmax.Objective
	set   Settings
	err   error

	theta, trial []float64 // current and trial parameters, flat
	g, gTrial    []float64 // ∇J there
	dg, dgTrial  []float64 // diag H there
	cur          int       // the slot of θ's μ; the trial's is 1 − cur
	j            float64   // J at theta
	g0           float64   // ‖∇J‖ at the start

	ph    phase
	parts [3][shard.Count][]float64 // the shards' partial sums of a pass
	loss  [shard.Count]float64

	cg      cgState
	cgSteps int // conjugate-gradient steps of the current iteration
	ls      lineSearch
	hess    *gram
	hmat    []float64 // Exact: the n×n system

	st Stats
}

// New returns a solver for the examples x with d features and the
// objective o, at the starting point of s (all zeros by default), that
// computes its passes here (Local). It returns an error if s is invalid,
// x is empty or fails x.CheckClasses(d, s.Classes), or Exact is asked for
// more than MaxExactFeatures. The solver keeps x (read only).
func New(x *softmax.Examples[float64], d int, o softmax.Objective, s Settings) (*Solver, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if x.Len() == 0 {
		return nil, errors.New("newton: the training set is empty")
	}
	k := s.withDefaults().Classes
	if err := x.CheckClasses(d, k); err != nil {
		return nil, err
	}
	return NewWith(NewLocal(x, d, k), x.Len(), d, o, s)
}

// NewWith returns a solver whose passes p computes over m examples of d
// features (the browser's pool of workers; p must compute every shard as
// Shard does). It returns an error if s or o is invalid, m < 1, or s asks
// for Exact, which needs the data here (New).
func NewWith(p Passes, m, d int, o softmax.Objective, s Settings) (*Solver, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if m < 1 {
		return nil, errors.New("newton: the training set is empty")
	}
	if math.IsNaN(o.Lambda) || math.IsInf(o.Lambda, 0) || o.Lambda < 0 {
		return nil, fmt.Errorf("newton: L2 strength %v: want 0 or more", o.Lambda)
	}
	if s.Exact && d > MaxExactFeatures {
		return nil, fmt.Errorf("newton: exact Newton on %d features: downsample to at most %d (7×7 images have 49)", d, MaxExactFeatures)
	}
	k := s.withDefaults().Classes
	if s.Exact && k != K {
		return nil, fmt.Errorf("newton: exact Newton is for the %d digits, not %d classes", K, k)
	}
	local, _ := p.(*Local[float64])
	if s.Exact && local == nil {
		return nil, errors.New("newton: exact Newton needs the examples in this process (New)")
	}
	if s.Start != nil && (s.Start.D != d || s.Start.Classes() != k) {
		return nil, fmt.Errorf("newton: a start with %d features and %d classes for data with %d and %d", s.Start.D, s.Start.Classes(), d, k)
	}
	s = s.withDefaults()
	n := (d + 1) * k
	v := func(k int) []float64 { return make([]float64, k) }
	sv := &Solver{p: p, local: local, d: d, m: m, obj: o, set: s,
		theta: v(n), trial: v(n), g: v(n), gTrial: v(n), dg: v(n), dgTrial: v(n), cg: newCG(n)}
	if s.Exact {
		sv.hess = newGram(d)
		sv.hmat = v(n * n)
	}
	for i := range sv.parts {
		for j := range sv.parts[i] {
			sv.parts[i][j] = v(n)
		}
	}
	if s.Start != nil {
		copy(sv.trial, s.Start.W)
		copy(sv.trial[d*k:], s.Start.B)
	}
	pin(sv.trial, d, o)
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
		if st.GradNorm > s.set.GradTol {
			return fmt.Sprintf("‖∇J‖ ≤ %g·‖∇J₀‖ = %.3g after %d iterations", s.set.RelTol, s.set.RelTol*s.g0, st.Iteration)
		}
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
		st := s.Advance()
		if st.IterEnd || st.Stop != Running {
			return st
		}
	}
}

// Advance makes one pass over the data (a gradient, a line-search trial,
// an H·v product, the explicit H) and returns the Stats; IterEnd is set if
// an outer iteration (or the initial evaluation) was completed. Once the
// run has ended, Advance does nothing.
func (s *Solver) Advance() Stats {
	s.st.IterEnd = false
	if s.st.Stop != Running {
		return s.st
	}
	g, h, out := &s.parts[0], &s.parts[1], &s.parts[2]
	switch s.ph {
	case phaseEval:
		s.p.Eval(s.trial, 1-s.cur, g, h, &s.loss)
		shard.Reduce64(s.gTrial, g)
		shard.Reduce64(s.dgTrial, h)
	case phaseHv:
		s.p.Hv(s.cg.p, s.cur, out)
		shard.Reduce64(s.cg.hp, out)
	case phaseHess:
		s.hess.reset()
		for _, p := range s.local.shards {
			s.hess.add(p.mu[s.cur], p.x, 0, p.Len())
		}
	}
	s.st.Passes++
	s.endPass()
	return s.st
}

// endPass finishes the pass that just ended and decides what comes next.
func (s *Solver) endPass() {
	switch s.ph {
	case phaseEval:
		finish(s.gTrial, s.trial, s.d, s.m, s.obj)
		finish(s.dgTrial, nil, s.d, s.m, s.obj)
		jt := shard.Sum(&s.loss)/float64(s.m) + penalty(s.trial, s.d, s.obj)
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
	s.cur = 1 - s.cur
	s.j = jt
	initial := s.st.Passes == 1
	if !initial {
		s.st.Iteration++
		s.st.Step, s.st.Trials, s.st.CG = s.ls.t, s.ls.trials, s.cgSteps
	}
	s.st.J, s.st.GradNorm, s.st.IterEnd = jt, norm(s.g), true
	if initial {
		s.g0 = s.st.GradNorm
	}
	switch {
	case math.IsNaN(jt) || math.IsInf(jt, 0) || math.IsNaN(s.st.GradNorm) || math.IsInf(s.st.GradNorm, 0):
		s.end(Diverged)
	case s.st.GradNorm <= s.tol():
		s.end(Converged)
	case s.st.Iteration >= s.set.Iterations:
		s.end(Budget)
	default:
		s.direction()
	}
}

// tol is the stopping rule's ‖∇J‖: GradTol or RelTol·‖∇J₀‖, the larger.
func (s *Solver) tol() float64 { return max(s.set.GradTol, float64(s.set.RelTol*s.g0)) }

// direction starts computing the next Newton direction: the method.
func (s *Solver) direction() {
	s.cgSteps = 0
	if s.set.Exact {
		s.hess.reset()
		s.ph = phaseHess
		return
	}
	s.cg.start(s.g, s.dg, s.st.GradNorm, s.tol(), s.set.Jacobi)
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
