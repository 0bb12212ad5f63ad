package session

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// run is one training run: a trainer and what has been reported of it.
type run struct {
	id    int
	cfg   protocol.Config // as last requested: α and λ may change
	tr    *train.Trainer  // nil for a Newton run
	nt    *newtonRun      // nil unless the run uses Newton's method (newton.go)
	m     int             // examples per epoch
	last  train.Stats     // the latest step, zero before the first
	rate  float64         // α of the latest step, or as last set
	epoch float64         // the latest epoch's mean loss, 0 before the first
	pts   points

	seenMark     int64         // examples seen at the last Progress
	busy         time.Duration // training time since the last Progress
	totalBusy    time.Duration // training time of the whole run
	perSecond    float64
	lastProgress time.Time
	lastWeights  time.Time
}

// trainConfig maps the page's Config to the trainer's for m training
// examples and validates it. The batch size must be 1..m (the trainer's 0
// for "all" is not offered); zero epochs means no epoch limit.
func trainConfig(c protocol.Config, m int) (train.Config, error) {
	switch c.Method {
	case "", "sgd":
	case "gd": // full-batch gradient descent: every step sees all m
		c.BatchSize = m
	default:
		return train.Config{}, fmt.Errorf("train: method %q: want \"sgd\", \"gd\" or \"newton\"", c.Method)
	}
	if c.BatchSize < 1 || c.BatchSize > m {
		return train.Config{}, fmt.Errorf("train: batch size %d: want 1 to %d", c.BatchSize, m)
	}
	tc := train.Config{
		LearningRate: c.LearningRate,
		BatchSize:    c.BatchSize,
		L2:           c.L2,
		PinFirst:     c.PinFirst,
		Epochs:       c.Epochs,
		Decay:        c.Decay,
		DecayEvery:   c.DecayEvery,
		Seed:         c.Seed,
		InitStd:      1,
		ExtraRate:    c.ExtraRate,
	}
	if c.InitNormal {
		tc.Init = train.Normal
	}
	if c.Epochs == 0 {
		tc.Iterations = math.MaxInt
	}
	return tc, tc.Validate(m)
}

// shape is c without the options that a running run can change.
func shape(c protocol.Config) protocol.Config {
	c.LearningRate, c.L2, c.ExtraRate = 0, 0, 0
	return c
}

// prepare makes the run ready for c: it keeps the current run, with c's α
// and λ, if it is still running and has c's shape, and otherwise starts a
// new one. It sends Failed and returns false if there are no data or c is
// invalid, leaving everything as it was.
func (s *session) prepare(c protocol.Config) bool {
	if !s.needData() {
		return false
	}
	if isNewton(c) {
		return s.prepareNewton(c)
	}
	tc, err := trainConfig(c, s.data.train.Len())
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return false
	}
	r := s.run
	if r == nil || r.nt != nil || r.tr.Stopped() != train.Running || shape(r.cfg) != shape(c) {
		return s.newRun(c, tc)
	}
	if c.LearningRate != r.cfg.LearningRate {
		if err := r.tr.SetRate(c.LearningRate); err != nil {
			s.failKey("err.config", hintConfig, err.Error())
			return false
		}
		r.rate = c.LearningRate
	}
	if c.L2 != r.cfg.L2 {
		if err := r.tr.SetL2(c.L2); err != nil {
			s.failKey("err.config", hintConfig, err.Error())
			return false
		}
	}
	if c.ExtraRate != r.cfg.ExtraRate {
		if err := r.tr.SetExtraRate(c.ExtraRate); err != nil {
			s.failKey("err.config", hintConfig, err.Error())
			return false
		}
	}
	r.cfg = c
	return true
}

// newRun replaces the run with a fresh one for c (tc is its mapping).
func (s *session) newRun(c protocol.Config, tc train.Config) bool {
	d := s.data.of(c)
	tr, err := train.New(d.train, d.d, tc)
	if err == nil {
		err = tr.SetExtra(s.mineFor(c))
	}
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return false
	}
	m := d.train.Len()
	steps := (m + tc.BatchSize - 1) / tc.BatchSize
	s.runs++
	s.run = &run{id: s.runs, cfg: c, tr: tr, m: m, rate: c.LearningRate,
		pts: points{group: (steps + pointsPerEpoch - 1) / pointsPerEpoch}}
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
	}
}

// step takes exactly one minibatch step with c and leaves the run paused
// (or done, if that step ended it).
func (s *session) step(c protocol.Config) {
	if !s.prepare(c) {
		return
	}
	if s.run.nt != nil {
		s.stepNewton()
		return
	}
	s.training = false
	r := s.run
	start := s.env.Now()
	st := r.tr.Step()
	now := s.env.Now()
	r.busy += now.Sub(start)
	r.record(st)
	r.pts.flush()
	s.report(st, now, true)
}

// reset replaces the run with a fresh one for c, without training, and
// sends its step-0 Progress and weights.
func (s *session) reset(c protocol.Config) {
	if !s.needData() {
		return
	}
	var ok bool
	if isNewton(c) {
		ok = s.resetNewton(c)
	} else {
		tc, err := trainConfig(c, s.data.train.Len())
		if err != nil {
			s.failKey("err.config", hintConfig, err.Error())
			return
		}
		ok = s.newRun(c, tc)
	}
	if ok {
		s.training = false
		now := s.env.Now()
		s.sendProgress(now)
		s.sendWeights(now)
	}
}

// slice takes steps for about sliceTime, stopping early at an epoch end
// or when the run ends, and reports.
func (s *session) slice() {
	r := s.run
	if r.nt != nil {
		s.sliceNewton()
		return
	}
	every := max(1, checkExamples/r.tr.Config().BatchSize)
	start := s.env.Now()
	deadline := start.Add(sliceTime)
	due := s.pace.due(start) // steps a slowed run may take now; -1 at full speed
	var st train.Stats
	for n := 1; ; n++ {
		st = r.tr.Step()
		r.record(st)
		s.pace.took()
		if st.EpochEnd || st.Stop != train.Running || n == due {
			break
		}
		if n%every == 0 && !s.env.Now().Before(deadline) {
			break
		}
	}
	now := s.env.Now()
	r.busy += now.Sub(start)
	if st.Stop != train.Running {
		s.training = false
	}
	if due > 0 {
		// Slowed, every step is shown: its point closes at once.
		r.pts.flush()
	}
	s.report(st, now, s.pace.showEvery())
}

// record notes the stats of one step.
func (r *run) record(st train.Stats) {
	if st.Batch == 0 {
		return // the run had already ended
	}
	r.last, r.rate = st, st.Rate
	r.pts.add(st.Step, st.Loss)
	if st.EpochEnd {
		r.epoch = st.EpochLoss
		r.pts.flush()
	}
	if st.Stop != train.Running {
		r.pts.flush()
	}
}

// report sends what is due after the step st at time now: Progress and
// Weights when their time has come (always if force, and at an epoch end
// or the end of the run), Evaluated at an epoch end or the end of the run,
// and Failed if the run diverged.
func (s *session) report(st train.Stats, now time.Time, force bool) {
	r := s.run
	ended := st.Stop != train.Running
	if force || ended || st.EpochEnd || now.Sub(r.lastProgress) >= progressEvery {
		s.sendProgress(now)
	}
	sinceW := now.Sub(r.lastWeights)
	if force || ended || sinceW >= weightsEvery || (st.EpochEnd && sinceW >= epochWeightsGap) {
		s.sendWeights(now)
	}
	if ended || st.EpochEnd {
		s.send(s.evaluated())
	}
	if st.Stop == train.Diverged {
		s.failKey("err.diverged", hintDiverged, strconv.Itoa(st.Step), strconv.Itoa(st.Epoch+1))
	}
}

// state is the run's state as Progress reports it.
func (s *session) state() string {
	switch {
	case s.run.ended():
		return "done"
	case s.training:
		return "training"
	}
	return "paused"
}

func (s *session) sendProgress(now time.Time) {
	r := s.run
	if r.nt != nil {
		s.newtonProgress(now)
		return
	}
	step, epoch, seen := r.tr.Progress()
	r.totalBusy += r.busy
	state := s.state()
	switch {
	case state != "training" && r.totalBusy > 0:
		// Once the run rests, show its average: the last slice alone may
		// be a few steps long and say little.
		r.perSecond = float64(seen) / r.totalBusy.Seconds()
	case r.busy > 0 && seen > r.seenMark:
		r.perSecond = float64(seen-r.seenMark) / r.busy.Seconds()
	}
	r.seenMark, r.busy, r.lastProgress = seen, 0, now
	r.pts.stamp(r.totalBusy.Seconds())
	p := protocol.Progress{
		Run: r.id, State: state, Epoch: epoch, Epochs: r.cfg.Epochs,
		Step: step, Seen: seen, PerEpoch: r.m,
		Loss: finite(r.last.Loss), Losses: r.pts.take(), EpochLoss: finite(r.epoch),
		Rate: r.rate, PerSecond: r.perSecond, Method: method(r.cfg),
	}
	if stop := r.tr.Stopped(); stop != train.Running {
		p.Stop = stop.String()
	}
	s.send(p)
}

// sendWeights sends a copy of the run's weights.
func (s *session) sendWeights(now time.Time) {
	r := s.run
	if r.nt != nil {
		s.newtonWeights(now)
		return
	}
	r.lastWeights = now
	m := r.tr.Model()
	step, _, _ := r.tr.Progress()
	s.send(protocol.Weights{Run: r.id, Step: step, D: m.D,
		W: append([]float32(nil), m.W...), B: append([]float32(nil), m.B...)})
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
