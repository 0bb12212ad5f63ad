package softmax

import (
	"fmt"
	"math"
	"unsafe"

	"softmaxdemo/core/internal/fmath"
)

// Logits computes z = θx + b for one sparse example, storing z in dst.
// w is d×k (see Model), b has length k, and x has features index with
// values value (equal lengths). Only the non-zero features are visited:
//
//	z_c = b_c + Σ_t value[t]·w[index[t]*k + c]
//
// With k < K, dst[k:] is set to −∞ (softmax gives those classes 0).
// It panics if an index is not below d or the lengths disagree, which is a
// bug in the caller. On amd64 the float32 version for k = K runs in SSE
// (kernels_amd64.s), with the same bits.
func Logits[F Float](dst *[K]F, w, b []F, index []uint16, value []F) {
	if len(b) != K {
		logitsK(dst, w, b, index, value)
		return
	}
	if haveSIMD && unsafe.Sizeof(F(0)) == 4 && len(index) > 0 {
		value = value[:len(index)]
		bb := (*[K]F)(b)
		bad := logitsSSE((*[K]float32)(unsafe.Pointer(dst)), (*float32)(unsafe.Pointer(unsafe.SliceData(w))), len(w)/K,
			(*[K]float32)(unsafe.Pointer(bb)), unsafe.SliceData(index), (*float32)(unsafe.Pointer(unsafe.SliceData(value))), len(index))
		if bad >= 0 {
			panic(fmt.Sprintf("softmax: feature %d out of range for %d features", index[bad], len(w)/K))
		}
		return
	}
	logitsGo(dst, w, b, index, value)
}

// logitsGo is Logits in Go: the reference for the SSE version, and the
// version every other platform (WebAssembly included) runs.
func logitsGo[F Float](dst *[K]F, w, b []F, index []uint16, value []F) {
	bb := (*[K]F)(b)
	z0, z1, z2, z3, z4 := bb[0], bb[1], bb[2], bb[3], bb[4]
	z5, z6, z7, z8, z9 := bb[5], bb[6], bb[7], bb[8], bb[9]
	value = value[:len(index)]
	for t, j := range index {
		v := value[t]
		// A three-index slice of length K: one bounds check for the row,
		// and code about 15% faster in the browser than an array pointer.
		o := int(j) * K
		r := w[o : o+K : o+K]
		z0 += F(v * r[0])
		z1 += F(v * r[1])
		z2 += F(v * r[2])
		z3 += F(v * r[3])
		z4 += F(v * r[4])
		z5 += F(v * r[5])
		z6 += F(v * r[6])
		z7 += F(v * r[7])
		z8 += F(v * r[8])
		z9 += F(v * r[9])
	}
	*dst = [K]F{z0, z1, z2, z3, z4, z5, z6, z7, z8, z9}
}

// logitsK is Logits for k = len(b) < K classes, its values widened to F
// (see GradLogits).
func logitsK[F, V Float](dst *[K]F, w, b []F, index []uint16, value []V) {
	k := len(b)
	if k < 1 || k > K {
		panic(fmt.Sprintf("softmax: %d classes: want 1 to %d", k, K))
	}
	z := dst[:k]
	copy(z, b)
	value = value[:len(index)]
	for t, j := range index {
		v := F(value[t])
		o := int(j) * k
		r := w[o : o+k : o+k]
		for c, wc := range r {
			z[c] += F(v * wc)
		}
	}
	inf := F(math.Inf(-1))
	for c := k; c < K; c++ {
		dst[c] = inf
	}
}

// Softmax overwrites the logits z with the probabilities
//
//	h_c = exp(z_c − m) / Σ_l exp(z_l − m),  m = max_l z_l
//
// and returns log Σ_l exp(z_l) = m + log Σ_l exp(z_l − m). Subtracting the
// maximum leaves h unchanged but keeps every exponent at most 0, so the
// result is finite for any finite logits (±1000 included). The sums are
// kept in float64. A probability below 2⁻¹⁰⁰ (about 8e-31) is stored as 0:
// it changes nothing a person could see, and it keeps float32 products out
// of the subnormal range, where x86 arithmetic is a hundred times slower.
func Softmax[F Float](z *[K]F) (logSumExp float64) {
	m := z[0]
	for c := 1; c < K; c++ {
		if z[c] > m {
			m = z[c]
		}
	}
	var e [K]float64
	s := 0.0
	for c := range K {
		e[c] = fmath.Exp(float64(z[c] - m))
		s += e[c]
	}
	inv := 1 / s
	for c := range K {
		p := e[c] * inv
		if p < 0x1p-100 {
			p = 0
		}
		z[c] = F(p)
	}
	return float64(m) + fmath.Log(s)
}

// Grad adds into gw (d×k) and gb (k) the unnormalised gradient of the
// cross-entropy over the examples of x at positions batch,
//
//	gw[j*k+c] += Σ_i x_ij (h(x_i)_c − [y_i = c]),  gb[c] += Σ_i (h(x_i)_c − [y_i = c])
//
// for a model of k = len(b) classes (labels below k),
// and returns the summed cross-entropy Σ_i (logΣexp(z_i) − z_{i,y_i}).
// Dividing by n and adding λθ is the caller's job, as is zeroing gw and gb
// before a batch: Grad only adds. For K classes its logits add the
// pixels in pairs (GradLogits; the order of every sum: doc.go); on float32
// data in SIMD it cuts x into pairs first (Block), and then allocates
// nothing more. It panics if the shapes disagree, which is a bug in the
// caller.
func Grad[F Float](gw, gb []F, w, b []F, x *Examples[F], batch []int32) (loss float64) {
	k := len(b)
	if k == K {
		if loss, ok := gradKernel(gw, gb, w, b, x, batch); ok {
			return loss
		}
	}
	g := gb[:k]
	var z [K]F
	var bl *Blocks
	if k == K && haveSIMD && unsafe.Sizeof(F(0)) == 4 {
		bl = Block((*Examples[float32])(unsafe.Pointer(x)))
	}
	for _, i := range batch {
		index, value := x.Example(int(i))
		y := x.Labels[i]
		switch {
		case k != K:
			Logits(&z, w, b, index, value)
		case bl != nil:
			pairLogitsSIMD(&z, w, b, bl, int(i))
		default:
			pairLogits(&z, w, b, index, value)
		}
		zy := z[y]
		lse := Softmax(&z)
		loss += lse - float64(zy)
		z[y]--
		Scatter(gw, index, value, z[:k])
		for c := range g {
			g[c] += z[c]
		}
	}
	return loss
}

// GradLogits sets z to the logits of one example as Grad computes them
// on its way to the gradient: for a model of K classes in the order of
// pairLogits (doc.go, "Pairs"), which can differ from Logits's in the
// last bits; for fewer classes as Logits. The inspector shows these, so
// that what it shows is the trainer's step. The values may be narrower
// than F (float32 pixels for core/newton's float64 model): each is widened
// exactly before its product. It panics as Logits does.
func GradLogits[F, V Float](z *[K]F, w, b []F, index []uint16, value []V) {
	if len(b) != K {
		logitsK(z, w, b, index, value)
		return
	}
	pairLogits(z, w, b, index, value)
}

// pairLogits sets z to the logits of one example of K classes as the
// batch gradient adds them (doc.go, "Pairs"): its pixels are cut into
// pairs and singles, and
//
//	z_c = (b_c + Σ_singles v·w[j,c] + Σ_pairs v₁·w[j,c]) + Σ_pairs v₂·w[j+1,c]
//
// where the first sum runs from b_c over the singles in order and then
// over the pairs' first pixels in order, and the second from 0 over the
// pairs' second pixels in order; each product is rounded. It panics if a
// pixel is not below len(w)/K. This Go code is the reference for the
// SIMD kernels (SSE here, WebAssembly SIMD in the worker), which read the
// pairs and singles from Blocks. The values are widened to F as in
// GradLogits.
func pairLogits[F, V Float](z *[K]F, w, b []F, index []uint16, value []V) {
	value = value[:len(index)]
	f := *(*[K]F)(b)
	for t := 0; t < len(index); {
		if paired(index, t) {
			t += 2
			continue
		}
		o := int(index[t]) * K
		r, v := (*[K]F)(w[o:o+K:o+K]), F(value[t])
		f[0] += F(v * r[0])
		f[1] += F(v * r[1])
		f[2] += F(v * r[2])
		f[3] += F(v * r[3])
		f[4] += F(v * r[4])
		f[5] += F(v * r[5])
		f[6] += F(v * r[6])
		f[7] += F(v * r[7])
		f[8] += F(v * r[8])
		f[9] += F(v * r[9])
		t++
	}
	var q [K]F
	for t := 0; t < len(index); {
		if !paired(index, t) {
			t++
			continue
		}
		o := int(index[t]) * K
		r, v, u := (*[2 * K]F)(w[o:o+2*K:o+2*K]), F(value[t]), F(value[t+1])
		for c := range K {
			f[c] += F(v * r[c])
			q[c] += F(u * r[K+c])
		}
		t += 2
	}
	for c := range K {
		z[c] = f[c] + q[c]
	}
}

// pairLogitsSIMD is pairLogits for float32 in SSE, from x's Blocks
// (example i), with the same bits. It panics if a pixel is out of range.
func pairLogitsSIMD[F Float](z *[K]F, w, b []F, bl *Blocks, i int) {
	p0, p1 := bl.PairStart[i], bl.PairStart[i+1]
	s0, s1 := bl.SingleStart[i], bl.SingleStart[i+1]
	var pairs *Pair
	var singles *Single
	if p1 > p0 {
		pairs = &bl.Pairs[p0]
	}
	if s1 > s0 {
		singles = &bl.Singles[s0]
	}
	rows := len(w) / K
	if bad := pairLogitsSSE((*[K]float32)(unsafe.Pointer(z)), (*float32)(unsafe.Pointer(unsafe.SliceData(w))), rows,
		(*[K]float32)(unsafe.Pointer(unsafe.SliceData(b))), pairs, int(p1-p0), singles, int(s1-s0)); bad >= 0 {
		panic(fmt.Sprintf("softmax: feature %d out of range for %d features", bad, rows))
	}
}

// Scatter adds value[t]·d to row index[t] of g (rows × k, k = len(d))
// for every t, one rounded product per entry:
//
//	g[index[t]*k + c] += value[t]·d[c]
//
// the values widened to F as in GradLogits. It is the last step of Grad
// (d = h − [c = y]) and of core/newton's Hessian-vector product. It panics
// if an index is out of range, which is a bug in the caller.
func Scatter[F, V Float](g []F, index []uint16, value []V, d []F) {
	if len(d) == K {
		scatter(g, index, value, (*[K]F)(d))
		return
	}
	scatterK(g, index, value, d)
}

// scatter is Scatter for K classes. On amd64 the float32 version runs in
// SSE (kernels_amd64.s), with the same bits.
func scatter[F, V Float](g []F, index []uint16, value []V, d *[K]F) {
	if haveSIMD && unsafe.Sizeof(F(0)) == 4 && unsafe.Sizeof(V(0)) == 4 && len(index) > 0 {
		value = value[:len(index)]
		bad := scatterSSE((*float32)(unsafe.Pointer(unsafe.SliceData(g))), len(g)/K, unsafe.SliceData(index),
			(*float32)(unsafe.Pointer(unsafe.SliceData(value))), len(index), (*[K]float32)(unsafe.Pointer(d)))
		if bad >= 0 {
			panic(fmt.Sprintf("softmax: feature %d out of range for %d features", index[bad], len(g)/K))
		}
		return
	}
	scatterGo(g, index, value, d)
}

// scatterK is Scatter for k = len(d) < K classes.
func scatterK[F, V Float](g []F, index []uint16, value []V, d []F) {
	k := len(d)
	value = value[:len(index)]
	for t, j := range index {
		v := F(value[t])
		o := int(j) * k
		r := g[o : o+k : o+k]
		for c, dc := range d {
			r[c] += F(v * dc)
		}
	}
}

// scatterGo is scatter in Go: the reference, and what other platforms run.
func scatterGo[F, V Float](g []F, index []uint16, value []V, d *[K]F) {
	d0, d1, d2, d3, d4 := d[0], d[1], d[2], d[3], d[4]
	d5, d6, d7, d8, d9 := d[5], d[6], d[7], d[8], d[9]
	value = value[:len(index)]
	for t, j := range index {
		v := F(value[t])
		o := int(j) * K
		r := g[o : o+K : o+K]
		r[0] += F(v * d0)
		r[1] += F(v * d1)
		r[2] += F(v * d2)
		r[3] += F(v * d3)
		r[4] += F(v * d4)
		r[5] += F(v * d5)
		r[6] += F(v * d6)
		r[7] += F(v * d7)
		r[8] += F(v * d8)
		r[9] += F(v * d9)
	}
}
