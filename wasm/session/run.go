package session

import (
	"math"
	"time"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// run is one training run: its method, which takes the steps (method.go),
// and what has been reported of it.
type run struct {
	id   int
	cfg  protocol.Config // as last requested: α and λ may change
	meth method
	m    int // examples per epoch
	pts  points

	seenMark     int64         // examples seen at the last Progress
	busy         time.Duration // training time since the last Progress
	totalBusy    time.Duration // training time of the whole run
	perSecond    float64
	lastProgress time.Time
	lastWeights  time.Time
	lastSnapshot time.Time
	lastEval     time.Time
	evaluated    bool // an evaluation was sent for this run

	keys    protocol.Keyframes // the steps whose θ the page keeps (protocol/keyframes.go)
	keyedAt int                // the last step sent as a keyframe, -1 before the first
}

// newRunRecord is the run id of c, trained by meth on m examples an epoch.
func newRunRecord(id int, c protocol.Config, meth method, m int) *run {
	return &run{id: id, cfg: c, meth: meth, m: m, pts: points{group: meth.points()},
		keys: protocol.KeyframesOf(c, m), keyedAt: -1}
}

// keyframe reports whether the run's current step is one of its
// keyframes: on its schedule, or the step it ended at.
func (r *run) keyframe() bool {
	step, _ := r.meth.at()
	return r.keys.Has(step) || r.meth.ended()
}

// busySince adds the time since start, when the run began a slice or a
// step, to its training time, and returns now.
func (r *run) busySince(env Env, start time.Time) time.Time {
	now := env.Now()
	r.busy += now.Sub(start)
	return now
}

// prepare makes the run ready for c: it keeps the current run, with c's
// changeable settings (α, λ), if it is still running and its method keeps
// it, and otherwise starts a new one. It sends Failed and returns false if
// there are no data or c is invalid, leaving everything as it was.
func (s *session) prepare(c protocol.Config) bool {
	if !s.needData() {
		return false
	}
	meth, err := methodFor(c, s.data.train.Len())
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return false
	}
	if r := s.run; r != nil && !r.meth.ended() {
		kept, err := r.meth.keep(r.cfg, c)
		if err != nil {
			s.failKey("err.config", hintConfig, err.Error())
			return false
		}
		if kept {
			r.cfg = c
			return true
		}
	}
	return s.newRun(c, meth, nil)
}

// newRun starts meth, made for c, from the model from (nil: c's start)
// and makes it the run, replacing the current one.
func (s *session) newRun(c protocol.Config, meth method, from *softmax.Model[float32]) bool {
	if err := meth.start(s, c, from); err != nil {
		s.failErr(err)
		return false
	}
	s.runs++
	s.run = newRunRecord(s.runs, c, meth, s.data.of(c).train.Len())
	return true
}

// train starts or resumes training with c; the loop in Run does the work.
func (s *session) train(c protocol.Config) {
	if s.prepare(c) {
		s.training = true
		s.pace.restart(s.env.Now())
	}
}

// pause stops training after the current slice and sends the state and
// the weights (also when there was nothing to pause, to resynchronise).
func (s *session) pause() {
	s.training = false
	if r := s.run; r != nil {
		r.pts.flush()
		now := s.env.Now()
		s.sendProgress(now)
		s.sendWeights(now)
		s.sendSnapshot(now, true)
	}
}

// step takes exactly one step of c's method (a minibatch, an outer
// iteration) and leaves the run paused (or done, if that step ended it).
func (s *session) step(c protocol.Config) {
	if !s.prepare(c) {
		return
	}
	s.training = false
	s.run.meth.step(s)
}

// reset replaces the run with a fresh one for c, without training, and
// sends its step-0 Progress and weights.
func (s *session) reset(c protocol.Config) {
	if !s.needData() {
		return
	}
	meth, err := methodFor(c, s.data.train.Len())
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return
	}
	if s.newRun(c, meth, nil) {
		s.training = false
		now := s.env.Now()
		s.sendProgress(now)
		s.sendWeights(now)
	}
}

// slice trains for about sliceTime and reports.
func (s *session) slice() { s.run.meth.slice(s) }

// state is the run's state as Progress reports it.
func (s *session) state() string {
	switch {
	case s.run.meth.ended():
		return "done"
	case s.training:
		return "training"
	}
	return "paused"
}

// sendProgress sends the run's Progress: its method's part, the state,
// the closed loss points, and the examples per second of training.
func (s *session) sendProgress(now time.Time) {
	r := s.run
	p := r.meth.progress()
	r.totalBusy += r.busy
	state := s.state()
	switch {
	case state != "training" && r.totalBusy > 0:
		// Once the run rests, show its average: the last slice alone may
		// be a few steps long and say little.
		r.perSecond = float64(p.Seen) / r.totalBusy.Seconds()
	case r.busy > 0 && p.Seen > r.seenMark:
		r.perSecond = float64(p.Seen-r.seenMark) / r.busy.Seconds()
	}
	r.seenMark, r.busy, r.lastProgress = p.Seen, 0, now
	r.pts.stamp(r.totalBusy.Seconds())
	p.Run, p.State, p.PerEpoch, p.Losses, p.PerSecond, p.Method = r.id, state, r.m, r.pts.take(), r.perSecond, r.meth.name()
	if state != "training" {
		// Once per rest, not per slice: the page shows whether memory
		// stays flat from run to run.
		p.Heap = protocol.HeapLive()
		p.HelpersHeap = s.pool.helpersHeap()
	}
	s.send(p)
}

// sendWeights sends a copy of the run's weights, flagged as a keyframe
// if the step is one.
func (s *session) sendWeights(now time.Time) {
	r := s.run
	r.lastWeights = now
	m := r.meth.model()
	step, _ := r.meth.at()
	key := r.keyframe()
	if key {
		r.keyedAt = step
	}
	s.send(protocol.Weights{Run: r.id, Step: step, D: m.D, Key: key,
		W: append([]float32(nil), m.W...), B: append([]float32(nil), m.B...)})
}

// sendStart sends the run's step-0 keyframe, its θ before the first step,
// unless it was sent (by Reset or UseModel) or the run is past it.
func (s *session) sendStart() {
	if r := s.run; r.keyedAt < 0 {
		if step, _ := r.meth.at(); step == 0 {
			s.sendWeights(s.env.Now())
		}
	}
}

// finite returns v, or 0 for NaN and ±MaxFloat64 for ±Inf, since JSON has
// no non-finite numbers.
func finite(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case math.IsInf(v, 0):
		return math.Copysign(math.MaxFloat64, v)
	}
	return v
}
