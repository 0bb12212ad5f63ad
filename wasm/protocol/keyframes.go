package protocol

import "math/bits"

// A run's keyframes are the steps after which the worker sends its θ as a
// Weights with Key set, so that the page can move every view back to one
// (rewind) and train a branch from it (UseModel). They are:
//
//   - step 0, and every power of two: 1, 2, 4, 8, … (the early steps,
//     where the model changes fastest);
//   - the end of every Stride-th epoch, Stride fixed when the run starts so
//     that the run never holds more than MaxKeyframes;
//   - the step the run ends at, whatever ended it.
//
// A step is one minibatch (SGD), one pass over the data (full-batch
// gradient descent: every step ends an epoch) or one outer iteration of
// Newton's method, whose iterations count as its epochs here.
//
// The schedule depends only on the Config and the number of training
// images, so the page knows it as the worker does: a link to a branch
// names a step the first run is sure to send.

// MaxKeyframes is the most keyframes a run sends: 7,850 float32 each, 31 KB
// on the default model, 2 MB at most a run.
const MaxKeyframes = 64

// Keyframes is a run's schedule of keyframes, bar its end.
type Keyframes struct {
	PerEpoch int // steps in one epoch, at least 1
	Epochs   int // the run's budget in epochs; 0: none (no epoch ends are kept)
	Stride   int // the epoch ends kept: every Stride-th; 0 for none
}

// KeyframesOf returns the schedule of a run of c on m training images.
// Newton's method counts its iterations (NewtonIters, 0 meaning 100) as
// epochs of one step; full-batch descent its steps.
func KeyframesOf(c Config, m int) Keyframes {
	per, epochs := 1, c.Epochs
	switch {
	case c.Method == "newton":
		epochs = c.NewtonIters
		if epochs == 0 {
			epochs = 100 // core/newton's DefaultIterations
		}
	case c.Method == "gd" || c.BatchSize >= m || c.BatchSize < 1:
	default:
		per = (m + c.BatchSize - 1) / c.BatchSize
	}
	return NewKeyframes(per, epochs)
}

// NewKeyframes returns the schedule of a run of epochs epochs (0: no
// budget) of perEpoch steps: the stride leaves room, within MaxKeyframes,
// for step 0, the powers of two up to the budget and the run's end.
func NewKeyframes(perEpoch, epochs int) Keyframes {
	k := Keyframes{PerEpoch: max(perEpoch, 1), Epochs: max(epochs, 0)}
	if k.Epochs == 0 {
		return k
	}
	steps := k.PerEpoch * k.Epochs
	room := MaxKeyframes - 1 - bits.Len(uint(steps)) - 1 // step 0, 1, 2, 4, … ≤ steps, and the end
	room = max(room, 1)
	k.Stride = (k.Epochs + room - 1) / room
	return k
}

// Has reports whether step is on the schedule: step 0, a power of two, or
// the end of a kept epoch. The run's end is a keyframe too, which only the
// run knows.
func (k Keyframes) Has(step int) bool {
	switch {
	case step < 0:
		return false
	case step&(step-1) == 0: // 0 and the powers of two
		return true
	case k.Stride == 0 || step%k.PerEpoch != 0:
		return false
	}
	e := step / k.PerEpoch
	return e%k.Stride == 0 && e <= k.Epochs
}

// Last returns the run's budget in steps, where it ends unless it stops
// earlier: a keyframe whether or not Has says so. 0 for a run without one.
func (k Keyframes) Last() int { return k.PerEpoch * k.Epochs }

// Steps returns the scheduled steps up to last, in order.
func (k Keyframes) Steps(last int) []int {
	var out []int
	for s := 0; s <= last; s++ {
		if k.Has(s) {
			out = append(out, s)
		}
		if next := k.next(s); next > s+1 {
			s = next - 1
		}
	}
	return out
}

// next returns the first scheduled step after s, or a step past every
// scheduled one below it, so that Steps skips the gaps.
func (k Keyframes) next(s int) int {
	p := 1
	for p <= s {
		p <<= 1
	}
	if k.Stride > 0 {
		unit := k.PerEpoch * k.Stride
		if e := (s/unit + 1) * unit; e < p {
			return e
		}
	}
	return p
}
