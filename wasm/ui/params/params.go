// Package params holds the Train panel's fields and their rules: the
// fields as a person types them (Fields), what one change to them is
// (Edit), the one function that checks them (Check) and the checked value
// the page keeps (Settings), the presets, the paces and the methods.
package params

import (
	"slices"
	"strconv"

	"softmaxdemo/wasm/protocol"
)

// Fields are the training controls as the person typed or chose them.
type Fields struct {
	LR, Batch, L2, Epochs, Seed   string
	Decay                         string // α is multiplied by this after every epoch; "1": no decay
	Init                          string // "zeros" or "normal": θ starts at 0, or drawn from N(0, 1)
	Pin                           bool   // digit 0's weights stay at zero
	Deskew                        bool   // train and read straightened digits (core/digit.Deskew)
	Pace                          string // one of Paces: how fast training runs
	Method                        string // "sgd", "gd" or "newton": see Methods
	NewtonIters, GradTol, CGSteps string // Newton's budget, ‖∇J‖ tolerance and CG cap
}

// Methods are the three ways of descending the notes teach: minibatch
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

// PaceRate returns the steps per second of a pace stop (0 for full speed)
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

// Defaults returns the fields the page starts with.
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

// Preset is a named set of fields that shows one way of doing gradient
// descent. Its title is the catalog's "preset."+Name.
type Preset struct {
	Name   string
	Fields func(m int) Fields // for a training set of m examples
}

// Presets are the ways of descending the lecture contrasts: B = 1 is
// stochastic gradient descent, B = m is full-batch gradient descent,
// minibatches lie between; Newton's method; and the lecture notes' own
// experiment, full-batch from a random start, which minibatches beat in a
// second.
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

// Quote returns s for showing inside a message: control characters
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

// FieldsOf returns the fields that Check reads as c, for a run's settings
// written into a link: Check(FieldsOf(c), m).Config is c, but for the
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
