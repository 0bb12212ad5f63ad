package softmax

import (
	"fmt"
	"math"
	"math/rand/v2"

	"softmaxdemo/core/internal/fmath"
)

// K is the number of classes. It is a constant so that the kernels can keep
// all ten logits in registers.
const K = 10

// Model is a softmax regression over D features and K classes.
// W holds θ transposed, D×K row-major: W[j*K+c] is the weight of feature j
// for class c. B holds the K biases. The model owns W and B.
type Model[F Float] struct {
	D int
	W []F
	B []F
}

// New returns a model with d features and all parameters zero.
// It panics if d < 1.
func New[F Float](d int) *Model[F] {
	if d < 1 {
		panic(fmt.Sprintf("softmax: New(%d): want at least one feature", d))
	}
	return &Model[F]{D: d, W: make([]F, d*K), B: make([]F, K)}
}

// InitNormal sets every weight to std·N(0, 1) drawn from r, feature by
// feature and class by class, and the biases to zero. It uses the
// Box–Muller transform with fmath's logarithm, so the same r gives the same
// weights on every platform.
func (m *Model[F]) InitNormal(r *rand.Rand, std float64) {
	for i := 0; i < len(m.W); i += 2 {
		a, b := normalPair(r)
		m.W[i] = F(std * a)
		if i+1 < len(m.W) {
			m.W[i+1] = F(std * b)
		}
	}
	clear(m.B)
}

// normalPair returns two independent standard normal values (Box–Muller).
func normalPair(r *rand.Rand) (float64, float64) {
	u := 1 - r.Float64() // in (0, 1], so the logarithm is finite
	v := r.Float64()
	rad := math.Sqrt(-2 * fmath.Log(u))
	s, c := math.Sincos(2 * math.Pi * v)
	return float64(rad * c), float64(rad * s)
}

// Theta writes the D weights of class c (one row of θ in the notes' K×D
// layout) into dst and returns it. It panics if len(dst) != D or c is not
// a class.
func (m *Model[F]) Theta(dst []F, c int) []F {
	if len(dst) != m.D || c < 0 || c >= K {
		panic(fmt.Sprintf("softmax: Theta(len %d, class %d) on a model with %d features", len(dst), c, m.D))
	}
	for j := range dst {
		dst[j] = m.W[j*K+c]
	}
	return dst
}

// Clone returns a deep copy of m.
func (m *Model[F]) Clone() *Model[F] {
	return &Model[F]{D: m.D, W: append([]F(nil), m.W...), B: append([]F(nil), m.B...)}
}

// CopyFrom overwrites m's parameters with src's. It panics if the shapes
// differ.
func (m *Model[F]) CopyFrom(src *Model[F]) {
	if m.D != src.D || len(m.W) != len(src.W) || len(m.B) != len(src.B) {
		panic(fmt.Sprintf("softmax: CopyFrom a model with %d features into one with %d", src.D, m.D))
	}
	copy(m.W, src.W)
	copy(m.B, src.B)
}

// Finite reports whether every parameter of m is a finite number.
func (m *Model[F]) Finite() bool {
	for _, w := range m.W {
		if f := float64(w); math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	for _, w := range m.B {
		if f := float64(w); math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// Predict returns the most probable class of one sparse example and the K
// probabilities. Ties go to the lower class.
func (m *Model[F]) Predict(index []uint16, value []F) (class int, p [K]F) {
	Logits(&p, m.W, m.B, index, value)
	Softmax(&p)
	return Argmax(&p), p
}

// Argmax returns the index of the largest entry of z, the lowest on ties.
func Argmax[F Float](z *[K]F) int {
	best := 0
	for c := 1; c < K; c++ {
		if z[c] > z[best] {
			best = c
		}
	}
	return best
}
