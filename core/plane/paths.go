package plane

import (
	"math"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// Method is one of the three ways of descending whose paths a Scene
// draws.
type Method int

const (
	GD     Method = iota // full-batch gradient descent: core/train's Trainer with B = m
	SGD                  // stochastic gradient descent: the Trainer with B = Settings.Batch
	Newton               // Newton's method: core/newton's Solver (truncated, with line search)
)

// Methods lists the three in the order a page shows them.
var Methods = [3]Method{GD, SGD, Newton}

// String returns "gd", "sgd" or "newton", the names the page's
// elements carry.
func (m Method) String() string { return [...]string{"gd", "sgd", "newton"}[m] }

// PathStop says why a path ended.
type PathStop int

const (
	Running   PathStop = iota
	Converged          // ‖∇J‖ at most GradTol (NewtonTol for Newton)
	Budget             // the steps ran out first
	Diverged           // J or θ stopped being finite, or J rose more than Rise above its start
	Stalled            // Newton's line search found no step that lowers J
)

// String returns a lower-case word for s.
func (s PathStop) String() string {
	return [...]string{"running", "converged", "budget", "diverged", "stalled"}[s]
}

// Tolerances and limits of the paths.
const (
	GradTol    = 1e-6 // gradient descent and SGD stop at ‖∇J‖ ≤ GradTol (their θ is float32)
	NewtonTol  = 1e-8 // Newton's method stops at ‖∇J‖ ≤ NewtonTol alone (no relative rule): J is then within rounding of its minimum
	NewtonIter = 30   // Newton's iterations at most
	// Rise is how far J may climb above its value at the start before a
	// path is called diverged: descent that makes J worse by a whole nat
	// is overshooting, not descending.
	Rise = 1.0
)

// Path is one method's path from the start: θ₀ (the start) … θ_Steps.
type Path struct {
	Method Method
	Theta  [][]float64  // the flat parameters θ_t ((2+1)·K numbers: weights, then biases)
	Points [][2]float64 // θ_t in the surface's coordinates (projected onto the slice)
	Loss   []float64    // J(θ_t)
	Norm   []float64    // ‖θ_t‖ of the weights
	Steps  int          // steps taken
	Grad   float64      // ‖∇J‖ at the last θ
	Stop   PathStop
	// ZigZags counts the steps that turned back, by more than 90°, from
	// the step before: a step size above 2/λ_max overshoots, and the path
	// zig-zags across the valley.
	ZigZags int
}

// runner advances one path by one step.
type runner interface {
	step() bool // takes a step of a path still Running (the caller checks); true once it has ended
	path() *Path
}

// objective evaluates J and ‖∇J‖ at flat parameters in float64, with
// core/softmax's Gradient.
type objective struct {
	x      *softmax.Examples[float64]
	o      softmax.Objective
	k      int
	batch  []int32
	gw, gb []float64
}

func newObjective(x *softmax.Examples[float64], o softmax.Objective, k int) *objective {
	return &objective{x: x, o: o, k: k, batch: train.Positions(x.Len()), gw: make([]float64, 2*k), gb: make([]float64, k)}
}

// at returns J and ‖∇J‖ at θ (flat).
func (f *objective) at(theta []float64) (j, g float64) {
	md := &softmax.Model[float64]{D: 2, W: theta[:2*f.k], B: theta[2*f.k:]}
	j = softmax.Gradient(f.gw, f.gb, md, f.x, f.batch, f.o)
	s := 0.0
	for _, v := range f.gw {
		s += v * v
	}
	for _, v := range f.gb {
		s += v * v
	}
	return j, math.Sqrt(s)
}

// record appends θ (taken, not copied) to p with its J, norm and
// projection, and counts a zig-zag.
func (p *Path) record(theta []float64, j float64, project func([]float64) [2]float64, k int) {
	p.Theta = append(p.Theta, theta)
	p.Points = append(p.Points, project(theta))
	p.Loss = append(p.Loss, j)
	p.Norm = append(p.Norm, weightNorm(theta[:2*k]))
	if n := len(p.Theta); n >= 3 {
		a, b, c := p.Theta[n-3], p.Theta[n-2], p.Theta[n-1]
		d := 0.0
		for i := range a {
			d += (b[i] - a[i]) * (c[i] - b[i])
		}
		if d < 0 {
			p.ZigZags++
		}
	}
}

// finite reports whether every entry of v is a finite number.
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// descent is gradient descent or SGD: core/train's Trainer stepping from
// the start, its θ read after every step.
type descent struct {
	p       Path
	tr      *train.Trainer
	f       *objective
	project func([]float64) [2]float64
	k       int
	steps   int
	j0      float64
}

func newDescent(m Method, x32 *softmax.Examples[float32], f *objective, s Settings, start []float64,
	project func([]float64) [2]float64) (*descent, error) {
	k := f.k
	batch := 0 // GD: all m
	if m == SGD {
		batch = s.batch()
	}
	tr, err := train.New(x32, 2, config(k, s, batch, s.steps()))
	if err != nil {
		return nil, err
	}
	from := softmax.NewClasses[float32](2, k)
	for i, v := range start[:2*k] {
		from.W[i] = float32(v)
	}
	for c, v := range start[2*k:] {
		from.B[c] = float32(v)
	}
	if err := tr.SetModel(from); err != nil {
		return nil, err
	}
	d := &descent{p: Path{Method: m}, tr: tr, f: f, project: project, k: k, steps: s.steps()}
	theta := flat32(tr.Model()) // the start as the Trainer holds it: float32, pinned
	j, g := f.at(theta)
	d.j0, d.p.Grad = j, g
	d.p.record(theta, j, project, k)
	if g <= GradTol {
		d.p.Stop = Converged
	}
	return d, nil
}

func (d *descent) path() *Path { return &d.p }

func (d *descent) step() bool {
	st := d.tr.Step()
	if st.Stop == train.Diverged {
		d.p.Stop = Diverged // the Trainer went back to the last finite θ, already recorded
		return true
	}
	theta := flat32(d.tr.Model())
	j, g := d.f.at(theta)
	if !finite(theta) || math.IsNaN(j) || math.IsInf(j, 0) || math.IsNaN(g) {
		d.p.Stop = Diverged
		return true
	}
	d.p.Steps++
	d.p.Grad = g
	d.p.record(theta, j, d.project, d.k)
	d.p.Stop = Verdict(d.j0, j, g, d.p.Steps, d.steps)
	return d.p.Stop != Running
}

// Verdict is the stopping rule of gradient descent and SGD after step
// steps of a budget of budget, with J = j (j0 at the start) and ‖∇J‖ = g:
// Diverged if J is not finite or rose more than Rise above j0, Converged
// at g ≤ GradTol, Budget once the steps are spent, Running otherwise.
func Verdict(j0, j, g float64, step, budget int) PathStop {
	switch {
	case math.IsNaN(j) || math.IsInf(j, 0) || j > j0+Rise:
		return Diverged
	case g <= GradTol:
		return Converged
	case step >= budget:
		return Budget
	}
	return Running
}

// flat32 returns m's parameters as one float64 vector: weights, biases.
func flat32(m *softmax.Model[float32]) []float64 {
	v := make([]float64, 0, len(m.W)+len(m.B))
	for _, w := range m.W {
		v = append(v, float64(w))
	}
	for _, b := range m.B {
		v = append(v, float64(b))
	}
	return v
}

// newtonPath is Newton's method: core/newton's Solver from the start, θ
// read after every iteration.
type newtonPath struct {
	p       Path
	s       *newton.Solver
	project func([]float64) [2]float64
	k       int
}

func newNewtonPath(x *softmax.Examples[float64], o softmax.Objective, k int, start []float64,
	project func([]float64) [2]float64) (*newtonPath, error) {
	from := softmax.NewClasses[float64](2, k)
	copy(from.W, start[:2*k])
	copy(from.B, start[2*k:])
	s, err := newton.New(x, 2, o, newton.Settings{Classes: k, Start: from, GradTol: NewtonTol, RelTol: 1e-300, Iterations: NewtonIter})
	if err != nil {
		return nil, err
	}
	n := &newtonPath{p: Path{Method: Newton}, s: s, project: project, k: k}
	st := s.Iterate() // the evaluation at the start
	n.p.Grad = st.GradNorm
	n.p.record(flatModel(s.Model()), st.J, project, k)
	n.end(st)
	return n, nil
}

func (n *newtonPath) path() *Path { return &n.p }

func (n *newtonPath) step() bool {
	st := n.s.Iterate()
	if st.Iteration > n.p.Steps && st.Stop != newton.Diverged {
		n.p.Steps = st.Iteration
		n.p.Grad = st.GradNorm
		n.p.record(flatModel(n.s.Model()), st.J, n.project, n.k)
	}
	n.end(st)
	return n.p.Stop != Running
}

// end maps the Solver's stop to the path's.
func (n *newtonPath) end(st newton.Stats) {
	switch st.Stop {
	case newton.Running:
	case newton.Converged:
		n.p.Stop = Converged
	case newton.Budget:
		n.p.Stop = Budget
	case newton.Diverged:
		n.p.Stop = Diverged
	default:
		n.p.Stop = Stalled
	}
}

// flatModel returns a copy of m's parameters as one vector.
func flatModel(m *softmax.Model[float64]) []float64 {
	return append(append(make([]float64, 0, len(m.W)+len(m.B)), m.W...), m.B...)
}
