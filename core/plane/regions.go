package plane

import (
	"fmt"
	"math"

	"softmaxdemo/core/internal/fmath"
	"softmaxdemo/core/softmax"
)

// Cell returns the point of the view at the centre of cell (i, j) of a
// w×h grid: column i from the left (x₁ = −Extent), row j from the top
// (x₂ = +Extent), as a canvas shows it.
func Cell(i, j, w, h int) [2]float64 {
	return [2]float64{-Extent + 2*Extent*(float64(i)+0.5)/float64(w), Extent - 2*Extent*(float64(j)+0.5)/float64(h)}
}

// logits returns z_c = θ_c·x + b_c of m at x, for its k classes.
func logits[F softmax.Float](z *[softmax.K]float64, m *softmax.Model[F], x [2]float64) []float64 {
	k := m.Classes()
	for c := range k {
		z[c] = float64(m.B[c]) + x[0]*float64(m.W[c]) + x[1]*float64(m.W[k+c])
	}
	return z[:k]
}

// Regions writes, for each cell of a w×h grid over the view (Cell: row
// by row from the top), the class m predicts there, into class, and its
// probability h(x)_class, into prob. Ties go to the lower class, as
// softmax.Argmax does. It panics if class or prob is shorter than w·h or m
// has not two features, which is a bug in the caller.
//
// Along a row the logits grow by θ_c·Δ from one cell to the next, so
// exp(z_c − z_ref) is multiplied by the constant exp(θ_c,₁·Δ): the
// exponentials are computed afresh every renorm cells (and wherever the
// products leave a safe range) and carried by one multiplication in
// between, which makes a frame's regions several times cheaper for the
// same result to about 1e-14.
func Regions[F softmax.Float](class []uint8, prob []float32, m *softmax.Model[F], w, h int) {
	if m.D != 2 || len(class) < w*h || len(prob) < w*h {
		panic(fmt.Sprintf("plane: Regions of a %d×%d grid into %d and %d cells for a model of %d features", w, h, len(class), len(prob), m.D))
	}
	const renorm = 16
	k := m.Classes()
	var buf [softmax.K]float64
	var e, step [softmax.K]float64
	dx := 2 * Extent / float64(w)
	for c := range k {
		step[c] = fmath.Exp(float64(m.W[c]) * dx)
	}
	for j := range h {
		for i := range w {
			if i%renorm == 0 || !exps(&e, &step, k) {
				z := logits(&buf, m, Cell(i, j, w, h))
				top := z[0]
				for _, zc := range z[1:] {
					top = max(top, zc)
				}
				for c, zc := range z {
					e[c] = fmath.Exp(zc - top)
				}
			}
			best, s := 0, e[0]
			for c := 1; c < k; c++ {
				if e[c] > e[best] {
					best = c
				}
				s += e[c]
			}
			class[j*w+i], prob[j*w+i] = uint8(best), float32(e[best]/s)
		}
	}
}

// exps carries the exponentials e of one cell to the next, multiplying
// each by its step, and reports whether they stayed in a range where
// their ratios are exact to rounding (no overflow, no underflow of the
// largest).
func exps(e, step *[softmax.K]float64, k int) bool {
	big := 0.0
	for c := range k {
		e[c] *= step[c]
		big = max(big, e[c])
	}
	return big > 1e-150 && big < 1e150
}

// Segment is a piece of a boundary: from A to B (points of the view)
// classes Classes[0] and Classes[1] tie, and no other class is above them.
type Segment struct {
	A, B    [2]float64
	Classes [2]int
}

// Boundaries returns the boundaries of m's regions within the view: for
// each pair of classes a < b whose weights differ, the part of the line
// z_a = z_b, clipped to the view, where z_a is at least every other z_c.
// The regions of a linear model are convex, and these segments are their
// edges exactly.
func Boundaries[F softmax.Float](m *softmax.Model[F]) []Segment {
	k := m.Classes()
	var out []Segment
	var za, zb [softmax.K]float64
	for a := range k {
		for b := a + 1; b < k; b++ {
			// The line n·x + c = 0 with n = θ_a − θ_b, c = b_a − b_b.
			n := [2]float64{float64(m.W[a]) - float64(m.W[b]), float64(m.W[k+a]) - float64(m.W[k+b])}
			c := float64(m.B[a]) - float64(m.B[b])
			nn := n[0]*n[0] + n[1]*n[1]
			if !(nn > 0) || math.IsInf(nn, 0) {
				continue
			}
			p0 := [2]float64{-c * n[0] / nn, -c * n[1] / nn}
			dir := [2]float64{-n[1], n[0]}
			lo, hi := math.Inf(-1), math.Inf(1)
			for i := range 2 { // the view: |p0_i + t·dir_i| ≤ Extent
				lo, hi = clip(lo, hi, Extent-p0[i], -dir[i])
				lo, hi = clip(lo, hi, Extent+p0[i], dir[i])
			}
			// On the line, z_a − z_c is linear in t: f(t) = f(0) + t·(f(1) − f(0)).
			z0, z1 := logits(&za, m, p0), logits(&zb, m, [2]float64{p0[0] + dir[0], p0[1] + dir[1]})
			for cc := range k {
				if cc != a && cc != b {
					lo, hi = clip(lo, hi, z0[a]-z0[cc], (z1[a]-z1[cc])-(z0[a]-z0[cc]))
				}
			}
			if lo < hi {
				out = append(out, Segment{
					A:       [2]float64{p0[0] + lo*dir[0], p0[1] + lo*dir[1]},
					B:       [2]float64{p0[0] + hi*dir[0], p0[1] + hi*dir[1]},
					Classes: [2]int{a, b},
				})
			}
		}
	}
	return out
}

// clip narrows the interval [lo, hi] of t to where f0 + t·f1 ≥ 0.
func clip(lo, hi, f0, f1 float64) (float64, float64) {
	switch {
	case f1 > 0:
		lo = max(lo, -f0/f1)
	case f1 < 0:
		hi = min(hi, -f0/f1)
	case f0 < 0:
		return 1, 0 // nowhere
	}
	return lo, hi
}
