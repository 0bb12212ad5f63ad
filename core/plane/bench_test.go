package plane

import (
	"fmt"
	"testing"
)

// BenchmarkScene is the work after a point is added: the minimum, the
// curvature, the three paths of DefaultSteps steps and the 64×64 surface
// with its contours, on a data set of PerClass points a class and one
// more. Before timing, the scene is checked: a fast wrong scene fails.
//
//	go test -run '^$' -bench Scene -count 5 ./core/plane/
func BenchmarkScene(b *testing.B) {
	slice := Defaults()
	slice.Bias, slice.Pin, slice.Start = true, false, [2]float64{1, -1}
	for _, c := range []struct {
		name string
		k    int
		s    Settings
	}{{"blobs", 2, Defaults()}, {"overlap", 3, slice}, {"ring", 5, slice}} {
		b.Run(fmt.Sprintf("%s/K=%d/exact=%v", c.name, c.k, c.s.Exact(c.k)), func(b *testing.B) {
			d, err := Generate(c.name, c.k, 1)
			if err != nil {
				b.Fatal(err)
			}
			if d, err = d.Add(Point{X: [2]float64{0.5, 0.5}, Class: 1}); err != nil {
				b.Fatal(err)
			}
			sc, err := Build(d, c.s)
			if err != nil {
				b.Fatal(err)
			}
			if err := sceneFinite(sc); err != nil || !sc.HasMin {
				b.Fatalf("the scene: %v, minimum %v", err, sc.HasMin)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(d, c.s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(d.Points)), "points")
		})
	}
}

// BenchmarkRegions is one frame's regions: the class and its probability
// on a 160×160 grid for a model of 5 classes.
func BenchmarkRegions(b *testing.B) {
	m := randomModel(5, true, 1)
	const n = 160
	class, prob := make([]uint8, n*n), make([]float32, n*n)
	b.ReportAllocs()
	for b.Loop() {
		Regions(class, prob, m, n, n)
	}
}
