package session

import (
	"errors"
	"fmt"
	"math"
	"time"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// newtonMethod is Newton's method, core/newton's Solver: every step is
// an outer iteration, a conjugate-gradient solve of H·Δ = −∇J on H·v
// products and a line search. It keeps a float32 copy of the latest
// iteration's weights, which snapshots, evaluations and the inspector use.
type newtonMethod struct {
	o       softmax.Objective
	set     newton.Settings
	s       *newton.Solver          // nil until started
	m       int                     // examples per pass
	model32 *softmax.Model[float32] // the weights of the latest iteration, as float32
	st      newton.Stats            // the latest iteration's (or the run's end)
}

// newNewton validates c's settings for Newton's method (λ as the
// trainer checks it: 0 to 10).
func newNewton(c protocol.Config, _ int) (method, error) {
	o := softmax.Objective{Lambda: c.L2, PinFirst: c.PinFirst}
	set := newton.Settings{Iterations: c.NewtonIters, GradTol: c.GradTol, CGSteps: c.CGSteps}
	if math.IsNaN(c.L2) || math.IsInf(c.L2, 0) || c.L2 < 0 || c.L2 > 10 {
		return nil, fmt.Errorf("train: L2 strength %v: want 0 to 10", c.L2)
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	return &newtonMethod{o: o, set: set}, nil
}

// newtonShape is c without what Newton ignores: a run with the same shape
// is resumed rather than restarted.
func newtonShape(c protocol.Config) protocol.Config {
	return protocol.Config{L2: c.L2, PinFirst: c.PinFirst, Method: c.Method, Deskew: c.Deskew,
		NewtonIters: c.NewtonIters, GradTol: c.GradTol, CGSteps: c.CGSteps}
}

func (n *newtonMethod) name() string { return "newton" }

func (n *newtonMethod) everyStepAnEpoch() bool { return false }

// errNewtonModel refuses a model for Newton's method, which starts at
// θ = 0: core/newton's Solver takes no other start.
var errNewtonModel = &refusal{key: "err.newtonModel", hint: hintNewton}

// newSolver makes core/newton's solver; a test replaces it to see a
// refusal reported.
var newSolver = newton.NewWith

// start makes the solver. It works in float64 on the session's own
// float32 pixels, widened as they are read (no float64 copy of the data),
// over the pack's shards (core/shard): in this worker, or in the pool's
// workers when there are more (poolpass.go), with the same bits. My digits
// are not mixed in: the solver minimises J over the pack.
func (n *newtonMethod) start(s *session, c protocol.Config, from *softmax.Model[float32]) error {
	if from != nil {
		return errNewtonModel
	}
	x := s.data.of(c).train // straightened, if c says so
	sv, err := newSolver(s.newtonPasses(c), x.Len(), s.data.d, n.o, n.set)
	if err != nil {
		// The settings were validated (newNewton): what is left is the
		// solver refusing these data, not a value the person can correct.
		return &refusal{key: "err.newtonStart", hint: hintNewton, err: err}
	}
	n.s, n.m, n.model32 = sv, x.Len(), softmax.New[float32](s.data.d)
	return nil
}

// points: one loss point per iteration.
func (n *newtonMethod) points() int { return 1 }

// keep goes on with c if it has the run's shape: Newton has no setting
// that a running run can change.
func (n *newtonMethod) keep(old, c protocol.Config) (bool, error) {
	return newtonShape(old) == newtonShape(c), nil
}

// slice advances the solver, a pass at a time, for about sliceTime,
// stopping early when an outer iteration ends. A slowed pace does not
// apply: an iteration is one step, and it takes many passes.
func (n *newtonMethod) slice(s *session) {
	r := s.run
	start := s.env.Now()
	deadline := start.Add(sliceTime)
	var st newton.Stats
	for {
		st = n.s.Advance()
		if st.IterEnd || st.Stop != newton.Running || !s.env.Now().Before(deadline) {
			break
		}
	}
	now := r.busySince(s.env, start)
	if st.Stop != newton.Running {
		s.training = false
	}
	n.report(s, st, now, false)
}

// step runs one whole outer iteration.
func (n *newtonMethod) step(s *session) {
	start := s.env.Now()
	st := n.s.Iterate()
	n.report(s, st, s.run.busySince(s.env, start), true)
}

// report records an iteration's end and sends, after it, Progress,
// Weights and Evaluated; between iterations only Progress, when its time
// has come (or if force).
func (n *newtonMethod) report(s *session, st newton.Stats, now time.Time, force bool) {
	r := s.run
	if st.IterEnd {
		n.st = st
		softmax.Convert(n.model32, n.s.Model())
		r.pts.add(st.Iteration, st.J)
		s.sendProgress(now)
		s.sendWeights(now)
		s.sendEvaluation(st.Stop != newton.Running)
		if st.Stop == newton.Diverged {
			s.failKey("err.newton", hintDiverged, n.s.Reason())
		}
		return
	}
	n.st.Passes, n.st.TotalCG = st.Passes, st.TotalCG
	if force || now.Sub(r.lastProgress) >= progressEvery {
		s.sendProgress(now)
	}
}

func (n *newtonMethod) ended() bool { return n.st.Stop != newton.Running }

func (n *newtonMethod) at() (step, epoch int) { return n.st.Iteration, n.st.Passes }

func (n *newtonMethod) model() *softmax.Model[float32] { return n.model32 }

func (n *newtonMethod) progress() protocol.Progress {
	st := n.st
	p := protocol.Progress{
		Epoch: st.Passes, Step: st.Iteration, Seen: int64(st.Passes) * int64(n.m),
		Loss: finite(st.J), EpochLoss: finite(st.J), Rate: st.Step,
		Iteration: st.Iteration, CGSteps: st.CG, GradNorm: finite(st.GradNorm),
	}
	if st.Stop != newton.Running {
		p.Stop, p.Reason = st.Stop.String(), n.s.Reason()
	}
	return p
}

// setMyDigits accepts my digits and leaves them out: Newton's method
// minimises J over the pack alone.
func (n *newtonMethod) setMyDigits(*softmax.Examples[float32]) error { return nil }

// errNewtonUpdate refuses the inspector's update on a Newton run: the
// solver's float64 weights are its own, and an SGD step on their float32
// copy would be overwritten by the next iteration.
var errNewtonUpdate = errors.New("the inspector's update applies to SGD and gradient-descent runs, not to Newton's method")

func (n *newtonMethod) stepOn([]uint16, []float32, uint8, float64, softmax.Objective) (train.Stats, error) {
	return train.Stats{}, errNewtonUpdate
}

func (n *newtonMethod) state() ([]byte, error) { return nil, nil }

func (n *newtonMethod) restore(c protocol.Config, _ []byte) (protocol.Config, error) {
	return c, errNoResume
}

// newtonPasses returns the passes of Newton's method over c's training
// images, by the pool's workers.
func (s *session) newtonPasses(c protocol.Config) newton.Passes {
	set := protocol.SetTrain
	if c.Deskew {
		set = protocol.SetDeskewed
	}
	return s.pool.newtonPasses(set)
}
