package newton

import "math"

// cgState is truncated Newton's method: it computes the direction p of
// Newton's equation H·p = −∇J by conjugate gradients, one H·v product
// per step, stopping early (a forcing term in the manner of Eisenstat and
// Walker) when the residual ‖H·p + ∇J‖ is below max(η‖∇J‖, 0.9·tol) with
// η = min(0.5, ‖∇J‖^¼): far from the optimum a rough direction is enough,
// close to it the direction becomes Newton's own and the convergence
// superlinear, and no step is solved more accurately than the final
// tolerance needs (after a full step the residual is, to first order, the
// next gradient). Measured on the default pack at λ = 1e-4, to
// ‖∇J‖ ≤ 1e-5: 247 CG steps; √‖∇J‖ took 294, a constant η = 0.3 247 (but
// 163 against 150 at λ = 1e-3 and 109 against 85 on 7×7 images), η = 0.1
// 289, ‖∇J‖^⅛ 273, and a floor of tol/2 instead of 0.9·tol 265.
//
// It can precondition with M = diag H (Jacobi), which evalRange accumulates
// in the same pass as the gradient, almost for free, but by default does
// not: measured, Jacobi took more CG steps to ‖∇J‖ ≤ 1e-5 in every case we
// tried (with a floor of tol/2 in the rule above: default pack λ = 1e-5,
// 1e-4, 1e-3: 905, 283, 218 steps against 745, 265, 158 without; full set
// λ = 1e-4: 280 against 250). A likely reason:
// H's smallest eigenvalues sit in a tight cluster at λ (the ψ directions,
// where the data's part of H vanishes, and pixels that are rarely ink),
// which CG disposes of in a few steps; scaling by diag H spreads that
// cluster out.
//
// CG starts from p = 0, so every iterate is a descent direction
// (∇Jᵀp < 0), and the Krylov space it searches, built from ∇J (M⁻¹∇J), is
// orthogonal (in the M-inner product) to the null directions H keeps when
// the bias is not regularised (∇J has no component along them): CG never
// sees them. Starting CG from the previous iteration's direction instead
// would lose the first property; starting Newton from one epoch of SGD
// (Settings.Start) saved 3 of 11 outer iterations but only 4% of the CG
// steps (docs/newton.md).
type cgState struct {
	x, r, z, p, hp, minv []float64
	rz, tol              float64
}

func newCG(n int) cgState {
	v := func() []float64 { return make([]float64, n) }
	return cgState{x: v(), r: v(), z: v(), p: v(), hp: v(), minv: v()}
}

// start prepares the conjugate gradients for the gradient g (norm gnorm),
// the diagonal of H, dg, and the run's gradient tolerance, floor:
// x = 0, r = −g, p = M⁻¹r.
func (c *cgState) start(g, dg []float64, gnorm, floor float64, precond bool) {
	clear(c.x)
	clear(c.hp)
	for i, gi := range g {
		c.r[i] = -gi
		switch {
		case !precond:
			c.minv[i] = 1
		case dg[i] > 0:
			c.minv[i] = 1 / dg[i]
		default:
			c.minv[i] = 0 // a pinned entry, or a feature no image has with λ = 0: its gradient is 0
		}
		c.z[i] = float64(c.minv[i] * c.r[i])
	}
	copy(c.p, c.z)
	c.rz = dot(c.r, c.z)
	c.tol = max(float64(min(0.5, math.Sqrt(math.Sqrt(gnorm)))*gnorm), 0.9*floor)
}

// step finishes the CG step whose product hp = H·p has just been computed
// (the steps-th of this iteration) and reports whether the direction x is
// final: the residual is small enough, the budget of max steps is spent,
// or p met no positive curvature (then x is kept, or on the first step
// becomes the (preconditioned) steepest descent p itself).
func (c *cgState) step(steps, max int) bool {
	kappa := dot(c.p, c.hp)
	if !(kappa > 0) || math.IsInf(kappa, 0) {
		if steps == 1 {
			copy(c.x, c.p)
		}
		return true
	}
	alpha := c.rz / kappa
	for i := range c.x {
		c.x[i] += float64(alpha * c.p[i])
		c.r[i] -= float64(alpha * c.hp[i])
	}
	if norm(c.r) <= c.tol || steps >= max {
		return true
	}
	for i, ri := range c.r {
		c.z[i] = float64(c.minv[i] * ri)
	}
	rz := dot(c.r, c.z)
	beta := rz / c.rz
	c.rz = rz
	for i, zi := range c.z {
		c.p[i] = zi + float64(beta*c.p[i])
	}
	clear(c.hp)
	return false
}
