package softmax

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlockCutsPairsAndSingles: an example's pixels are read from the
// start, a pair where the next pixel is the next of the image, a single
// otherwise; a view shares the blocks of its examples.
func TestBlockCutsPairsAndSingles(t *testing.T) {
	examples := []struct {
		index   []uint16
		pairs   []uint16 // first pixels
		singles []uint16
	}{
		{[]uint16{3, 4, 5, 7}, []uint16{3}, []uint16{5, 7}},
		{nil, nil, nil},
		{[]uint16{0, 1, 2, 3}, []uint16{0, 2}, nil},
		{[]uint16{783}, nil, []uint16{783}},
		{[]uint16{10, 12, 13, 14, 782, 783}, []uint16{12, 782}, []uint16{10, 14}},
		{[]uint16{27, 28}, []uint16{27}, nil}, // across an image row: still neighbours in memory
	}
	x := &Examples[float32]{Start: []int32{0}}
	for i, e := range examples {
		for _, j := range e.index {
			x.Index = append(x.Index, j)
			x.Value = append(x.Value, float32(j)/1000+float32(i))
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(i))
	}
	b := Block(x)
	if Block(x) != b || x.Blocks != b {
		t.Fatal("Block computed the blocks twice, or did not keep them in x")
	}
	for i, e := range examples {
		var pairs, singles []uint16
		for _, p := range b.Pairs[b.PairStart[i]:b.PairStart[i+1]] {
			pairs = append(pairs, p.Pixel)
			if want := float32(p.Pixel)/1000 + float32(i); p.V1 != want || p.V2 != float32(p.Pixel+1)/1000+float32(i) {
				t.Errorf("example %d: pair at %d has values %v, %v", i, p.Pixel, p.V1, p.V2)
			}
		}
		for _, s := range b.Singles[b.SingleStart[i]:b.SingleStart[i+1]] {
			singles = append(singles, s.Pixel)
			if want := float32(s.Pixel)/1000 + float32(i); s.V != want {
				t.Errorf("example %d: single %d has value %v, want %v", i, s.Pixel, s.V, want)
			}
		}
		if !slices.Equal(pairs, e.pairs) || !slices.Equal(singles, e.singles) {
			t.Errorf("example %d %v: pairs %v and singles %v, want %v and %v", i, e.index, pairs, singles, e.pairs, e.singles)
		}
	}
	v := x.View(2, 5)
	if v.Blocks == nil || &v.Blocks.Pairs[0] != &b.Pairs[0] {
		t.Fatal("a view does not share its set's blocks")
	}
	for i := range v.Len() {
		if v.Blocks.PairStart[i] != b.PairStart[i+2] || v.Blocks.SingleStart[i] != b.SingleStart[i+2] {
			t.Errorf("view example %d starts at pair %d and single %d, its set's at %d and %d",
				i, v.Blocks.PairStart[i], v.Blocks.SingleStart[i], b.PairStart[i+2], b.SingleStart[i+2])
		}
	}
}

// compareLogits computes the logits of each example of x two ways, a and
// b (named in failures by what), and fails t at the first class where
// agree(a's logit, b's) is false.
func compareLogits(t *testing.T, x *Examples[float32], what string, a, b func(z *[K]float32, i int, index []uint16, value []float32), agree func(za, zb float32) bool) {
	t.Helper()
	for i := range x.Len() {
		index, value := x.Example(i)
		var za, zb [K]float32
		a(&za, i, index, value)
		b(&zb, i, index, value)
		for c := range K {
			if !agree(za[c], zb[c]) {
				t.Fatalf("%s: example %d, class %d: %v (%#x), %v (%#x)",
					what, i, c, za[c], math.Float32bits(za[c]), zb[c], math.Float32bits(zb[c]))
			}
		}
	}
}

// TestPairLogitsAreTheLogits: the batch gradient's order of additions
// gives the logits to within rounding (exactly, in float64, for values
// that add without rounding), and GradLogits is Logits for fewer classes.
func TestPairLogitsAreTheLogits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := mnistLike(r, 50)
	m := randomModel[float32](r, 784, 0.1)
	compareLogits(t, x, "in pairs, pixel by pixel",
		func(z *[K]float32, _ int, index []uint16, value []float32) { GradLogits(z, m.W, m.B, index, value) },
		func(z *[K]float32, _ int, index []uint16, value []float32) { Logits(z, m.W, m.B, index, value) },
		func(p, l float32) bool { return math.Abs(float64(p-l)) <= 1e-5*(1+math.Abs(float64(l))) })
	// Dyadic values and weights: every sum is exact, whatever the order.
	x64 := &Examples[float64]{Start: []int32{0}, Labels: []uint8{1}}
	for j := 100; j < 200; j += 1 + j%3 {
		x64.Index = append(x64.Index, uint16(j))
		x64.Value = append(x64.Value, float64(j%7)/8)
	}
	x64.Start = append(x64.Start, int32(len(x64.Index)))
	m64 := New[float64](784)
	for i := range m64.W {
		m64.W[i] = float64(i%13-6) / 4
	}
	var p, l [K]float64
	GradLogits(&p, m64.W, m64.B, x64.Index, x64.Value)
	Logits(&l, m64.W, m64.B, x64.Index, x64.Value)
	if p != l {
		t.Errorf("exact sums differ: %v in pairs, %v pixel by pixel", p, l)
	}
	small := NewClasses[float32](6, 3)
	for i := range small.W {
		small.W[i] = float32(i) / 7
	}
	var g, lg [K]float32
	GradLogits(&g, small.W, small.B, []uint16{1, 2, 4}, []float32{0.5, 0.25, 1})
	Logits(&lg, small.W, small.B, []uint16{1, 2, 4}, []float32{0.5, 0.25, 1})
	if g != lg {
		t.Errorf("3 classes: GradLogits %v, Logits %v", g, lg)
	}
}
