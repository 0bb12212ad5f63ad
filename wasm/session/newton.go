package session

import (
	"fmt"
	"math"
	"time"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// newtonChunk is the examples of work between looks at the clock: a pass
// over the data (a gradient, an H·v product) is cut into chunks, so that
// one conjugate-gradient step over 60,000 images still spans several
// slices and a slice stays near sliceTime.
const newtonChunk = 500

// newtonRun is the Newton side of a run: the solver, the float32 copy of
// its weights that snapshots and evaluations use, and what was reported.
type newtonRun struct {
	s     *newton.Solver
	model *softmax.Model[float32] // the weights of the latest iteration, as float32
	st    newton.Stats            // the latest iteration's (or the run's end)
	busy  time.Duration           // time spent in the solver
}

// method names c's method for Progress: "sgd", "gd" or "newton".
func method(c protocol.Config) string {
	if c.Method == "" {
		return "sgd"
	}
	return c.Method
}

// isNewton reports whether c asks for Newton's method.
func isNewton(c protocol.Config) bool { return c.Method == "newton" }

// newtonSettings maps the page's Config to core/newton's and validates it
// (λ as the trainer does: 0 to 10).
func newtonSettings(c protocol.Config) (softmax.Objective, newton.Settings, error) {
	o := softmax.Objective{Lambda: c.L2, PinFirst: c.PinFirst}
	s := newton.Settings{Iterations: c.NewtonIters, GradTol: c.GradTol, CGSteps: c.CGSteps}
	if math.IsNaN(c.L2) || math.IsInf(c.L2, 0) || c.L2 < 0 || c.L2 > 10 {
		return o, s, fmt.Errorf("train: L2 strength %v: want 0 to 10", c.L2)
	}
	return o, s, s.Validate()
}

// newtonShape is c without what Newton ignores: a run with the same shape
// is resumed rather than restarted.
func newtonShape(c protocol.Config) protocol.Config {
	return protocol.Config{L2: c.L2, PinFirst: c.PinFirst, Method: c.Method, Deskew: c.Deskew,
		NewtonIters: c.NewtonIters, GradTol: c.GradTol, CGSteps: c.CGSteps}
}

// prepareNewton is prepare for a Newton Config: it keeps the current run
// if it is a Newton run that is still running with c's shape, and
// otherwise starts a new one.
func (s *session) prepareNewton(c protocol.Config) bool {
	o, set, err := newtonSettings(c)
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return false
	}
	if r := s.run; r != nil && r.nt != nil && r.nt.st.Stop == newton.Running && newtonShape(r.cfg) == newtonShape(c) {
		r.cfg = c
		return true
	}
	return s.newNewtonRun(c, o, set)
}

// resetNewton validates c and replaces the run with a fresh Newton run.
func (s *session) resetNewton(c protocol.Config) bool {
	o, set, err := newtonSettings(c)
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return false
	}
	return s.newNewtonRun(c, o, set)
}

// ended reports whether the run has stopped, whatever its method.
func (r *run) ended() bool {
	if r.nt != nil {
		return r.nt.st.Stop != newton.Running
	}
	return r.tr.Stopped() != train.Running
}

// newNewtonRun replaces the run with a fresh Newton run for c. The solver
// works in float64 on the pixels x/255, as softmax.FromSet[float64] gives
// them; the session's float32 values are exactly float32(g/255) for grey
// levels g, from which g is recovered.
func (s *session) newNewtonRun(c protocol.Config, o softmax.Objective, set newton.Settings) bool {
	x := s.data.of(c).train // straightened, if c says so
	v := make([]float64, len(x.Value))
	for i, f := range x.Value {
		v[i] = math.Round(float64(f)*255) / 255
	}
	x64 := &softmax.Examples[float64]{Labels: x.Labels, Start: x.Start, Index: x.Index, Value: v}
	sv, err := newton.New(x64, s.data.d, o, set)
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return false
	}
	s.runs++
	s.run = &run{id: s.runs, cfg: c, m: x.Len(), pts: points{group: 1},
		nt: &newtonRun{s: sv, model: softmax.New[float32](s.data.d)}}
	return true
}

// sliceNewton advances the solver for about sliceTime, stopping early
// when an outer iteration ends, and reports.
func (s *session) sliceNewton() {
	r := s.run
	start := s.env.Now()
	deadline := start.Add(sliceTime)
	var st newton.Stats
	for {
		st = r.nt.s.Advance(newtonChunk)
		if st.IterEnd || st.Stop != newton.Running || !s.env.Now().Before(deadline) {
			break
		}
	}
	now := s.env.Now()
	r.nt.busy += now.Sub(start)
	r.busy += now.Sub(start)
	if st.Stop != newton.Running {
		s.training = false
	}
	s.reportNewton(st, now, false)
}

// stepNewton runs one whole outer iteration and leaves the run paused (or
// done, if it ended the run).
func (s *session) stepNewton() {
	s.training = false
	r := s.run
	start := s.env.Now()
	st := r.nt.s.Iterate()
	now := s.env.Now()
	r.nt.busy += now.Sub(start)
	r.busy += now.Sub(start)
	s.reportNewton(st, now, true)
}

// reportNewton records an iteration's end and sends, after it, Progress,
// Weights and Evaluated; between iterations only Progress, when its time
// has come (or if force).
func (s *session) reportNewton(st newton.Stats, now time.Time, force bool) {
	r := s.run
	if st.IterEnd {
		r.nt.st = st
		sv := r.nt.s.Model()
		for i, w := range sv.W {
			r.nt.model.W[i] = float32(w)
		}
		for c, b := range sv.B {
			r.nt.model.B[c] = float32(b)
		}
		r.pts.add(st.Iteration, st.J)
		s.sendProgress(now)
		s.sendWeights(now)
		s.send(s.evaluated())
		if st.Stop == newton.Diverged {
			s.failKey("err.newton", hintDiverged, r.nt.s.Reason())
		}
		return
	}
	r.nt.st.Passes, r.nt.st.TotalCG = st.Passes, st.TotalCG
	if force || now.Sub(r.lastProgress) >= progressEvery {
		s.sendProgress(now)
	}
}

// newtonProgress is sendProgress for a Newton run.
func (s *session) newtonProgress(now time.Time) {
	r := s.run
	st := r.nt.st
	seen := int64(st.Passes) * int64(r.m)
	r.totalBusy += r.busy
	state := s.state()
	switch {
	case state != "training" && r.totalBusy > 0:
		r.perSecond = float64(seen) / r.totalBusy.Seconds()
	case r.busy > 0 && seen > r.seenMark:
		r.perSecond = float64(seen-r.seenMark) / r.busy.Seconds()
	}
	r.seenMark, r.busy, r.lastProgress = seen, 0, now
	p := protocol.Progress{
		Run: r.id, State: state, Epoch: st.Passes, Step: st.Iteration, Seen: seen, PerEpoch: r.m,
		Loss: finite(st.J), Losses: r.pts.take(), EpochLoss: finite(st.J), Rate: st.Step, PerSecond: r.perSecond,
		Method: "newton", Iteration: st.Iteration, CGSteps: st.CG, GradNorm: finite(st.GradNorm),
	}
	if st.Stop != newton.Running {
		p.Stop, p.Reason = st.Stop.String(), r.nt.s.Reason()
	}
	s.send(p)
}

// newtonWeights is sendWeights for a Newton run: the float32 copy of the
// latest iteration's weights.
func (s *session) newtonWeights(now time.Time) {
	r := s.run
	r.lastWeights = now
	m := r.nt.model
	s.send(protocol.Weights{Run: r.id, Step: r.nt.st.Iteration, D: m.D,
		W: append([]float32(nil), m.W...), B: append([]float32(nil), m.B...)})
}
