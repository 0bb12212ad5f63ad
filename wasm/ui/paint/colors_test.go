package paint

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDiverging(t *testing.T) {
	tests := []struct {
		name    string
		t       float64
		r, g, b uint8
	}{
		{"zero is white", 0, 255, 255, 255},
		{"one is red", 1, 178, 24, 43},
		{"minus one is blue", -1, 33, 102, 172},
		{"beyond the scale is clamped", 7, 178, 24, 43},
		{"half way is a pale red", 0.5, 217, 140, 149},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g, b := Diverging(tt.t)
			if r != tt.r || g != tt.g || b != tt.b {
				t.Errorf("diverging(%v) = %d,%d,%d; want %d,%d,%d", tt.t, r, g, b, tt.r, tt.g, tt.b)
			}
		})
	}
}

// divergingByRound is Diverging as math.Round and math.Max say it.
func divergingByRound(t float64) (r, g, b uint8) {
	if math.IsNaN(t) {
		return 128, 128, 128
	}
	t = math.Max(-1, math.Min(1, t))
	end := posColor
	if t < 0 {
		end, t = negColor, -t
	}
	mix := func(e float64) uint8 { return uint8(math.Round(255 + (e-255)*t)) }
	return mix(end[0]), mix(end[1]), mix(end[2])
}

// TestDivergingRoundsAsMathRound: the colour of every t is the one that
// math.Round gives, for random t, for the t at which a channel is half
// way between two levels and the floats either side of them, and for the
// ends, infinities and NaN.
func TestDivergingRoundsAsMathRound(t *testing.T) {
	ts := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, -1.5, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}
	for _, end := range [][3]float64{posColor, negColor} {
		for _, e := range end {
			for k := 0.5; k < 255-e; k++ {
				h := k / (255 - e) // 255 + (e−255)·h = 255 − k: half way
				for _, v := range []float64{h, math.Nextafter(h, 0), math.Nextafter(h, 2)} {
					ts = append(ts, v, -v)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		ts = append(ts, 2.2*r.Float64()-1.1)
	}
	for _, v := range ts {
		r, g, b := Diverging(v)
		wr, wg, wb := divergingByRound(v)
		if r != wr || g != wg || b != wb {
			t.Fatalf("Diverging(%v) = %d,%d,%d; math.Round gives %d,%d,%d", v, r, g, b, wr, wg, wb)
		}
	}
}

func BenchmarkTemplateImage(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	w := make([]float32, 7840)
	for i := range w {
		w[i] = float32(r.NormFloat64())
	}
	dst := make([]byte, 4*784)
	for b.Loop() {
		for c := range 10 {
			TemplateImage(dst, w, c, 4)
		}
	}
}

func TestTemplateImage(t *testing.T) {
	w := make([]float32, 7840)
	w[5*10+3] = 2   // pixel 5, class 3: the end of the scale
	w[6*10+3] = -1  // pixel 6: half as large, negative
	w[7*10+3] = -50 // beyond the scale: clamped
	dst := make([]byte, 4*784)
	TemplateImage(dst, w, 3, 2)
	if got := dst[4*5 : 4*5+4]; got[0] != 178 || got[3] != 255 {
		t.Errorf("pixel 5 = %v, want full red", got)
	}
	if got := dst[4*6 : 4*6+3]; got[0] != 144 || got[1] != 179 || got[2] != 214 {
		t.Errorf("pixel 6 = %v, want half way to blue", got)
	}
	if got := dst[4*7 : 4*7+3]; got[0] != 33 || got[1] != 102 || got[2] != 172 {
		t.Errorf("pixel 7 = %v, want full blue", got)
	}
	if got := dst[0:3]; got[0] != 255 || got[1] != 255 || got[2] != 255 {
		t.Errorf("a zero weight is %v, want white", got)
	}
	TemplateImage(dst, make([]float32, 7840), 0, 0)
	if dst[0] != 255 || dst[4*5] != 255 {
		t.Error("an all-zero template is not white")
	}
}

func TestWeightScale(t *testing.T) {
	inf := float32(math.Inf(1))
	tests := []struct {
		name string
		w    []float32
		want float64
	}{
		{"all zero has no scale", []float32{0, 0}, 0},
		{"none at all has no scale", nil, 0},
		{"a round largest weight is the end", []float32{0.1, -2}, 2},
		{"the end is rounded up to a round number", []float32{0.1, -0.7311}, 0.8},
		{"a negative weight counts by its size", []float32{-1.234, 1}, 1.5},
		{"just above a power of ten", []float32{10.01}, 15},
		{"small weights", []float32{0.00042}, 0.0005},
		{"an infinite weight is ignored", []float32{inf, 0.3}, 0.3},
		{"so is a negative one", []float32{0.3, -inf}, 0.3},
		{"and a NaN", []float32{float32(math.NaN()), 0.3}, 0.3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WeightScale(tt.w); math.Abs(got-tt.want) > 1e-12*tt.want {
				t.Errorf("WeightScale(%v) = %v, want %v", tt.w, got, tt.want)
			}
		})
	}
	// Every weight fits in the scale, and the scale is not much wider.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		w := []float32{float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(8)-4)))}
		s, a := WeightScale(w), math.Abs(float64(w[0]))
		if s < a || s > 1.5*a {
			t.Errorf("WeightScale(%v) = %v", w, s)
		}
	}
}
