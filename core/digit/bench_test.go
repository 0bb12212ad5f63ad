package digit

import (
	"fmt"
	"image"
	"testing"
)

// BenchmarkPreprocess measures one call per pointer move: a "9" with
// anti-aliased strokes on a canvas as large as a 280 CSS pixel pad at
// devicePixelRatio 2, and at ratio 1. Each variant is first checked
// against the reference.
func BenchmarkPreprocess(b *testing.B) {
	nine := func(k int) *canvas {
		f := float64(k)
		c := newCanvas(280*k, 280*k).ring(140*f, 95*f, 55*f, 18*f)
		return c.fill(image.Rect(186*k, 95*k, 204*k, 250*k), 255)
	}
	for _, k := range []int{2, 1} {
		c := nine(k)
		want, _ := reference(c, DefaultThreshold, min(c.w, c.h)/10)
		for _, ink := range []Ink{InkAlpha, InkLight} {
			name := fmt.Sprintf("rgba=%dx%d/ink=%s", c.w, c.h, [...]string{"alpha", "light"}[ink])
			pix := c.rgba(ink)
			b.Run(name, func(b *testing.B) {
				p := Preprocessor{Ink: ink}
				var img [Pixels]uint8
				check(b, &img, want, func() error { _, err := p.FromRGBA(&img, pix, c.w, c.h); return err })
				b.ReportAllocs()
				b.SetBytes(int64(len(pix)))
				for b.Loop() {
					p.FromRGBA(&img, pix, c.w, c.h)
				}
			})
		}
		b.Run(fmt.Sprintf("grey=%dx%d", c.w, c.h), func(b *testing.B) {
			var p Preprocessor
			var img [Pixels]uint8
			check(b, &img, want, func() error { _, err := p.FromGrey(&img, c.pix, c.w, c.h); return err })
			b.ReportAllocs()
			b.SetBytes(int64(len(c.pix)))
			for b.Loop() {
				p.FromGrey(&img, c.pix, c.w, c.h)
			}
		})
	}
}

// check runs f once and fails unless it fills img with want, ±1 per pixel.
func check(b *testing.B, img, want *[Pixels]uint8, f func() error) {
	b.Helper()
	if err := f(); err != nil {
		b.Fatal(err)
	}
	for j := range img {
		if d := int(img[j]) - int(want[j]); d < -1 || d > 1 {
			b.Fatalf("pixel (%d,%d) = %d, reference %d", j/Side, j%Side, img[j], want[j])
		}
	}
}
