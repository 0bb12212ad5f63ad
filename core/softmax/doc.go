// Package softmax is the mathematics of multinomial logistic regression:
// the model, its probabilities, the cross-entropy loss and its gradient.
//
// Dimensions are named once, here, and used throughout:
//
//	n  examples in a batch
//	d  features (784 pixels for MNIST)
//	k  classes of a model, len(Model.B): 2 to K
//	K  the ten digits' classes, a constant so that their kernels keep all
//	   ten logits in registers
//
// For one example x the model computes logits z = θx + b and probabilities
//
//	h(x)_c = exp(z_c) / Σ_l exp(z_l)
//
// and the loss over a batch of n examples with labels y is
//
//	J(θ, b) = -(1/n) Σ_i log h(x_i)_{y_i}  +  (λ/2) Σ θ²
//
// whose gradient is Xᵀ(P − Y)/n + λθ for θ and mean(P − Y) for b.
//
// Layout. θ is k×d in the lecture notes. Model stores it transposed, d×k:
// W[j*k+c] is the weight of pixel j for class c, so the ten weights of a
// pixel sit side by side. An MNIST image has about 150 non-zero pixels of
// 784, and the kernels visit only those, touching one contiguous row of ten
// per pixel. Theta copies out one class's template in the notes' layout.
//
// Inputs are sparse: an example is a list of pixel indices (increasing) and
// their values, see Examples. Kernels are generic over float32 (training)
// and float64 (the gradient check in the tests checks the same code).
//
// Determinism. Kernels round every product explicitly (F(a*b)), which
// forbids fused multiply-adds, and take exp and log from core/internal/fmath,
// so a run gives the same bits natively and compiled to WebAssembly. The
// SIMD kernels (SSE here, WebAssembly SIMD in the browser's workers) do
// the same IEEE operations lane by lane; relaxed SIMD, whose fused
// multiply-add may or may not round in between depending on the CPU, is
// not used. Sums over a data set go shard by shard (core/shard), so that
// any number of workers gives the same bits.
//
// The order of additions, kernel by kernel, is fixed here and does not
// depend on the machine; the Go code is its reference, and every SIMD
// kernel is checked against it bit for bit.
//
//   - Logits (predictions, evaluations, Loss): one running sum per class,
//     z_c = b_c + v₀·w[j₀,c] + v₁·w[j₁,c] + …, in the order of the pixels.
//   - Softmax: m = max z; e_c = exp(z_c − m) in float64; s = e₀ + e₁ + … +
//     e₉ in class order; h_c = e_c·(1/s), rounded to F, 0 below 2⁻¹⁰⁰; the
//     log-sum-exp is m + log s.
//   - Grad, the batch gradient, for K classes: the logits in the order of
//     pairs (below); then per example, in batch order, the loss (m + log
//     s) − z_y added to a float64 sum, each gradient entry gw[j,c] of the
//     example's pixels given one rounded product v·d_c, and gb += d, where
//     d = h − [c = y]. So gw[j,c] = ((0 + d¹) + d²) + … over the batch's
//     examples that have pixel j, in batch order. For fewer classes, the
//     logits of Logits.
//   - Update: Σw² in four float64 lanes (i mod 4), each in index order,
//     returned as (s₀ + s₁) + (s₂ + s₃); each weight w − a·(g·inv + λ·w).
//   - A full-batch gradient: Grad over each shard's examples in index
//     order, from zero, the shards then added in shard order (core/shard).
//
// Pairs. The batch gradient cuts each example's pixels into pairs and
// singles, reading its list from the start: a pixel whose successor in
// the list is the next pixel of the image (index + 1) forms a pair with
// it, and both are taken; any other pixel is a single. So 3, 4, 5, 7 is
// the pair (3, 4) and the singles 5 and 7. Its logits are
//
//	z_c = (b_c + Σ_singles v·w[j,c] + Σ_pairs v₁·w[j,c]) + Σ_pairs v₂·w[j+1,c]
//
// where the first sum is one running sum from b_c over the singles in
// order and then over the pairs' first pixels in order, the second a
// running sum from 0 over the pairs' second pixels in order, and the two
// are added last. A pair's two rows of weights are twenty adjacent
// numbers, five four-lane vectors with no lane idle: the SIMD kernels take
// a pair's twenty products and its index with one turn of a loop, where
// pixel by pixel they took ten products in three vectors, one of them half
// idle, a turn at a time. MNIST's strokes put 91-94% of the pixels in pairs.
// Blocks holds the cut for the kernels; the Go code finds it as it goes.
package softmax
