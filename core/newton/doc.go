// Package newton minimises the softmax regression objective with Newton's
// method, as the lecture notes do after gradient descent:
//
//	vec(θ) := vec(θ) − t·H⁻¹∇J,   H = Σᵢ xᵢxᵢᵀ ⊗ (diag μᵢ − μᵢμᵢᵀ)
//
// on exactly the objective the trainer uses (softmax.Objective): the mean
// cross-entropy plus (λ/2)Σθ², the bias unregularised unless L2Bias, class 0
// fixed at zero under PinFirst. It works in float64 throughout.
//
// Three parts are kept apart, as gonum's optimize package keeps them:
//
//   - the method computes a direction p with H·p ≈ −∇J. Truncated Newton
//     (the default) never forms H: it runs conjugate gradients on
//     Hessian-vector products computed from the Kronecker form
//     (hv.go). Exact Newton (Settings.Exact, for small d such as 7×7
//     images) forms H explicitly and solves by Cholesky (exact.go);
//   - the line search chooses a step length t along p that lowers J
//     enough (backtracking Armijo, linesearch.go), so J never rises;
//   - the stopping rule says why the run ended, as a Stop the page can
//     show: "‖∇J‖ ≤ 1e-05 after 9 iterations".
//
// A Solver can be driven one outer iteration at a time (Iterate) or one
// pass over the data at a time (Advance), so that a Web Worker can cut
// one iteration's conjugate-gradient steps across several slices.
//
// Passes. Every pass (a gradient, a line-search trial, an H·v product) is
// computed shard by shard over the fixed shards of core/shard and added
// up in shard order: Passes computes the shards, here (Local) or in a pool
// of workers, and the result has the same bits for any number of them.
//
// Layout. A parameter vector is flat: the d×k weights as softmax.Model
// stores them (W[j*k+c]) followed by the k biases, that is vec(V) with the
// bias as feature d, a constant pixel of 1.
//
// Determinism. Exp and Log come from core/internal/fmath, every product is
// rounded explicitly (float64(a*b)) so no FMA can be fused, and every sum
// runs in a fixed order, so a run gives the same bits natively and in
// WebAssembly. The orders: the logits z = θx + b, and H·v's u = Vᵀx, in
// the order of softmax's pairs (core/softmax's doc.go, "Pairs": for the
// ten digits; for fewer classes pixel by pixel), computed by
// softmax.GradLogits on the pixels widened exactly to float64;
// s = Σ_c μ_c u_c in class order; then per example, in index order, each
// entry of ∇J, diag H and H·v given one rounded product, and the bias row
// its term; the shards' parts added in shard order (core/shard).
package newton
