package softmax

// Objective says which loss is minimised besides the mean cross-entropy.
//
// Lambda is the L2 strength λ ≥ 0 of the term (λ/2)Σθ². By default the bias
// is not regularised: it does not make the model more complex, it only sets
// each class's base rate, and shrinking it towards zero biases predictions
// towards equal class frequencies. L2Bias adds (λ/2)Σb² as well, which is
// what the lecture notes do when they treat the bias as a column of θ fed
// by a constant pixel of 1.
//
// PinFirst fixes class 0's parameters (θ_0 and b_0) at zero, the notes'
// remedy for the redundant parametrisation: subtracting one vector from
// every θ_c leaves h unchanged, so one class can be pinned without losing
// anything. Its gradient is defined as zero.
//
// NoBias fixes every bias at zero: the model is z = θx, a boundary
// through the origin. With two classes, PinFirst and NoBias, θ is the d
// numbers of class 1 alone: in the plane, two numbers, and J a surface
// over them that can be drawn.
type Objective struct {
	Lambda   float64
	L2Bias   bool
	PinFirst bool
	NoBias   bool
}

// Penalty returns the L2 term (λ/2)Σθ² (plus (λ/2)Σb² with L2Bias) of m.
// Σθ² is summed as Update sums it, in four lanes, so that the loss a
// training step reports and Penalty agree to the bit; Σb² is then added
// in order.
func Penalty[F Float](m *Model[F], o Objective) float64 {
	if o.Lambda == 0 {
		return 0
	}
	var l [4]float64
	for i, w := range m.W {
		l[i&3] += float64(w) * float64(w)
	}
	s := (l[0] + l[1]) + (l[2] + l[3])
	if o.L2Bias {
		for _, w := range m.B {
			s += float64(w) * float64(w)
		}
	}
	return o.Lambda / 2 * s
}

// Loss returns the objective J over the examples of x at positions batch:
// the mean cross-entropy plus Penalty. An empty batch has loss Penalty.
func Loss[F Float](m *Model[F], x *Examples[F], batch []int32, o Objective) float64 {
	var z [K]F
	s := 0.0
	for _, i := range batch {
		index, value := x.Example(int(i))
		Logits(&z, m.W, m.B, index, value)
		zy := z[x.Labels[i]]
		s += Softmax(&z) - float64(zy)
	}
	if len(batch) > 0 {
		s /= float64(len(batch))
	}
	return s + Penalty(m, o)
}

// Gradient writes into gw (d×k) and gb (k) the gradient of Loss,
//
//	∂J/∂θ = Xᵀ(P − Y)/n + λθ,  ∂J/∂b = mean(P − Y) (+ λb with L2Bias),
//
// with class 0's entries zero under PinFirst and gb zero under NoBias,
// and returns Loss. It overwrites gw and gb. It panics if the shapes
// disagree.
func Gradient[F Float](gw, gb []F, m *Model[F], x *Examples[F], batch []int32, o Objective) float64 {
	clear(gw)
	clear(gb)
	loss := Grad(gw, gb, m.W, m.B, x, batch)
	n := F(1)
	if len(batch) > 0 {
		loss /= float64(len(batch))
		n = F(len(batch))
	}
	lambda := F(o.Lambda)
	for i := range gw {
		gw[i] = gw[i]/n + F(lambda*m.W[i])
	}
	for c := range gb {
		gb[c] /= n
		if o.L2Bias {
			gb[c] += F(lambda * m.B[c])
		}
	}
	if o.PinFirst {
		k := len(gb)
		for j := 0; j < m.D; j++ {
			gw[j*k] = 0
		}
		gb[0] = 0
	}
	if o.NoBias {
		clear(gb)
	}
	return loss + Penalty(m, o)
}
