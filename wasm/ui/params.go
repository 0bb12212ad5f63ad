package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"softmaxdemo/wasm/protocol"
)

// fields are the training controls as the person typed or chose them.
type fields struct {
	LR, Batch, L2, Epochs, Seed string
	Decay                       string // α is multiplied by this after every epoch; "1": no decay
	Init                        string // "zeros" or "normal": θ starts at 0, or drawn from N(0, 1)
	Pin                         bool   // digit 0's weights stay at zero
}

// fieldErrors holds one reason per refused field; empty means accepted.
type fieldErrors struct {
	LR, Batch, L2, Epochs, Seed, Decay string
}

// ok reports whether every field was accepted.
func (e fieldErrors) ok() bool {
	return e == fieldErrors{}
}

// defaultFields are the values the page starts with.
func defaultFields() fields {
	return fields{LR: "0.5", Batch: "100", L2: "0.0001", Epochs: "5", Seed: "1", Decay: "1", Init: "zeros"}
}

// preset is a named set of fields that shows one way of doing gradient
// descent.
type preset struct {
	Name, Title string
	Fields      func(m int) fields // for a training set of m examples
}

// presets are the three regimes the lecture contrasts: B = 1 is stochastic
// gradient descent, B = m is full-batch gradient descent, minibatches lie
// between; and the lecture notes' own experiment, full-batch from a random
// start, which minibatches beat in a second.
var presets = []preset{
	{"minibatch", "Minibatch SGD: B = 100", func(int) fields { return defaultFields() }},
	{"sgd", "SGD: one image per step, B = 1", func(int) fields {
		return fields{LR: "0.02", Batch: "1", L2: "0", Epochs: "1", Seed: "1", Decay: "1", Init: "zeros"}
	}},
	{"full", "Full-batch gradient descent: B = all", func(m int) fields {
		return fields{LR: "0.5", Batch: strconv.Itoa(max(m, 1)), L2: "0.0001", Epochs: "100", Seed: "1", Decay: "1", Init: "zeros"}
	}},
	{"lecture", "The lecture notes: full batch, 1000 steps from N(0, 1)", func(m int) fields {
		return fields{LR: "0.1", Batch: strconv.Itoa(max(m, 1)), L2: "0.001", Epochs: "1000", Seed: "1", Decay: "1", Init: "normal"}
	}},
}

// parseConfig turns the typed fields into a training configuration for a
// training set of m examples. Every field that is not a finite number in
// range gets a reason a student can act on; the configuration is only
// meaningful when the returned errors are ok.
func parseConfig(f fields, m int) (protocol.Config, fieldErrors) {
	var c protocol.Config
	var e fieldErrors
	c.LearningRate, e.LR = parseFloat(f.LR, "learning rate", 0, false, 1000)
	c.L2, e.L2 = parseFloat(f.L2, "L2 strength λ", 0, true, 10)
	if m < 1 {
		m = 1
	}
	var n int64
	n, e.Batch = parseInt(f.Batch, "batch size", 1, int64(m))
	if e.Batch != "" {
		e.Batch += fmt.Sprintf(" (1 is SGD, %d is the whole set: full-batch gradient descent)", m)
	}
	c.BatchSize = int(n)
	n, e.Epochs = parseInt(f.Epochs, "epochs", 1, 1000)
	c.Epochs = int(n)
	n, e.Seed = parseInt(f.Seed, "seed", 0, 1<<53)
	c.Seed = uint64(n)
	var decay float64
	decay, e.Decay = parseFloat(f.Decay, "decay factor", 0, false, 1)
	if e.Decay != "" {
		e.Decay += " (1 keeps α; 0.5 halves it after every epoch)"
	} else if decay < 1 {
		c.Decay, c.DecayEvery = decay, 1
	}
	c.InitNormal = f.Init == "normal"
	c.PinFirst = f.Pin
	return c, e
}

// parseFloat reads a finite number in (lo, hi], or [lo, hi] with
// inclusive, and returns it with "" or with the reason it is refused.
func parseFloat(s, name string, lo float64, inclusive bool, hi float64) (float64, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Sprintf("enter a %s", name)
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !isRangeErr(err):
		return 0, fmt.Sprintf("%q is not a number", s)
	case math.IsNaN(v) || math.IsInf(v, 0) || err != nil:
		return 0, fmt.Sprintf("the %s must be a finite number", name)
	case inclusive && v < lo:
		return 0, fmt.Sprintf("the %s must be at least %g (got %g)", name, lo, v)
	case !inclusive && v <= lo:
		return 0, fmt.Sprintf("the %s must be above %g (got %g)", name, lo, v)
	case v > hi:
		return 0, fmt.Sprintf("the %s must be at most %g (got %g)", name, hi, v)
	}
	return v, ""
}

// parseInt reads a whole number in [lo, hi].
func parseInt(s, name string, lo, hi int64) (int64, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Sprintf("enter the %s", name)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return 0, fmt.Sprintf("the %s must be a whole number (got %s)", name, s)
		}
		return 0, fmt.Sprintf("%q is not a whole number", s)
	}
	if v < lo || v > hi {
		return 0, fmt.Sprintf("the %s must be from %d to %d (got %d)", name, lo, hi, v)
	}
	return v, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
