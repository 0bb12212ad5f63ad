package newton

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// randomProblem returns m sparse examples of d features with values in
// (0, 1] (about 60% of the features present), labels cycling through the
// classes, and a model with N(0, 0.3²) weights and biases.
func randomProblem(m, d int, seed uint64) (*softmax.Examples[float64], *softmax.Model[float64]) {
	r := rand.New(rand.NewPCG(seed, 2))
	x := &softmax.Examples[float64]{Start: []int32{0}}
	for i := range m {
		for j := range d {
			if r.Float64() < 0.6 {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, 1-r.Float64())
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8((i*7+r.IntN(3))%K))
	}
	md := softmax.New[float64](d)
	for i := range md.W {
		md.W[i] = 0.3 * r.NormFloat64()
	}
	for c := range md.B {
		md.B[c] = 0.3 * r.NormFloat64()
	}
	return x, md
}

// flat returns md's parameters as one vector (weights, then biases).
func flat(md *softmax.Model[float64]) []float64 {
	return append(append([]float64(nil), md.W...), md.B...)
}

// gradAt returns ∇J at the flat parameters v.
func gradAt(v []float64, d int, x *softmax.Examples[float64], o softmax.Objective) []float64 {
	n := len(v)
	g, h, mu := make([]float64, n), make([]float64, n), make([]float64, x.Len()*K)
	evalRange(0, g, h, mu, v, d, x, 0, x.Len())
	finish(g, v, d, x.Len(), o)
	return g
}

// hessVecAt returns H·u at the flat parameters v.
func hessVecAt(v, u []float64, d int, x *softmax.Examples[float64], o softmax.Objective) []float64 {
	n := len(v)
	g, h, mu := make([]float64, n), make([]float64, n), make([]float64, x.Len()*K)
	evalRange(0, g, h, mu, v, d, x, 0, x.Len())
	out := make([]float64, n)
	hvRange(out, u, mu, d, x, 0, x.Len())
	finish(out, u, d, x.Len(), o)
	return out
}

// direction returns a random direction of n parameters for d features,
// its entries N(0, 1) from r but for those o pins, which are zero.
func direction(r *rand.Rand, n, d int, o softmax.Objective) []float64 {
	u := make([]float64, n)
	for i := range u {
		u[i] = r.NormFloat64()
	}
	pin(u, d, o)
	return u
}

// differences returns the central differences of the gradient along u at
// the flat parameters v, (∇J(v+hu) − ∇J(v−hu)) / 2h: H·u to O(h²).
func differences(v, u []float64, h float64, d int, x *softmax.Examples[float64], o softmax.Objective) []float64 {
	plus, minus := append([]float64(nil), v...), append([]float64(nil), v...)
	for i := range v {
		plus[i] += h * u[i]
		minus[i] -= h * u[i]
	}
	gp, gm := gradAt(plus, d, x, o), gradAt(minus, d, x, o)
	out := make([]float64, len(v))
	for i := range out {
		out[i] = (gp[i] - gm[i]) / (2 * h)
	}
	return out
}

// relErr is |a−b| / max(|a|+|b|, 1e-12).
func relErr(a, b float64) float64 { return math.Abs(a-b) / max(math.Abs(a)+math.Abs(b), 1e-12) }

// defaultPack reads the committed default pack's training and test sets.
func defaultPack(t testing.TB) (train, test *softmax.Examples[float64]) {
	t.Helper()
	p := datasettest.Default(t)
	return softmax.FromSet[float64](p.Train), softmax.FromSet[float64](p.Test)
}

// head returns the first n examples of x (sharing memory).
func head(x *softmax.Examples[float64], n int) *softmax.Examples[float64] {
	e := x.Start[n]
	return &softmax.Examples[float64]{Labels: x.Labels[:n], Start: x.Start[:n+1], Index: x.Index[:e], Value: x.Value[:e]}
}

// poolOf computes Passes as a pool of workers would: each worker holds
// the shards s with s mod workers = its number, as copies of their own
// (not views), and the workers run at once, in goroutines, finishing in
// any order.
// newPool cuts x into shards held by workers.
func newPool(x *softmax.Examples[float64], d, workers int) *poolOf {
	p := &poolOf{workers: workers}
	for s := range shard.Count {
		lo, hi := shard.Range(x.Len(), s)
		p.shards[s] = NewShard(copyOf(x.View(lo, hi)), d, K)
	}
	return p
}

type poolOf struct {
	workers int
	shards  [shard.Count]*Shard[float64]
}

func (p *poolOf) run(f func(s int)) {
	var wg sync.WaitGroup
	for w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := shard.Count - 1 - w; s >= 0; s -= p.workers {
				f(s)
			}
		}()
	}
	wg.Wait()
}

func (p *poolOf) Eval(theta []float64, slot int, g, h *[shard.Count][]float64, loss *[shard.Count]float64) {
	p.run(func(s int) { loss[s] = p.shards[s].Eval(g[s], h[s], theta, slot) })
}

func (p *poolOf) Hv(v []float64, slot int, out *[shard.Count][]float64) {
	p.run(func(s int) { p.shards[s].Hv(out[s], v, slot) })
}

// copyOf returns a copy of x of its own, its starts from 0.
func copyOf[V softmax.Float](x *softmax.Examples[V]) *softmax.Examples[V] {
	c := &softmax.Examples[V]{Labels: append([]uint8(nil), x.Labels...), Start: make([]int32, len(x.Start))}
	base := x.Start[0]
	for i, st := range x.Start {
		c.Start[i] = st - base
	}
	end := x.Start[len(x.Start)-1]
	c.Index = append([]uint16(nil), x.Index[base:end]...)
	c.Value = append([]V(nil), x.Value[base:end]...)
	return c
}
