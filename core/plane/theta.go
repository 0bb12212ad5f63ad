package plane

import (
	"fmt"
	"math"

	"softmaxdemo/core/softmax"
)

// MaxTheta bounds every parameter set by hand: |θ_c,j| ≤ MaxTheta and
// |b_c| ≤ MaxTheta. It is MaxStart, so that θ set by hand in the exact
// case (Settings.Exact) is always a start the surface can take. It is no
// limit on what the plane can show: a weight of 100 takes a probability
// from 1% to 99% within a tenth of a unit of the view, [−4, 4]², a step
// as sharp as the canvas draws.
const MaxTheta = MaxStart

// SetTheta makes θ the live model, as a person sets it by hand: w holds
// the weights as softmax.Model stores them (w[j·K + c], the weight of
// x_{j+1} for class c), b the biases, each a number within ±MaxTheta.
// The Trainer goes on from it with what is left of its budget of steps;
// the pin and the bias apply at once (class 0's numbers become zero when
// it is pinned, every bias without a bias). It returns an *InputError
// (BadTheta: the number, and its class) for a number that is NaN,
// infinite or out of bounds, and an error for lengths other than 2K and
// K. On an error the Lab is unchanged.
func (l *Lab) SetTheta(w, b []float64) error {
	k := l.data.K
	if len(w) != 2*k || len(b) != k {
		return fmt.Errorf("plane: θ of %d weights and %d biases for K = %d", len(w), len(b), k)
	}
	if err := checkTheta(w, b); err != nil {
		return err
	}
	m := softmax.NewClasses[float32](2, k)
	for i, v := range w {
		m.W[i] = float32(v)
	}
	for c, v := range b {
		m.B[c] = float32(v)
	}
	return l.tr.SetModel(m)
}

// checkTheta returns an *InputError for the first number of w (K×… as
// softmax.Model stores it) or b that is not a number within ±MaxTheta.
func checkTheta[F softmax.Float](w, b []F) error {
	k := len(b)
	bad := func(v float64) bool { return !(math.Abs(v) <= MaxTheta) } // NaN too
	for i, v := range w {
		if bad(float64(v)) {
			return &InputError{Problem: BadTheta, Value: float64(v), Class: i % k}
		}
	}
	for c, v := range b {
		if bad(float64(v)) {
			return &InputError{Problem: BadTheta, Value: float64(v), Class: c}
		}
	}
	return nil
}

// A Grip is a boundary held by a pointer: the boundary between classes I
// and J (I < J), the line
//
//	(θ_I − θ_J)·x + (b_I − b_J) = 0,
//
// where the two classes' logits tie. Dragged, it turns about Pivot
// (Turn) or moves parallel to itself.
type Grip struct {
	I, J  int
	Turn  bool
	Pivot [2]float64
}

// EndFraction is how near either end, as a fraction of its length, a
// boundary must be taken to turn it rather than shift it.
const EndFraction = 0.25

// Grab returns the grip on the boundary segment s taken at the fraction t
// of the way from s.A to s.B. Taken in its middle it shifts; taken within
// EndFraction of an end it turns about the segment's midpoint, so that
// the end taken follows the pointer round. Without a bias (bias false)
// every boundary passes through the origin and can only turn about it,
// wherever it is taken.
func Grab(s Segment, t float64, bias bool) Grip {
	g := Grip{I: s.Classes[0], J: s.Classes[1]}
	switch {
	case !bias:
		g.Turn = true
	case t < EndFraction || t > 1-EndFraction:
		g.Turn, g.Pivot = true, [2]float64{(s.A[0] + s.B[0]) / 2, (s.A[1] + s.B[1]) / 2}
	}
	return g
}

// Drag returns a copy of m (2 features) whose boundary held by g passes
// through x, changing the parameters of classes g.I and g.J alone. x is
// first brought into the view, [−Extent, Extent]², so that a pointer
// dragged off the canvas holds the line at the view's edge. With
// n = θ_I − θ_J and c = b_I − b_J the line is n·x + c = 0, and
//
//   - shifted (g.Turn false), it keeps n, so its direction and its
//     sharpness |n| (how quickly h(x) passes from one class to the other
//     across it), and takes c' = −n·x;
//   - turned, it keeps |n| and the side each class is on: n' = |n|·u with
//     u the unit normal of x − Pivot nearer n, and c' = −n'·Pivot, the
//     line through Pivot and x.
//
// The change (Δn, Δc) = (n' − n, c' − c) is shared by the two classes,
// θ_I += Δn/2 and θ_J −= Δn/2 (b alike), which keeps θ_I + θ_J; a class
// pinned at zero (class 0 with s.Pin) keeps its zeros and the other takes
// the whole change. Without a bias (s.Bias false) c stays 0 and the line
// turns about the origin. If a number would pass ±MaxTheta, the change is
// shortened to the largest fraction of it that keeps every number within
// bounds, and the line stops short of x. Where x is the pivot the line is
// left as it is. It returns an *InputError (BadTheta) if m holds a number
// outside ±MaxTheta, and an error if g's classes are not two of m's.
func Drag(m *softmax.Model[float32], g Grip, x [2]float64, s Settings) (*softmax.Model[float32], error) {
	k := m.Classes()
	if m.D != 2 || g.I < 0 || g.J >= k || g.I >= g.J {
		return nil, fmt.Errorf("plane: the boundary of classes %d and %d of a model of %d classes and %d features", g.I, g.J, k, m.D)
	}
	if err := checkTheta(m.W, m.B); err != nil {
		return nil, err
	}
	for i := range 2 {
		x[i] = min(max(x[i], -Extent), Extent)
	}
	i, j := g.I, g.J
	n := [2]float64{float64(m.W[i]) - float64(m.W[j]), float64(m.W[k+i]) - float64(m.W[k+j])}
	c := float64(m.B[i]) - float64(m.B[j])
	to, toC := n, c
	if g.Turn || !s.Bias {
		pivot := g.Pivot
		if !s.Bias {
			pivot = [2]float64{}
		}
		d := [2]float64{x[0] - pivot[0], x[1] - pivot[1]}
		r := math.Hypot(d[0], d[1])
		if !(r > 1e-9*Extent) {
			return m.Clone(), nil // x at the pivot: no line through both to choose
		}
		u := [2]float64{-d[1] / r, d[0] / r}
		if u[0]*n[0]+u[1]*n[1] < 0 {
			u = [2]float64{-u[0], -u[1]}
		}
		size := math.Hypot(n[0], n[1])
		to = [2]float64{size * u[0], size * u[1]}
		toC = -(to[0]*pivot[0] + to[1]*pivot[1])
	} else {
		toC = -(n[0]*x[0] + n[1]*x[1])
	}
	if !s.Bias {
		toC = c // 0: the model has no bias
	}
	dn, dc := [2]float64{to[0] - n[0], to[1] - n[1]}, toC-c
	// Each class's share of the change, and the entries it moves.
	shareI, shareJ := 0.5, 0.5
	if s.Pin && i == 0 {
		shareI, shareJ = 0, 1
	}
	type entry struct {
		at    *float32
		delta float64
	}
	out := m.Clone()
	moves := []entry{
		{&out.W[i], shareI * dn[0]}, {&out.W[k+i], shareI * dn[1]}, {&out.B[i], shareI * dc},
		{&out.W[j], -shareJ * dn[0]}, {&out.W[k+j], -shareJ * dn[1]}, {&out.B[j], -shareJ * dc},
	}
	t := 1.0
	for _, e := range moves {
		v := float64(*e.at)
		switch end := v + e.delta; {
		case end > MaxTheta:
			t = min(t, (MaxTheta-v)/e.delta)
		case end < -MaxTheta:
			t = min(t, (-MaxTheta-v)/e.delta)
		}
	}
	t = max(t, 0)
	for _, e := range moves {
		if e.delta != 0 {
			*e.at = float32(math.Min(MaxTheta, math.Max(-MaxTheta, float64(*e.at)+t*e.delta)))
		}
	}
	return out, nil
}
