package plane

import (
	"math"

	"softmaxdemo/core/softmax"
)

// Limits and defaults of Settings.
const (
	MaxRate      = 1000.0 // α at most, as core/train allows
	MaxLambda    = 10.0   // λ at most, as core/train allows
	MaxStart     = 100.0  // |start coordinate| at most
	MaxSteps     = 5000   // gradient steps of a path at most
	DefaultSteps = 200    // gradient steps of a path, and of a training run
)

// Settings are the model's and the descent's options. The zero value is
// not valid (α = 0): see Defaults.
type Settings struct {
	Bias   bool    // z = θx + b; without it z = θx, boundaries through the origin
	Pin    bool    // class 0 fixed at zero (the notes' cure for redundancy)
	Lambda float64 // λ ≥ 0, the strength of (λ/2)Σθ²
	Rate   float64 // α > 0, the step size of gradient descent and SGD
	Batch  int     // B of the SGD path, 1…m; 0 means 1
	// Start is where the three paths start, in the surface's coordinates
	// (see Scene): θ itself for Exact, a point of the slice otherwise.
	Start [2]float64
	Seed  uint64 // SGD's shuffling
	Steps int    // steps of gradient descent and of SGD; 0 means DefaultSteps
}

// Defaults returns the settings a page starts with: K = 2's exact
// surface (class 0 pinned, no bias), α = 1, λ = 0, SGD with B = 1, from
// θ = (−2, 2).
func Defaults() Settings {
	return Settings{Pin: true, Rate: 1, Batch: 1, Start: [2]float64{-2, 2}, Seed: 1}
}

// Objective returns the objective J of these settings (core/softmax's).
func (s Settings) Objective() softmax.Objective {
	return softmax.Objective{Lambda: s.Lambda, PinFirst: s.Pin, NoBias: !s.Bias}
}

// Exact reports whether a model of k classes with s has two free
// parameters, so that its loss surface is J itself: k = 2, class 0
// pinned, no bias. θ is then class 1's (θ₁, θ₂).
func (s Settings) Exact(k int) bool { return k == 2 && s.Pin && !s.Bias }

func (s Settings) steps() int {
	if s.Steps == 0 {
		return DefaultSteps
	}
	return s.Steps
}

func (s Settings) batch() int { return max(s.Batch, 1) }

// Validate returns the first setting out of range for m points, as an
// *InputError: α, λ, B, the start or the steps.
func (s Settings) Validate(m int) error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case m < 1:
		return &InputError{Problem: NoPoints}
	case !finite(s.Rate) || s.Rate <= 0 || s.Rate > MaxRate:
		return &InputError{Problem: BadRate, Value: s.Rate}
	case !finite(s.Lambda) || s.Lambda < 0 || s.Lambda > MaxLambda:
		return &InputError{Problem: BadLambda, Value: s.Lambda}
	case s.Batch < 0 || s.Batch > m:
		return &InputError{Problem: BadBatch, Value: float64(s.Batch), Count: m}
	case !finite(s.Start[0]) || !finite(s.Start[1]) || math.Abs(s.Start[0]) > MaxStart || math.Abs(s.Start[1]) > MaxStart:
		return &InputError{Problem: BadStart, Point: Point{X: s.Start}}
	case s.Steps < 0 || s.Steps > MaxSteps:
		return &InputError{Problem: BadSteps, Value: float64(s.Steps)}
	}
	return nil
}
