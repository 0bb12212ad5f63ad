// Package metrics evaluates a softmax model on labelled examples: accuracy,
// the confusion matrix, and the likelihood measures of the lecture notes.
package metrics

import (
	"math"

	"softmaxdemo/core/internal/fmath"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// Result is a model's performance on a set of examples.
type Result struct {
	N       int // examples evaluated
	Correct int // examples whose most probable class is the label

	// Confusion[y][p] counts examples of true class y predicted as p.
	Confusion [softmax.K][softmax.K]int

	// LogLikelihood is Σ log h(x_i)_{y_i}, summed example by example
	// within each shard and then over the shards in shard order (see
	// Evaluate), and MeanLogLikelihood is LogLikelihood/N, at most 0: its
	// negation is the mean cross-entropy.
	LogLikelihood     float64
	MeanLogLikelihood float64
}

// Accuracy returns Correct/N, or 0 for no examples.
func (r Result) Accuracy() float64 {
	if r.N == 0 {
		return 0
	}
	return float64(r.Correct) / float64(r.N)
}

// Likelihood returns the likelihood value of the C++ lecture notes: the
// geometric mean of the true-class probabilities, exp(MeanLogLikelihood),
// a number in (0, 1] where 1 means every example was given probability 1.
func (r Result) Likelihood() float64 {
	if r.N == 0 {
		return 0
	}
	return fmath.Exp(r.MeanLogLikelihood)
}

// ClassAccuracy returns, for each class, the fraction of its examples that
// were classified correctly (recall), or NaN for a class with no examples.
func (r Result) ClassAccuracy() [softmax.K]float64 {
	var out [softmax.K]float64
	for y := range softmax.K {
		total := 0
		for p := range softmax.K {
			total += r.Confusion[y][p]
		}
		if total == 0 {
			out[y] = math.NaN()
			continue
		}
		out[y] = float64(r.Confusion[y][y]) / float64(total)
	}
	return out
}

// Evaluate runs m on every example of x. It evaluates the shards of x
// (core/shard) one by one, EvaluateRange, and adds them up with Combine,
// so that a pool of workers evaluating the shards gives the same bits.
// It allocates nothing.
func Evaluate[F softmax.Float](m *softmax.Model[F], x *softmax.Examples[F]) Result {
	var parts [shard.Count]Result
	for s := range shard.Count {
		lo, hi := shard.Range(x.Len(), s)
		parts[s] = EvaluateRange(m, x, lo, hi)
	}
	return Combine(&parts)
}

// EvaluateRange runs m on the examples lo..hi−1 of x, adding the log
// likelihood example by example. It allocates nothing.
func EvaluateRange[F softmax.Float](m *softmax.Model[F], x *softmax.Examples[F], lo, hi int) Result {
	var r Result
	if lo >= hi {
		return r
	}
	if evalRange(&r, m, x, lo, hi) {
		return r
	}
	var z [softmax.K]F
	ll := 0.0
	for i := lo; i < hi; i++ {
		index, value := x.Example(i)
		softmax.Logits(&z, m.W, m.B, index, value)
		y := int(x.Labels[i])
		zy := float64(z[y])
		p := softmax.Argmax(&z)
		ll += zy - softmax.Softmax(&z)
		r.Confusion[y][p]++
		if p == y {
			r.Correct++
		}
	}
	r.N = hi - lo
	r.LogLikelihood = ll
	r.MeanLogLikelihood = ll / float64(r.N)
	return r
}

// Combine adds up the shards' results in shard order.
func Combine(parts *[shard.Count]Result) Result {
	r := parts[0]
	for _, p := range parts[1:] {
		r.N += p.N
		r.Correct += p.Correct
		for y := range r.Confusion {
			for c := range r.Confusion[y] {
				r.Confusion[y][c] += p.Confusion[y][c]
			}
		}
		r.LogLikelihood += p.LogLikelihood
	}
	r.MeanLogLikelihood = 0
	if r.N > 0 {
		r.MeanLogLikelihood = r.LogLikelihood / float64(r.N)
	}
	return r
}

// Predictions writes the most probable class of every example of x into dst
// and returns it; dst must have length x.Len(), or it panics.
func Predictions[F softmax.Float](dst []uint8, m *softmax.Model[F], x *softmax.Examples[F]) []uint8 {
	if len(dst) != x.Len() {
		panic("metrics: Predictions: dst has the wrong length")
	}
	var z [softmax.K]F
	for i := range dst {
		index, value := x.Example(i)
		softmax.Logits(&z, m.W, m.B, index, value)
		dst[i] = uint8(softmax.Argmax(&z))
	}
	return dst
}
