package shard

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRangesCoverTheSetInOrder(t *testing.T) {
	for _, m := range []int{0, 1, 7, 8, 9, 10000, 60000, 12345} {
		next := 0
		for s := range Count {
			lo, hi := Range(m, s)
			if lo != next || hi < lo || hi-lo > m/Count+1 {
				t.Fatalf("m = %d: shard %d is [%d, %d), expected to start at %d", m, s, lo, hi, next)
			}
			for i := lo; i < hi; i++ {
				if Of(m, i) != s {
					t.Fatalf("m = %d: Of(%d) = %d, want %d", m, i, Of(m, i), s)
				}
			}
			next = hi
		}
		if next != m {
			t.Fatalf("m = %d: the shards end at %d", m, next)
		}
	}
}

// TestReduceAddsInShardOrder: the sum is ((p0 + p1) + p2) + …, which for
// float32 differs from other orders; the test would fail for any other.
func TestReduceAddsInShardOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var parts [Count][]float32
	var parts64 [Count][]float64
	for s := range parts {
		parts[s] = make([]float32, 100)
		parts64[s] = make([]float64, 100)
		for i := range parts[s] {
			parts[s][i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(8))))
			parts64[s][i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(16)))
		}
	}
	dst := make([]float32, 100)
	Reduce32(dst, &parts)
	dst64 := make([]float64, 100)
	Reduce64(dst64, &parts64)
	differs := false
	for i := range dst {
		want := parts[0][i]
		want64 := parts64[0][i]
		for s := 1; s < Count; s++ {
			want += parts[s][i]
			want64 += parts64[s][i]
		}
		if math.Float32bits(dst[i]) != math.Float32bits(want) || math.Float64bits(dst64[i]) != math.Float64bits(want64) {
			t.Fatalf("element %d: %v, %v; in shard order %v, %v", i, dst[i], dst64[i], want, want64)
		}
		back := parts[Count-1][i]
		for s := Count - 2; s >= 0; s-- {
			back += parts[s][i]
		}
		differs = differs || back != want
	}
	if !differs {
		t.Error("the test's data does not tell one order of the sum from another")
	}
	sums := [Count]float64{1e16, 1, -1e16, 1, 0, 0, 0, 0}
	if got := Sum(&sums); got != 1 {
		t.Errorf("Sum = %v, want ((1e16 + 1) − 1e16) + 1 = 1", got)
	}
}
