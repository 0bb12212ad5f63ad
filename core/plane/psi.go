package plane

import (
	"math"

	"softmaxdemo/core/softmax"
)

// Psi is what adding one vector ψ to every θ_c did (Lab.AddPsi): the
// lecture notes' redundancy, h(x) unchanged while θ moves.
type Psi struct {
	Psi        [3]float64 // ψ over x₁, x₂ and the bias (0 without one)
	NormBefore float64    // ‖θ‖ before
	NormAfter  float64    // ‖θ‖ after
	// MaxDP is the largest change of any probability h(x)_c, over the
	// points and a 32×32 grid of the view: zero but for float32 rounding.
	MaxDP float64
	// MaxDZ is the largest change of a logit, the same ψ·x for every class
	// of a point, which the softmax cancels.
	MaxDZ float64
}

// AddPsi adds ψ to every class's θ_c (and ψ[2] to every bias, if the
// model has one) and reports what changed. With class 0 pinned it refuses
// with an *InputError (Pinned): the pin is the cure for this redundancy,
// and ψ would move class 0 off zero. The model's regions and
// probabilities stay as they were; ‖θ‖ (and J's λ term) change.
func (l *Lab) AddPsi(psi [3]float64) (Psi, error) {
	if l.set.Pin {
		return Psi{}, &InputError{Problem: Pinned}
	}
	if !finite(psi[:]) {
		return Psi{}, &InputError{Problem: NotFinite, Point: Point{X: [2]float64{psi[0], psi[1]}}}
	}
	if !l.set.Bias {
		psi[2] = 0
	}
	m := l.tr.Model()
	k := m.Classes()
	before := probabilities(m, l.data)
	moved := m.Clone()
	for c := range k {
		moved.W[c] += float32(psi[0])
		moved.W[k+c] += float32(psi[1])
		moved.B[c] += float32(psi[2])
	}
	r := Psi{Psi: psi, NormBefore: weightNorm(m.W), NormAfter: weightNorm(moved.W)}
	if err := l.tr.SetModel(moved); err != nil {
		return Psi{}, err
	}
	after := probabilities(l.tr.Model(), l.data)
	for i := range before {
		r.MaxDP = max(r.MaxDP, math.Abs(after[i]-before[i]))
	}
	for _, p := range l.data.Points {
		r.MaxDZ = max(r.MaxDZ, math.Abs(float64(float32(psi[0]))*p.X[0]+float64(float32(psi[1]))*p.X[1]+float64(float32(psi[2]))))
	}
	return r, nil
}

// probabilities returns h(x)_c for every point of d and every node of a
// 32×32 grid of the view, by core/softmax's Logits and Softmax.
func probabilities(m *softmax.Model[float32], d Data) []float64 {
	const g = 32
	xs := make([][2]float64, 0, len(d.Points)+g*g)
	for _, p := range d.Points {
		xs = append(xs, p.X)
	}
	for j := range g {
		for i := range g {
			xs = append(xs, Cell(i, j, g, g))
		}
	}
	k := m.Classes()
	out := make([]float64, 0, len(xs)*k)
	index := []uint16{0, 1}
	for _, x := range xs {
		var z [softmax.K]float32
		softmax.Logits(&z, m.W, m.B, index, []float32{float32(x[0]), float32(x[1])})
		softmax.Softmax(&z)
		for c := range k {
			out = append(out, float64(z[c]))
		}
	}
	return out
}
