package session

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// minibatch is minibatch SGD, core/train's Trainer: every step takes one
// batch of B examples. Full-batch gradient descent (gd.go) is the same
// trainer with B = m.
type minibatch struct {
	tc     train.Config
	epochs int            // Config.Epochs, the budget Progress shows
	tr     *train.Trainer // nil until started
	group  int            // steps per loss point
	last   train.Stats    // the latest step, zero before the first
	rate   float64        // α of the latest step, or as last set
	epoch  float64        // the latest epoch's mean loss, 0 before the first
}

func newMinibatch(c protocol.Config, m int) (method, error) { return minibatchFor(c, m) }

func minibatchFor(c protocol.Config, m int) (*minibatch, error) {
	tc, err := trainConfig(c, m)
	if err != nil {
		return nil, err
	}
	return &minibatch{tc: tc, epochs: c.Epochs, rate: c.LearningRate}, nil
}

// trainConfig maps the page's Config to the trainer's for m training
// examples and validates it. The batch size must be 1..m (the trainer's 0
// for "all" is not offered); zero epochs means no epoch limit.
func trainConfig(c protocol.Config, m int) (train.Config, error) {
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
		MyDigitsRate: c.MyDigitsRate,
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
	c.LearningRate, c.L2, c.MyDigitsRate = 0, 0, 0
	return c
}

func (b *minibatch) name() string { return "sgd" }

func (b *minibatch) everyStepAnEpoch() bool { return false }

func (b *minibatch) start(s *session, c protocol.Config, from *softmax.Model[float32]) error {
	d := s.data.of(c)
	tr, err := train.New(d.train, d.d, b.tc)
	if err == nil {
		err = tr.SetMyDigits(s.myDigitsFor(c))
	}
	if err == nil && from != nil {
		err = tr.SetModel(from)
	}
	if err != nil {
		return err
	}
	set := protocol.SetTrain
	if c.Deskew {
		set = protocol.SetDeskewed
	}
	tr.SetPasses(s.pool.gradPasses(set)) // full batch only: the pool's workers compute its shards
	steps := (d.train.Len() + b.tc.BatchSize - 1) / b.tc.BatchSize
	b.tr, b.group = tr, (steps+pointsPerEpoch-1)/pointsPerEpoch
	return nil
}

func (b *minibatch) points() int { return b.group }

// keep goes on with c if only α, λ or the rate of my digits changed.
func (b *minibatch) keep(old, c protocol.Config) (bool, error) {
	if shape(old) != shape(c) {
		return false, nil
	}
	if c.LearningRate != old.LearningRate {
		if err := b.tr.SetRate(c.LearningRate); err != nil {
			return false, err
		}
		b.rate = c.LearningRate
	}
	if c.L2 != old.L2 {
		if err := b.tr.SetL2(c.L2); err != nil {
			return false, err
		}
	}
	if c.MyDigitsRate != old.MyDigitsRate {
		if err := b.tr.SetMyDigitsRate(c.MyDigitsRate); err != nil {
			return false, err
		}
	}
	return true, nil
}

// slice takes steps for about sliceTime, stopping early at an epoch end,
// at a keyframe (so that its θ is sent), when the run ends or when a
// slowed run has taken the steps due. In full-batch descent every step
// ends an epoch, and its reports are timed (report), so its slices go on
// past epoch ends: a slice a step would cost each step a turn of the
// event loop. They stop at its keyframes, 64 at most in a run.
func (b *minibatch) slice(s *session) {
	r := s.run
	s.sendStart()
	every := max(1, checkExamples/b.tr.Config().BatchSize)
	start := s.env.Now()
	deadline := start.Add(sliceTime)
	due := s.pace.due(start) // steps a slowed run may take now; -1 at full speed
	var st train.Stats
	for n := 1; ; n++ {
		st = b.tr.Step()
		b.record(r, st)
		s.pace.took()
		if (st.EpochEnd && !r.meth.everyStepAnEpoch()) || st.Stop != train.Running || n == due || r.keys.Has(st.Step) {
			break
		}
		if n%every == 0 && !s.env.Now().Before(deadline) {
			break
		}
	}
	now := r.busySince(s.env, start)
	if st.Stop != train.Running {
		s.training = false
	}
	if due > 0 {
		// Slowed, every step is shown: its point closes at once.
		r.pts.flush()
	}
	b.report(s, st, now, s.pace.showEvery())
}

// step takes exactly one minibatch step.
func (b *minibatch) step(s *session) {
	r := s.run
	s.sendStart()
	start := s.env.Now()
	st := b.tr.Step()
	now := r.busySince(s.env, start)
	b.record(r, st)
	r.pts.flush()
	b.report(s, st, now, true)
}

// record notes the stats of one step.
func (b *minibatch) record(r *run, st train.Stats) {
	if st.Batch == 0 {
		return // the run had already ended
	}
	b.last, b.rate = st, st.Rate
	r.pts.add(st.Step, st.Loss)
	if st.EpochEnd {
		b.epoch = st.EpochLoss
		r.pts.flush()
	}
	if st.Stop != train.Running {
		r.pts.flush()
	}
}

// report sends what is due after the step st at time now: Progress and
// Weights when their time has come (always if force, and at an epoch end
// or the end of the run), Weights at a keyframe, Evaluated at an epoch
// end or the end of the run, and Failed if the run diverged.
func (b *minibatch) report(s *session, st train.Stats, now time.Time, force bool) {
	r := s.run
	ended := st.Stop != train.Running
	// An epoch's end is news for minibatches; in full-batch descent every
	// step ends one, and reporting each would post a message per step
	// (a thousand in the notes' run) for the page to decode and draw.
	epochEnd := st.EpochEnd && !r.meth.everyStepAnEpoch()
	if force || ended || epochEnd || now.Sub(r.lastProgress) >= progressEvery {
		s.sendProgress(now)
	}
	sinceW := now.Sub(r.lastWeights)
	key := r.keyframe() && r.keyedAt != st.Step
	if force || ended || key || sinceW >= weightsEvery || (epochEnd && sinceW >= epochWeightsGap) {
		s.sendWeights(now)
	}
	if ended || st.EpochEnd {
		s.sendEvaluation(ended)
	}
	s.sendSnapshot(now, force || ended)
	if st.Stop == train.Diverged {
		s.failKey("err.diverged", hintDiverged, strconv.Itoa(st.Step), strconv.Itoa(st.Epoch+1))
	}
}

func (b *minibatch) ended() bool { return b.tr.Stopped() != train.Running }

func (b *minibatch) at() (step, epoch int) {
	step, epoch, _ = b.tr.Progress()
	return step, epoch
}

func (b *minibatch) model() *softmax.Model[float32] { return b.tr.Model() }

func (b *minibatch) progress() protocol.Progress {
	step, epoch, seen := b.tr.Progress()
	p := protocol.Progress{
		Epoch: epoch, Epochs: b.epochs, Step: step, Seen: seen,
		Loss: finite(b.last.Loss), EpochLoss: finite(b.epoch), Rate: b.rate,
	}
	if stop := b.tr.Stopped(); stop != train.Running {
		p.Stop = stop.String()
	}
	return p
}

func (b *minibatch) setMyDigits(x *softmax.Examples[float32]) error { return b.tr.SetMyDigits(x) }

func (b *minibatch) stepOn(index []uint16, value []float32, label uint8, rate float64, o softmax.Objective) (train.Stats, error) {
	return train.StepOn(b.tr.Model(), index, value, label, rate, o)
}

func (b *minibatch) state() ([]byte, error) { return b.tr.MarshalBinary() }

func (b *minibatch) restore(c protocol.Config, state []byte) (protocol.Config, error) {
	if err := b.tr.Restore(state); err != nil {
		return c, err
	}
	tc := b.tr.Config()
	c.LearningRate, c.L2, c.MyDigitsRate = tc.LearningRate, tc.L2, tc.MyDigitsRate
	step, epoch, _ := b.tr.Progress()
	b.rate = tc.LearningRate
	b.last = train.Stats{Step: step, Epoch: epoch}
	return c, nil
}
