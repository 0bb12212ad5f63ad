package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"softmaxdemo/core/softmax"
)

// myDigits holds the examples mixed into every batch (a person's own
// digits): k of them per step, taken in a shuffled order that is
// reshuffled whenever it runs out, from a random source of their own, so
// that the data's order is the same with and without them.
type myDigits struct {
	x     *softmax.Examples[float32] // nil: none
	k     int                        // per batch; 0: none
	rng   *rand.Rand
	src   *rand.PCG // rng's source, whose state MarshalBinary keeps
	order []int32
	pos   int
	batch []int32 // the current draw, k long
}

// draw returns my digits for the next batch, or nil. It allocates
// nothing.
func (e *myDigits) draw() []int32 {
	if e.k == 0 {
		return nil
	}
	for i := range e.batch {
		if e.pos == len(e.order) {
			e.rng.Shuffle(len(e.order), func(i, j int) { e.order[i], e.order[j] = e.order[j], e.order[i] })
			e.pos = 0
		}
		e.batch[i] = e.order[e.pos]
		e.pos++
	}
	return e.batch
}

// extraSeed is the stream of the my digits' random source ("mydigits").
const extraSeed = 0x6d79646967697473

// SetMyDigits makes the trainer mix examples of x into every batch from the
// next step on: round(MyDigitsRate·B) of them (at least one), drawn in a
// shuffled order from a random source seeded with the run's seed, so a
// run with the same seed, data and my digits is reproducible. A few
// examples then weigh in every step against thousands of the data's. x nil
// or empty removes them. The trainer keeps x (read only). It returns an
// error, changing nothing, if an example of x does not fit the model.
//
// Without my digits (or with MyDigitsRate 0) every step is bit for bit
// what it was before. Stats.Batch counts the data's examples only,
// Stats.MyDigits my digits; the loss is over both.
func (t *Trainer) SetMyDigits(x *softmax.Examples[float32]) error {
	if x != nil && x.Len() > 0 {
		if err := x.Check(t.model.D); err != nil {
			return fmt.Errorf("train: my digits: %w", err)
		}
	} else {
		x = nil
	}
	t.myDigits = myDigits{x: x}
	if x != nil {
		t.myDigits.src = rand.NewPCG(t.cfg.Seed, extraSeed)
		t.myDigits.rng = rand.New(t.myDigits.src)
		t.myDigits.order = make([]int32, x.Len())
		for i := range t.myDigits.order {
			t.myDigits.order[i] = int32(i)
		}
		t.myDigits.pos = len(t.myDigits.order) // shuffle on the first draw
	}
	t.setMyDigitsK()
	return nil
}

// SetMyDigitsRate changes MyDigitsRate from the next step on. It returns the
// validation error if rate is out of range, leaving it unchanged.
func (t *Trainer) SetMyDigitsRate(rate float64) error {
	if err := t.change(func(c *Config) { c.MyDigitsRate = rate }); err != nil {
		return err
	}
	t.setMyDigitsK()
	return nil
}

// setMyDigitsK sizes the draw for the current rate and batch size.
func (t *Trainer) setMyDigitsK() {
	k := 0
	if t.myDigits.x != nil && t.cfg.MyDigitsRate > 0 {
		k = max(1, int(math.Round(t.cfg.MyDigitsRate*float64(t.cfg.BatchSize))))
	}
	t.myDigits.k = k
	if cap(t.myDigits.batch) < k {
		t.myDigits.batch = make([]int32, k)
	}
	t.myDigits.batch = t.myDigits.batch[:k]
}

// SetModel makes the trainer go on from a copy of m's parameters (a model
// loaded from a file): the next step starts from them, and a diverging
// epoch goes back to them. With PinFirst, class 0 is set to zero. It
// returns an error, changing nothing, if m has another shape or a
// parameter that is not finite.
func (t *Trainer) SetModel(m *softmax.Model[float32]) error {
	switch {
	case m == nil || m.D != t.model.D || len(m.W) != len(t.model.W) || len(m.B) != len(t.model.B):
		d := 0
		if m != nil {
			d = m.D
		}
		return fmt.Errorf("train: a model with %d features cannot continue a run with %d", d, t.model.D)
	case !m.Finite():
		return fmt.Errorf("train: the model has a parameter that is NaN or infinite")
	}
	t.model.CopyFrom(m)
	t.pin()
	t.saved.CopyFrom(t.model)
	return nil
}
