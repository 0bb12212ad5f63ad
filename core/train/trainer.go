package train

import (
	"math"
	"math/rand/v2"

	"softmaxdemo/core/softmax"
)

// Stop says why a run ended.
type Stop int

const (
	Running   Stop = iota // not ended
	Budget                // the epochs or iterations ran out
	Converged             // the epoch loss changed by less than the tolerance
	Diverged              // the loss or a weight stopped being a finite number
)

// String returns a lower-case word for s.
func (s Stop) String() string {
	return [...]string{"running", "budget", "converged", "diverged"}[s]
}

// Stats describes one step, for display. Loss is the objective on the
// step's batch at the weights before the update, L2 term included.
type Stats struct {
	Step      int     // steps taken so far, this one included
	Epoch     int     // the epoch this step belongs to, from 0
	Seen      int64   // examples seen so far, this batch included
	Batch     int     // examples of the data in this step
	MyDigits  int     // my digits (SetMyDigits) mixed into this step
	Loss      float64 // objective on this batch
	Rate      float64 // α used for this step
	EpochEnd  bool    // this step finished an epoch
	EpochLoss float64 // with EpochEnd: mean Loss over the epoch's examples
	Stop      Stop    // not Running if the run has ended
}

// Trainer runs minibatch SGD on one model. It is not safe for concurrent
// use; the worker owns it and hands out copies of the weights.
type Trainer struct {
	cfg      Config
	obj      softmax.Objective
	data     *softmax.Examples[float32]
	model    *softmax.Model[float32]
	saved    *softmax.Model[float32] // the weights at the start of the epoch
	rng      *rand.Rand
	src      *rand.PCG // rng's source, whose state MarshalBinary keeps
	order    []int32
	gw       []float32
	gb       []float32
	mark     []bool     // sparse update: rows touched by this batch
	rows     []int32    // sparse update: their list
	myDigits myDigits   // examples mixed into every batch, see SetMyDigits
	full     *fullBatch // B = m: the gradient by shards (full.go); nil otherwise

	rate      float64
	pos       int
	step      int
	epoch     int
	seen      int64
	epochSum  float64 // Σ loss·n over the epoch so far
	prevEpoch float64 // previous epoch's mean loss, NaN before the first
	stop      Stop
}

// New returns a trainer for a model with d features and cfg.Classes
// classes on data, with weights initialised as cfg says. It returns
// cfg.Validate's error if an option is out of range. The trainer keeps
// data (read only; its labels must be below the number of classes, see
// softmax.Examples.CheckClasses) and owns its model. For ten classes it
// cuts data into pairs and singles first (softmax.Block), for the SIMD
// kernels, unless they are cut already.
func New(data *softmax.Examples[float32], d int, cfg Config) (*Trainer, error) {
	m := data.Len()
	if err := cfg.Validate(m); err != nil {
		return nil, err
	}
	if cfg.classes() == softmax.K {
		softmax.Block(data)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = m
	}
	k := cfg.classes()
	t := &Trainer{
		cfg:       cfg,
		obj:       softmax.Objective{Lambda: cfg.L2, L2Bias: cfg.L2Bias, PinFirst: cfg.PinFirst, NoBias: cfg.NoBias},
		data:      data,
		model:     softmax.NewClasses[float32](d, k),
		src:       rand.NewPCG(cfg.Seed, 0x736f66746d6178), // "softmax"
		order:     make([]int32, m),
		gw:        make([]float32, d*k),
		gb:        make([]float32, k),
		mark:      make([]bool, d),
		rows:      make([]int32, 0, d),
		rate:      cfg.LearningRate,
		prevEpoch: math.NaN(),
	}
	t.rng = rand.New(t.src)
	for i := range t.order {
		t.order[i] = int32(i)
	}
	if cfg.BatchSize == m {
		t.full = newFullBatch(data, d, k)
	}
	if cfg.Init == Normal {
		t.model.InitNormal(t.rng, cfg.InitStd)
		t.pin()
	}
	t.saved = t.model.Clone()
	return t, nil
}

// Config returns the run's configuration, with BatchSize resolved.
func (t *Trainer) Config() Config { return t.cfg }

// Model returns the trainer's live model. It changes with every Step; copy
// it (Clone, CopyFrom) to keep a snapshot.
func (t *Trainer) Model() *softmax.Model[float32] { return t.model }

// Stopped returns why the run ended, or Running.
func (t *Trainer) Stopped() Stop { return t.stop }

// Progress returns the steps taken, the current epoch and the examples seen.
func (t *Trainer) Progress() (step, epoch int, seen int64) { return t.step, t.epoch, t.seen }

// SetRate changes α from the next step on (the page's slider). It returns
// the validation error if rate is out of range, leaving α unchanged.
func (t *Trainer) SetRate(rate float64) error {
	if err := t.change(func(c *Config) { c.LearningRate = rate }); err != nil {
		return err
	}
	t.rate = rate
	return nil
}

// SetL2 changes λ from the next step on. It returns the validation error if
// l2 is out of range, leaving λ unchanged.
func (t *Trainer) SetL2(l2 float64) error {
	if err := t.change(func(c *Config) { c.L2 = l2 }); err != nil {
		return err
	}
	t.obj.Lambda = l2
	return nil
}

// change makes edit to a copy of t's configuration and, if the result is
// valid, makes it t's; otherwise it returns the validation error and
// leaves t unchanged.
func (t *Trainer) change(edit func(*Config)) error {
	c := t.cfg
	edit(&c)
	if err := c.Validate(t.data.Len()); err != nil {
		return err
	}
	t.cfg = c
	return nil
}

// Step takes one minibatch step and returns its Stats. Once the run has
// ended, Step does nothing and returns Stats with Stop set. If the step
// makes the loss or a weight non-finite, the weights go back to where the
// epoch started and the run ends with Diverged: the model stays usable.
// Step allocates nothing.
func (t *Trainer) Step() Stats {
	if t.stop != Running {
		return Stats{Step: t.step, Epoch: t.epoch, Seen: t.seen, Rate: t.rate, Stop: t.stop}
	}
	m := len(t.order)
	if t.pos == 0 {
		if t.full == nil {
			// Full-batch steps see every example, in shard order: they
			// need no shuffle.
			t.rng.Shuffle(m, func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
		}
		t.saved.CopyFrom(t.model)
	}
	n := min(t.cfg.BatchSize, m-t.pos)
	batch := t.order[t.pos : t.pos+n]
	var loss float64
	if t.full != nil {
		loss = t.full.grad(t.gw, t.gb, t.model.W, t.model.B)
	} else {
		loss = softmax.Grad(t.gw, t.gb, t.model.W, t.model.B, t.data, batch)
	}
	more := t.myDigits.draw()
	if len(more) > 0 {
		loss += softmax.Grad(t.gw, t.gb, t.model.W, t.model.B, t.myDigits.x, more)
	}
	k := len(more)
	loss /= float64(n + k)
	if t.obj.Lambda == 0 && (n+k)*8 <= len(t.mark) {
		t.updateSparse(batch, more, n+k)
	} else {
		loss += t.updateDense(n + k)
	}
	st := Stats{Epoch: t.epoch, Batch: n, MyDigits: k, Loss: loss, Rate: t.rate}
	t.step++
	t.seen += int64(n)
	t.pos += n
	t.epochSum += loss * float64(n)
	if t.pos == m {
		st.EpochEnd = true
		st.EpochLoss = t.epochSum / float64(m)
	}
	if t.cfg.Iterations > 0 && t.step >= t.cfg.Iterations {
		t.stop = Budget
	}
	// A weight that overflowed shows in the next step's loss (through the
	// logits, or the L2 term); at an epoch's end, and when the run stops,
	// the weights are checked directly. Either way the run goes back to
	// the weights the epoch started from.
	if math.IsNaN(loss) || math.IsInf(loss, 0) || ((st.EpochEnd || t.stop != Running) && !t.model.Finite()) {
		t.model.CopyFrom(t.saved)
		t.stop = Diverged
		st.EpochEnd = false
	} else if st.EpochEnd {
		t.endEpoch(st.EpochLoss)
	}
	st.Step, st.Seen, st.Stop = t.step, t.seen, t.stop
	return st
}

// endEpoch applies the epoch budget, the tolerance and the decay.
func (t *Trainer) endEpoch(loss float64) {
	t.epoch++
	t.pos = 0
	t.epochSum = 0
	switch {
	case t.cfg.Epochs > 0 && t.epoch >= t.cfg.Epochs:
		t.stop = Budget
	case t.cfg.Tolerance > 0 && math.Abs(loss-t.prevEpoch) < t.cfg.Tolerance:
		t.stop = Converged
	}
	t.prevEpoch = loss
	if t.cfg.DecayEvery > 0 && t.epoch%t.cfg.DecayEvery == 0 {
		t.rate *= t.cfg.Decay
	}
}

// updateDense applies θ := θ − α(g/n + λθ) to every weight
// (softmax.Update), zeroes the gradient, and returns the L2 penalty of the
// old weights.
func (t *Trainer) updateDense(n int) (penalty float64) {
	a, inv, lam := float32(t.rate), 1/float32(n), float32(t.obj.Lambda)
	sq := softmax.Update(t.model.W, t.gw[:len(t.model.W)], a, inv, lam)
	blam := float32(0)
	if t.obj.L2Bias {
		blam = lam
		for _, bi := range t.model.B {
			sq += float64(bi) * float64(bi)
		}
	}
	for c, bi := range t.model.B {
		t.model.B[c] = bi - float32(a*(float32(t.gb[c]*inv)+float32(blam*bi)))
		t.gb[c] = 0
	}
	t.pin()
	return t.obj.Lambda / 2 * sq
}

// updateSparse is updateDense for λ = 0 and small batches: only the rows
// of pixels that occur in the batch (and my digits, more) have a
// non-zero gradient, so only they change. The result is bit for bit what
// updateDense gives.
func (t *Trainer) updateSparse(batch, more []int32, n int) {
	t.rows = t.rows[:0]
	t.markRows(t.data, batch)
	if len(more) > 0 {
		t.markRows(t.myDigits.x, more)
	}
	a, inv := float32(t.rate), 1/float32(n)
	k := len(t.model.B)
	for _, j := range t.rows {
		t.mark[j] = false
		o := int(j) * k
		w := t.model.W[o : o+k : o+k]
		g := t.gw[o : o+k : o+k]
		for c := range w {
			w[c] -= float32(a * float32(g[c]*inv))
			g[c] = 0
		}
	}
	for c, bi := range t.model.B {
		t.model.B[c] = bi - float32(a*float32(t.gb[c]*inv))
		t.gb[c] = 0
	}
	t.pin()
}

// markRows marks the rows of the features of x's examples at batch and
// lists them in t.rows.
func (t *Trainer) markRows(x *softmax.Examples[float32], batch []int32) {
	for _, i := range batch {
		index, _ := x.Example(int(i))
		for _, j := range index {
			if !t.mark[j] {
				t.mark[j] = true
				t.rows = append(t.rows, int32(j))
			}
		}
	}
}

// pin sets class 0's weights and bias to zero under PinFirst, and every
// bias under NoBias.
func (t *Trainer) pin() {
	if t.obj.PinFirst {
		w, k := t.model.W, len(t.model.B)
		for j := 0; j < len(w); j += k {
			w[j] = 0
		}
		t.model.B[0] = 0
	}
	if t.obj.NoBias {
		clear(t.model.B)
	}
}
