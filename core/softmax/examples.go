package softmax

import (
	"fmt"
	"math"

	"softmaxdemo/core/dataset"
)

// Float is the set of element types the kernels work in.
type Float interface{ ~float32 | ~float64 }

// Examples is a set of labelled sparse examples in compressed-sparse-row
// form: example i has features Index[Start[i]:Start[i+1]] (increasing, each
// below d) with values Value[Start[i]:Start[i+1]] and label Labels[i] (below the model's number of classes).
type Examples[F Float] struct {
	Labels []uint8
	Start  []int32
	Index  []uint16
	Value  []F
	// Blocks, when set (Block), are the same float32 examples cut into
	// pairs and singles for the SIMD kernels, a copy made once: examples
	// that have them do not change. Nil until then.
	Blocks *Blocks
}

// FromSet converts a dataset.Set to Examples with pixel values scaled to
// [0, 1] (grey level / 255). The labels, starts and indices are shared with
// s, not copied; only the values are new.
func FromSet[F Float](s *dataset.Set) *Examples[F] {
	v := make([]F, len(s.Value))
	for i, g := range s.Value {
		v[i] = F(g) / 255
	}
	return &Examples[F]{Labels: s.Labels, Start: s.Start, Index: s.Index, Value: v}
}

// Len returns the number of examples.
func (x *Examples[F]) Len() int { return len(x.Labels) }

// Example returns the features of example i, sharing x's memory.
func (x *Examples[F]) Example(i int) (index []uint16, value []F) {
	a, b := x.Start[i], x.Start[i+1]
	return x.Index[a:b], x.Value[a:b]
}

// Check reports whether every example of x is well formed for a model with
// d features and the K digit classes. Training and evaluation trust their
// input; call Check once on data that did not come from a validated
// dataset.Set.
func (x *Examples[F]) Check(d int) error { return x.CheckClasses(d, K) }

// CheckClasses is Check for a model of k classes: every label is below k.
func (x *Examples[F]) CheckClasses(d, k int) error {
	if len(x.Start) != len(x.Labels)+1 || len(x.Index) != len(x.Value) {
		return fmt.Errorf("softmax: %d labels, %d starts, %d indices, %d values do not agree",
			len(x.Labels), len(x.Start), len(x.Index), len(x.Value))
	}
	if len(x.Start) > 0 && (x.Start[0] != 0 || int(x.Start[len(x.Start)-1]) != len(x.Index)) {
		return fmt.Errorf("softmax: starts do not cover the indices")
	}
	for i, y := range x.Labels {
		if int(y) >= k {
			return fmt.Errorf("softmax: example %d has label %d, want 0..%d", i, y, k-1)
		}
		if x.Start[i+1] < x.Start[i] {
			return fmt.Errorf("softmax: example %d has a negative length", i)
		}
		idx, val := x.Example(i)
		for t, j := range idx {
			if int(j) >= d || (t > 0 && j <= idx[t-1]) {
				return fmt.Errorf("softmax: example %d has feature %d out of order or range (d = %d)", i, j, d)
			}
			if v := float64(val[t]); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("softmax: example %d has feature %d = %v, want a finite number", i, j, v)
			}
		}
	}
	return nil
}

// View returns the examples lo..hi−1 of x as a set of their own, sharing
// x's memory: its Start keeps x's offsets, so only Labels and Start are
// re-sliced, and its Blocks are x's, re-sliced the same way. It panics if
// the range is out of bounds.
func (x *Examples[F]) View(lo, hi int) *Examples[F] {
	return &Examples[F]{Labels: x.Labels[lo:hi], Start: x.Start[lo : hi+1], Index: x.Index, Value: x.Value, Blocks: x.Blocks.view(lo, hi)}
}
