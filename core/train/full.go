package train

import (
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// Passes computes the passes of full-batch gradient descent over a
// training set cut into shard.Count shards (core/shard): for every shard
// s, the unnormalised gradient of the cross-entropy over its examples,
// in index order and from zero, into gw[s] (d×k) and gb[s] (k), and its
// summed cross-entropy into loss[s], exactly as GradShard computes them.
// The trainer adds the shards up in shard order. Local is the reference;
// the browser's pool of workers computes the shards in several workers,
// with the same bits.
type Passes interface {
	Grad(w, b []float32, gw, gb *[shard.Count][]float32, loss *[shard.Count]float64)
}

// GradShard computes one shard's part of a full-batch gradient: it zeroes
// gw and gb, adds softmax.Grad over every example of x (a shard's
// examples: a View, or a shard sent to a worker) in index order, and
// returns the summed cross-entropy. positions must hold 0..x.Len()−1 at
// least (Positions).
func GradShard(gw, gb, w, b []float32, x *softmax.Examples[float32], positions []int32) float64 {
	clear(gw)
	clear(gb)
	return softmax.Grad(gw, gb, w, b, x, positions[:x.Len()])
}

// Positions returns 0, 1, …, n−1.
func Positions(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// Local computes Passes in this process, one shard after another.
type Local struct {
	shards    [shard.Count]*softmax.Examples[float32]
	positions []int32
}

// NewLocal returns Passes over x, computed here.
func NewLocal(x *softmax.Examples[float32]) *Local {
	l := &Local{}
	most := 0
	for s := range shard.Count {
		lo, hi := shard.Range(x.Len(), s)
		l.shards[s] = x.View(lo, hi)
		most = max(most, hi-lo)
	}
	l.positions = Positions(most)
	return l
}

// Grad implements Passes.
func (l *Local) Grad(w, b []float32, gw, gb *[shard.Count][]float32, loss *[shard.Count]float64) {
	for s, x := range l.shards {
		loss[s] = GradShard(gw[s], gb[s], w, b, x, l.positions)
	}
}

// fullBatch is the trainer's state for B = m: the passes and the shards'
// partial sums.
type fullBatch struct {
	passes Passes
	gw, gb [shard.Count][]float32
	loss   [shard.Count]float64
}

func newFullBatch(x *softmax.Examples[float32], d, k int) *fullBatch {
	f := &fullBatch{passes: NewLocal(x)}
	for s := range shard.Count {
		f.gw[s] = make([]float32, d*k)
		f.gb[s] = make([]float32, k)
	}
	return f
}

// grad sets gw and gb to the full-batch gradient at w and b, the shards'
// parts added in shard order, and returns the summed cross-entropy.
func (f *fullBatch) grad(gw, gb, w, b []float32) float64 {
	f.passes.Grad(w, b, &f.gw, &f.gb, &f.loss)
	shard.Reduce32(gw, &f.gw)
	shard.Reduce32(gb, &f.gb)
	return shard.Sum(&f.loss)
}

// SetPasses makes a full-batch trainer (B = m) compute its gradients with
// p, which must compute them exactly as Local does on the trainer's data
// (the browser's pool of workers); nil goes back to Local. It does nothing
// for B < m: minibatch steps depend on each other and stay in one place.
func (t *Trainer) SetPasses(p Passes) {
	if t.full == nil {
		return
	}
	if p == nil {
		p = NewLocal(t.data)
	}
	t.full.passes = p
}

// Concurrent computes Passes in n goroutines, shard s by goroutine
// s mod n, as the browser's pool of workers does: natively, on a machine's
// cores, with the same bits as Local. It is not for a host with a batch
// kernel installed (softmax.SetBatchKernel shares its buffers).
type Concurrent struct {
	local *Local
	n     int
}

// NewConcurrent returns Passes over x computed by n goroutines (at least
// one, at most shard.Count).
func NewConcurrent(x *softmax.Examples[float32], n int) *Concurrent {
	return &Concurrent{local: NewLocal(x), n: max(1, min(n, shard.Count))}
}

// Grad implements Passes.
func (c *Concurrent) Grad(w, b []float32, gw, gb *[shard.Count][]float32, loss *[shard.Count]float64) {
	shard.Each(c.n, func(s int) {
		loss[s] = GradShard(gw[s], gb[s], w, b, c.local.shards[s], c.local.positions)
	})
}
