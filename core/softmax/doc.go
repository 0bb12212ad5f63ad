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
package softmax
