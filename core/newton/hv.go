package newton

import "softmaxdemo/core/softmax"

// K is the number of classes of the digits, the most a model has.
const K = softmax.K

// classes returns k for a flat parameter vector of length (d+1)·k.
func classes(v []float64, d int) int { return len(v) / (d + 1) }

// params returns a model whose W and B are views of the flat vector v
// (length (d+1)·k): W = v[:d·k], B = v[d·k:].
func params(v []float64, d int) *softmax.Model[float64] {
	k := classes(v, d)
	return &softmax.Model[float64]{D: d, W: v[: d*k : d*k], B: v[d*k:]}
}

// evalRange adds, for the examples lo..hi−1 of x at the parameters v
// (k classes: len(v) = (d+1)·k), the unnormalised gradient of the
// cross-entropy and the diagonal of the unnormalised Hessian,
//
//	g[j*k+c] += Σᵢ x_ij (μ_ic − [yᵢ = c]),   g[d*k+c] += Σᵢ (μ_ic − [yᵢ = c])
//	h[j*k+c] += Σᵢ x_ij² μ_ic (1 − μ_ic),    h[d*k+c] += Σᵢ μ_ic (1 − μ_ic)
//
// stores μᵢ = softmax(θxᵢ + b) in mu[i*k:(i+1)*k], and returns loss plus
// the cross-entropy Σᵢ (log Σ_c exp z_ic − z_iyᵢ), added example by
// example (so a pass cut into ranges gives the same bits). It allocates
// nothing.
func evalRange[V softmax.Float](loss float64, g, h, mu []float64, v []float64, d int, x *softmax.Examples[V], lo, hi int) float64 {
	k := classes(v, d)
	w, b := v[:d*k], v[d*k:]
	gb := g[d*k : d*k+k]
	hb := h[d*k : d*k+k]
	var z, r, q [K]float64
	for i := lo; i < hi; i++ {
		index, value := x.Example(i)
		y := x.Labels[i]
		softmax.GradLogits(&z, w, b, index, value)
		zy := z[y]
		loss += softmax.Softmax(&z) - zy
		copy(mu[i*k:(i+1)*k], z[:k])
		for c := range k {
			q[c] = float64(z[c] * (1 - z[c]))
			r[c] = z[c]
		}
		r[y]--
		value = value[:len(index)]
		for t, j := range index {
			xj := float64(value[t])
			xx := float64(xj * xj)
			o := int(j) * k
			gr := g[o : o+k : o+k]
			hr := h[o : o+k : o+k]
			for c := range gr {
				gr[c] += float64(xj * r[c])
				hr[c] += float64(xx * q[c])
			}
		}
		for c := range gb {
			gb[c] += r[c]
			hb[c] += q[c]
		}
	}
	return loss
}

// lossRange returns loss plus the cross-entropy of the examples lo..hi−1
// of x at the parameters v, as evalRange adds it, without the other work.
func lossRange[V softmax.Float](loss float64, v []float64, d int, x *softmax.Examples[V], lo, hi int) float64 {
	k := classes(v, d)
	w, b := v[:d*k], v[d*k:]
	var z [K]float64
	for i := lo; i < hi; i++ {
		index, value := x.Example(i)
		softmax.GradLogits(&z, w, b, index, value)
		zy := z[x.Labels[i]]
		loss += softmax.Softmax(&z) - zy
	}
	return loss
}

// hvRange adds into out, for the examples lo..hi−1 of x, the unnormalised
// Hessian-vector product of the cross-entropy. The notes write the Hessian
// of the summed cross-entropy as a sum of Kronecker products,
//
//	H = Σᵢ xᵢxᵢᵀ ⊗ (diag μᵢ − μᵢμᵢᵀ)
//
// (xᵢ with the bias's constant 1 appended), so that, with A(μ) = diag μ − μμᵀ
// and (A ⊗ B)vec(V) = vec(B V Aᵀ),
//
//	H·vec(V) = Σᵢ xᵢ ⊗ (A(μᵢ)·(Vᵀxᵢ))
//
// which needs only two sparse passes over xᵢ per example and never forms H:
//
//	u   = Vᵀxᵢ                    (u_c = V_bc + Σ_j x_ij V_jc, the "logits" of V)
//	a   = A(μᵢ)u = μᵢ ⊙ (u − μᵢ·u)
//	out += xᵢ ⊗ a                 (out[j*k+c] += x_ij a_c, out[d*k+c] += a_c)
//
// The mean's 1/m and λ are the caller's (see hessVec). mu holds μᵢ in
// mu[i*k:(i+1)*k] (computed once per outer iteration by evalRange). It
// allocates nothing.
func hvRange[V softmax.Float](out, vec, mu []float64, d int, x *softmax.Examples[V], lo, hi int) {
	k := classes(vec, d)
	vw, vb := vec[:d*k], vec[d*k:]
	ob := out[d*k : d*k+k]
	var u, a [K]float64
	for i := lo; i < hi; i++ {
		index, value := x.Example(i)
		softmax.GradLogits(&u, vw, vb, index, value)
		m := mu[i*k : (i+1)*k]
		s := 0.0
		for c := range m {
			s += float64(m[c] * u[c])
		}
		for c := range m {
			a[c] = float64(m[c] * (u[c] - s))
		}
		softmax.Scatter(out, index, value, a[:k])
		for c := range ob {
			ob[c] += a[c]
		}
	}
}

// finish turns an unnormalised sum over m examples into the mean and adds
// the L2 term's contribution, in place:
//
//	out = out/m + λ·v   (on the weights; on the biases too with L2Bias)
//
// then zeroes class 0's entries under PinFirst and the biases' under
// NoBias. With v = θ it finishes a gradient, with v = V a Hessian-vector
// product, with v = nil the diagonal of H (λ added to every regularised
// entry).
func finish(out, v []float64, d, m int, o softmax.Objective) {
	inv := 1 / float64(m)
	k := classes(out, d)
	nw := d * k
	for i := range out {
		s := float64(out[i] * inv)
		if o.Lambda != 0 && (i < nw || o.L2Bias) {
			if v == nil {
				s += o.Lambda
			} else {
				s += float64(o.Lambda * v[i])
			}
		}
		out[i] = s
	}
	pin(out, d, o)
}

// pin zeroes the fixed entries of a flat parameter vector of d features:
// class 0's under PinFirst, the biases under NoBias.
func pin(v []float64, d int, o softmax.Objective) {
	k := classes(v, d)
	if o.PinFirst {
		for i := 0; i < len(v); i += k {
			v[i] = 0
		}
	}
	if o.NoBias {
		clear(v[d*k:])
	}
}

// penalty is softmax.Penalty of the flat parameters v: (λ/2)Σθ², plus
// (λ/2)Σb² with L2Bias.
func penalty(v []float64, d int, o softmax.Objective) float64 {
	return softmax.Penalty(params(v, d), o)
}
