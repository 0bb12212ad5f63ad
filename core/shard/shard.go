// Package shard cuts a data set into a fixed number of shards, so that a
// pass over the data (a full-batch gradient, Newton's gradient and H·v
// products, an evaluation) can be computed by several workers and still
// give the same bits as one.
//
// The contract. A pass is computed shard by shard: shard s holds the
// examples Range(m, s), in index order, and its partial sums start from
// zero. The pass's result is the shards' partial sums added in shard
// order, ((p₀ + p₁) + p₂) + … + p₇, by Add32 or Add64 (or Sum, for
// scalars). Whoever computes a shard (the page's training worker, a
// worker of the pool, a native run) computes it with the same code and so
// the same bits; the order of the final sum is fixed. So a pass gives the
// same bits for 1, 2, 3 or 8 workers, in the browser and natively.
//
// Count is fixed, not the number of workers: a run's bits must not depend
// on the machine it runs on.
package shard

import (
	"fmt"
	"sync"
)

// Count is the number of shards of every data set.
const Count = 8

// Range returns the examples [lo, hi) of shard s of a data set of m
// examples: shard s holds ⌊s·m/Count⌋ up to ⌊(s+1)·m/Count⌋, so the
// shards cover the set in order and differ in size by at most one. It
// panics if s is not in 0..Count−1 or m < 0.
func Range(m, s int) (lo, hi int) {
	if s < 0 || s >= Count || m < 0 {
		panic(fmt.Sprintf("shard: Range(%d, %d)", m, s))
	}
	return s * m / Count, (s + 1) * m / Count
}

// Of returns the shard that holds example i of m.
func Of(m, i int) int {
	for s := range Count {
		if _, hi := Range(m, s); i < hi {
			return s
		}
	}
	return Count - 1
}

// Add32 adds src into dst, element by element: dst[i] += src[i]. It
// panics if the lengths differ. The worker's WebAssembly SIMD kernel
// (SetAdd32) gives the same bits: each element is one IEEE addition.
func Add32(dst, src []float32) { add("Add32", add32, dst, src) }

// Add64 is Add32 for float64.
func Add64(dst, src []float64) { add("Add64", add64, dst, src) }

// add is Add32 and Add64, named name: dst += src by kernel if it is set,
// else by a loop.
func add[F float32 | float64](name string, kernel func(dst, src []F), dst, src []F) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("shard: %s of %d into %d", name, len(src), len(dst)))
	}
	if kernel != nil {
		kernel(dst, src)
		return
	}
	for i, v := range src {
		dst[i] += v
	}
}

// Reduce32 sets dst to the sum of the shards' parts in shard order:
// dst = parts[0], then dst += parts[1], … It panics if a part's length
// differs from dst's.
func Reduce32(dst []float32, parts *[Count][]float32) {
	copy(dst, parts[0])
	for s := 1; s < Count; s++ {
		Add32(dst, parts[s])
	}
}

// Reduce64 is Reduce32 for float64.
func Reduce64(dst []float64, parts *[Count][]float64) {
	copy(dst, parts[0])
	for s := 1; s < Count; s++ {
		Add64(dst, parts[s])
	}
}

// Sum returns the shards' scalars added in shard order.
func Sum(parts *[Count]float64) float64 {
	s := parts[0]
	for _, p := range parts[1:] {
		s += p
	}
	return s
}

var (
	add32 func(dst, src []float32)
	add64 func(dst, src []float64)
)

// SetAdd installs kernels for Add32 and Add64 (nil goes back to the Go
// loops). They must add element by element, so that the bits are the
// same; the worker installs WebAssembly SIMD ones. Not safe to call while
// a pass runs.
func SetAdd(a32 func(dst, src []float32), a64 func(dst, src []float64)) {
	add32, add64 = a32, a64
}

// Each calls f(s) for every shard, in n goroutines (shard s in goroutine
// s mod n; n ≤ 1: here, in order) and returns when all have returned.
func Each(n int, f func(s int)) {
	if n <= 1 {
		for s := range Count {
			f(s)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range min(n, Count) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := w; s < Count; s += n {
				f(s)
			}
		}()
	}
	wg.Wait()
}
