package plane

import (
	"fmt"
	"math"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// Lab is the plane's live model: softmax regression on the points, trained
// step by step by core/train's Trainer, the digits' own, with B = m
// (full-batch gradient descent) at the settings' α and λ, from θ = 0, for
// Settings.Steps steps. The Trainer's model is the one drawn: Model returns
// it, not a copy.
type Lab struct {
	data Data
	set  Settings
	x32  *softmax.Examples[float32]
	tr   *train.Trainer
	j    *Judge // J, and the model's numbers at rest
}

// NewLab returns a Lab for d with s, its model at zero. It returns an
// *InputError if d fails Check, has no points, or s is out of range.
func NewLab(d Data, s Settings) (*Lab, error) {
	l := &Lab{}
	if err := l.reset(d, s, nil); err != nil {
		return nil, err
	}
	return l, nil
}

// NewLabFrom returns a Lab for d with s that goes on from the model m, its
// budget of steps starting afresh: a new worker taking over the plane of
// one that stopped. A model of another shape than d's (2 features, d.K
// classes) is an error, as NewLab's are.
func NewLabFrom(d Data, s Settings, m *softmax.Model[float32]) (*Lab, error) {
	if m == nil || m.D != 2 || m.Classes() != d.K {
		return nil, fmt.Errorf("plane: a model of %d classes to go on from, for %d", classesOf(m), d.K)
	}
	l := &Lab{}
	if err := l.reset(d, s, m); err != nil {
		return nil, err
	}
	return l, nil
}

// classesOf is m's number of classes, 0 for no model.
func classesOf(m *softmax.Model[float32]) int {
	if m == nil {
		return 0
	}
	return m.Classes()
}

// reset makes a new trainer for d and s, going on from from (nil: zero).
func (l *Lab) reset(d Data, s Settings, from *softmax.Model[float32]) error {
	if err := d.Check(); err != nil {
		return err
	}
	v := s
	v.Batch = 0 // the Lab descends with B = m: the SGD path's B is not its
	if err := v.Validate(len(d.Points)); err != nil {
		return err
	}
	x32 := Examples[float32](d)
	tr, err := train.New(x32, 2, config(d.K, s, 0, s.steps()))
	if err != nil {
		return err
	}
	if from != nil && from.Classes() == d.K {
		if err := tr.SetModel(from); err != nil {
			return err
		}
	}
	l.data, l.set, l.x32, l.tr, l.j = d, s, x32, tr, newJudge(d, s)
	return nil
}

// config is the Trainer's configuration for k classes with s: batches of
// batch (0: all m), steps steps.
func config(k int, s Settings, batch, steps int) train.Config {
	return train.Config{LearningRate: s.Rate, BatchSize: batch, L2: s.Lambda, PinFirst: s.Pin, NoBias: !s.Bias,
		Classes: k, Iterations: steps, Seed: s.Seed, Init: train.Zeros}
}

// SetData goes on training from the current model on new data (a point
// added or removed). K changed starts again from zero. On an error the
// Lab is unchanged.
func (l *Lab) SetData(d Data) error { return l.reset(d, l.set, l.tr.Model()) }

// SetSettings goes on from the current model with new settings, its
// budget of steps starting again; the pin and the bias apply to the
// model at once. On an error the Lab is unchanged.
func (l *Lab) SetSettings(s Settings) error { return l.reset(l.data, s, l.tr.Model()) }

// Restart starts again from θ = 0.
func (l *Lab) Restart() {
	_ = l.reset(l.data, l.set, nil) // the data and settings passed before
}

// Step takes one step of gradient descent; see train.Trainer.Step.
func (l *Lab) Step() train.Stats { return l.tr.Step() }

// Trainer returns the Trainer that trains the model: core/train's, the
// digits' own.
func (l *Lab) Trainer() *train.Trainer { return l.tr }

// Model returns the live model (the Trainer's): it changes with every
// Step.
func (l *Lab) Model() *softmax.Model[float32] { return l.tr.Model() }

// Data returns the data the Lab trains on.
func (l *Lab) Data() Data { return l.data }

// Settings returns the Lab's settings.
func (l *Lab) Settings() Settings { return l.set }

// Status is what the plane's status line shows.
type Status struct {
	Steps     int // steps taken
	Stop      train.Stop
	Points    int
	Accuracy  float64 // training accuracy, a fraction
	Loss      float64 // J at the model, in float64
	ThetaNorm float64 // ‖θ‖ of the weights (the biases are not θ)
	// Separated: every point is on its class's side and λ = 0, so J can
	// be brought as near 0 as one likes by growing θ: J has no minimum.
	Separated bool
}

// Status evaluates the live model on the points.
func (l *Lab) Status() Status {
	m := l.tr.Model()
	step, _, _ := l.tr.Progress()
	r := metrics.Evaluate(m, l.x32)
	st := Status{Steps: step, Stop: l.tr.Stopped(), Points: len(l.data.Points), Accuracy: r.Accuracy(),
		Loss: l.j.Loss(m), ThetaNorm: weightNorm(m.W)}
	st.Separated = r.Correct == r.N && l.set.Lambda == 0 && r.N > 0
	return st
}

// weightNorm returns ‖θ‖ = √Σθ² of the weights w.
func weightNorm[F softmax.Float](w []F) float64 {
	s := 0.0
	for _, v := range w {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s)
}
