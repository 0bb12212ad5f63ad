package ui

import "math"

// Ends of the diverging scale (ColorBrewer RdBu): negative weights are blue,
// zero is white, positive weights are red.
var (
	negColor = [3]float64{33, 102, 172}
	posColor = [3]float64{178, 24, 43}
)

// templateImage writes class c's weights θ_c as a 28×28 RGBA image into dst
// (4·784 bytes) on the diverging scale, and returns the largest |θ_cj|,
// which maps to the ends of the scale. w is D×10 as in softmax.Model. It
// panics if dst or w is too short.
func templateImage(dst []byte, w []float32, c int) float64 {
	const d = 784
	dst = dst[:4*d]
	_ = w[(d-1)*10+c]
	scale := 0.0
	for j := range d {
		scale = math.Max(scale, math.Abs(float64(w[j*10+c])))
	}
	for j := range d {
		t := 0.0
		if scale > 0 {
			t = float64(w[j*10+c]) / scale
		}
		r, g, b := diverging(t)
		dst[4*j], dst[4*j+1], dst[4*j+2], dst[4*j+3] = r, g, b, 255
	}
	return scale
}

// diverging maps t in [-1, 1] to a colour: -1 blue, 0 white, 1 red.
func diverging(t float64) (r, g, b uint8) {
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

// greyImage writes 784 grey levels (ink 255 = white on black, as MNIST
// digits are usually shown inverted: we show dark ink on white) as RGBA.
func greyImage(dst []byte, grey []byte) {
	dst = dst[:4*len(grey)]
	for j, v := range grey {
		ink := 255 - v
		dst[4*j], dst[4*j+1], dst[4*j+2], dst[4*j+3] = ink, ink, ink, 255
	}
}
