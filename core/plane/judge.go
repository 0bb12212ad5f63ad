package plane

import (
	"fmt"

	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// Judge evaluates models set by hand on the plane's data as its Lab
// does: Take takes a θ as SetTheta does, and Loss is J as Status computes
// it, by the same code (a Lab's Status is its Judge's Loss), so that a
// line a class sends is given the J the plane would show for it.
type Judge struct {
	data Data
	set  Settings
	k    int
	x64  *softmax.Examples[float64]
	all  []int32                 // every position
	m64  *softmax.Model[float64] // the model in float64
}

// NewJudge returns a Judge for d with s. It returns an *InputError if d
// fails Check, has no points, or s is out of range, as NewLab does.
func NewJudge(d Data, s Settings) (*Judge, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	v := s
	v.Batch = 0
	if err := v.Validate(len(d.Points)); err != nil {
		return nil, err
	}
	return newJudge(d, s), nil
}

func newJudge(d Data, s Settings) *Judge {
	return &Judge{data: d, set: s, k: d.K, x64: Examples[float64](d), all: train.Positions(len(d.Points)), m64: softmax.NewClasses[float64](2, d.K)}
}

// K is the number of classes of the data the Judge evaluates on.
func (j *Judge) K() int { return j.k }

// Take returns the model of the weights w (w[j·K + c], as softmax.Model
// stores them) and biases b as the plane's live model takes them by hand
// (Lab.SetTheta): class 0's numbers zero when the settings pin it, every
// bias zero without a bias. It returns an *InputError (BadTheta) for a
// number that is NaN, infinite or beyond ±MaxTheta, and an error for
// lengths other than 2K and K.
func (j *Judge) Take(w, b []float32) (*softmax.Model[float32], error) {
	if len(w) != 2*j.k || len(b) != j.k {
		return nil, fmt.Errorf("plane: θ of %d weights and %d biases for K = %d", len(w), len(b), j.k)
	}
	if err := checkTheta(w, b); err != nil {
		return nil, err
	}
	m := softmax.NewClasses[float32](2, j.k)
	copy(m.W, w)
	copy(m.B, b)
	if j.set.Pin {
		for i := 0; i < len(m.W); i += j.k {
			m.W[i] = 0
		}
		m.B[0] = 0
	}
	if !j.set.Bias {
		clear(m.B)
	}
	return m, nil
}

// Loss returns J at m (2 features, the data's K classes): the mean
// cross-entropy over every point plus (λ/2)Σθ², in float64, as the
// plane's status line shows it.
func (j *Judge) Loss(m *softmax.Model[float32]) float64 {
	softmax.Convert(j.m64, m)
	return softmax.Loss(j.m64, j.x64, j.all, j.set.Objective())
}

// Descend returns the path of gradient descent from m (2 features, the
// data's K classes) on the Judge's data and settings: the Scene's
// gradient-descent path (core/train's Trainer with B = m, at the
// settings' α and λ, for their steps, stopped by Verdict) from m as the
// plane takes it by hand (Take). Its Points are class 1's two weights,
// the exact surface's coordinates (Settings.Exact).
func (j *Judge) Descend(m *softmax.Model[float32]) (*Path, error) {
	from, err := j.Take(m.W, m.B)
	if err != nil {
		return nil, err
	}
	k := j.k
	project := func(t []float64) [2]float64 { return [2]float64{t[1], t[k+1]} }
	x32 := Examples[float32](j.data)
	f := newObjective(j.x64, j.set.Objective(), k)
	d, err := newDescent(GD, x32, f, j.set, flat32(from), project)
	if err != nil {
		return nil, err
	}
	for d.p.Stop == Running && !d.step() {
	}
	return &d.p, nil
}
