package digit

import (
	"errors"
	"fmt"
	"image"
	"math"
)

// DefaultThreshold is the faintest ink level, 0..255, that counts when
// finding the ink's bounding box, used when Preprocessor.Threshold is zero.
// It is 1/8 of full ink: anti-aliased stroke edges and dust are fainter.
const DefaultThreshold = 32

// ErrSize is returned, wrapped, when an image's width, height and buffer
// length disagree or a dimension is not positive.
var ErrSize = errors.New("digit: bad image size")

// Ink says how the ink level of an RGBA pixel is read. Colours are the
// non-premultiplied bytes that CanvasRenderingContext2D.getImageData returns.
// A value other than the constants below reads the alpha channel.
type Ink uint8

const (
	// InkAlpha takes the ink from the alpha channel: strokes of any colour
	// on a transparent canvas.
	InkAlpha Ink = iota
	// InkLight takes the ink from the luminance of the pixel composited over
	// black, y·a/255: light strokes on a black or transparent canvas.
	InkLight
	// InkDark takes the ink from the darkness of the pixel composited over
	// white, (255−y)·a/255: dark strokes on a white canvas.
	InkDark
)

// Info describes where the ink was found and where it went. Rectangles have
// exclusive maxima, as in package image.
type Info struct {
	// OK reports whether the canvas held ink: false if no pixel reached the
	// threshold or the ink was too faint to survive scaling. When OK is
	// false the other fields are zero and the output is all zeros.
	OK bool
	// Crop is the ink's bounding box on the canvas, in canvas pixels.
	Crop image.Rectangle
	// Scale is the number of output pixels per canvas pixel.
	Scale float64
	// Box is the part of the 28×28 output that the scaled crop covers,
	// before deskewing.
	Box image.Rectangle
	// CX and CY are the output's centre of mass in continuous coordinates,
	// within half a pixel of (14, 14) unless clamping moved the digit;
	// with Preprocessor.Deskew, before deskewing, which then moves it to
	// (14, 14).
	CX, CY float64
	// Alpha is the shear that Deskew removed when Preprocessor.Deskew is
	// set (see Skew.Alpha), and 0 otherwise.
	Alpha float64
}

// Preprocessor turns canvas pixels into MNIST-like 28×28 images. The zero
// value is ready to use and reads ink from the alpha channel. It keeps
// scratch buffers sized for the largest canvas seen, so after the first
// call with a given canvas size its methods do not allocate. It is not safe
// for concurrent use.
type Preprocessor struct {
	// Ink says which channel carries the ink in FromRGBA; FromGrey ignores it.
	Ink Ink
	// Threshold is the faintest ink level that counts when finding the
	// bounding box; zero means DefaultThreshold.
	Threshold uint8
	// MinSide is the smallest longer side of the bounding box, in canvas
	// pixels; a smaller box is scaled as if it were this long, so a dot is
	// not magnified to fill 20×20. Zero or negative means a tenth of the
	// canvas's shorter side (at least 1).
	MinSide int
	// Deskew, if set, straightens the centred 28×28 digit with Deskew as
	// a last step, as the training data are straightened when a run
	// deskews them.
	Deskew bool

	grey   []uint8   // ink levels of an RGBA canvas, w×h
	tmp    []float32 // horizontally resampled crop, bh×ow
	px, py []piece   // resampling weights along x and y
}

// FromRGBA writes the preprocessed image of a w×h canvas into dst, as
// Pixels grey levels 0..255 row-major, and describes the result. pix holds
// 4 bytes per pixel (R, G, B, A), row-major, as getImageData returns them;
// p.Ink says which of them carry the ink. pix is only read. If the canvas
// holds no ink, dst is all zeros and Info.OK is false. If w or h is not
// positive or len(pix) != 4·w·h, it returns an error wrapping ErrSize and
// leaves dst unchanged.
func (p *Preprocessor) FromRGBA(dst *[Pixels]uint8, pix []byte, w, h int) (Info, error) {
	n, err := area(w, h, 4, len(pix), "RGBA")
	if err != nil {
		return Info{}, err
	}
	if cap(p.grey) < n {
		p.grey = make([]uint8, n)
	}
	g := p.grey[:n]
	pix = pix[:4*n]
	switch p.Ink {
	case InkLight, InkDark:
		dark := p.Ink == InkDark
		for i := range g {
			q := pix[4*i : 4*i+4 : 4*i+4]
			// Rec. 601 luma; the weights sum to 256, so y ≤ 255.
			y := (77*uint32(q[0]) + 150*uint32(q[1]) + 29*uint32(q[2]) + 128) >> 8
			if dark {
				y = 255 - y
			}
			g[i] = uint8((y*uint32(q[3]) + 127) / 255)
		}
	default:
		for i := range g {
			g[i] = pix[4*i+3]
		}
	}
	return p.process(dst, g, w, h), nil
}

// FromGrey writes the preprocessed image of a w×h canvas into dst, as
// Pixels grey levels 0..255 row-major, and describes the result. grey holds
// one ink level 0..255 per pixel, row-major, and is only read. If the
// canvas holds no ink, dst is all zeros and Info.OK is false. If w or h is
// not positive or len(grey) != w·h, it returns an error wrapping ErrSize
// and leaves dst unchanged.
func (p *Preprocessor) FromGrey(dst *[Pixels]uint8, grey []uint8, w, h int) (Info, error) {
	if _, err := area(w, h, 1, len(grey), "grey"); err != nil {
		return Info{}, err
	}
	return p.process(dst, grey, w, h), nil
}

// area checks that a w×h image of bpp bytes per pixel has length n and
// returns its number of pixels.
func area(w, h, bpp, n int, kind string) (int, error) {
	if w <= 0 || h <= 0 {
		return 0, fmt.Errorf("%w: %d×%d %s canvas, want positive width and height", ErrSize, w, h, kind)
	}
	if w > math.MaxInt/bpp/h || w*h*bpp != n {
		return 0, fmt.Errorf("%w: %d bytes for a %d×%d %s canvas, want %d×%d×%d", ErrSize, n, w, h, kind, w, h, bpp)
	}
	return w * h, nil
}

// process runs the recipe on a w×h ink image g whose size has been checked.
func (p *Preprocessor) process(dst *[Pixels]uint8, g []uint8, w, h int) Info {
	clear(dst[:])
	t := p.Threshold
	if t == 0 {
		t = DefaultThreshold
	}
	crop, ok := inkBounds(g, w, h, t)
	if !ok {
		return Info{}
	}
	minSide := p.MinSide
	if minSide <= 0 {
		minSide = max(1, min(w, h)/10)
	}
	bw, bh := crop.Dx(), crop.Dy()
	s := Box / float64(max(bw, bh, minSide))
	ow, offx := fit(bw, s)
	oh, offy := fit(bh, s)

	// Size the scratch for the whole canvas once, so a growing drawing
	// does not reallocate on every stroke.
	if cap(p.px) < w+Box+1 {
		p.px = make([]piece, 0, w+Box+1)
	}
	if cap(p.py) < h+Box+1 {
		p.py = make([]piece, 0, h+Box+1)
	}
	if cap(p.tmp) < h*Box {
		p.tmp = make([]float32, h*Box)
	}
	p.px = pieces(p.px[:0], bw, ow, s, offx)
	p.py = pieces(p.py[:0], bh, oh, s, offy)

	var small [Box * Box]uint8
	resample(&small, p.tmp[:bh*ow], g[crop.Min.Y*w+crop.Min.X:], w, bw, ow, p.px, p.py)

	// Centre of mass of the scaled digit, continuous coordinates.
	var sum, sx, sy float64
	for y := range oh {
		for x, v := range small[y*Box : y*Box+ow] {
			f := float64(v)
			sum += f
			sx += f * (float64(x) + 0.5)
			sy += f * (float64(y) + 0.5)
		}
	}
	if sum == 0 {
		return Info{}
	}
	cx, cy := sx/sum, sy/sum
	x0 := min(max(int(math.Round(Side/2-cx)), 0), Side-ow)
	y0 := min(max(int(math.Round(Side/2-cy)), 0), Side-oh)
	for y := range oh {
		copy(dst[(y0+y)*Side+x0:][:ow], small[y*Box:][:ow])
	}
	info := Info{
		OK:    true,
		Crop:  crop,
		Scale: s,
		Box:   image.Rect(x0, y0, x0+ow, y0+oh),
		CX:    cx + float64(x0),
		CY:    cy + float64(y0),
	}
	if p.Deskew {
		info.Alpha = Deskew(dst, dst).Alpha
	}
	return info
}

// inkBounds returns the bounding box of the pixels of the w×h image g whose
// ink is at least t, and false if there are none.
func inkBounds(g []uint8, w, h int, t uint8) (image.Rectangle, bool) {
	x0, x1, y0, y1 := w, -1, h, -1
	for y := range h {
		row := g[y*w : y*w+w]
		first := -1
		for x, v := range row {
			if v >= t {
				first = x
				break
			}
		}
		if first < 0 {
			continue
		}
		last := first
		for x := w - 1; x > first; x-- {
			if row[x] >= t {
				last = x
				break
			}
		}
		x0, x1 = min(x0, first), max(x1, last)
		if y0 == h {
			y0 = y
		}
		y1 = y
	}
	if x1 < 0 {
		return image.Rectangle{}, false
	}
	return image.Rect(x0, y0, x1+1, y1+1), true
}

// AppendSparse appends the non-zero pixels of img to index and value in
// the form the model reads: positions r*Side+c in increasing order and grey
// levels divided by 255, in 0..1. It returns the extended slices; pass
// index[:0] and value[:0] to reuse their memory without allocating.
func AppendSparse(index []uint16, value []float32, img *[Pixels]uint8) ([]uint16, []float32) {
	for j, v := range img {
		if v != 0 {
			index = append(index, uint16(j))
			value = append(value, float32(v)/255)
		}
	}
	return index, value
}
