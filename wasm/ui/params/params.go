package params

import (
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"slices"
	"strconv"
	"strings"

	"softmaxdemo/wasm/protocol"
)

// fields are the training controls as the person typed or chose them.
type Fields struct {
	LR, Batch, L2, Epochs, Seed   string
	Decay                         string // α is multiplied by this after every epoch; "1": no decay
	Init                          string // "zeros" or "normal": θ starts at 0, or drawn from N(0, 1)
	Pin                           bool   // digit 0's weights stay at zero
	Deskew                        bool   // train and read straightened digits (core/digit.Deskew)
	Pace                          string // one of Paces: how fast training runs
	Method                        string // "sgd", "gd" or "newton": see methods
	NewtonIters, GradTol, CGSteps string // Newton's budget, ‖∇J‖ tolerance and CG cap
}

// methods are the three ways of descending the notes teach: minibatch
// SGD (B = 1 … m), full-batch gradient descent (every step sees the whole
// set), and Newton's method.
var Methods = []string{"sgd", "gd", "newton"}

// Paces are the paces a teacher can choose, in steps per second, and
// "full" for full speed (the benchmarks' pace). The default, 50 steps a
// second, plays the default run (5 epochs of 100 steps) in 10 seconds: an
// epoch every 2 s, slow enough to see the loss fall and the templates
// form while the teacher talks, fast enough not to wait; 1 step a second
// is for talking through single updates.
var Paces = []string{"full", "200", "50", "10", "3", "1"}

// DefaultPace is the pace a page opens with.
const DefaultPace = "50"

// paceRate returns the steps per second of a pace stop (0 for full speed)
// and whether it is one.
func PaceRate(s string) (float64, bool) {
	if s == "full" {
		return 0, true
	}
	if !slices.Contains(Paces, s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// fieldErrors holds one reason per refused field; the zero msg means
// accepted.
type Errors struct {
	LR, Batch, L2, Epochs, Seed, Decay i18n.Msg
	NewtonIters, GradTol, CGSteps      i18n.Msg
}

// ok reports whether every field was accepted.
func (e Errors) OK() bool {
	for _, m := range []i18n.Msg{e.LR, e.Batch, e.L2, e.Epochs, e.Seed, e.Decay, e.NewtonIters, e.GradTol, e.CGSteps} {
		if !m.IsZero() {
			return false
		}
	}
	return true
}

// defaultFields are the values the page starts with.
func Defaults() Fields {
	return withNewton(Fields{LR: "0.5", Batch: "100", L2: "0.0001", Epochs: "5", Seed: "1", Decay: "1", Init: "zeros", Deskew: true, Pace: DefaultPace, Method: "sgd"})
}

// withNewton fills Newton's fields with their defaults: at most 20
// iterations (it needs about 10 on MNIST), until ‖∇J‖ ≤ 10⁻⁵, at most 250
// conjugate-gradient steps for each.
func withNewton(f Fields) Fields {
	f.NewtonIters, f.GradTol, f.CGSteps = "20", "1e-5", "250"
	return f
}

// preset is a named set of fields that shows one way of doing gradient
// descent. Its title is the catalog's "preset."+Name.
type Preset struct {
	Name   string
	Fields func(m int) Fields // for a training set of m examples
}

// presets are the three regimes the lecture contrasts: B = 1 is stochastic
// gradient descent, B = m is full-batch gradient descent, minibatches lie
// between; and the lecture notes' own experiment, full-batch from a random
// start, which minibatches beat in a second.
var Presets = []Preset{
	{"minibatch", func(int) Fields { return Defaults() }},
	{"sgd", func(int) Fields {
		return withNewton(Fields{LR: "0.02", Batch: "1", L2: "0", Epochs: "1", Seed: "1", Decay: "1", Init: "zeros", Deskew: true, Method: "sgd"})
	}},
	{"full", func(m int) Fields {
		return withNewton(Fields{LR: "0.5", Batch: strconv.Itoa(max(m, 1)), L2: "0.0001", Epochs: "100", Seed: "1", Decay: "1", Init: "zeros", Deskew: true, Method: "gd"})
	}},
	{"newton", func(m int) Fields {
		// Newton's method needs λ > 0 (or a pinned class): without it H is
		// singular, as the notes warn.
		f := Defaults()
		f.Method = "newton"
		return f
	}},
	{"lecture", func(m int) Fields {
		// The notes trained on raw pixels, so their preset does too.
		return withNewton(Fields{LR: "0.1", Batch: strconv.Itoa(max(m, 1)), L2: "0.001", Epochs: "1000", Seed: "1", Decay: "1", Init: "normal", Method: "gd"})
	}},
}

// parseConfig turns the typed fields into a training configuration for a
// training set of m examples. Every field that is not a finite number in
// range gets a reason a student can act on; the configuration is only
// meaningful when the returned errors are ok.
func Parse(f Fields, m int) (protocol.Config, Errors) {
	var c protocol.Config
	var e Errors
	c.LearningRate, e.LR = parseFloat(f.LR, "name.lr", 0, false, 1000)
	c.L2, e.L2 = parseFloat(f.L2, "name.l2", 0, true, 10)
	if m < 1 {
		m = 1
	}
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

// quoteShort returns s for showing inside a message: control characters
// replaced, and cut to 24 characters, so that a value pasted or linked by
// mistake (a whole paragraph, markup) cannot flood the page.
func Quote(s string) string {
	q := strconv.Quote(s)
	q = q[1 : len(q)-1]
	if r := []rune(q); len(r) > 24 {
		q = string(r[:24]) + "…"
	}
	return q
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// SameRun reports whether a run going on with the configuration run could
// go on with the fields f, for a training set of m examples, as the
// worker decides it: SGD and gradient descent take a new α and λ in their
// stride, Newton's method no setting at all; the pace is never part of a
// run, nor is the share of my digits, which the page sets. f must be
// accepted by Parse.
func SameRun(run protocol.Config, f Fields, m int) bool {
	c, _ := Parse(f, m)
	run.MyDigitsRate = 0
	if run.Method != "newton" {
		run.LearningRate, run.L2 = 0, 0
		c.LearningRate, c.L2 = 0, 0
	}
	return run == c
}

// PresetFields returns the fields of the preset name for a training set
// of m examples, at pace ("" for the preset's own, or the default's). It
// panics for a name that is no preset's, which is a bug in the caller.
func PresetFields(name string, m int, pace string) Fields {
	i := slices.IndexFunc(Presets, func(p Preset) bool { return p.Name == name })
	if i < 0 {
		panic("params: no preset " + name)
	}
	f := Presets[i].Fields(m)
	if pace != "" {
		f.Pace = pace
	} else if f.Pace == "" {
		f.Pace = DefaultPace
	}
	return f
}

// FieldsOf returns the fields that Parse reads as c, for a run's settings
// written into a link: Parse(FieldsOf(c), m) gives c back, but for the
// share of my digits, which the page sets. The pace is not a run's and is
// left empty.
func FieldsOf(c protocol.Config) Fields {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	f := Fields{
		LR: g(c.LearningRate), Batch: strconv.Itoa(c.BatchSize), L2: g(c.L2), Epochs: strconv.Itoa(c.Epochs),
		Seed: strconv.FormatUint(c.Seed, 10), Decay: "1", Init: "zeros", Pin: c.PinFirst, Deskew: c.Deskew, Method: c.Method,
	}
	if c.Decay > 0 && c.DecayEvery > 0 {
		f.Decay = g(c.Decay)
	}
	if c.InitNormal {
		f.Init = "normal"
	}
	if f.Method == "" {
		f.Method = "sgd"
	}
	f = withNewton(f)
	if c.NewtonIters > 0 {
		f.NewtonIters = strconv.Itoa(c.NewtonIters)
	}
	if c.GradTol > 0 {
		f.GradTol = g(c.GradTol)
	}
	if c.CGSteps > 0 {
		f.CGSteps = strconv.Itoa(c.CGSteps)
	}
	return f
}
