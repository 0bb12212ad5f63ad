package newton

// Stop says why a run ended: the stopping rule.
type Stop int

const (
	Running          Stop = iota // not ended
	Converged                    // ‖∇J‖ ≤ the tolerance
	Budget                       // the outer iterations ran out
	LineSearchFailed             // no trial step lowered J enough; θ is the last accepted one
	NotDescent                   // the direction did not point downhill (∇Jᵀp ≥ 0)
	Singular                     // Exact: H is not positive definite (see Solver.Err)
	Diverged                     // J or ∇J stopped being finite
)

// String returns a few lower-case words for s, for Progress events.
func (s Stop) String() string {
	switch s {
	case Running:
		return "running"
	case Converged:
		return "converged"
	case Budget:
		return "budget"
	case LineSearchFailed:
		return "line search failed"
	case NotDescent:
		return "not descent"
	case Singular:
		return "singular"
	case Diverged:
		return "diverged"
	}
	return "unknown"
}
