package train

import (
	"fmt"

	"softmaxdemo/core/softmax"
)

// Inspection is one SGD step with B = 1 on one example x with label y, with
// every number the lecture notes write for it:
//
//	z = θx + b                  Z (logits, as the trainer adds them: softmax.GradLogits)
//	z − max_l z_l               Shifted (the exponents softmax uses)
//	p = softmax(z)              P
//	p − y                       Diff (y one-hot)
//	−log p_y                    Loss (plus Penalty, (λ/2)Σθ², if λ > 0)
//	∇θ_c = (p_c − y_c)x + λθ_c  GW (D×K, as softmax.Model.W), GB for b
//	θ_c := θ_c − α∇θ_c          After
//
// and the same example under After: ZAfter, PAfter, LossAfter. The
// gradients are those the trainer applies: softmax.Grad's, plus λθ, with
// class 0's zero under PinFirst.
type Inspection struct {
	Label   int
	Rate    float64 // α
	Z       [softmax.K]float32
	Max     float32
	Shifted [softmax.K]float32
	P       [softmax.K]float32
	Diff    [softmax.K]float32
	Loss    float64 // −log p_y, the cross-entropy of this example
	Penalty float64 // (λ/2)Σθ² of the weights before the step
	GW      []float32
	GB      [softmax.K]float32
	After   *softmax.Model[float32]
	Stop    Stop // Diverged if the step made a number non-finite (then After is the model unchanged)

	ZAfter    [softmax.K]float32
	PAfter    [softmax.K]float32
	LossAfter float64 // −log p_y under After
}

// Inspect computes the Inspection of one SGD step with rate α = rate and
// objective obj on the example (index, value) with label y, from m. It
// leaves m unchanged. After is exactly the model StepOn would leave, bit
// for bit. It returns an error if rate or obj.Lambda is out of the
// trainer's range, or if the example does not fit m.
func Inspect(m *softmax.Model[float32], index []uint16, value []float32, y uint8, rate float64, obj softmax.Objective) (*Inspection, error) {
	if m.Classes() != softmax.K {
		return nil, fmt.Errorf("train: the inspection is of a model of the %d digits, not of %d classes", softmax.K, m.Classes())
	}
	x, err := one(m.D, softmax.K, index, value, y)
	if err != nil {
		return nil, err
	}
	in := &Inspection{Label: int(y), Rate: rate, GW: make([]float32, len(m.W))}
	softmax.GradLogits(&in.Z, m.W, m.B, index, value)
	in.Max = in.Z[softmax.Argmax(&in.Z)]
	for c, z := range in.Z {
		in.Shifted[c] = z - in.Max
	}
	in.P = in.Z
	in.Loss = softmax.Softmax(&in.P) - float64(in.Z[y])
	in.Diff = in.P
	in.Diff[y]--
	// The gradient exactly as the trainer forms it: Grad's sum over the
	// batch of one, divided by n = 1, plus λθ.
	softmax.Grad(in.GW, in.GB[:], m.W, m.B, x, []int32{0})
	lam := float32(obj.Lambda)
	if lam != 0 {
		for i, w := range m.W {
			in.GW[i] = float32(in.GW[i]*1) + float32(lam*w)
		}
		if obj.L2Bias {
			for c, b := range m.B {
				in.GB[c] = float32(in.GB[c]*1) + float32(lam*b)
			}
		}
	}
	if obj.PinFirst {
		for j := 0; j < m.D; j++ {
			in.GW[j*softmax.K] = 0
		}
		in.GB[0] = 0
	}
	in.Penalty = softmax.Penalty(m, softmax.Objective{Lambda: obj.Lambda, L2Bias: obj.L2Bias})
	in.After = m.Clone()
	st, err := StepOn(in.After, index, value, y, rate, obj)
	if err != nil {
		return nil, err
	}
	in.Stop = st.Stop
	softmax.GradLogits(&in.ZAfter, in.After.W, in.After.B, index, value)
	in.PAfter = in.ZAfter
	in.LossAfter = softmax.Softmax(&in.PAfter) - float64(in.ZAfter[y])
	return in, nil
}

// StepOn takes one SGD step with B = 1 on the example (index, value) with
// label y, changing m in place exactly as a Trainer with BatchSize 1, the
// rate and obj would on a training set of that one example: it is that
// trainer's Step. It returns the step's Stats (Loss is the objective before
// the step); if the step made a number non-finite, m is left unchanged and
// Stats.Stop is Diverged. It returns an error, changing nothing, if rate or
// obj.Lambda is out of the trainer's range or the example does not fit m.
func StepOn(m *softmax.Model[float32], index []uint16, value []float32, y uint8, rate float64, obj softmax.Objective) (Stats, error) {
	x, err := one(m.D, m.Classes(), index, value, y)
	if err != nil {
		return Stats{}, err
	}
	t, err := New(x, m.D, Config{
		LearningRate: rate, BatchSize: 1, L2: obj.Lambda, L2Bias: obj.L2Bias, PinFirst: obj.PinFirst,
		NoBias: obj.NoBias, Classes: m.Classes(), Iterations: 1, Seed: 1, Init: Zeros,
	})
	if err != nil {
		return Stats{}, err
	}
	t.model.CopyFrom(m)
	st := t.Step()
	m.CopyFrom(t.model)
	return st, nil
}

// one returns the example as a training set of one, checked against d
// features and k classes.
func one(d, k int, index []uint16, value []float32, y uint8) (*softmax.Examples[float32], error) {
	if len(index) != len(value) {
		return nil, fmt.Errorf("train: example has %d indices and %d values", len(index), len(value))
	}
	x := &softmax.Examples[float32]{Labels: []uint8{y}, Start: []int32{0, int32(len(index))}, Index: index, Value: value}
	if err := x.CheckClasses(d, k); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return x, nil
}
