package plane

import (
	"math"
	"math/rand/v2"
	"slices"

	"softmaxdemo/core/softmax"
)

// The plane's limits.
const (
	Extent     = 4.0  // the view is [−Extent, Extent]² of x
	MinClasses = 2    // K, at least (K = 2 is logistic regression)
	MaxClasses = 5    // K, at most
	MaxPoints  = 1000 // points, at most: the plane's data are tiny
	PerClass   = 60   // points of each class in a data set made by Generate
)

// Point is one labelled point of the plane: x = (X[0], X[1]), class Class.
type Point struct {
	X     [2]float64
	Class int
}

// Data is the plane's training set: K classes and the points. A Data is a
// value: Add, Remove and WithClasses return a new one and leave the
// receiver as it was, so a page can keep the last good data.
type Data struct {
	K      int
	Points []Point
}

// DataSets names the data sets Generate makes, in the order a page offers
// them:
//
//   - blobs: K clusters around the origin, a little apart;
//   - overlap: K clusters that overlap, so that J has a finite minimum
//     even without λ;
//   - separable: K sectors with a gap between them, so that a line (through
//     the origin, too) separates every pair: without λ, J has no minimum;
//   - ring: class 0 in a disc and each further class in a ring around it:
//     no straight boundary separates a class inside another.
var DataSets = []string{"blobs", "overlap", "separable", "ring"}

// Generate returns the data set name with k classes, PerClass points each,
// made from seed: the same name, k and seed give the same points. Class c
// sits in the direction of angle π/6 + 2πc/k. It returns an
// *InputError if name is not in DataSets or k is out of range.
func Generate(name string, k int, seed uint64) (Data, error) {
	set := slices.Index(DataSets, name)
	if set < 0 {
		return Data{}, &InputError{Problem: UnknownData, Name: name}
	}
	if k < MinClasses || k > MaxClasses {
		return Data{}, &InputError{Problem: BadClasses, Value: float64(k)}
	}
	r := rand.New(rand.NewPCG(seed, uint64(set)+1))
	d := Data{K: k, Points: make([]Point, 0, k*PerClass)}
	for i := range k * PerClass {
		c := i % k
		a := math.Pi/6 + 2*math.Pi*float64(c)/float64(k)
		for {
			x := point(name, r, a, c, k)
			if math.Abs(x[0]) < Extent-0.1 && math.Abs(x[1]) < Extent-0.1 {
				d.Points = append(d.Points, Point{X: x, Class: c})
				break
			}
		}
	}
	return d, nil
}

// point draws one point of class c (direction a) of the data set name.
func point(name string, r *rand.Rand, a float64, c, k int) [2]float64 {
	polar := func(rad, ang float64) [2]float64 { return [2]float64{rad * math.Cos(ang), rad * math.Sin(ang)} }
	switch name {
	case "blobs":
		u := polar(1.7, a)
		return [2]float64{u[0] + 0.7*r.NormFloat64(), u[1] + 0.7*r.NormFloat64()}
	case "overlap":
		u := polar(0.9, a)
		return [2]float64{u[0] + r.NormFloat64(), u[1] + r.NormFloat64()}
	case "separable":
		// Within 55% of the half-angle π/k of class c's sector: a gap of
		// 0.9π/k between neighbouring classes.
		return polar(0.8+2.6*r.Float64(), a+0.55*math.Pi/float64(k)*(2*r.Float64()-1))
	}
	// ring: class 0 in a disc, class c ≥ 1 on a circle of radius R_c.
	step := 3.2 / (float64(k) - 0.4)
	if c == 0 {
		return [2]float64{0.18 * step * r.NormFloat64(), 0.18 * step * r.NormFloat64()}
	}
	return polar(step*float64(c)+0.12*r.NormFloat64(), 2*math.Pi*r.Float64())
}

// Check returns the first problem of d as an *InputError: K out of range,
// too many points, or a point that is not finite, lies outside the view or
// has a class not below K. Data that passes can be trained on and drawn.
func (d Data) Check() error {
	if d.K < MinClasses || d.K > MaxClasses {
		return &InputError{Problem: BadClasses, Value: float64(d.K)}
	}
	if len(d.Points) > MaxPoints {
		return &InputError{Problem: TooManyPoints, Count: len(d.Points)}
	}
	for _, p := range d.Points {
		if err := checkPoint(p, d.K); err != nil {
			return err
		}
	}
	return nil
}

func checkPoint(p Point, k int) error {
	switch {
	case math.IsNaN(p.X[0]) || math.IsNaN(p.X[1]) || math.IsInf(p.X[0], 0) || math.IsInf(p.X[1], 0):
		return &InputError{Problem: NotFinite, Point: p}
	case math.Abs(p.X[0]) > Extent || math.Abs(p.X[1]) > Extent:
		return &InputError{Problem: OutsideView, Point: p}
	case p.Class < 0 || p.Class >= k:
		return &InputError{Problem: NoSuchClass, Point: p, Class: p.Class, Value: float64(k)}
	}
	return nil
}

// Add returns d with p appended, or an *InputError (and d unchanged) if p
// is not finite, lies outside the view, has no class of d, or d is full.
func (d Data) Add(p Point) (Data, error) {
	if err := checkPoint(p, d.K); err != nil {
		return d, err
	}
	if len(d.Points) >= MaxPoints {
		return d, &InputError{Problem: TooManyPoints, Count: len(d.Points) + 1}
	}
	return Data{K: d.K, Points: append(slices.Clip(d.Points), p)}, nil
}

// Nearest returns the index of the point of d nearest to x, if it lies
// within radius r of it, or −1.
func (d Data) Nearest(x [2]float64, r float64) int {
	best, bestD := -1, r*r
	for i, p := range d.Points {
		dx, dy := p.X[0]-x[0], p.X[1]-x[1]
		if s := dx*dx + dy*dy; s <= bestD {
			best, bestD = i, s
		}
	}
	return best
}

// Remove returns d without its point i. It panics if i is not a point of
// d, which is a bug in the caller.
func (d Data) Remove(i int) Data {
	return Data{K: d.K, Points: slices.Delete(slices.Clone(d.Points), i, i+1)}
}

// WithClasses returns d with k classes, or an *InputError (and d
// unchanged) if k is out of range or d has points of a class k would drop
// (RemovedClass names the first such class and its number of points):
// nothing is lost without being asked.
func (d Data) WithClasses(k int) (Data, error) {
	if k < MinClasses || k > MaxClasses {
		return d, &InputError{Problem: BadClasses, Value: float64(k)}
	}
	counts := d.Counts()
	for c := k; c < len(counts); c++ {
		if counts[c] > 0 {
			return d, &InputError{Problem: RemovedClass, Value: float64(k), Class: c, Count: counts[c]}
		}
	}
	return Data{K: k, Points: d.Points}, nil
}

// Counts returns the number of points of each class 0…MaxClasses−1
// (a point of another class, which Check refuses, is not counted).
func (d Data) Counts() [MaxClasses]int {
	var counts [MaxClasses]int
	for _, p := range d.Points {
		if p.Class >= 0 && p.Class < MaxClasses {
			counts[p.Class]++
		}
	}
	return counts
}

// Notes returns what is worth saying about d, in a fixed order: one point
// only, every point of one class, each class with no points, and points
// that lie exactly on an earlier one.
func (d Data) Notes() []Note {
	var notes []Note
	counts := d.Counts()
	switch len(d.Points) {
	case 0:
		return nil
	case 1:
		notes = append(notes, Note{Kind: OnePoint})
	}
	for c, n := range counts {
		if n > 1 && n == len(d.Points) {
			notes = append(notes, Note{Kind: OneClass, Class: c})
		}
	}
	for c := range min(d.K, MaxClasses) {
		if counts[c] == 0 {
			notes = append(notes, Note{Kind: EmptyClass, Class: c})
		}
	}
	seen := make(map[[2]float64]bool, len(d.Points))
	dup := 0
	for _, p := range d.Points {
		if seen[p.X] {
			dup++
		}
		seen[p.X] = true
	}
	if dup > 0 {
		notes = append(notes, Note{Kind: Duplicates, Count: dup})
	}
	return notes
}

// Examples returns d's points as examples of two features (x₁ as feature
// 0, x₂ as feature 1, both always present) for core's trainer, Newton's
// method and the metrics.
func Examples[F softmax.Float](d Data) *softmax.Examples[F] {
	n := len(d.Points)
	x := &softmax.Examples[F]{Labels: make([]uint8, n), Start: make([]int32, n+1),
		Index: make([]uint16, 2*n), Value: make([]F, 2*n)}
	for i, p := range d.Points {
		x.Labels[i] = uint8(p.Class)
		x.Start[i+1] = int32(2 * (i + 1))
		x.Index[2*i], x.Index[2*i+1] = 0, 1
		x.Value[2*i], x.Value[2*i+1] = F(p.X[0]), F(p.X[1])
	}
	return x
}
