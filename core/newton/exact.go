package newton

import (
	"fmt"
	"math"

	"softmaxdemo/core/softmax"
)

// MaxExactFeatures is the most features (bias excluded) for which Exact
// Newton forms H: (d+1)·K parameters, so H is at most 1010×1010. The
// 784 pixels of an MNIST image need Downsample first (7×7: 49 features).
const MaxExactFeatures = 100

// Downsample averages side×side images (features r*side+col, values in
// [0, 1]) over block×block squares, returning images of (side/block)²
// features: feature R*(side/block)+C is the mean of the block's pixels.
// The labels are shared with x; the rest is new. It panics if block does
// not divide side or x has a feature not below side², which is a bug in
// the caller. Downsample(x, 28, 4) gives the 7×7 images of 49 features.
func Downsample(x *softmax.Examples[float64], side, block int) *softmax.Examples[float64] {
	if block < 1 || side%block != 0 {
		panic(fmt.Sprintf("newton: Downsample(%d, %d): the block must divide the side", side, block))
	}
	small := side / block
	inv := 1 / float64(block*block)
	sums := make([]float64, small*small)
	out := &softmax.Examples[float64]{Labels: x.Labels, Start: make([]int32, 1, x.Len()+1)}
	for i := range x.Len() {
		index, value := x.Example(i)
		clear(sums)
		for t, j := range index {
			r, c := int(j)/side, int(j)%side
			if r >= side {
				panic(fmt.Sprintf("newton: Downsample: feature %d of a %d×%d image", j, side, side))
			}
			sums[(r/block)*small+c/block] += value[t]
		}
		for j, s := range sums {
			if s != 0 {
				out.Index = append(out.Index, uint16(j))
				out.Value = append(out.Value, float64(s*inv))
			}
		}
		out.Start = append(out.Start, int32(len(out.Index)))
	}
	return out
}

// gram accumulates the explicit Hessian of the summed cross-entropy,
//
//	H = Σᵢ xᵢxᵢᵀ ⊗ (diag μᵢ − μᵢμᵢᵀ)
//
// block by block: for features j ≤ l (the bias as feature d) and classes
// c ≤ e it keeps G[j,l][c,e] = Σᵢ x_ij x_il A(μᵢ)_ce, 55 numbers per pair
// of features, which are all of H by its two symmetries.
type gram struct {
	e   int       // features with the bias: d+1
	g   []float64 // e×e×pairs, only j ≤ l used
	nz  []int     // scratch: the non-zero features of one example
	val []float64 // scratch: their values
}

// pairs is the number of class pairs c ≤ e.
const pairs = K * (K + 1) / 2

func newGram(d int) *gram {
	e := d + 1
	return &gram{e: e, g: make([]float64, e*e*pairs), nz: make([]int, 0, e), val: make([]float64, 0, e)}
}

func (h *gram) reset() { clear(h.g) }

// add accumulates the examples lo..hi−1 of x, whose probabilities are in
// mu[i*K:(i+1)*K]. It allocates nothing.
func (h *gram) add(mu []float64, x *softmax.Examples[float64], lo, hi int) {
	var a [pairs]float64
	for i := lo; i < hi; i++ {
		m := (*[K]float64)(mu[i*K : (i+1)*K])
		p := 0
		for c := range K {
			for e := c; e < K; e++ {
				v := -float64(m[c] * m[e])
				if c == e {
					v += m[c]
				}
				a[p] = v
				p++
			}
		}
		index, value := x.Example(i)
		h.nz, h.val = h.nz[:0], h.val[:0]
		for t, j := range index {
			h.nz = append(h.nz, int(j))
			h.val = append(h.val, value[t])
		}
		h.nz = append(h.nz, h.e-1) // the bias's constant feature
		h.val = append(h.val, 1)
		for s, j := range h.nz {
			xj := h.val[s]
			for u := s; u < len(h.nz); u++ {
				xx := float64(xj * h.val[u])
				o := (j*h.e + h.nz[u]) * pairs
				r := h.g[o : o+pairs : o+pairs]
				for q := range pairs {
					r[q] += float64(xx * a[q])
				}
			}
		}
	}
}

// matrix writes H/m + λI (λ on the regularised entries) into dst,
// n×n row-major with n = (d+1)·K in the flat layout (parameter j*K+c).
// Under PinFirst the rows and columns of class 0 are zero.
func (h *gram) matrix(dst []float64, m int, o softmax.Objective) {
	n := h.e * K
	inv := 1 / float64(m)
	var pairIndex [K][K]int
	p := 0
	for c := range K {
		for e := c; e < K; e++ {
			pairIndex[c][e], pairIndex[e][c] = p, p
			p++
		}
	}
	for j := range h.e {
		for l := range h.e {
			jj, ll := min(j, l), max(j, l)
			r := h.g[(jj*h.e+ll)*pairs:]
			for c := range K {
				row := dst[(j*K+c)*n+l*K:]
				for e := range K {
					row[e] = float64(r[pairIndex[c][e]] * inv)
				}
			}
		}
	}
	nw := (h.e - 1) * K
	if o.Lambda != 0 {
		for i := range n {
			if i < nw || o.L2Bias {
				dst[i*n+i] += o.Lambda
			}
		}
	}
	if o.PinFirst {
		for i := 0; i < n; i += K {
			for k := range n {
				dst[i*n+k], dst[k*n+i] = 0, 0
			}
		}
	}
}

// Hessian returns the explicit Hessian of J (see softmax.Objective) at the
// model md on the examples x with d features, n×n row-major with
// n = (d+1)·K in the flat layout (weight j*K+c, bias d*K+c):
//
//	H = (1/m) Σᵢ xᵢxᵢᵀ ⊗ (diag μᵢ − μᵢμᵢᵀ) + λI
//
// (λ on the weights, and on the biases with L2Bias). Under PinFirst the
// rows and columns of class 0 are zero: the Hessian over the free
// parameters, embedded. It returns an error if d exceeds MaxExactFeatures
// or x has no examples.
func Hessian(x *softmax.Examples[float64], md *softmax.Model[float64], o softmax.Objective) ([]float64, error) {
	d := md.D
	if d > MaxExactFeatures {
		return nil, fmt.Errorf("newton: the explicit Hessian of %d features has %d² entries: downsample to at most %d features", d, (d+1)*K, MaxExactFeatures)
	}
	if x.Len() == 0 {
		return nil, fmt.Errorf("newton: no examples")
	}
	v := make([]float64, (d+1)*K)
	copy(v, md.W)
	copy(v[d*K:], md.B)
	mu := make([]float64, x.Len()*K)
	n := len(v)
	evalRange(0, make([]float64, n), make([]float64, n), mu, v, d, x, 0, x.Len())
	h := newGram(d)
	h.add(mu, x, 0, x.Len())
	dst := make([]float64, n*n)
	h.matrix(dst, x.Len(), o)
	return dst, nil
}

// FreeBlock returns the n×n matrix h, as Hessian returns it, over the free
// parameters, and its order: h itself when nothing is pinned; under
// PinFirst, a new matrix without class 0's rows and columns, which are zero
// there.
func FreeBlock(h []float64, n int, pinned bool) ([]float64, int) {
	if !pinned {
		return h, n
	}
	var keep []int
	for i := range n {
		if i%K != 0 {
			keep = append(keep, i)
		}
	}
	f := make([]float64, len(keep)*len(keep))
	for a, i := range keep {
		for b, k := range keep {
			f[a*len(keep)+b] = h[i*n+k]
		}
	}
	return f, len(keep)
}

// system turns the explicit H (n×n, as Hessian returns it) into the matrix
// Exact Newton factorises, in place:
//
//   - under PinFirst, class 0's rows and columns, which are zero, get a 1
//     on the diagonal: with a zero right-hand side there, the step keeps
//     class 0 at zero;
//   - without PinFirst and without L2Bias, H has the null direction
//     ψ = (adding one constant to every bias), whatever λ: the bias is not
//     regularised, and A(μ)·1 = 0. ∇J is orthogonal to ψ (the bias
//     gradients sum to zero), so Newton's equation is consistent; adding
//     s·ψψᵀ (s the mean bias diagonal) makes H positive definite without
//     changing the solution p of Hp = −∇J with ψᵀp = 0.
//
// With λ = 0 and nothing pinned H keeps one null direction per feature
// (the notes' redundancy), and the factorisation then fails, as it should.
func system(h []float64, d int, o softmax.Objective) {
	n := (d + 1) * K
	if o.PinFirst {
		for i := 0; i < n; i += K {
			h[i*n+i] = 1
		}
		return
	}
	if o.L2Bias && o.Lambda > 0 {
		return
	}
	s := 0.0
	for c := range K {
		i := d*K + c
		s += h[i*n+i]
	}
	s /= K
	for c := range K {
		for e := range K {
			h[(d*K+c)*n+d*K+e] += s
		}
	}
}

// NotPositiveDefiniteError is Cholesky's refusal: pivot Index was Pivot,
// not clearly above zero, so the matrix is singular or indefinite.
type NotPositiveDefiniteError struct {
	Index int
	Pivot float64
}

func (e *NotPositiveDefiniteError) Error() string {
	return fmt.Sprintf("newton: the Hessian is not positive definite (pivot %d is %.3g): "+
		"with λ = 0, θ is redundant (adding one vector to every θ_c changes nothing) "+
		"and the weights of pixels no image has are free; set λ > 0", e.Index, e.Pivot)
}

// Cholesky factorises the symmetric n×n matrix a (row-major) in place as
// L·Lᵀ, L in the lower triangle (the upper triangle is left as it was).
// It returns a *NotPositiveDefiniteError, and leaves a partly overwritten,
// if a pivot is not above 1e-12 times the largest diagonal entry: a
// singular H gives that error, never NaN. It panics if len(a) != n·n.
func Cholesky(a []float64, n int) error {
	if len(a) != n*n {
		panic(fmt.Sprintf("newton: Cholesky of %d entries as %d×%d", len(a), n, n))
	}
	big := 0.0
	for i := range n {
		big = max(big, math.Abs(a[i*n+i]))
	}
	floor := 1e-12 * big
	for j := range n {
		rj := a[j*n : j*n+j]
		s := a[j*n+j]
		for _, v := range rj {
			s -= float64(v * v)
		}
		if !(s > floor) {
			return &NotPositiveDefiniteError{Index: j, Pivot: s}
		}
		ljj := math.Sqrt(s)
		a[j*n+j] = ljj
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			t := a[i*n+j]
			for k, v := range ri {
				t -= float64(v * rj[k])
			}
			a[i*n+j] = t / ljj
		}
	}
	return nil
}

// CholeskySolve solves L·Lᵀ·x = b in place (b becomes x), with L from
// Cholesky in the lower triangle of l (n×n).
func CholeskySolve(l []float64, n int, b []float64) {
	for i := range n {
		s := b[i]
		for k := range i {
			s -= float64(l[i*n+k] * b[k])
		}
		b[i] = s / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= float64(l[k*n+i] * b[k])
		}
		b[i] = s / l[i*n+i]
	}
}
