package session

import (
	"math"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// hessianImages is how many training images the Hessian view sums over:
// enough for its structure and its null space, few enough that forming H
// (images × 50² × 10² products) and three eigenvalue solves of 500×500
// take a second or two in the worker.
const hessianImages = 2000

// formHessian and eigenvalues are core/newton's; a test replaces them to
// see a failure reported.
var (
	formHessian = newton.Hessian
	eigenvalues = newton.Eigenvalues
)

// hessian handles Hessian: the explicit H of the 7×7 problem at θ = 0
// for three objectives, the notes' warning in numbers. With λ = 0 and
// nothing pinned H has one zero eigenvalue per feature (ψ: the same vector
// added to every θ_c) plus nine for every pixel that is zero in every
// image; pinning digit 0 removes the first kind; λ > 0 removes both, but
// for the bias's ψ, which λ does not reach (see core/newton).
func (s *session) hessian(h protocol.Hessian) {
	if !s.needData() {
		return
	}
	if math.IsNaN(h.L2) || h.L2 < 0 || h.L2 > 10 {
		s.failKey("err.config", hintConfig, "λ must be from 0 to 10")
		return
	}
	src := s.data.of(protocol.Config{Deskew: h.Deskew}).train
	n := min(src.Len(), hessianImages)
	x := &softmax.Examples[float64]{Labels: src.Labels[:n], Start: src.Start[:n+1], Index: src.Index, Value: make([]float64, len(src.Value))}
	for i, f := range src.Value[:src.Start[n]] {
		x.Value[i] = math.Round(float64(f)*255) / 255
	}
	x7 := newton.Downsample(x, 28, 4)
	md := softmax.New[float64](49)
	view := protocol.HessianView{Images: n, Features: 49, N: 50 * softmax.K}
	for i, o := range []softmax.Objective{{}, {PinFirst: true}, {Lambda: h.L2}} {
		H, err := formHessian(x7, md, o)
		if err != nil {
			s.failKey("err.hessian", hintHessian, err.Error())
			return
		}
		if i == 0 {
			view.Image = hessianImage(H)
		}
		ev, err := eigenvalues(newton.FreeBlock(H, view.N, o.PinFirst))
		if err != nil {
			s.failKey("err.hessian", hintHessian, err.Error())
			return
		}
		c := protocol.HessianCase{Lambda: o.Lambda, Pinned: o.PinFirst, Largest: ev[len(ev)-1]}
		for _, e := range ev {
			if math.Abs(e) <= 1e-10*c.Largest {
				c.Zero++
			}
		}
		c.Smallest = append([]float64(nil), ev[:min(len(ev), c.Zero+3)]...)
		view.Cases = append(view.Cases, c)
	}
	s.send(view)
}

// hessianImage maps H's entries to signed bytes on a logarithmic scale:
// ±127 for the largest magnitude, ±1 for six decades below it, 0 for 0.
func hessianImage(h []float64) []int8 {
	top := 0.0
	for _, v := range h {
		top = math.Max(top, math.Abs(v))
	}
	out := make([]int8, len(h))
	if top == 0 {
		return out
	}
	for i, v := range h {
		if v == 0 {
			continue
		}
		r := math.Log10(math.Abs(v)/top)/6 + 1 // 1 at the top, 0 six decades down
		b := int8(math.Max(1, math.Round(126*r+1)))
		if r < 0 {
			b = 1
		}
		if v < 0 {
			b = -b
		}
		out[i] = b
	}
	return out
}
