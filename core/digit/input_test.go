package digit

import (
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRGBA(t *testing.T) {
	c := newCanvas(200, 160).ring(90, 80, 50, 14).fill(image.Rect(20, 150, 180, 160), 180)
	want, winfo := digitOf(t, c)
	transparentWhite := c.rgba(InkAlpha)
	tests := []struct {
		name string
		ink  Ink
		pix  []byte
	}{
		{"alpha ink of white strokes on a transparent canvas", InkAlpha, transparentWhite},
		{"light ink of white strokes on a transparent canvas", InkLight, transparentWhite},
		{"light ink of white strokes on a black canvas", InkLight, c.rgba(InkLight)},
		{"dark ink of black strokes on a white canvas", InkDark, c.rgba(InkDark)},
	}
	for _, tt := range tests {
		t.Run(tt.name+" matches the grey image", func(t *testing.T) {
			p := Preprocessor{Ink: tt.ink}
			var img [Pixels]uint8
			info, err := p.FromRGBA(&img, tt.pix, c.w, c.h)
			if err != nil {
				t.Fatal(err)
			}
			if img != *want || info != winfo {
				t.Errorf("output or info %+v differs from FromGrey's %+v", info, winfo)
			}
		})
	}
}

func TestSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var index []uint16
	var value []float32
	for i := range 50 {
		img, _ := digitOf(t, randomCanvas(rng))
		index, value = AppendSparse(index[:0], value[:0], img)
		var back [Pixels]uint8
		for k, j := range index {
			if value[k] <= 0 || value[k] > 1 {
				t.Fatalf("image %d: value %g at %d, want in (0,1]", i, value[k], j)
			}
			back[j] = uint8(math.Round(float64(value[k]) * 255))
		}
		if back != *img || !slices.IsSorted(index) {
			t.Fatalf("image %d: sparse form (%d pixels) does not match the dense image", i, len(index))
		}
	}
}

func TestNoAllocations(t *testing.T) {
	c := newCanvas(560, 560).ring(280, 280, 150, 30)
	pix := c.rgba(InkAlpha)
	var p Preprocessor
	var img [Pixels]uint8
	index, value := make([]uint16, 0, Pixels), make([]float32, 0, Pixels)
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := p.FromRGBA(&img, pix, c.w, c.h); err != nil {
			t.Fatal(err)
		}
		index, value = AppendSparse(index[:0], value[:0], &img)
	})
	if allocs != 0 {
		t.Errorf("%g allocations per call, want 0", allocs)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		rgba bool
		n    int // buffer length
		w, h int
	}{
		{"RGBA buffer one byte short", true, 4*10*10 - 1, 10, 10},
		{"RGBA buffer of grey size", true, 10 * 10, 10, 10},
		{"grey buffer one byte long", false, 10*10 + 1, 10, 10},
		{"zero width", true, 0, 0, 10},
		{"zero height", false, 0, 10, 0},
		{"negative width", true, 40, -1, -10},
		{"negative height", false, 10, 10, -1},
		{"overflowing size", true, 4, math.MaxInt/2 + 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name+" returns ErrSize", func(t *testing.T) {
			var p Preprocessor
			var img [Pixels]uint8
			img[0] = 9
			buf := make([]byte, tt.n)
			var err error
			if tt.rgba {
				_, err = p.FromRGBA(&img, buf, tt.w, tt.h)
			} else {
				_, err = p.FromGrey(&img, buf, tt.w, tt.h)
			}
			if !errors.Is(err, ErrSize) {
				t.Errorf("err = %v, want ErrSize", err)
			}
			if img[0] != 9 {
				t.Errorf("dst was changed")
			}
		})
	}
}
