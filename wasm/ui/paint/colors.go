// Package paint turns numbers into pixels and puts pixels on canvases:
// the diverging colour scale of the weights and contributions, grey
// images, and the few canvas calls the components share (through go-app's
// app.Value, so the package compiles and is tested natively).
package paint

import (
	"fmt"
	"math"
)

// The page's drawing colours: the gallery's digits and the frame of a
// misread one, and the loss chart's axes, grid, per-step band, smoothed
// loss and test accuracy.
const (
	Ink        = "#1a1a1a"
	Wrong      = "#b2182b"
	WrongFill  = "#fdecea"
	Axis       = "#444"
	Grid       = "#e4e4e4"
	LossBand   = "rgba(33, 102, 172, 0.35)"
	LossSmooth = "#2166ac"
	Accuracy   = "#d6604d"
)

// Ends of the diverging scale (ColorBrewer RdBu): negative weights are blue,
// zero is white, positive weights are red.
var (
	negColor = [3]float64{33, 102, 172}
	posColor = [3]float64{178, 24, 43}
)

// WeightScale returns the end s of the symmetric scale [−s, s] that the
// templates and the contributions share: max |w| rounded up to a round
// number (1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten), so that the
// legend reads well and holds still while training, or 0 if every weight
// is zero or none is finite.
func WeightScale(w []float32) float64 {
	m := 0.0
	for _, v := range w {
		if a := math.Abs(float64(v)); a > m && a <= math.MaxFloat64 { // not ±Inf, as math.IsInf, without its call
			m = a
		}
	}
	return roundUp(m)
}

// roundUp returns the smallest of 1, 1.5, 2, 3, 4, 5, 6 and 8 times a power
// of ten that is at least v (to a millionth), or 0 for v ≤ 0.
func roundUp(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, f := range []float64{1, 1.5, 2, 3, 4, 5, 6, 8, 10} {
		if f*p >= v*(1-1e-6) { // a float32 weight of 0.3 gives 0.3, not 0.4
			return f * p
		}
	}
	return 10 * p
}

// TemplateImage writes class c's weights θ_c as a 28×28 RGBA image into dst
// (4·784 bytes) on the diverging scale [−scale, scale]. w is D×10 as in
// softmax.Model. It panics if dst or w is too short.
func TemplateImage(dst []byte, w []float32, c int, scale float64) {
	const d = 784
	dst = dst[:4*d]
	_ = w[(d-1)*10+c]
	for j := range d {
		setDiverging(dst[4*j:4*j+4], float64(w[j*10+c]), scale)
	}
}

// ValuesImage writes len(v) values as RGBA pixels into dst on the diverging
// scale [−scale, scale].
func ValuesImage(dst []byte, v []float32, scale float64) {
	dst = dst[:4*len(v)]
	for j, x := range v {
		setDiverging(dst[4*j:4*j+4], float64(x), scale)
	}
}

// setDiverging sets one RGBA pixel to the colour of v on [−scale, scale];
// with no scale (all zero) the pixel is white.
func setDiverging(px []byte, v, scale float64) {
	t := 0.0
	if scale > 0 {
		t = v / scale
	}
	px[0], px[1], px[2] = Diverging(t)
	px[3] = 255
}

// DivergingCSS is the colour of v on [−scale, scale] as CSS.
func DivergingCSS(v, scale float64) string {
	t := 0.0
	if scale > 0 {
		t = v / scale
	}
	r, g, b := Diverging(t)
	return fmt.Sprintf("rgb(%d, %d, %d)", r, g, b)
}

// Diverging maps t in [-1, 1] to a colour: -1 blue, 0 white, 1 red. Each
// channel goes from 255 to the end colour's in proportion to |t|, rounded
// half away from zero. It runs for every pixel of the ten templates on
// every frame of a run, so it makes no calls: the page's WebAssembly
// inlines nothing of this package (app.wasm's inlining, in the
// Makefile), and math.Floor is an instruction of its own.
func Diverging(t float64) (r, g, b uint8) {
	if t != t {
		return 128, 128, 128
	}
	end := &posColor
	if t < 0 {
		end, t = &negColor, -t
	}
	if t > 1 {
		t = 1
	}
	x0, x1, x2 := 255+(end[0]-255)*t, 255+(end[1]-255)*t, 255+(end[2]-255)*t
	f0, f1, f2 := math.Floor(x0), math.Floor(x1), math.Floor(x2)
	// math.Round for x ≥ 0, exactly: x − ⌊x⌋ is exact for any float.
	if x0-f0 >= 0.5 {
		f0++
	}
	if x1-f1 >= 0.5 {
		f1++
	}
	if x2-f2 >= 0.5 {
		f2++
	}
	return uint8(f0), uint8(f1), uint8(f2)
}

// GreyImage writes 784 grey levels (ink 255 = white on black, as MNIST
// digits are usually shown inverted: we show dark ink on white) as RGBA.
func GreyImage(dst []byte, grey []byte) {
	dst = dst[:4*len(grey)]
	for j, v := range grey {
		ink := 255 - v
		dst[4*j], dst[4*j+1], dst[4*j+2], dst[4*j+3] = ink, ink, ink, 255
	}
}
