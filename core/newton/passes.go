package newton

import (
	"errors"
	"fmt"
	"math"

	"softmaxdemo/core/internal/fmath"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// Passes computes the solver's passes over the data, shard by shard
// (core/shard): every result is one partial sum per shard, which the
// solver adds up in shard order. The solver keeps two parameter vectors,
// the current one and a trial one; the probabilities μ of every example
// at each are kept where the examples are, in slot 0 or 1.
//
// Local computes the passes in this process; the browser's pool of
// workers computes them in several, each shard with Shard's code, so with
// the same bits.
type Passes interface {
	// Eval computes at the flat parameters theta, for every shard s, the
	// unnormalised gradient of the cross-entropy into g[s], the diagonal
	// of the unnormalised Hessian into h[s] and the summed cross-entropy
	// into loss[s], as Shard.Eval does, and keeps μ in slot.
	Eval(theta []float64, slot int, g, h *[shard.Count][]float64, loss *[shard.Count]float64)
	// Hv computes, for every shard s, the unnormalised Hessian-vector
	// product H·v with the μ of slot into out[s], as Shard.Hv does.
	Hv(v []float64, slot int, out *[shard.Count][]float64)
}

// A Shard is the examples of one shard, with values of type V (float64,
// or the worker's float32 pixels, widened exactly), and their μ in the
// two slots.
type Shard[V softmax.Float] struct {
	x    *softmax.Examples[V]
	d, k int
	mu   [2][]float64
	out  []EvalOut // the eval kernel's per-example output, when one is installed
}

// NewShard returns a Shard of the examples x of d features for a model
// of k classes. It keeps x (read only).
func NewShard[V softmax.Float](x *softmax.Examples[V], d, k int) *Shard[V] {
	n := x.Len() * k
	return &Shard[V]{x: x, d: d, k: k, mu: [2][]float64{make([]float64, n), make([]float64, n)}}
}

// Len returns the number of examples of the shard.
func (p *Shard[V]) Len() int { return p.x.Len() }

// Eval sets g and h ((d+1)·k each) to the shard's unnormalised gradient
// and Hessian diagonal at theta, keeps μ in slot, and returns the summed
// cross-entropy: evalRange over the shard's examples, from zero. On float32
// examples of ten classes it runs the installed kernel (SetKernels), with
// the same bits.
func (p *Shard[V]) Eval(g, h, theta []float64, slot int) float64 {
	clear(g)
	clear(h)
	if kernels.eval != nil && p.k == K {
		if x32, ok := any(p.x).(*softmax.Examples[float32]); ok {
			if len(p.out) != x32.Len() {
				p.out = make([]EvalOut, x32.Len())
			}
			if err := kernels.eval(g, h, p.mu[slot], theta, p.d, x32, p.out); err != nil {
				panic("newton: " + err.Error())
			}
			loss := 0.0
			for _, o := range p.out {
				loss += (o.M + fmath.Log(o.S)) - o.Zy
			}
			return loss
		}
	}
	return evalRange(0, g, h, p.mu[slot], theta, p.d, p.x, 0, p.x.Len())
}

// Hv sets out to the shard's unnormalised H·v with the μ of slot: hvRange
// over the shard's examples, from zero, or the installed kernel.
func (p *Shard[V]) Hv(out, v []float64, slot int) {
	clear(out)
	if kernels.hv != nil && p.k == K {
		if x32, ok := any(p.x).(*softmax.Examples[float32]); ok {
			if err := kernels.hv(out, v, p.mu[slot], p.d, x32); err != nil {
				panic("newton: " + err.Error())
			}
			return
		}
	}
	hvRange(out, v, p.mu[slot], p.d, p.x, 0, p.x.Len())
}

// Local computes Passes here, one shard after another.
type Local[V softmax.Float] struct {
	shards [shard.Count]*Shard[V]
}

// NewLocal returns Passes over the examples x of d features for a model
// of k classes, cut into shards (views of x).
func NewLocal[V softmax.Float](x *softmax.Examples[V], d, k int) *Local[V] {
	l := &Local[V]{}
	for s := range shard.Count {
		lo, hi := shard.Range(x.Len(), s)
		l.shards[s] = NewShard(x.View(lo, hi), d, k)
	}
	return l
}

// Eval implements Passes.
func (l *Local[V]) Eval(theta []float64, slot int, g, h *[shard.Count][]float64, loss *[shard.Count]float64) {
	for s, p := range l.shards {
		loss[s] = p.Eval(g[s], h[s], theta, slot)
	}
}

// Hv implements Passes.
func (l *Local[V]) Hv(v []float64, slot int, out *[shard.Count][]float64) {
	for s, p := range l.shards {
		p.Hv(out[s], v, slot)
	}
}

// Kernels replace Shard's Go loops for float32 examples of ten classes,
// bit for bit. Eval adds into g and h (zeroed) what evalRange adds over
// all of x, writes μ into mu and, for every example, its softmax's sum S
// of exp(z_c − M), largest logit M and true-class logit Zy into out, from
// which Shard adds up the cross-entropy (M + log S) − Zy in order; Hv
// adds into out (zeroed) what hvRange adds. Each returns an error, having
// written nothing for that example, if a feature index is out of range.
// The browser's worker installs WebAssembly SIMD ones.
type Kernels struct {
	Eval func(g, h, mu, theta []float64, d int, x *softmax.Examples[float32], out []EvalOut) error
	Hv   func(out, v, mu []float64, d int, x *softmax.Examples[float32]) error
}

// EvalOut is what Kernels.Eval reports for one example. The layout (24
// bytes: S, M, Zy) is part of the contract with web/kernels.wat.
type EvalOut struct{ S, M, Zy float64 }

var kernels struct {
	eval func(g, h, mu, theta []float64, d int, x *softmax.Examples[float32], out []EvalOut) error
	hv   func(out, v, mu []float64, d int, x *softmax.Examples[float32]) error
}

// SetKernels installs k (the zero Kernels goes back to the Go loops).
// Like softmax.SetBatchKernel it is meant for a single-threaded host.
func SetKernels(k Kernels) { kernels.eval, kernels.hv = k.Eval, k.Hv }

// Concurrent computes Passes in n goroutines, shard s by goroutine
// s mod n, as the browser's pool of workers does: natively, on a machine's
// cores, with the same bits as Local. It is not for a host with kernels
// installed (SetKernels).
type Concurrent[V softmax.Float] struct {
	local *Local[V]
	n     int
}

// NewConcurrent returns Passes over the examples x of d features for a
// model of k classes, computed by n goroutines (1 to shard.Count).
func NewConcurrent[V softmax.Float](x *softmax.Examples[V], d, k, n int) *Concurrent[V] {
	return &Concurrent[V]{local: NewLocal(x, d, k), n: max(1, min(n, shard.Count))}
}

// Eval implements Passes.
func (c *Concurrent[V]) Eval(theta []float64, slot int, g, h *[shard.Count][]float64, loss *[shard.Count]float64) {
	shard.Each(c.n, func(s int) { loss[s] = c.local.shards[s].Eval(g[s], h[s], theta, slot) })
}

// Hv implements Passes.
func (c *Concurrent[V]) Hv(v []float64, slot int, out *[shard.Count][]float64) {
	shard.Each(c.n, func(s int) { c.local.shards[s].Hv(out[s], v, slot) })
}

// HessianOn returns the Hessian of J (objective o) at the flat parameters
// theta over m examples of d features and k classes whose passes p
// computes, as an operator for PowerIterate: hv(dst, v) writes H·v into
// dst, one pass, the shards added in shard order. It evaluates μ at theta
// first (one pass, into slot), so it must not share p's slot with a
// running Solver. It returns an error if the shapes disagree or theta is
// not finite.
func HessianOn(p Passes, m, d, k int, theta []float64, slot int, o softmax.Objective) (func(dst, v []float64), error) {
	n := (d + 1) * k
	switch {
	case m < 1 || d < 1 || k < 2 || k > K || len(theta) != n || slot < 0 || slot > 1:
		return nil, fmt.Errorf("newton: the Hessian of %d parameters over %d examples of %d features and %d classes, slot %d", len(theta), m, d, k, slot)
	}
	for _, t := range theta {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, errors.New("newton: the model has a parameter that is NaN or infinite")
		}
	}
	var g, h, out [shard.Count][]float64
	var loss [shard.Count]float64
	for s := range shard.Count {
		g[s], h[s], out[s] = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	p.Eval(theta, slot, &g, &h, &loss)
	return func(dst, v []float64) {
		p.Hv(v, slot, &out)
		shard.Reduce64(dst, &out)
		finish(dst, v, d, m, o)
	}, nil
}

// NewPowerOn returns PowerIterate's power iteration on the operator hv of
// order n, not yet run: Advance(1) takes one product, so that a worker can
// take them between its other work and stop early.
func NewPowerOn(hv func(dst, v []float64), n int, s PowerSettings) (*Power, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("newton: power iteration on %d dimensions", n)
	}
	p := &Power{op: hv, set: s.withDefaults()}
	if err := p.start(n, nil); err != nil {
		return nil, err
	}
	return p, nil
}
