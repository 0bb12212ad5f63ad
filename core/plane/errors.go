package plane

import "fmt"

// Problem names what is wrong with an input, so that a page can say it in
// its own language (InputError carries the values).
type Problem int

const (
	NotFinite     Problem = iota + 1 // a coordinate is NaN or infinite
	OutsideView                      // a point lies outside [−Extent, Extent]²
	NoSuchClass                      // a point's class is not below K
	TooManyPoints                    // more than MaxPoints
	BadClasses                       // K is not in MinClasses…MaxClasses
	RemovedClass                     // K would drop the points of a class
	NoPoints                         // nothing to train on
	BadRate                          // α is not a number in (0, MaxRate]
	BadLambda                        // λ is not a number in [0, MaxLambda]
	BadBatch                         // B is not in 1…m
	BadStart                         // the start is not a finite point within MaxStart
	UnknownData                      // no data set of that name
	Pinned                           // ψ with class 0 pinned
	BadSteps                         // the steps of a path are not in 0…MaxSteps
	BadTheta                         // a parameter set by hand is not a number within ±MaxTheta
)

// InputError is a refused input: Problem says what was wrong; Value is the
// number refused (α, λ, B, K, a coordinate, a parameter), Point the point
// refused, and Class and Count the class and number of points concerned
// (RemovedClass: the first class that would be dropped, and how many
// points it has; BadTheta: the class whose parameter it is).
type InputError struct {
	Problem Problem
	Value   float64
	Point   Point
	Class   int
	Count   int
	Name    string // UnknownData: the name asked for
}

func (e *InputError) Error() string {
	switch e.Problem {
	case NotFinite:
		return fmt.Sprintf("plane: the point (%v, %v) has a coordinate that is not a number", e.Point.X[0], e.Point.X[1])
	case OutsideView:
		return fmt.Sprintf("plane: the point (%.3g, %.3g) lies outside the view, [−%g, %g]²", e.Point.X[0], e.Point.X[1], Extent, Extent)
	case NoSuchClass:
		return fmt.Sprintf("plane: a point of class %d with K = %d classes", e.Class, int(e.Value))
	case TooManyPoints:
		return fmt.Sprintf("plane: %d points: the plane holds at most %d", e.Count, MaxPoints)
	case BadClasses:
		return fmt.Sprintf("plane: K = %v: want %d to %d classes", e.Value, MinClasses, MaxClasses)
	case RemovedClass:
		return fmt.Sprintf("plane: K = %v would drop the %d points of class %d: remove them first, or choose a data set again", e.Value, e.Count, e.Class)
	case NoPoints:
		return "plane: there are no points to train on"
	case BadRate:
		return fmt.Sprintf("plane: α = %v: want a number above 0, at most %g", e.Value, MaxRate)
	case BadLambda:
		return fmt.Sprintf("plane: λ = %v: want a number from 0 to %g", e.Value, MaxLambda)
	case BadBatch:
		return fmt.Sprintf("plane: B = %v: want 1 to %d (the number of points)", e.Value, e.Count)
	case BadStart:
		return fmt.Sprintf("plane: the start (%v, %v): want finite numbers within ±%g", e.Point.X[0], e.Point.X[1], MaxStart)
	case UnknownData:
		return fmt.Sprintf("plane: no data set %q: want one of blobs, overlap, separable, ring", e.Name)
	case BadSteps:
		return fmt.Sprintf("plane: %v steps: want 0 to %d", e.Value, MaxSteps)
	case BadTheta:
		return fmt.Sprintf("plane: class %d's parameter %v: want a number from −%g to %g", e.Class, e.Value, MaxTheta, MaxTheta)
	case Pinned:
		return "plane: class 0 is pinned at zero, and adding ψ would move it: unpin class 0 to see the redundancy"
	}
	return fmt.Sprintf("plane: input refused (problem %d)", int(e.Problem))
}

// NoteKind names something about the data that is allowed but worth
// saying.
type NoteKind int

const (
	EmptyClass NoteKind = iota + 1 // class Class has no points: nothing pulls its region anywhere
	OnePoint                       // a single point: J can be made as small as one likes
	OneClass                       // every point is of class Class
	Duplicates                     // Count points lie exactly on an earlier one
)

// Note is one thing worth saying about the data.
type Note struct {
	Kind  NoteKind
	Class int
	Count int
}
