package digit

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

func TestEmpty(t *testing.T) {
	tests := []struct {
		name string
		c    *canvas
	}{
		{"blank canvas", newCanvas(280, 280)},
		{"dust below the threshold", newCanvas(280, 280).fill(image.Rect(10, 10, 200, 30), DefaultThreshold-1)},
		{"one by one canvas", newCanvas(1, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Preprocessor
			var img [Pixels]uint8
			for i := range img {
				img[i] = 7 // stale output from an earlier call
			}
			info, err := p.FromGrey(&img, tt.c.pix, tt.c.w, tt.c.h)
			if err != nil {
				t.Fatal(err)
			}
			if info != (Info{}) {
				t.Errorf("info = %+v, want zero", info)
			}
			if img != ([Pixels]uint8{}) {
				t.Errorf("output is not all zeros")
			}
		})
	}
}

func TestSquareFillsBoxAtCentre(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		n := 56 + rng.IntN(560-56) // MinSide is 56 on a 560×560 canvas
		x, y := rng.IntN(560-n+1), rng.IntN(560-n+1)
		c := newCanvas(560, 560).fill(image.Rect(x, y, x+n, y+n), 255)
		img, info := digitOf(t, c)
		if got := inkBox(img); got.Dx() != Box || got.Dy() != Box {
			t.Fatalf("square %d: %d px at (%d,%d): output ink box %v, want 20×20", i, n, x, y, got)
		}
		cx, cy, _ := centre(img)
		if math.Abs(cx-14) > 0.5 || math.Abs(cy-14) > 0.5 {
			t.Fatalf("square %d: %d px at (%d,%d): centre of mass (%.2f,%.2f), want (14,14)", i, n, x, y, cx, cy)
		}
		if info.CX != cx || info.CY != cy {
			t.Fatalf("square %d: Info centre (%.3f,%.3f), measured (%.3f,%.3f)", i, info.CX, info.CY, cx, cy)
		}
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		name             string
		r                image.Rectangle
		wantW, wantH     int // exact size of the output ink box; 0: at most 3
		wantNarrowOnAxis string
	}{
		{"thin vertical line stays a thin centred stroke", image.Rect(100, 40, 108, 240), 0, Box, "x"},
		{"vertical line touching the left border", image.Rect(0, 0, 8, 200), 0, Box, "x"},
		{"horizontal line stays a flat centred stroke", image.Rect(40, 100, 240, 108), Box, 0, "y"},
		{"wide vertical bar keeps its aspect ratio", image.Rect(100, 40, 150, 240), 5, Box, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, _ := digitOf(t, newCanvas(280, 280).fill(tt.r, 255))
			got := inkBox(img)
			cx, cy, _ := centre(img)
			if tt.wantW != 0 && got.Dx() != tt.wantW || tt.wantW == 0 && got.Dx() > 3 {
				t.Errorf("ink box %v is %d wide, want %d (0: at most 3)", got, got.Dx(), tt.wantW)
			}
			if tt.wantH != 0 && got.Dy() != tt.wantH || tt.wantH == 0 && got.Dy() > 3 {
				t.Errorf("ink box %v is %d tall, want %d (0: at most 3)", got, got.Dy(), tt.wantH)
			}
			if math.Abs(cx-14) > 1 || math.Abs(cy-14) > 1 {
				t.Errorf("centre of mass (%.2f,%.2f), want within 1 of (14,14)", cx, cy)
			}
		})
	}
}

func TestInvariance(t *testing.T) {
	// An anti-aliased "0" with a tail, drawn on a 280×280 canvas; its ink
	// box is (41,51)-(199,209) at dx = dy = 0, and it is not clipped at the
	// offsets below.
	zero := func(dx, dy float64) *canvas {
		c := newCanvas(280, 280).ring(120+dx, 130+dy, 70, 18)
		return c.fill(image.Rect(180+int(dx), 60+int(dy), 196+int(dx), 130+int(dy)), 255)
	}
	base, _ := digitOf(t, zero(0, 0))
	tests := []struct {
		name    string
		c       *canvas
		maxDiff int
	}{
		{"moved by whole pixels gives the same output", zero(-37, 58), 0},
		{"moved to touch the bottom left corner gives the same output", zero(-41, 71), 0},
		{"magnified twice gives nearly the same output", zero(0, 0).upscale(2), 1},
		{"magnified three times gives nearly the same output", zero(0, 0).upscale(3), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, _ := digitOf(t, tt.c)
			for j := range img {
				if d := int(img[j]) - int(base[j]); d < -tt.maxDiff || d > tt.maxDiff {
					t.Fatalf("pixel (%d,%d) = %d, want %d±%d", j/Side, j%Side, img[j], base[j], tt.maxDiff)
				}
			}
		})
	}
}

func TestAreaAveraging(t *testing.T) {
	checker := newCanvas(280, 280)
	for y := 40; y < 240; y++ {
		for x := 40; x < 240; x++ {
			if (x+y)%2 == 0 {
				checker.pix[y*280+x] = 255
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	noise := newCanvas(300, 200)
	for i := range noise.pix {
		noise.pix[i] = uint8(rng.IntN(256))
	}
	tests := []struct {
		name string
		c    *canvas
	}{
		{"a fine checkerboard", checker},
		{"a ring", newCanvas(280, 280).ring(140, 140, 90, 20)},
		{"random grey noise", noise},
		{"a small square magnified", newCanvas(280, 280).fill(image.Rect(3, 5, 12, 40), 200)},
	}
	for _, tt := range tests {
		t.Run(tt.name+" keeps its total ink times the squared scale", func(t *testing.T) {
			img, info := digitOf(t, tt.c)
			_, _, got := centre(img)
			var want float64
			for y := info.Crop.Min.Y; y < info.Crop.Max.Y; y++ {
				for x := info.Crop.Min.X; x < info.Crop.Max.X; x++ {
					want += float64(tt.c.pix[y*tt.c.w+x])
				}
			}
			want *= info.Scale * info.Scale
			// Each output pixel rounds by at most 1/2.
			if tol := 0.5 * float64(info.Box.Dx()*info.Box.Dy()); math.Abs(got-want) > tol {
				t.Errorf("total ink %.0f, want %.0f±%.0f", got, want, tol)
			}
		})
	}
	t.Run("a fine checkerboard becomes flat mid-grey", func(t *testing.T) {
		img, _ := digitOf(t, checker)
		for j, v := range img {
			if v != 0 && (v < 126 || v > 129) {
				t.Fatalf("pixel (%d,%d) = %d, want about 127.5 (nearest neighbour would give 0 or 255)", j/Side, j%Side, v)
			}
		}
	})
}

func TestDotsAndBorders(t *testing.T) {
	tests := []struct {
		name string
		c    *canvas
	}{
		{"one pixel in the middle", newCanvas(280, 280).fill(image.Rect(140, 140, 141, 141), 255)},
		{"one pixel in the top left corner", newCanvas(280, 280).fill(image.Rect(0, 0, 1, 1), 255)},
		{"one pixel in the bottom right corner", newCanvas(280, 280).fill(image.Rect(279, 279, 280, 280), 255)},
		{"two by two pixels on a 560×560 canvas", newCanvas(560, 560).fill(image.Rect(300, 200, 302, 202), 255)},
	}
	for _, tt := range tests {
		t.Run(tt.name+" gives one bright pixel at the centre", func(t *testing.T) {
			img, info := digitOf(t, tt.c)
			if !info.OK {
				t.Fatalf("OK is false")
			}
			if got := inkBox(img); got != image.Rect(14, 14, 15, 15) {
				t.Errorf("ink box %v, want one pixel at (14,14)", got)
			}
			if v := img[14*Side+14]; v < 100 {
				t.Errorf("pixel = %d, want at least 100", v)
			}
		})
	}
	t.Run("a frame touching all four borders is centred", func(t *testing.T) {
		c := newCanvas(200, 100).fill(image.Rect(0, 0, 200, 100), 255).fill(image.Rect(10, 10, 190, 90), 0)
		img, info := digitOf(t, c)
		if info.Crop != image.Rect(0, 0, 200, 100) || inkBox(img) != image.Rect(4, 9, 24, 19) {
			t.Errorf("crop %v, output ink box %v; want the whole canvas and (4,9)-(24,19)", info.Crop, inkBox(img))
		}
	})
	t.Run("a small square is scaled as if it were MinSide long", func(t *testing.T) {
		img, info := digitOf(t, newCanvas(280, 280).fill(image.Rect(50, 50, 64, 64), 255))
		if got := inkBox(img); got.Dx() != 10 || got.Dy() != 10 || info.Scale != Box/28.0 {
			t.Errorf("ink box %v, scale %g; want 10×10 at 20/28", got, info.Scale)
		}
	})
	t.Run("faint dust outside the digit does not widen the box", func(t *testing.T) {
		c := newCanvas(280, 280).fill(image.Rect(100, 50, 160, 250), 255)
		want, _ := digitOf(t, c)
		c.fill(image.Rect(0, 0, 280, 3), DefaultThreshold-1).fill(image.Rect(270, 0, 280, 280), 10)
		if got, _ := digitOf(t, c); *got != *want {
			t.Errorf("dust changed the output")
		}
	})
}
