// Package planeimage colours the plane's regions: each class's colour,
// the shade of a class predicted with a given probability, and the RGBA
// image of the regions that the plane's worker paints (wasm/planework)
// and the page puts on its canvas (wasm/ui/planepanel). Both sides need
// the same colours, and neither may import the other's packages: the
// worker no UI package, the page no worker. It is plain Go and imports
// only core/plane.
package planeimage

import (
	"math"

	"softmaxdemo/core/plane"
)

// Classes are the colours of the classes 0…4 (ColorBrewer's Set1, a
// little darkened): blue, red, green, purple, orange.
var Classes = [plane.MaxClasses][3]uint8{
	{33, 102, 172},
	{202, 32, 48},
	{27, 120, 55},
	{118, 42, 131},
	{224, 118, 10},
}

// lightest is how much of its class's colour the least certain region
// keeps (p = 1/K): enough that every region shows its class's hue.
const lightest = 0.28

// Shade returns the colour of class c predicted with probability p among
// k classes: the class's colour mixed with white, from lightest at
// p = 1/k to the full colour at p = 1.
func Shade(c int, p float64, k int) (r, g, b uint8) {
	s := (p - 1/float64(k)) / (1 - 1/float64(k))
	if !(s >= 0) { // NaN too
		s = 0
	}
	s = lightest + (1-lightest)*min(s, 1)
	col := Classes[c%plane.MaxClasses]
	mix := func(v uint8) uint8 { return uint8(math.Round(255 + (float64(v)-255)*s)) }
	return mix(col[0]), mix(col[1]), mix(col[2])
}

// levels is how many probabilities RegionImage tells apart: its table
// holds Shade at each of them, a colour differing by at most a quarter
// of a unit from the exact one.
const levels = 1024

// shades holds, at [k][c][q], Shade(c, q/(levels−1), k) for
// q = 0…levels−1, made the first time a frame draws k classes.
var shades [plane.MaxClasses + 1]*[plane.MaxClasses][levels][3]uint8

// RegionImage writes the regions as RGBA pixels into dst (4 bytes a
// cell): each cell in the colour of its class, shaded by its probability
// (Shade, looked up in a table: a frame colours tens of thousands of
// cells). class and prob are plane.Regions' output for k classes. It
// panics if k is not 2…MaxClasses.
func RegionImage(dst []byte, class []uint8, prob []float32, k int) {
	t := shades[k]
	if t == nil {
		t = new([plane.MaxClasses][levels][3]uint8)
		for c := range k {
			for q := range levels {
				r, g, b := Shade(c, float64(q)/(levels-1), k)
				t[c][q] = [3]uint8{r, g, b}
			}
		}
		shades[k] = t
	}
	for i, c := range class {
		p := prob[i]
		q := 0
		if p > 0 { // NaN too, as Shade takes it
			q = min(int(p*(levels-1)+0.5), levels-1)
		}
		rgb := &t[c%plane.MaxClasses][q]
		dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = rgb[0], rgb[1], rgb[2], 255
	}
}
