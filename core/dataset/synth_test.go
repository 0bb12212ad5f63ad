package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// strokeImage draws three or four pen strokes into px, which has Pixels
// entries, giving images of MNIST-like sparsity: about 150 non-zero pixels
// in thick lines with soft edges.
func strokeImage(r *rand.Rand, px []uint8) {
	clear(px)
	for range 3 + r.IntN(2) {
		x, y := 7+14*r.Float64(), 7+14*r.Float64()
		a := 2 * math.Pi * r.Float64()
		for range 10 + r.IntN(10) {
			stamp(px, x, y)
			a += 0.8 * (r.Float64() - 0.5)
			x, y = x+math.Cos(a), y+math.Sin(a)
		}
	}
}

// stamp darkens the pixels within 1.7 pixels of (x, y), most at the centre.
func stamp(px []uint8, x, y float64) {
	for row := int(y) - 2; row <= int(y)+2; row++ {
		for col := int(x) - 2; col <= int(x)+2; col++ {
			if row < 0 || row >= Rows || col < 0 || col >= Cols {
				continue
			}
			d := math.Hypot(float64(col)+0.5-x, float64(row)+0.5-y)
			v := min(255, 300*(1.7-d))
			if j := row*Cols + col; v > float64(px[j]) {
				px[j] = uint8(v)
			}
		}
	}
}

// strokeSet returns n stroke images with random labels.
func strokeSet(r *rand.Rand, n int) *Set {
	s := NewSet(n, 150)
	px := make([]uint8, Pixels)
	for range n {
		strokeImage(r, px)
		s.Append(uint8(r.IntN(Classes)), px)
	}
	return s
}

// noiseSet returns n images with random labels whose pixels are each
// non-zero with a probability drawn per image, from empty to full.
func noiseSet(r *rand.Rand, n int) *Set {
	s := NewSet(n, 0)
	px := make([]uint8, Pixels)
	for range n {
		p := r.Float64()
		for j := range px {
			px[j] = 0
			if r.Float64() < p {
				px[j] = uint8(1 + r.IntN(255))
			}
		}
		s.Append(uint8(r.IntN(Classes)), px)
	}
	return s
}

// imageSet returns a set holding the given dense images, labelled 0, 1, ...
func imageSet(images ...[]uint8) *Set {
	s := NewSet(len(images), 0)
	for i, px := range images {
		s.Append(uint8(i%Classes), px)
	}
	return s
}

// filled returns a dense image with every pixel set to v.
func filled(v uint8) []uint8 {
	px := make([]uint8, Pixels)
	for j := range px {
		px[j] = v
	}
	return px
}

// equalSets reports whether a and b hold the same images and labels.
func equalSets(a, b *Set) bool {
	return slices.Equal(a.Labels, b.Labels) && slices.Equal(a.Start, b.Start) &&
		slices.Equal(a.Index, b.Index) && slices.Equal(a.Value, b.Value)
}

// checkPacksEqual fails t unless got and want hold the same sets.
func checkPacksEqual(t testing.TB, got, want *Pack) {
	t.Helper()
	if !equalSets(got.Train, want.Train) {
		t.Errorf("train sets differ: got %d images, %d pixels; want %d, %d",
			got.Train.Len(), got.Train.NNZ(), want.Train.Len(), want.Train.NNZ())
	}
	if !equalSets(got.Test, want.Test) {
		t.Errorf("test sets differ: got %d images, %d pixels; want %d, %d",
			got.Test.Len(), got.Test.NNZ(), want.Test.Len(), want.Test.NNZ())
	}
}

func TestStrokeSetIsMNISTLike(t *testing.T) {
	s := strokeSet(rand.New(rand.NewPCG(1, 2)), 1000)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if avg := float64(s.NNZ()) / float64(s.Len()); avg < 130 || avg > 170 {
		t.Errorf("stroke images have %.1f non-zero pixels on average, want about 150", avg)
	}
}
