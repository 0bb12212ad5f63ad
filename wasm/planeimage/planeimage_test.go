package planeimage

import (
	"testing"

	"softmaxdemo/core/plane"
)

// TestRegionImageIsShade: the table RegionImage looks colours up in gives
// Shade's colour to within a unit, at every class and probability.
func TestRegionImageIsShade(t *testing.T) {
	for k := plane.MinClasses; k <= plane.MaxClasses; k++ {
		var class []uint8
		var prob []float32
		for c := range k {
			for i := 0; i <= 1000; i++ {
				class = append(class, uint8(c))
				prob = append(prob, float32(i)/1000)
			}
		}
		rgba := make([]byte, 4*len(class))
		RegionImage(rgba, class, prob, k)
		for i, c := range class {
			r, g, b := Shade(int(c), float64(prob[i]), k)
			for j, want := range []uint8{r, g, b} {
				if d := int(rgba[4*i+j]) - int(want); d < -1 || d > 1 || rgba[4*i+3] != 255 {
					t.Fatalf("K = %d, class %d, p = %v: %v, Shade %v", k, c, prob[i], rgba[4*i:4*i+4], []uint8{r, g, b})
				}
			}
		}
	}
}

// TestShadeRunsFromPaleToTheClassColour: a class predicted with
// probability 1 is its colour; at 1/K, and for NaN, it keeps lightest of
// it; in between its shade darkens as p grows.
func TestShadeRunsFromPaleToTheClassColour(t *testing.T) {
	for k := plane.MinClasses; k <= plane.MaxClasses; k++ {
		for c := range k {
			if r, g, b := Shade(c, 1, k); [3]uint8{r, g, b} != Classes[c] {
				t.Errorf("K = %d: a certain class %d is %v, want %v", k, c, [3]uint8{r, g, b}, Classes[c])
			}
			pale := func(p float64) int { r, g, b := Shade(c, p, k); return int(r) + int(g) + int(b) }
			if nan := pale(0 / zero); nan != pale(1/float64(k)) || nan != pale(0) {
				t.Errorf("K = %d, class %d: NaN is %d, p = 1/K %d, p = 0 %d", k, c, nan, pale(1/float64(k)), pale(0))
			}
			for p := 1 / float64(k); p+0.05 <= 1; p += 0.05 {
				if pale(p+0.05) > pale(p) {
					t.Errorf("K = %d, class %d: lighter at p = %.2f than at %.2f", k, c, p+0.05, p)
				}
			}
		}
	}
}

var zero float64
