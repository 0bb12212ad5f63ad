package plane

import (
	"math"
	"slices"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
)

// Builder computes a Scene in small units of work, so that a page can
// spread it over frames: each Advance does one Newton iteration, one step
// of a path, or one row of the surface (a pass over the points for each of
// its GridSize nodes). The result does not depend on how the units are
// spread.
type Builder struct {
	sc      *Scene
	x32     *softmax.Examples[float32]
	x64     *softmax.Examples[float64]
	obj     softmax.Objective
	f       *objective
	stage   int
	opt     *newton.Solver
	optStat newton.Stats
	runners [3]runner
	surf    *surface
	row     int
	err     error
	reuse   bool // the surface is a previous Scene's (NewPathBuilder)
}

// Stages of a Builder.
const (
	stageOptimum = iota // Newton's method from θ = 0
	stageSlice          // the centre, the directions, the curvature
	stagePaths          // the three paths, one step at a time
	stageGrid           // the window, then the surface row by row
	stageContours
	stageDone
)

// NewBuilder returns a Builder of the Scene of d with s. It returns an
// *InputError if d fails Check, has no points, or s is out of range for
// it.
func NewBuilder(d Data, s Settings) (*Builder, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	if err := s.Validate(len(d.Points)); err != nil {
		return nil, err
	}
	b := &Builder{x32: Examples[float32](d), x64: Examples[float64](d), obj: s.Objective()}
	b.sc = &Scene{K: d.K, Settings: s, Exact: s.Exact(d.K)}
	b.f = newObjective(b.x64, b.obj, d.K)
	opt, err := newton.New(b.x64, 2, b.obj, newton.Settings{Classes: d.K, GradTol: NewtonTol, RelTol: 1e-300, Iterations: 50})
	if err != nil {
		return nil, err
	}
	b.opt = opt
	return b, nil
}

// Done reports whether the Scene is complete.
func (b *Builder) Done() bool { return b.stage == stageDone }

// Err returns the error that ended the Builder early, or nil. It cannot
// happen for data and settings NewBuilder accepted; it is there so that a
// bug shows as an error rather than a picture.
func (b *Builder) Err() error { return b.err }

// Scene returns the Scene once Done, or nil.
func (b *Builder) Scene() *Scene {
	if !b.Done() || b.err != nil {
		return nil
	}
	return b.sc
}

// Build runs a Builder to the end and returns its Scene.
func Build(d Data, s Settings) (*Scene, error) {
	b, err := NewBuilder(d, s)
	if err != nil {
		return nil, err
	}
	for !b.Done() {
		b.Advance()
	}
	return b.sc, b.err
}

// NewPathBuilder returns a Builder that computes only the paths, from s's
// start, and keeps the rest of prev: the minimum, the surface's
// coordinates, its window and its values. prev must be a Scene of the same
// data with the same settings but the start (a page dragging the start):
// the caller knows. It returns an *InputError as NewBuilder does.
func NewPathBuilder(d Data, s Settings, prev *Scene) (*Builder, error) {
	b, err := NewBuilder(d, s)
	if err != nil {
		return nil, err
	}
	sc := *prev
	sc.Settings = s
	sc.Paths = [3]Path{}
	b.sc, b.reuse, b.opt = &sc, true, nil
	b.stage = stageSlice
	return b, nil
}

// Advance does one unit of work and reports whether the Scene is complete.
func (b *Builder) Advance() bool {
	switch b.stage {
	case stageOptimum:
		b.optStat = b.opt.Iterate()
		if b.optStat.Stop != newton.Running {
			b.stage++
		}
	case stageSlice:
		if !b.reuse {
			b.fail(b.slice())
		}
		b.fail(b.startPaths())
		b.stage++
	case stagePaths:
		for _, r := range b.runners {
			if r.path().Stop == Running {
				r.step()
				return false
			}
		}
		for i, r := range b.runners {
			b.sc.Paths[i] = *r.path()
		}
		if b.reuse {
			b.stage = stageDone
			return true
		}
		b.window()
		b.surf = newSurface(b.sc, b.x64, b.obj)
		b.sc.J = make([]float64, GridSize*GridSize)
		b.stage++
	case stageGrid:
		for i := range GridSize {
			b.sc.J[b.row*GridSize+i] = b.surf.at(b.sc, b.sc.Node(i, b.row))
		}
		if b.row++; b.row == GridSize {
			b.stage++
		}
	case stageContours:
		b.sc.Levels = levels(b.sc.J, b.sc.HasMin, b.sc.MinLoss)
		b.sc.Lines = make([][]Line, len(b.sc.Levels))
		for l, v := range b.sc.Levels {
			b.sc.Lines[l] = contour(b.sc, v)
		}
		b.stage++
	}
	return b.Done()
}

func (b *Builder) fail(err error) {
	if err != nil && b.err == nil {
		b.err = err
		b.stage = stageDone - 1
	}
}

// slice sets the minimum, the surface's coordinates and the curvature at
// the minimum.
func (b *Builder) slice() error {
	sc, k := b.sc, b.sc.K
	st := b.optStat
	theta := flatModel(b.opt.Model())
	if !finite(theta) {
		theta = make([]float64, 3*k) // Newton's method diverged: centre the slice at 0
	}
	sc.MinLoss, sc.MinGrad, sc.MinIterations = st.J, st.GradNorm, st.Iteration
	if sc.Settings.Lambda == 0 {
		md := &softmax.Model[float64]{D: 2, W: theta[:2*k], B: theta[2*k:]}
		r := metrics.Evaluate(md, b.x64)
		sc.Separated = r.N > 0 && r.Correct == r.N
	}
	// Separated data have no minimum without λ, even where Newton's method
	// stopped because ∇J, which falls with J, fell below its tolerance.
	sc.HasMin = st.Stop == newton.Converged && !sc.Separated
	n := 3 * k
	sc.Centre, sc.U, sc.V = make([]float64, n), make([]float64, n), make([]float64, n)
	if sc.Exact {
		sc.U[1], sc.V[3] = 1, 1 // class 1's weights of x₁ and x₂ (W[j·2 + 1])
	} else {
		if sc.HasMin {
			copy(sc.Centre, theta)
		} // else the slice goes through θ = 0
		_, _, u, v, err := curvature(b.x64, b.obj, k, sc.Centre, true)
		if err != nil {
			return err
		}
		copy(sc.U, u)
		copy(sc.V, v)
	}
	if sc.HasMin {
		sc.Min = sc.project(theta)
		l1, l2, _, _, err := curvature(b.x64, b.obj, k, theta, true)
		if err != nil {
			return err
		}
		sc.LambdaMax, sc.Lambda2 = l1, l2
	}
	return nil
}

// startPaths starts the three paths from the start, and measures the
// curvature there when there is no minimum to measure it at.
func (b *Builder) startPaths() error {
	if b.err != nil {
		return nil
	}
	sc, k := b.sc, b.sc.K
	start := sc.Theta(sc.Settings.Start)
	if !sc.HasMin {
		l1, l2, _, _, err := curvature(b.x64, b.obj, k, start, true)
		if err != nil {
			return err
		}
		sc.LambdaMax, sc.Lambda2, sc.CurvatureAtStart = l1, l2, true
	}
	sc.AlphaMax = newton.PowerStats{Lambda: sc.LambdaMax}.AlphaMax()
	for i, m := range Methods {
		var r runner
		var err error
		if m == Newton {
			r, err = newNewtonPath(b.x64, b.obj, k, start, sc.project)
		} else {
			r, err = newDescent(m, b.x32, b.f, sc.Settings, start, sc.project)
		}
		if err != nil {
			return err
		}
		b.runners[i] = r
	}
	return nil
}

// window chooses the square of the surface to show: it holds the start,
// the minimum and every point of the paths within a few times their
// distance from the centre (a path that runs off leaves the square), with
// a margin.
func (b *Builder) window() {
	sc := b.sc
	keep := [][2]float64{sc.Settings.Start}
	if sc.HasMin {
		keep = append(keep, sc.Min)
	}
	reach := 1.0
	for _, p := range keep {
		reach = max(reach, math.Abs(p[0]), math.Abs(p[1]))
	}
	reach *= 3
	for _, p := range sc.Paths {
		for _, q := range p.Points {
			if math.Abs(q[0]) <= reach && math.Abs(q[1]) <= reach {
				keep = append(keep, q)
			}
		}
	}
	lo, hi := keep[0], keep[0]
	for _, q := range keep {
		lo = [2]float64{min(lo[0], q[0]), min(lo[1], q[1])}
		hi = [2]float64{max(hi[0], q[0]), max(hi[1], q[1])}
	}
	half := max(hi[0]-lo[0], hi[1]-lo[1], 1)/2*1.15 + 0.05
	mid := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
	sc.Window = [4]float64{mid[0] - half, mid[0] + half, mid[1] - half, mid[1] + half}
}

// levels returns the contours' levels: twelve, from just above the
// surface's lowest value to its 80th percentile, closer together near the
// bottom, where the contours of a smooth minimum are ellipses.
func levels(j []float64, hasMin bool, minLoss float64) []float64 {
	v := make([]float64, 0, len(j))
	for _, x := range j {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return nil
	}
	slices.Sort(v)
	lo, hi := v[0], v[len(v)*8/10]
	if hasMin && minLoss < lo {
		lo = minLoss
	}
	if !(hi > lo) {
		return nil
	}
	const n = 12
	out := make([]float64, n)
	for i := range n {
		t := float64(i+1) / n
		out[i] = lo + (hi-lo)*t*t
	}
	return out
}
