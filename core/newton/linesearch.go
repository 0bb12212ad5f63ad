package newton

import "math"

// lineSearch is backtracking with Armijo's condition: it tries t = 1,
// ½, ¼, … and accepts the first t with
//
//	J(θ + t·p) ≤ J(θ) + c·t·∇Jᵀp,   c = 1e-4
//
// so J never rises (∇Jᵀp < 0). We chose it over a trust region because
// J is convex and H positive semidefinite, so the truncated CG direction
// is always a descent direction and the full Newton step t = 1 is accepted
// at almost every iteration: the search then costs one pass over the data
// (which also computes the next gradient), and it keeps the direction
// (the method) and the step length apart, as the notes present them.
type lineSearch struct {
	t, slope float64
	trials   int
}

const (
	armijo    = 1e-4
	maxTrials = 40 // t down to 2⁻³⁹ ≈ 2e-12
)

// start begins a search along a direction with slope ∇Jᵀp < 0.
func (l *lineSearch) start(slope float64) {
	l.t, l.slope, l.trials = 1, slope, 1
}

// accept reports whether J = jt at the trial point is low enough compared
// with j0 at t = 0.
func (l *lineSearch) accept(jt, j0 float64) bool {
	return !math.IsNaN(jt) && jt <= j0+float64(armijo*float64(l.t*l.slope))
}

// backtrack halves t for the next trial; it returns false once the
// trials are spent.
func (l *lineSearch) backtrack() bool {
	if l.trials >= maxTrials {
		return false
	}
	l.trials++
	l.t /= 2
	return true
}
