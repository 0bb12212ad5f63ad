package softmax

import (
	"fmt"
	"math"
	"math/rand/v2"

	"softmaxdemo/core/internal/fmath"
)

// K is the number of classes of the digits, and the most a model may
// have. It is a constant so that the digits' kernels can keep all ten
// logits in registers.
const K = 10

// Model is a softmax regression over D features and k = len(B) classes,
// 2 ≤ k ≤ K: ten digits, or a few classes of points in the plane.
// W holds θ transposed, D×k row-major: W[j*k+c] is the weight of feature j
// for class c. B holds the k biases. The model owns W and B.
//
// Every function of this package takes k from len(B) (or the length of
// the biases it is given). With k = K the kernels are the unrolled and
// SIMD ones; with fewer classes the same functions run plain loops, and
// wherever a K-array of logits or probabilities is filled, the entries
// from k on are −∞ and 0: a model of k classes is a model of K classes
// whose extra classes can never be chosen.
type Model[F Float] struct {
	D int
	W []F
	B []F
}

// New returns a model of the K digit classes with d features and all
// parameters zero. It panics if d < 1.
func New[F Float](d int) *Model[F] { return NewClasses[F](d, K) }

// NewClasses returns a model with d features and k classes, all
// parameters zero. It panics if d < 1 or k is not in 2..K.
func NewClasses[F Float](d, k int) *Model[F] {
	if d < 1 || k < 2 || k > K {
		panic(fmt.Sprintf("softmax: NewClasses(%d, %d): want at least one feature and 2 to %d classes", d, k, K))
	}
	return &Model[F]{D: d, W: make([]F, d*k), B: make([]F, k)}
}

// Classes returns k, the model's number of classes.
func (m *Model[F]) Classes() int { return len(m.B) }

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

// Theta writes the D weights of class c (one row of θ in the notes' k×D
// layout) into dst and returns it. It panics if len(dst) != D or c is not
// a class.
func (m *Model[F]) Theta(dst []F, c int) []F {
	k := len(m.B)
	if len(dst) != m.D || c < 0 || c >= k {
		panic(fmt.Sprintf("softmax: Theta(len %d, class %d) on a model with %d features and %d classes", len(dst), c, m.D, k))
	}
	for j := range dst {
		dst[j] = m.W[j*k+c]
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

// Convert sets dst's parameters to src's, each converted to dst's
// precision as Go converts a number (to float32: rounded to nearest). It
// panics if the shapes differ.
func Convert[To, From Float](dst *Model[To], src *Model[From]) {
	if dst.D != src.D || len(dst.W) != len(src.W) || len(dst.B) != len(src.B) {
		panic(fmt.Sprintf("softmax: Convert a model with %d features and %d classes into one with %d and %d", src.D, len(src.B), dst.D, len(dst.B)))
	}
	for i, w := range src.W {
		dst.W[i] = To(w)
	}
	for c, b := range src.B {
		dst.B[c] = To(b)
	}
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

// Predict returns the most probable class of one sparse example and the
// probabilities (K of them; those of classes the model does not have are
// 0). Ties go to the lower class.
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
