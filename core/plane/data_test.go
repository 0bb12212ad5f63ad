package plane

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// TestGenerateMakesEveryDataSet: every data set for K = 2…5 passes Check,
// has PerClass points of each class inside the view, and comes back the
// same from the same seed and different from another.
func TestGenerateMakesEveryDataSet(t *testing.T) {
	for _, name := range DataSets {
		for k := MinClasses; k <= MaxClasses; k++ {
			d, err := Generate(name, k, 7)
			if err != nil {
				t.Fatalf("%s, K = %d: %v", name, k, err)
			}
			if err := d.Check(); err != nil {
				t.Errorf("%s, K = %d: %v", name, k, err)
			}
			counts := d.Counts()
			for c := range k {
				if counts[c] != PerClass {
					t.Errorf("%s, K = %d: class %d has %d points", name, k, c, counts[c])
				}
			}
			again, _ := Generate(name, k, 7)
			other, _ := Generate(name, k, 8)
			if !reflect.DeepEqual(d, again) || reflect.DeepEqual(d, other) {
				t.Errorf("%s, K = %d: the seed does not decide the points", name, k)
			}
			if notes := d.Notes(); len(notes) != 0 {
				t.Errorf("%s, K = %d: notes %+v", name, k, notes)
			}
		}
	}
}

// TestSeparableIsSeparatedByLinesThroughTheOrigin: in the data set
// separable, every point of class c is nearer in angle to its class's
// direction u_c than to any other's by a margin, so θ_c = u_c (no bias)
// classifies every point correctly; in overlap, that model does not.
func TestSeparableIsSeparatedByLinesThroughTheOrigin(t *testing.T) {
	for k := MinClasses; k <= MaxClasses; k++ {
		for _, c := range []struct {
			name      string
			separated bool
		}{{"separable", true}, {"overlap", false}} {
			d, _ := Generate(c.name, k, 3)
			wrong := 0
			for _, p := range d.Points {
				r := math.Hypot(p.X[0], p.X[1])
				own := score(p.X, p.Class, k)
				for o := range k {
					if o != p.Class && score(p.X, o, k) > own-0.1*r {
						wrong++
						break
					}
				}
			}
			if (wrong == 0) != c.separated {
				t.Errorf("%s, K = %d: %d points within a margin of another class's side", c.name, k, wrong)
			}
		}
	}
}

// score is u_c·x, u_c the unit vector of class c's direction.
func score(x [2]float64, c, k int) float64 {
	a := math.Pi/6 + 2*math.Pi*float64(c)/float64(k)
	return math.Cos(a)*x[0] + math.Sin(a)*x[1]
}

// TestBadInputIsRefusedWithItsReason: each bad input is an *InputError
// naming its problem, and the data it was given stays as it was.
func TestBadInputIsRefusedWithItsReason(t *testing.T) {
	d, _ := Generate("blobs", 3, 1)
	before := len(d.Points)
	full := Data{K: 2, Points: make([]Point, MaxPoints)}
	tests := []struct {
		name string
		do   func() error
		want Problem
	}{
		{"a NaN coordinate", func() error { _, err := d.Add(Point{X: [2]float64{math.NaN(), 0}}); return err }, NotFinite},
		{"an infinite coordinate", func() error { _, err := d.Add(Point{X: [2]float64{0, math.Inf(-1)}}); return err }, NotFinite},
		{"a point far outside the view", func() error { _, err := d.Add(Point{X: [2]float64{1e6, 0}}); return err }, OutsideView},
		{"a point just outside the view", func() error { _, err := d.Add(Point{X: [2]float64{0, -Extent - 1e-9}}); return err }, OutsideView},
		{"a class above K", func() error { _, err := d.Add(Point{Class: 3}); return err }, NoSuchClass},
		{"a negative class", func() error { _, err := d.Add(Point{Class: -1}); return err }, NoSuchClass},
		{"a point too many", func() error { _, err := full.Add(Point{}); return err }, TooManyPoints},
		{"K = 2 with points of class 2", func() error { _, err := d.WithClasses(2); return err }, RemovedClass},
		{"K = 6", func() error { _, err := d.WithClasses(6); return err }, BadClasses},
		{"K = 1", func() error { _, err := Generate("ring", 1, 1); return err }, BadClasses},
		{"an unknown data set", func() error { _, err := Generate("spiral", 2, 1); return err }, UnknownData},
		{"data checked with a point outside", func() error {
			return Data{K: 2, Points: []Point{{X: [2]float64{5, 5}}}}.Check()
		}, OutsideView},
		{"no points", func() error { return Defaults().Validate(0) }, NoPoints},
		{"α NaN", func() error { s := Defaults(); s.Rate = math.NaN(); return s.Validate(10) }, BadRate},
		{"α huge", func() error { s := Defaults(); s.Rate = 1e9; return s.Validate(10) }, BadRate},
		{"α zero", func() error { s := Defaults(); s.Rate = 0; return s.Validate(10) }, BadRate},
		{"λ < 0", func() error { s := Defaults(); s.Lambda = -0.1; return s.Validate(10) }, BadLambda},
		{"λ infinite", func() error { s := Defaults(); s.Lambda = math.Inf(1); return s.Validate(10) }, BadLambda},
		{"B above m", func() error { s := Defaults(); s.Batch = 11; return s.Validate(10) }, BadBatch},
		{"a start at NaN", func() error { s := Defaults(); s.Start[1] = math.NaN(); return s.Validate(10) }, BadStart},
		{"a start far away", func() error { s := Defaults(); s.Start[0] = 1e4; return s.Validate(10) }, BadStart},
		{"too many steps", func() error { s := Defaults(); s.Steps = MaxSteps + 1; return s.Validate(10) }, BadSteps},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			var ie *InputError
			if !errors.As(err, &ie) || ie.Problem != tt.want {
				t.Fatalf("got %v, want problem %d", err, tt.want)
			}
			if msg := err.Error(); msg == "" || msg[len(msg)-1] == '.' {
				t.Errorf("message %q", msg)
			}
		})
	}
	if len(d.Points) != before || d.K != 3 {
		t.Errorf("refusals changed the data: %d points, K = %d", len(d.Points), d.K)
	}
	var ie *InputError
	if _, err := d.WithClasses(2); !errors.As(err, &ie) || ie.Class != 2 || ie.Count != PerClass {
		t.Errorf("K = 2 names %+v, want class 2 and its %d points", ie, PerClass)
	}
}

// TestAddRemoveAndK: a point added is found by Nearest and removed by
// Remove, without changing the data it came from; K grows freely and
// shrinks once the dropped class has no points.
func TestAddRemoveAndK(t *testing.T) {
	d, _ := Generate("overlap", 2, 1)
	p := Point{X: [2]float64{3.9, -3.9}, Class: 1}
	e, err := d.Add(p)
	if err != nil || len(e.Points) != len(d.Points)+1 {
		t.Fatalf("Add: %v, %d points", err, len(e.Points))
	}
	i := e.Nearest([2]float64{3.85, -3.88}, 0.1)
	if i != len(d.Points) {
		t.Fatalf("Nearest found %d, want the new point %d", i, len(d.Points))
	}
	if e.Nearest([2]float64{3.5, -3.5}, 0.1) != -1 {
		t.Error("Nearest found a point beyond its radius")
	}
	f := e.Remove(i)
	if !reflect.DeepEqual(f.Points, d.Points) || len(e.Points) != len(d.Points)+1 {
		t.Error("Remove did not give back the data, or changed its argument")
	}
	g, err := d.WithClasses(4)
	if err != nil || g.K != 4 {
		t.Fatalf("K = 4: %v", err)
	}
	if notes := g.Notes(); !reflect.DeepEqual(notes, []Note{{Kind: EmptyClass, Class: 2}, {Kind: EmptyClass, Class: 3}}) {
		t.Errorf("notes %+v", notes)
	}
	if h, err := g.WithClasses(2); err != nil || h.K != 2 {
		t.Errorf("back to K = 2: %v", err)
	}
}

// TestNotesSayWhatIsOdd: one point, one class, duplicates.
func TestNotesSayWhatIsOdd(t *testing.T) {
	tests := []struct {
		name string
		d    Data
		want []Note
	}{
		{"none", Data{K: 2}, nil},
		{"one point", Data{K: 2, Points: []Point{{Class: 1}}}, []Note{{Kind: OnePoint}, {Kind: EmptyClass, Class: 0}}},
		{"one class", Data{K: 2, Points: []Point{{X: [2]float64{1, 1}}, {}}}, []Note{{Kind: OneClass, Class: 0}, {Kind: EmptyClass, Class: 1}}},
		{"duplicates", Data{K: 2, Points: []Point{{}, {Class: 1}, {}, {X: [2]float64{1, 0}, Class: 1}}}, []Note{{Kind: Duplicates, Count: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.Notes(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestExamplesAreThePoints: the examples core trains on hold x₁ as
// feature 0, x₂ as feature 1 and the class as the label.
func TestExamplesAreThePoints(t *testing.T) {
	d := Data{K: 3, Points: []Point{{X: [2]float64{0.5, -1}, Class: 2}, {X: [2]float64{0, 3}, Class: 0}}}
	x := Examples[float64](d)
	if err := x.CheckClasses(2, 3); err != nil {
		t.Fatal(err)
	}
	for i, p := range d.Points {
		index, value := x.Example(i)
		if !reflect.DeepEqual(index, []uint16{0, 1}) || value[0] != p.X[0] || value[1] != p.X[1] || int(x.Labels[i]) != p.Class {
			t.Errorf("example %d: %v %v label %d, point %+v", i, index, value, x.Labels[i], p)
		}
	}
}
