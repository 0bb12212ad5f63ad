package digit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"softmaxdemo/core/dataset"
)

// imageMoments returns the centre of mass of img in continuous coordinates and
// the grey-level-weighted cov(x, y) and var(y) of its ink, in float64,
// written from their definitions.
func imageMoments(img *[Pixels]uint8) (cx, cy, cov, vary float64) {
	cx, cy, sum := centre(img)
	for j, v := range img {
		dx, dy := float64(j%Side)+0.5-cx, float64(j/Side)+0.5-cy
		cov += float64(v) * dx * dy
		vary += float64(v) * dy * dy
	}
	return cx, cy, cov / sum, vary / sum
}

// referenceDeskew is Deskew written from its comment in float64: moments
// from their definitions, then each output pixel centre (c+0.5, r+0.5)
// sampled at x = c+0.5 + α(r+0.5 − ȳ) by linear interpolation between the
// centres of its two neighbours on row r.
func referenceDeskew(src *[Pixels]uint8) (*[Pixels]uint8, float64) {
	var out [Pixels]uint8
	_, _, sum := centre(src)
	if sum == 0 {
		return &out, 0
	}
	_, cy, cov, vary := imageMoments(src)
	if vary == 0 {
		out = *src
		return &out, 0
	}
	alpha := cov / vary
	at := func(r, c int) float64 {
		if c < 0 || c >= Side {
			return 0
		}
		return float64(src[r*Side+c])
	}
	for r := range Side {
		for c := range Side {
			x := float64(c) + alpha*(float64(r)+0.5-cy) // in pixel index units
			k := math.Floor(x)
			f := x - k
			v := (1-f)*at(r, int(k)) + f*at(r, int(k)+1)
			out[r*Side+c] = uint8(math.Round(min(max(v, 0), 255)))
		}
	}
	return &out, alpha
}

// defaultPack is the committed pack, decoded once per process.
var defaultPack = sync.OnceValues(func() (*dataset.Pack, error) {
	b, err := os.ReadFile("../../web/data/default.mnpk")
	if err != nil {
		return nil, err
	}
	return dataset.Decode(b)
})

func packOrSkip(t testing.TB) *dataset.Pack {
	t.Helper()
	p, err := defaultPack()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// upright is an "8" on a 280×280 canvas: two rings on the vertical axis
// x = 140, symmetric about it.
func upright() *canvas {
	return newCanvas(280, 280).ring(140, 85, 45, 16).ring(140, 180, 55, 18)
}

// sheared returns c with row y slid right by a·(y − cy) pixels (linear
// interpolation), so that a digit upright on c leans by a; a < 0 leans
// it right, since y grows downwards.
func sheared(c *canvas, a, cy float64) *canvas {
	out := newCanvas(c.w, c.h)
	for y := range c.h {
		t := a * (float64(y) + 0.5 - cy)
		for x := range c.w {
			src := float64(x) - t
			k := math.Floor(src)
			f := src - k
			at := func(i int) float64 {
				if i < 0 || i >= c.w {
					return 0
				}
				return float64(c.pix[y*c.w+i])
			}
			out.pix[y*c.w+x] = uint8(math.Round((1-f)*at(int(k)) + f*at(int(k)+1)))
		}
	}
	return out
}

func TestDeskewMatchesReference(t *testing.T) {
	p := packOrSkip(t)
	var in, got [Pixels]uint8
	worst := 0
	for i := range 2000 {
		p.Train.Dense(in[:], i)
		sk := Deskew(&got, &in)
		want, alpha := referenceDeskew(&in)
		if math.Abs(sk.Alpha-alpha) > 1e-9 {
			t.Fatalf("image %d: α = %.12f, reference %.12f", i, sk.Alpha, alpha)
		}
		for j := range got {
			d := int(got[j]) - int(want[j])
			worst = max(worst, d, -d)
			// Fixed-point weights may round a level within a hair of .5
			// the other way.
			if d < -1 || d > 1 {
				t.Fatalf("image %d: pixel (%d,%d) = %d, reference %d", i, j/Side, j%Side, got[j], want[j])
			}
		}
	}
	t.Logf("largest difference from the float64 reference: %d grey level", worst)
}

func TestDeskewStraightens(t *testing.T) {
	p := packOrSkip(t)
	var in, out [Pixels]uint8
	var before, after, maxShift float64
	off := 0 // images still slanted or moved: ink slid past the frame
	for i := range p.Train.Len() {
		p.Train.Dense(in[:], i)
		sk := Deskew(&out, &in)
		cx0, cy0, cov0, var0 := imageMoments(&in)
		cx1, cy1, cov1, var1 := imageMoments(&out)
		if !sk.OK || math.Abs(sk.CX-cx0) > 1e-9 || math.Abs(sk.CY-cy0) > 1e-9 {
			t.Fatalf("image %d: Skew %+v, centre (%.3f,%.3f)", i, sk, cx0, cy0)
		}
		// The slope of x on y, in pixels per row: what the eye calls the
		// slant.
		s0, s1 := cov0/var0, cov1/var1
		shift := math.Hypot(cx1-cx0, cy1-cy0)
		before += math.Abs(s0)
		after += math.Abs(s1)
		maxShift = max(maxShift, shift)
		if math.Abs(s1) > 0.02 || shift > 0.15 {
			off++
		}
	}
	n := float64(p.Train.Len())
	t.Logf("mean |cov/var(y)| %.4f before, %.5f after; %d of %.0f images slanted by more than 0.02 or moved by more than 0.15 px; the centre moved at most %.3f px",
		before/n, after/n, off, n, maxShift)
	// A shear without recentring can push ink near the frame's edge out of
	// it (3 of the 10,000 images, each with a stray blot at the border):
	// those keep a little slant and their centre moves.
	if after/n > 0.001 || float64(off) > n/1000 {
		t.Errorf("mean |cov/var(y)| %.5f after deskewing, %d images off: want about 0 (interpolation error only)", after/n, off)
	}
}

func TestDeskewCases(t *testing.T) {
	img := func(c *canvas) *[Pixels]uint8 { v, _ := digitOf(t, c); return v }
	var one, row, diag, empty [Pixels]uint8
	one[10*Side+5] = 255
	for c := 3; c < 25; c++ {
		row[13*Side+c] = 200
	}
	diag[10*Side+10], diag[11*Side+11] = 255, 255
	rng := rand.New(rand.NewPCG(1, 2))
	noisy := *img(upright())
	for range 20 {
		noisy[rng.IntN(Pixels)] = uint8(rng.IntN(40))
	}
	tests := []struct {
		name    string
		in      *[Pixels]uint8
		ok      bool
		maxDiff int // largest change of a pixel from the input
	}{
		{"an empty image gives zeros", &empty, false, 0},
		{"one pixel is kept as it is", &one, true, 0},
		{"ink on one row is kept as it is", &row, true, 0},
		{"a symmetric upright digit is kept as it is", img(upright()), true, 0},
		{"a nearly symmetric upright digit barely changes", &noisy, true, 40},
		{"two diagonal pixels become a vertical pair", &diag, true, 128},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out [Pixels]uint8
			for i := range out {
				out[i] = 7 // stale output from an earlier call
			}
			sk := Deskew(&out, tt.in)
			if sk.OK != tt.ok || math.IsNaN(sk.Alpha) || math.IsInf(sk.Alpha, 0) ||
				math.IsNaN(sk.CX) || math.IsNaN(sk.CY) {
				t.Fatalf("Skew %+v, want OK %v and finite numbers", sk, tt.ok)
			}
			for j := range out {
				if d := int(out[j]) - int(tt.in[j]); d < -tt.maxDiff || d > tt.maxDiff {
					t.Fatalf("pixel (%d,%d) = %d, input %d: want at most %d apart", j/Side, j%Side, out[j], tt.in[j], tt.maxDiff)
				}
			}
			if !tt.ok {
				return
			}
			_, _, a := centre(tt.in)
			if _, _, b := centre(&out); math.Abs(a-b) > Side {
				t.Errorf("total ink %.0f, input %.0f", b, a)
			}
			if _, _, cov, _ := imageMoments(&out); math.Abs(cov) > 0.01 {
				t.Errorf("cov(x, y) = %.4f after deskewing", cov)
			}
		})
	}
	t.Run("two diagonal pixels are moved half a pixel each", func(t *testing.T) {
		var out [Pixels]uint8
		if sk := Deskew(&out, &diag); sk.Alpha != 1 {
			t.Errorf("α = %g, want 1", sk.Alpha)
		}
		// Rows 10 and 11 slide by −1/2 and +1/2: each pixel is shared
		// half and half between columns 10 and 11.
		for _, j := range []int{10*Side + 10, 10*Side + 11, 11*Side + 10, 11*Side + 11} {
			if out[j] != 128 {
				t.Errorf("pixel (%d,%d) = %d, want 128", j/Side, j%Side, out[j])
			}
		}
	})
}

func TestDeskewUndoesAKnownShear(t *testing.T) {
	base := upright()
	want, _ := digitOf(t, base)
	for _, a := range []float64{-0.6, -0.3, -0.1, 0.1, 0.25, 0.5} {
		t.Run(fmt.Sprintf("sheared by %g", a), func(t *testing.T) {
			// Shear the canvas about the digit's centre row, then
			// preprocess it as a drawing, then deskew.
			c := sheared(base, a, 132)
			var in, out [Pixels]uint8
			if _, err := (&Preprocessor{}).FromGrey(&in, c.pix, c.w, c.h); err != nil {
				t.Fatal(err)
			}
			sk := Deskew(&out, &in)
			// The 280-pixel canvas was scaled to 20 rows, which keeps
			// slopes: α should come back as a, up to the scaling's
			// blur and rounding.
			if math.Abs(sk.Alpha-a) > 0.03 {
				t.Errorf("measured α = %.4f, sheared by %.4f", sk.Alpha, a)
			}
			// Row by row, the ink is back within a pixel of where the
			// upright digit has it.
			for r := range Side {
				gx, gs := rowCentre(&out, r)
				wx, ws := rowCentre(want, r)
				if gs < 255 || ws < 255 {
					continue // faint rows at the top and bottom
				}
				if math.Abs(gx-wx) > 1 {
					t.Errorf("α %.2f: row %d has its ink centred at x = %.2f, the upright digit at %.2f", a, r, gx, wx)
				}
			}
		})
	}
}

// rowCentre returns the centre of mass along x of row r of img and its ink.
func rowCentre(img *[Pixels]uint8, r int) (cx, sum float64) {
	for c, v := range img[r*Side : r*Side+Side] {
		sum += float64(v)
		cx += float64(v) * (float64(c) + 0.5)
	}
	return cx / sum, sum
}

func TestDeskewInPlace(t *testing.T) {
	p := packOrSkip(t)
	var in, out [Pixels]uint8
	for i := range 200 {
		p.Test.Dense(in[:], i)
		a := Deskew(&out, &in)
		b := Deskew(&in, &in)
		if in != out || a != b {
			t.Fatalf("image %d: deskewing in place differs", i)
		}
	}
}

// deskewGolden is the SHA-256 of the first 1000 training images of
// web/data/default.mnpk, each deskewed and written as 784 bytes. The test
// runs natively and under WebAssembly (make test-wasm), so both must give
// these bytes. If the pack or Deskew changes on purpose, the failure prints
// the new digest.
const deskewGolden = "26e0102fbf5848ced38905416c2d3f0a6318f68ca52fd5766e188ef3a9d32d0e"

func TestDeskewGolden(t *testing.T) {
	p := packOrSkip(t)
	h := sha256.New()
	var in, out [Pixels]uint8
	for i := range 1000 {
		p.Train.Dense(in[:], i)
		Deskew(&out, &in)
		h.Write(out[:])
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != deskewGolden {
		t.Errorf("SHA-256 of the first 1000 deskewed images %s, want %s", got, deskewGolden)
	}
}

func TestDeskewSet(t *testing.T) {
	p := packOrSkip(t)
	for _, tt := range []struct {
		name string
		s    *dataset.Set
	}{{"training", p.Train}, {"test", p.Test}} {
		t.Run("the "+tt.name+" set gives Deskew's bytes", func(t *testing.T) {
			d := DeskewSet(tt.s)
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			if d.Len() != tt.s.Len() {
				t.Fatalf("%d images, want %d", d.Len(), tt.s.Len())
			}
			var in, want, got [Pixels]uint8
			for i := range tt.s.Len() {
				tt.s.Dense(in[:], i)
				Deskew(&want, &in)
				if d.Dense(got[:], i); got != want || d.Labels[i] != tt.s.Labels[i] {
					t.Fatalf("image %d differs from Deskew's", i)
				}
			}
		})
	}
	t.Run("edge cases give Deskew's bytes", func(t *testing.T) {
		var one, wide, corner [Pixels]uint8
		one[5*Side+27] = 9
		corner[0], corner[Side+1], corner[Pixels-1] = 255, 1, 200
		for r := range Side {
			for c := range Side {
				if (r+c)%3 == 0 {
					wide[r*Side+c] = uint8(r*9 + c)
				}
			}
		}
		s := dataset.NewSet(4, 0)
		for _, img := range []*[Pixels]uint8{{}, &one, &wide, &corner} {
			s.Append(1, img[:])
		}
		d := DeskewSet(s)
		for i := range s.Len() {
			var in, want, got [Pixels]uint8
			s.Dense(in[:], i)
			Deskew(&want, &in)
			if d.Dense(got[:], i); got != want {
				t.Errorf("image %d differs from Deskew's", i)
			}
		}
	})
	t.Run("an empty set gives an empty set", func(t *testing.T) {
		if d := DeskewSet(dataset.NewSet(0, 0)); d.Len() != 0 || d.Validate() != nil {
			t.Errorf("got %d images, %v", d.Len(), d.Validate())
		}
	})
}

func TestDeskewDrawn(t *testing.T) {
	// A stroke leaning right, like a hurried "1": from (150, 40) at the
	// top to (110, 240) at the bottom, 18 px wide.
	c := newCanvas(280, 280)
	for y := 40; y < 240; y++ {
		x := 150 - 40*(y-40)/200
		c.fill(image.Rect(x-9, y, x+9, y+1), 255)
	}
	var raw, straight [Pixels]uint8
	if _, err := (&Preprocessor{}).FromGrey(&raw, c.pix, c.w, c.h); err != nil {
		t.Fatal(err)
	}
	p := Preprocessor{Deskew: true}
	info, err := p.FromGrey(&straight, c.pix, c.w, c.h)
	if err != nil {
		t.Fatal(err)
	}
	_, _, cov0, var0 := imageMoments(&raw)
	cx, cy, cov1, var1 := imageMoments(&straight)
	t.Logf("slope of x on y %.3f without deskewing, %.4f with (α %.3f)\n%s", cov0/var0, cov1/var1, info.Alpha, ascii(&straight))
	if cov0/var0 > -0.15 {
		t.Errorf("the raw stroke's slope is %.3f, want about −0.2 (the test draws it leaning right)", cov0/var0)
	}
	if math.Abs(cov1/var1) > 0.01 || math.Abs(info.Alpha-cov0/var0) > 1e-9 {
		t.Errorf("slope %.4f after deskewing (want about 0), α %.4f", cov1/var1, info.Alpha)
	}
	if math.Abs(cx-info.CX) > 0.1 || math.Abs(cy-info.CY) > 0.1 {
		t.Errorf("centre (%.2f,%.2f) after deskewing, (%.2f,%.2f) before", cx, cy, info.CX, info.CY)
	}
	t.Run("without the option the output is unchanged", func(t *testing.T) {
		var again [Pixels]uint8
		info, _ := (&Preprocessor{}).FromGrey(&again, c.pix, c.w, c.h)
		if again != raw || info.Alpha != 0 {
			t.Error("the output changed")
		}
	})
}

func TestDeskewNoAllocations(t *testing.T) {
	c := upright()
	s := sheared(c, -0.3, 132)
	var in, out [Pixels]uint8
	p := Preprocessor{Deskew: true}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := p.FromGrey(&in, s.pix, s.w, s.h); err != nil {
			t.Fatal(err)
		}
		Deskew(&out, &in)
	})
	if allocs != 0 {
		t.Errorf("%g allocations per call, want 0", allocs)
	}
}
