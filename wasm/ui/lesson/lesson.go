// Package lesson is the lesson the page tells by itself: the lecture
// notes' story in chapters, each a screen of a few sentences, its
// formulas with the live model's numbers, a step to try, a question to
// answer before the page shows the answer, and the live panels its point
// needs.
//
// The chapters are one table, Chapters (chapters.go), in the notes'
// order; each has a stable name (its ID), used by links (lesson=3 or
// lesson=loss) and tests. What a chapter says lives in the catalogs under
// "lesson.<id>.…"; what it shows, sets, computes, asks and demonstrates is
// its row, as plain data and pure functions, so that it is tested
// natively, and nothing else in the page asks which chapter it is in. The
// lesson's room (wasm/ui/lessonview) lays a chapter out, and the page
// (wasm/ui) carries out the demonstrations that concern the instrument and
// the plane.
package lesson

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/params"
)

// A Panel is a live part of the page a chapter shows.
type Panel string

// The panels chapters show.
const (
	Digit     Panel = "digit"     // one digit, and its 784 numbers as a strip
	Example   Panel = "example"   // one test digit and its ten probabilities
	Templates Panel = "templates" // the ten θ_c as images
	Draw      Panel = "draw"      // the draw pad, its probabilities and x ⊙ θ_c
	Chart     Panel = "chart"     // the loss chart and its runs
	Inspector Panel = "inspector" // one update, every number of it
	Descent   Panel = "descent"   // runs of full-batch GD, minibatches and SGD
	PsiShift  Panel = "psi"       // adding ψ to every θ_c, and undoing it
	Hessian   Panel = "hessian"   // H on 7×7 images and its zero eigenvalues
	MyDigits  Panel = "my-digits" // the digits a person taught the model
	Scrub     Panel = "scrub"     // the slider that rewinds the run to a step it kept

	// The plane's pictures: the same model on points in two dimensions.
	PlaneRegions Panel = "plane"         // the plane cut into K regions by straight boundaries, and Train
	PlaneSurface Panel = "plane-surface" // J over θ's two numbers, the paths of GD, SGD and Newton, and α
	PlanePsi     Panel = "plane-psi"     // ψ added to every θ_c of the plane's model: no region changes
	PlaneHand    Panel = "plane-hand"    // two classes, the line set by hand (θ typed or dragged), and Train
)

// A Chapter is one step of the notes' story: one row of the table
// Chapters, which says everything the page does differently in it.
type Chapter struct {
	// ID is the chapter's stable name, for links and tests; its text is
	// the catalogs' "lesson.<ID>.title", ".text" and ".try".
	ID string
	// Panels are the live panels it shows, in reading order.
	Panels []Panel
	// Under are live panels that stand under the text on a wide screen,
	// where the text leaves room, and after Panels on a narrow one.
	Under []Panel
	// Bar is the row of run buttons under its formulas.
	Bar Bar
	// Inspected: the chapter's digit is the inspector's image, whose
	// update it shows, not the gallery's.
	Inspected bool
	// Settings changes the Train panel's fields as entering the chapter
	// applies them (the person may change them afterwards); nil leaves
	// them as they are.
	Settings func(f *params.Fields)
	// Axes is what the loss chart shows in the chapter; nil leaves it.
	Axes *chart.Axes
	// Formulas returns its formulas, in mathml.Parse's TeX, with v's
	// numbers where they concern the current digit or model; words
	// returns the page's text for a catalog key, for the few words inside
	// a formula.
	Formulas func(v Live, words func(key string) string) []string
	// Question is its predict-then-reveal question, if any.
	Question *Question
}

// A Bar is the row of run buttons a chapter shows.
type Bar int

const (
	RunBar    Bar = iota // Train, Pause and Reset with the chapter's settings
	NoBar                // none
	DeskewBar            // those, and whether to straighten the digits
)

// A Question asks the class to predict before the page shows: its text,
// choices and answer are the catalog's "lesson.<id>.q", ".q.c1" … and
// ".q.a"; choosing runs its demonstration and shows the answer.
type Question struct {
	Choices int
	// Right returns the choice (from 0) that the live page shows to be
	// right, or -1 while it cannot tell.
	Right func(v Live) int
	// Args returns the answer's arguments, with the live numbers; nil for
	// an answer without any.
	Args func(v Live) []any
	// Demo is what choosing does, besides showing the answer.
	Demo Demo
}

// A Demo is a question's demonstration: what the page does when the class
// has chosen, so that the answer shows on the live model.
type Demo struct {
	// Step makes the inspector's update on its image; the answer compares
	// p_y before and after it (Live.Stepped).
	Step bool
	// Run, if set, starts a run afresh with the fields it returns for a
	// training set of m examples.
	Run func(m int) params.Fields
	// Psi adds a random ψ to every θ_c of the model.
	Psi bool
	// Hessian pauses a run in training and computes H.
	Hessian bool
	// Plane is what the plane's picture in the chapter shows beside it.
	Plane PlaneDemo
}

// A PlaneDemo is a demonstration on the plane's picture.
type PlaneDemo string

const (
	PlaneNone       PlaneDemo = ""
	PlaneAlphaAbove PlaneDemo = "above" // α above 2/λ_max: gradient descent overshoots at every step
	PlaneAddPsi     PlaneDemo = "psi"   // ψ added to every θ_c: no region changes
	PlaneFromHand   PlaneDemo = "hand"  // gradient descent from the line set by hand, to its end
)

// Find returns the number (from 1) of the chapter named id, and whether
// there is one.
func Find(id string) (int, bool) {
	for i, c := range Chapters {
		if c.ID == id {
			return i + 1, true
		}
	}
	return 0, false
}

// IDs returns the chapters' names in order.
func IDs() []string {
	ids := make([]string, len(Chapters))
	for i, c := range Chapters {
		ids[i] = c.ID
	}
	return ids
}

// Parse reads a link's lesson value: a chapter's number, 1 to
// len(Chapters), or its name. For any other value it returns the
// nearest chapter and false: a number below 1 (or −∞) the first, above
// the last the last, a fraction the nearest whole one, a word the first.
func Parse(v string) (int, bool) {
	v = strings.TrimSpace(v)
	if n, ok := Find(v); ok {
		return n, true
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= len(Chapters) {
		return n, true
	}
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil && !isRange(err), math.IsNaN(f):
		return 1, false
	case f < 1:
		return 1, false
	case f > float64(len(Chapters)):
		return len(Chapters), false
	}
	return min(max(int(math.Round(f)), 1), len(Chapters)), false
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Apply returns f as entering chapter n (from 1) leaves it.
func Apply(n int, f params.Fields) params.Fields {
	if n >= 1 && n <= len(Chapters) && Chapters[n-1].Settings != nil {
		Chapters[n-1].Settings(&f)
	}
	return f
}

// StillPixels returns the still digit's 784 grey levels (still.go).
func StillPixels() []byte {
	b, err := hex.DecodeString(stillHex)
	if err != nil {
		panic("lesson: still.go holds no pixels: " + err.Error())
	}
	return b
}
