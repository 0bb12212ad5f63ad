package digit

import (
	"image"
	"math"
	"testing"
)

// canvas is a w×h grey ink image that tests draw on.
type canvas struct {
	w, h int
	pix  []uint8
}

func newCanvas(w, h int) *canvas {
	return &canvas{w: w, h: h, pix: make([]uint8, w*h)}
}

// fill sets the pixels of r, clipped to the canvas, to v.
func (c *canvas) fill(r image.Rectangle, v uint8) *canvas {
	r = r.Intersect(image.Rect(0, 0, c.w, c.h))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c.pix[y*c.w+x] = v
		}
	}
	return c
}

// ring draws an anti-aliased circle of radius r and stroke width sw
// centred at (cx, cy), keeping the darker of old and new ink, as a brush
// would.
func (c *canvas) ring(cx, cy, r, sw float64) *canvas {
	for y := range c.h {
		for x := range c.w {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			cover := min(max(sw/2-math.Abs(d-r)+0.5, 0), 1)
			c.pix[y*c.w+x] = max(c.pix[y*c.w+x], uint8(math.Round(255*cover)))
		}
	}
	return c
}

// upscale returns the canvas magnified k times, each pixel becoming k×k.
func (c *canvas) upscale(k int) *canvas {
	u := newCanvas(c.w*k, c.h*k)
	for y := range u.h {
		for x := range u.w {
			u.pix[y*u.w+x] = c.pix[(y/k)*c.w+x/k]
		}
	}
	return u
}

// rgba renders the canvas as getImageData would return it for a page that
// draws the ink in the way mode reads it.
func (c *canvas) rgba(mode Ink) []byte {
	out := make([]byte, 4*len(c.pix))
	for i, v := range c.pix {
		q := out[4*i : 4*i+4]
		switch mode {
		case InkAlpha: // white strokes on a transparent canvas
			q[0], q[1], q[2], q[3] = 255, 255, 255, v
		case InkLight: // white strokes on an opaque black canvas
			q[0], q[1], q[2], q[3] = v, v, v, 255
		case InkDark: // black strokes on an opaque white canvas
			q[0], q[1], q[2], q[3] = 255-v, 255-v, 255-v, 255
		}
	}
	return out
}

// digitOf preprocesses c with a fresh Preprocessor and fails on error.
func digitOf(t testing.TB, c *canvas) (*[Pixels]uint8, Info) {
	t.Helper()
	var p Preprocessor
	var img [Pixels]uint8
	info, err := p.FromGrey(&img, c.pix, c.w, c.h)
	if err != nil {
		t.Fatalf("FromGrey: %v", err)
	}
	return &img, info
}

// inkBox returns the bounding box of the non-zero pixels of img.
func inkBox(img *[Pixels]uint8) image.Rectangle {
	var r image.Rectangle
	for j, v := range img {
		if v != 0 {
			r = r.Union(image.Rect(j%Side, j/Side, j%Side+1, j/Side+1))
		}
	}
	return r
}

// centre returns the centre of mass of img in continuous coordinates and
// its total ink.
func centre(img *[Pixels]uint8) (cx, cy, sum float64) {
	for j, v := range img {
		f := float64(v)
		sum += f
		cx += f * (float64(j%Side) + 0.5)
		cy += f * (float64(j/Side) + 0.5)
	}
	return cx / sum, cy / sum, sum
}

// ascii renders img with one character per pixel.
func ascii(img *[Pixels]uint8) string {
	const ramp = " .:-=+*#%@"
	b := make([]byte, 0, Pixels+Side)
	for j, v := range img {
		b = append(b, ramp[int(v)*len(ramp)/256])
		if j%Side == Side-1 {
			b = append(b, '\n')
		}
	}
	return string(b)
}
