package digit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"maps"
	"math"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
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
// sampled at (c+0.5 + (x̄−14) + α(r+0.5 − 14), r+0.5 + (ȳ−14)) by
// bilinear interpolation between the centres of its four neighbours.
func referenceDeskew(src *[Pixels]uint8) (*[Pixels]uint8, float64) {
	var out [Pixels]uint8
	_, _, sum := centre(src)
	if sum == 0 {
		return &out, 0
	}
	cx, cy, cov, vary := imageMoments(src)
	alpha := 0.0
	if vary != 0 {
		alpha = cov / vary
	}
	at := func(r, c int) float64 {
		if r < 0 || r >= Side || c < 0 || c >= Side {
			return 0
		}
		return float64(src[r*Side+c])
	}
	for r := range Side {
		for c := range Side {
			// Continuous coordinates of the sample, then pixel indices.
			x := float64(c) + 0.5 + cx - 14 + alpha*(float64(r)+0.5-14) - 0.5
			y := float64(r) + 0.5 + cy - 14 - 0.5
			kx, ky := math.Floor(x), math.Floor(y)
			fx, fy := x-kx, y-ky
			i, j := int(ky), int(kx)
			v := (1-fy)*((1-fx)*at(i, j)+fx*at(i, j+1)) + fy*((1-fx)*at(i+1, j)+fx*at(i+1, j+1))
			out[r*Side+c] = uint8(math.Round(min(max(v, 0), 255)))
		}
	}
	return &out, alpha
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
	p := datasettest.Default(t)
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
	p := datasettest.Default(t)
	var in, out [Pixels]uint8
	var before, after, worstCentre float64
	off := 0 // images still slanted or off centre: ink slid past the frame
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
		d := math.Hypot(cx1-14, cy1-14)
		before += math.Abs(s0)
		after += math.Abs(s1)
		worstCentre = max(worstCentre, d)
		if math.Abs(s1) > 0.03 || d > 0.1 {
			off++
		}
	}
	n := float64(p.Train.Len())
	t.Logf("mean |cov/var(y)| %.4f before, %.5f after; %d of %.0f images slanted by more than 0.03 or centred more than 0.1 px from (14, 14), the furthest %.3f px",
		before/n, after/n, off, n, worstCentre)
	// Bilinear interpolation leaves a slope of about α·fy(1−fy)/var(y),
	// where fy is the fraction of a row the image moves vertically: a
	// point of ink split between two rows takes both rows' shifts. And the
	// shear can push ink near the frame's edge out of it (a few of the
	// 10,000 images have a stray blot at the border): those keep a little
	// slant and their centre moves.
	if after/n > 0.003 || float64(off) > n/1000 {
		t.Errorf("mean |cov/var(y)| %.5f after deskewing, %d images off: want about 0 (interpolation error only)", after/n, off)
	}
}

func TestDeskewCases(t *testing.T) {
	var one, row, diag, box, empty [Pixels]uint8
	one[10*Side+5] = 255
	for c := 3; c < 25; c++ {
		row[13*Side+c] = 200
	}
	diag[10*Side+10], diag[11*Side+11] = 255, 255
	// A frame of 20 rows by 10 columns, symmetric about the frame's
	// centre (14, 14).
	for r := 4; r < 24; r++ {
		for c := 9; c < 19; c++ {
			if r < 6 || r > 21 || c < 11 || c > 16 {
				box[r*Side+c] = 255
			}
		}
	}
	drawn, _ := digitOf(t, upright())
	tests := []struct {
		name  string
		in    *[Pixels]uint8
		ok    bool
		alpha float64
		want  map[int]uint8 // every non-zero output pixel; nil: not checked
	}{
		{"an empty image gives zeros", &empty, false, 0, map[int]uint8{}},
		{"one pixel is moved to the centre", &one, true, 0,
			map[int]uint8{13*Side + 13: 64, 13*Side + 14: 64, 14*Side + 13: 64, 14*Side + 14: 64}},
		{"ink on one row is moved to the centre", &row, true, 0, nil},
		{"two diagonal pixels become an upright 2×2 block at the centre", &diag, true, 1,
			map[int]uint8{13*Side + 13: 128, 13*Side + 14: 128, 14*Side + 13: 128, 14*Side + 14: 128}},
		{"a symmetric upright digit at the centre is kept as it is", &box, true, 0, nonZero(&box)},
		{"a symmetric upright digit is only moved", drawn, true, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out [Pixels]uint8
			for i := range out {
				out[i] = 7 // stale output from an earlier call
			}
			sk := Deskew(&out, tt.in)
			if sk.OK != tt.ok || sk.Alpha != tt.alpha || math.IsNaN(sk.CX) || math.IsNaN(sk.CY) {
				t.Fatalf("Skew %+v, want OK %v and α %g", sk, tt.ok, tt.alpha)
			}
			if tt.want != nil {
				if got := nonZero(&out); !maps.Equal(got, tt.want) {
					t.Errorf("non-zero pixels %v, want %v", got, tt.want)
				}
			}
			if !tt.ok {
				return
			}
			_, _, a := centre(tt.in)
			cx, cy, b := centre(&out)
			if math.Abs(a-b) > 0.01*a || math.Abs(cx-14) > 0.05 || math.Abs(cy-14) > 0.05 {
				t.Errorf("total ink %.0f (input %.0f), centre (%.3f,%.3f): want the same ink at (14, 14)", b, a, cx, cy)
			}
			if _, _, cov, _ := imageMoments(&out); math.Abs(cov) > 0.01 {
				t.Errorf("cov(x, y) = %.4f after deskewing", cov)
			}
		})
	}
}

// nonZero returns the non-zero pixels of img by position.
func nonZero(img *[Pixels]uint8) map[int]uint8 {
	m := map[int]uint8{}
	for j, v := range img {
		if v != 0 {
			m[j] = v
		}
	}
	return m
}

func TestDeskewUndoesAKnownShear(t *testing.T) {
	base := upright()
	var want [Pixels]uint8
	drawn, _ := digitOf(t, base)
	Deskew(&want, drawn) // only moved to the centre: it is upright
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
				wx, ws := rowCentre(&want, r)
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
	p := datasettest.Default(t)
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
const deskewGolden = "571c9906ec1d11c7e81795766a34237e1d1294e9067af9427c50565c6eaa9201"

func TestDeskewGolden(t *testing.T) {
	p := datasettest.Default(t)
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
	p := datasettest.Default(t)
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
	if math.Abs(cx-14) > 0.05 || math.Abs(cy-14) > 0.05 {
		t.Errorf("centre (%.2f,%.2f) after deskewing, want (14, 14)", cx, cy)
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
