package lesson

import (
	"math"
	"math/rand/v2"

	"softmaxdemo/core/softmax"
)

// The redundancy chapter's arithmetic. Adding one vector ψ to every θ_c
// adds ψᵀx to every score z_c of an image x, and softmax sees only
// differences of scores: p(y = c | x; θ + ψ) = p(y = c | x; θ). Only ‖θ‖²
// (and with it the L2 term of J) changes, by 2Σ_c θ_cᵀψ + K‖ψ‖².

// Psi returns a ψ of 784 weights, a 28×28 image: three smooth bumps of
// either sign at random places, scaled so that its largest magnitude is
// size, so that it shows plainly on the templates' scale.
func Psi(r *rand.Rand, size float64) []float32 {
	const side = 28
	psi := make([]float64, side*side)
	for range 3 {
		cy, cx := 4+r.Float64()*20, 4+r.Float64()*20
		s := 3 + r.Float64()*4
		sign := 1.0
		if r.IntN(2) == 0 {
			sign = -1
		}
		for y := range side {
			for x := range side {
				d2 := (float64(y)-cy)*(float64(y)-cy) + (float64(x)-cx)*(float64(x)-cx)
				psi[y*side+x] += sign * math.Exp(-d2/(2*s*s))
			}
		}
	}
	top := 0.0
	for _, v := range psi {
		top = math.Max(top, math.Abs(v))
	}
	out := make([]float32, len(psi))
	for j, v := range psi {
		out[j] = float32(v / top * size)
	}
	return out
}

// AddPsi returns a copy of m with psi added to every θ_c: W[j*K+c] + ψ_j.
// The biases are unchanged. It panics if len(psi) != m.D.
func AddPsi(m *softmax.Model[float32], psi []float32) *softmax.Model[float32] {
	if len(psi) != m.D {
		panic("lesson: AddPsi: ψ and the model differ in length")
	}
	out := m.Clone()
	for j, v := range psi {
		row := out.W[j*softmax.K : (j+1)*softmax.K]
		for c := range row {
			row[c] += v
		}
	}
	return out
}

// Largest returns the largest magnitude of m's weights, or 0.
func Largest(m *softmax.Model[float32]) float64 {
	top := 0.0
	for _, w := range m.W {
		top = math.Max(top, math.Abs(float64(w)))
	}
	return top
}

// Norm2 returns ‖θ‖², the sum of the squared weights (not the biases).
func Norm2(m *softmax.Model[float32]) float64 {
	s := 0.0
	for _, w := range m.W {
		s += float64(w) * float64(w)
	}
	return s
}

// SumNorm returns ‖Σ_c θ_c‖: the size of the part of θ that no
// probability depends on, which adding ψ changes and λ > 0 drives to 0.
func SumNorm(m *softmax.Model[float32]) float64 {
	s := 0.0
	for j := range m.D {
		t := 0.0
		for _, w := range m.W[j*softmax.K : (j+1)*softmax.K] {
			t += float64(w)
		}
		s += t * t
	}
	return math.Sqrt(s)
}

// Effect is what changing the model from one θ to another did, on one
// image and to J.
type Effect struct {
	MaxDP float64 // the largest change of any of the image's ten probabilities
	DNorm float64 // the change of ‖θ‖²
	// JBefore and JAfter are the image's J, −log p_y + (λ/2)‖θ‖², under
	// each model; LambdaTerm is (λ/2)·DNorm, the part of their difference
	// that is not rounding.
	JBefore, JAfter, LambdaTerm float64
}

// Measure returns the Effect of going from model a to model b on the
// image (index, value) of class label, with L2 strength lambda.
func Measure(a, b *softmax.Model[float32], index []uint16, value []float32, label int, lambda float64) Effect {
	j := func(m *softmax.Model[float32]) (float64, [softmax.K]float32) {
		var z [softmax.K]float32
		softmax.Logits(&z, m.W, m.B, index, value)
		zy := float64(z[label])
		lse := softmax.Softmax(&z) // z now holds p
		return lse - zy + lambda/2*Norm2(m), z
	}
	ja, pa := j(a)
	jb, pb := j(b)
	e := Effect{JBefore: ja, JAfter: jb, DNorm: Norm2(b) - Norm2(a)}
	e.LambdaTerm = lambda / 2 * e.DNorm
	for c := range softmax.K {
		e.MaxDP = math.Max(e.MaxDP, math.Abs(float64(pb[c])-float64(pa[c])))
	}
	return e
}

// MaxDPRounding bounds the change of any probability that adding ψ makes:
// float32 rounding of the scores, which grow by ψᵀx: float32 keeps about
// seven digits, and scores of 10 to 100 lose their fifth or sixth.
const MaxDPRounding = 1e-4
