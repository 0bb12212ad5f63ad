package params

import (
	"math"
	"strconv"
	"strings"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// Settings are the Train panel's fields checked once, by Check: the fields
// as typed, the run's configuration they say, and the reason each refused
// field is refused. They were checked for a training set of M examples,
// which bounds B. A Settings is a value: one whose Fields are changed
// by hand no longer agrees with its Config; check the new fields instead.
type Settings struct {
	Fields Fields
	M      int             // the training set's size they were checked for, at least 1
	Config protocol.Config // the run's settings; meaningful only when OK
	Errors Errors          // why each refused field is refused
	// Refused is why each field would be refused under the rules of the
	// method it serves, whichever method the fields name: α, B, the
	// epochs and the decay as SGD's, Newton's budget, tolerance and CG cap
	// as Newton's, λ and the seed as either's. A link is checked so: a
	// value it carries for another method than its own must still be one
	// the page accepts.
	Refused Errors
}

// MaxTrain is the training set that fields are checked for before the
// data are in: the full pack's 60,000 images, the most B may be.
const MaxTrain = 60000

// Check checks the fields f for a training set of m examples (MaxTrain
// if m < 1): every field that is not a finite number in range gets a
// reason a student can act on, and the configuration is meaningful only
// when every field passes (Settings.OK). It is the one place where the
// fields are read as numbers.
func Check(f Fields, m int) Settings {
	if m < 1 {
		m = MaxTrain
	}
	c, e := parse(f, m)
	descent, newton := f, f
	descent.Method, newton.Method = "sgd", "newton"
	_, refused := parse(descent, m)
	_, n := parse(newton, m)
	refused.NewtonIters, refused.GradTol, refused.CGSteps = n.NewtonIters, n.GradTol, n.CGSteps
	return Settings{Fields: f, M: m, Config: c, Errors: e, Refused: refused}
}

// OK reports whether every field passes.
func (s Settings) OK() bool { return s.Errors.OK() }

// For returns s checked for a training set of m examples (MaxTrain if m
// < 1): s itself if it was checked for that many.
func (s Settings) For(m int) Settings {
	if m < 1 {
		m = MaxTrain
	}
	if m == s.M {
		return s
	}
	return Check(s.Fields, m)
}

// With returns the fields f checked for the training set s was checked
// for.
func (s Settings) With(f Fields) Settings { return Check(f, s.M) }

// SameRun reports whether a run going on with the configuration run
// could go on with s, as the worker decides it: SGD and gradient descent
// take a new α and λ in their stride, Newton's method no setting at all;
// the pace is never part of a run, nor is the share of my digits, which
// the page sets. s must be OK.
func (s Settings) SameRun(run protocol.Config) bool {
	c := s.Config
	run.MyDigitsRate = 0
	if run.Method != "newton" {
		run.LearningRate, run.L2 = 0, 0
		c.LearningRate, c.L2 = 0, 0
	}
	return run == c
}

// Errors holds one reason per refused field; the zero i18n.Msg means the
// field passes.
type Errors struct {
	LR, Batch, L2, Epochs, Seed, Decay i18n.Msg
	NewtonIters, GradTol, CGSteps      i18n.Msg
}

// OK reports whether every field passes.
func (e Errors) OK() bool {
	for _, m := range []i18n.Msg{e.LR, e.Batch, e.L2, e.Epochs, e.Seed, e.Decay, e.NewtonIters, e.GradTol, e.CGSteps} {
		if !m.IsZero() {
			return false
		}
	}
	return true
}

// parse turns the typed fields into a training configuration for a
// training set of m examples, with the reason each refused field is
// refused (Check).
func parse(f Fields, m int) (protocol.Config, Errors) {
	var c protocol.Config
	var e Errors
	c.LearningRate, e.LR = parseFloat(f.LR, "name.lr", 0, false, 1000)
	c.L2, e.L2 = parseFloat(f.L2, "name.l2", 0, true, 10)
	var n int64
	n, e.Batch = parseInt(f.Batch, "name.batch", 1, int64(m))
	if !e.Batch.IsZero() {
		e.Batch = i18n.Text("field.batchHint", e.Batch, m)
	}
	c.BatchSize = int(n)
	n, e.Epochs = parseInt(f.Epochs, "name.epochs", 1, maxEpochs)
	c.Epochs = int(n)
	n, e.Seed = parseInt(f.Seed, "name.seed", 0, maxSeed)
	c.Seed = uint64(n)
	var decay float64
	decay, e.Decay = parseFloat(f.Decay, "name.decay", 0, false, 1)
	if !e.Decay.IsZero() {
		e.Decay = i18n.Text("field.decayHint", e.Decay)
	} else if decay < 1 {
		c.Decay, c.DecayEvery = decay, 1
	}
	c.InitNormal = f.Init == "normal"
	c.PinFirst = f.Pin
	c.Deskew = f.Deskew
	c.Method = f.Method
	switch f.Method {
	case "gd":
		// Every step sees the whole set, whatever B says.
		c.BatchSize, e.Batch = m, i18n.Msg{}
	case "newton":
		// Newton's method has no α, B, epochs, decay or start of its own:
		// only its budget, tolerance and CG cap count.
		e.LR, e.Batch, e.Epochs, e.Decay = i18n.Msg{}, i18n.Msg{}, i18n.Msg{}, i18n.Msg{}
		n, e.NewtonIters = parseInt(f.NewtonIters, "name.newtonIters", 1, 200)
		c.NewtonIters = int(n)
		c.GradTol, e.GradTol = parseFloat(f.GradTol, "name.gradTol", 0, false, 1)
		n, e.CGSteps = parseInt(f.CGSteps, "name.cgSteps", 1, 2000)
		c.CGSteps = int(n)
	}
	return c, e
}

// Limits of the fields beyond what the trainer itself checks.
const (
	maxEpochs = 1000
	maxSeed   = 1 << 53 // seeds travel as JSON numbers, exact up to 2⁵³
)

// parseFloat reads a finite number in (lo, hi], or [lo, hi] with
// inclusive, and returns it with the zero msg or with the reason it is
// refused; name is the catalog key of the field's name.
func parseFloat(s, name string, lo float64, inclusive bool, hi float64) (float64, i18n.Msg) {
	s = strings.TrimSpace(s)
	n := i18n.Text(name)
	if s == "" {
		return 0, i18n.Text("field.enter", n)
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !isRangeErr(err):
		return 0, i18n.Text("field.notNumber", Quote(s))
	case math.IsNaN(v) || math.IsInf(v, 0) || err != nil:
		return 0, i18n.Text("field.finite", n)
	case inclusive && v < lo:
		return 0, i18n.Text("field.atLeast", n, lo, v)
	case !inclusive && v <= lo:
		return 0, i18n.Text("field.above", n, lo, v)
	case v > hi:
		return 0, i18n.Text("field.atMost", n, hi, v)
	}
	return v, i18n.Msg{}
}

// parseInt reads a whole number in [lo, hi].
func parseInt(s, name string, lo, hi int64) (int64, i18n.Msg) {
	s = strings.TrimSpace(s)
	n := i18n.Text(name)
	if s == "" {
		return 0, i18n.Text("field.enter", n)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return 0, i18n.Text("field.whole", n, Quote(s))
		}
		return 0, i18n.Text("field.notWhole", Quote(s))
	}
	if v < lo || v > hi {
		return 0, i18n.Text("field.range", n, lo, hi, v)
	}
	return v, i18n.Msg{}
}

// isRangeErr reports whether err is strconv's for a number out of float64's range.
func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
