package digit

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

// reference is a naive, float64 version of the whole recipe, written from
// the package comment rather than from process: a full scan for the box,
// exact integer arithmetic for the output size, and a direct 2-D overlap
// sum for every output pixel.
func reference(c *canvas, t uint8, minSide int) (*[Pixels]uint8, Info) {
	var img [Pixels]uint8
	crop := image.Rectangle{}
	found := false
	for y := range c.h {
		for x := range c.w {
			if c.pix[y*c.w+x] >= t {
				p := image.Rect(x, y, x+1, y+1)
				if !found {
					crop, found = p, true
				}
				crop = crop.Union(p)
			}
		}
	}
	if !found {
		return &img, Info{}
	}
	bw, bh := crop.Dx(), crop.Dy()
	long := max(bw, bh, minSide)
	s := float64(Box) / float64(long)
	ow := max((bw*Box+long-1)/long, 1)
	oh := max((bh*Box+long-1)/long, 1)
	offx := (float64(ow) - float64(bw*Box)/float64(long)) / 2
	offy := (float64(oh) - float64(bh*Box)/float64(long)) / 2
	overlap := func(a, b, lo float64) float64 { return max(min(b, lo+1)-max(a, lo), 0) }

	var small [Box][Box]float64
	var sum, sx, sy float64
	for oy := range oh {
		for ox := range ow {
			var v float64
			for y := range bh {
				wy := overlap(offy+float64(y)*s, offy+float64(y+1)*s, float64(oy))
				if wy == 0 {
					continue
				}
				for x := range bw {
					wx := overlap(offx+float64(x)*s, offx+float64(x+1)*s, float64(ox))
					v += float64(c.pix[(crop.Min.Y+y)*c.w+crop.Min.X+x]) * wx * wy
				}
			}
			v = math.Round(min(v, 255))
			small[oy][ox] = v
			sum += v
			sx += v * (float64(ox) + 0.5)
			sy += v * (float64(oy) + 0.5)
		}
	}
	if sum == 0 {
		return &img, Info{}
	}
	x0 := min(max(int(math.Round(14-sx/sum)), 0), Side-ow)
	y0 := min(max(int(math.Round(14-sy/sum)), 0), Side-oh)
	for oy := range oh {
		for ox := range ow {
			img[(y0+oy)*Side+x0+ox] = uint8(small[oy][ox])
		}
	}
	return &img, Info{
		OK: true, Crop: crop, Scale: s,
		Box: image.Rect(x0, y0, x0+ow, y0+oh),
		CX:  sx/sum + float64(x0), CY: sy/sum + float64(y0),
	}
}

// randomCanvas draws a few rectangles and rings of random ink, including
// faint ones, on a canvas of random size.
func randomCanvas(rng *rand.Rand) *canvas {
	c := newCanvas(1+rng.IntN(90), 1+rng.IntN(90))
	for range rng.IntN(4) {
		x, y := rng.IntN(c.w), rng.IntN(c.h)
		r := image.Rect(x, y, x+1+rng.IntN(c.w), y+1+rng.IntN(c.h/3+1))
		c.fill(r, uint8(rng.IntN(256)))
	}
	if rng.IntN(2) == 0 {
		d := float64(min(c.w, c.h))
		c.ring(rng.Float64()*float64(c.w), rng.Float64()*float64(c.h), rng.Float64()*d/2, 1+rng.Float64()*d/8)
	}
	return c
}

func TestMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inked := 0
	for i := range 300 {
		c := randomCanvas(rng)
		p := Preprocessor{Threshold: uint8(rng.IntN(256)), MinSide: rng.IntN(30) - 5}
		var got [Pixels]uint8
		info, err := p.FromGrey(&got, c.pix, c.w, c.h)
		if err != nil {
			t.Fatalf("canvas %d: %v", i, err)
		}
		th, ms := p.Threshold, p.MinSide
		if th == 0 {
			th = DefaultThreshold
		}
		if ms <= 0 {
			ms = max(1, min(c.w, c.h)/10)
		}
		want, winfo := reference(c, th, ms)
		if winfo.OK {
			inked++
		}
		if info.OK != winfo.OK || info.Crop != winfo.Crop || info.Box != winfo.Box {
			t.Fatalf("canvas %d (%d×%d): info %+v, reference %+v", i, c.w, c.h, info, winfo)
		}
		if math.Abs(info.Scale-winfo.Scale) > 1e-12 || math.Abs(info.CX-winfo.CX) > 0.01 || math.Abs(info.CY-winfo.CY) > 0.01 {
			t.Fatalf("canvas %d: info %+v, reference %+v", i, info, winfo)
		}
		// float32 sums may round a level that is within a hair of .5 the
		// other way.
		for j := range got {
			if d := int(got[j]) - int(want[j]); d < -1 || d > 1 {
				t.Fatalf("canvas %d: pixel (%d,%d) = %d, reference %d", i, j/Side, j%Side, got[j], want[j])
			}
		}
	}
	if inked < 150 {
		t.Errorf("only %d of 300 random canvases held ink; the test is too weak", inked)
	}
	t.Logf("%d of 300 random canvases held ink", inked)
}
