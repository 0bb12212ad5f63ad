// Package train runs minibatch stochastic gradient descent on a softmax
// regression model.
//
// One step takes the next B examples of the epoch's shuffled order, computes
// the gradient of the objective on them (softmax.Gradient) and moves
// θ := θ − α·gradient. B = 1 is classic SGD; B = m, the whole set, is
// full-batch gradient descent as in the lecture notes. Every step returns a
// Stats value for the caller to display; the trainer never touches the
// screen, the clock or the global random source, so a run is a function of
// its Config and data alone and is reproducible bit for bit.
package train

import (
	"fmt"
	"math"

	"softmaxdemo/core/softmax"
)

// Init says how the weights start.
type Init int

const (
	// Zeros starts every weight at zero, the usual choice for a convex
	// problem: the optimum is the same, and the first steps are calm.
	Zeros Init = iota
	// Normal draws every weight from N(0, InitStd²), as the lecture notes do.
	Normal
)

// String returns "zeros" or "normal".
func (i Init) String() string {
	if i == Normal {
		return "normal"
	}
	return "zeros"
}

// Config holds every option of a run. The zero value is not valid: use
// Defaults and change what you need.
type Config struct {
	LearningRate float64 // α > 0
	BatchSize    int     // B in 1..m; 0 means m (full batch)
	L2           float64 // λ ≥ 0, the strength of (λ/2)Σθ²
	L2Bias       bool    // regularise the bias too (the notes' bias-as-a-pixel)
	PinFirst     bool    // fix class 0 at zero (removes the redundancy)
	NoBias       bool    // fix every bias at zero (z = θx)

	// Classes is k, the model's number of classes, 2 to softmax.K; 0
	// means softmax.K (the ten digits). Labels must be below it.
	Classes int

	Epochs     int // budget in passes over the data; 0 means no epoch limit
	Iterations int // budget in steps; 0 means no step limit

	Decay      float64 // step decay: α is multiplied by Decay ...
	DecayEvery int     // ... every DecayEvery epochs; 0 means no decay

	// Tolerance is ε: stop when the epoch's mean loss changes by less than
	// ε from the previous epoch's (as the notes do); 0 never stops early.
	Tolerance float64

	Seed    uint64  // shuffling and initialisation
	Init    Init    // Zeros or Normal
	InitStd float64 // standard deviation for Normal

	// MyDigitsRate mixes my digits (Trainer.SetMyDigits, the digits a
	// person drew) into every batch: round(MyDigitsRate·B) of them, at least
	// one, on top of the B examples of the data, in [0, 1]. 0 mixes none.
	MyDigitsRate float64
}

// Defaults returns the configuration the page starts with: minibatches of
// 100, α = 0.5, a little L2, 5 epochs, zero initialisation.
func Defaults() Config {
	return Config{
		LearningRate: 0.5,
		BatchSize:    100,
		L2:           1e-4,
		Epochs:       5,
		Seed:         1,
		Init:         Zeros,
		InitStd:      1,
	}
}

// LectureNotes returns the configuration of the lecture notes' experiment:
// full-batch gradient descent from N(0, 1) weights, α = 0.1, λ = 0.001 with
// the bias regularised as a pixel column, at most 1000 iterations, stopping
// early when the loss changes by less than ε = 0.001.
func LectureNotes() Config {
	return Config{
		LearningRate: 0.1,
		BatchSize:    0,
		L2:           0.001,
		L2Bias:       true,
		Iterations:   1000,
		Tolerance:    0.001,
		Seed:         1,
		Init:         Normal,
		InitStd:      1,
	}
}

// classes returns k, resolving 0 to softmax.K.
func (c Config) classes() int {
	if c.Classes == 0 {
		return softmax.K
	}
	return c.Classes
}

// Validate reports the first option that is out of range for a training set
// of m examples, as an error that names the option, the value and the
// allowed range.
func (c Config) Validate(m int) error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case m < 1:
		return fmt.Errorf("train: the training set is empty")
	case !finite(c.LearningRate) || c.LearningRate <= 0:
		return fmt.Errorf("train: learning rate %v: want a number above 0", c.LearningRate)
	case c.LearningRate > 1e3:
		return fmt.Errorf("train: learning rate %v: want at most 1000", c.LearningRate)
	case c.BatchSize < 0 || c.BatchSize > m:
		return fmt.Errorf("train: batch size %d: want 1 to %d (0 means all %d)", c.BatchSize, m, m)
	case !finite(c.L2) || c.L2 < 0 || c.L2 > 10:
		return fmt.Errorf("train: L2 strength %v: want 0 to 10", c.L2)
	case c.Epochs < 0 || c.Iterations < 0:
		return fmt.Errorf("train: epochs %d and iterations %d: want 0 or more", c.Epochs, c.Iterations)
	case c.Epochs == 0 && c.Iterations == 0 && c.Tolerance == 0:
		return fmt.Errorf("train: no budget: set epochs, iterations or a tolerance")
	case c.DecayEvery < 0 || (c.DecayEvery > 0 && (!finite(c.Decay) || c.Decay <= 0 || c.Decay > 1)):
		return fmt.Errorf("train: decay %v every %d epochs: want a factor in (0, 1] every 1 or more epochs", c.Decay, c.DecayEvery)
	case !finite(c.Tolerance) || c.Tolerance < 0:
		return fmt.Errorf("train: tolerance %v: want 0 or more", c.Tolerance)
	case !finite(c.MyDigitsRate) || c.MyDigitsRate < 0 || c.MyDigitsRate > 1:
		return fmt.Errorf("train: my digits rate %v: want 0 to 1 (a fraction of the batch size)", c.MyDigitsRate)
	case c.Classes != 0 && (c.Classes < 2 || c.Classes > softmax.K):
		return fmt.Errorf("train: %d classes: want 2 to %d", c.Classes, softmax.K)
	case c.Init != Zeros && c.Init != Normal:
		return fmt.Errorf("train: unknown initialisation %d", c.Init)
	case c.Init == Normal && (!finite(c.InitStd) || c.InitStd <= 0 || c.InitStd > 100):
		return fmt.Errorf("train: initial standard deviation %v: want above 0, at most 100", c.InitStd)
	}
	return nil
}
