// Package lesson is the lesson the page tells by itself: the lecture
// notes' story in chapters, each a screen of a few sentences, its
// formulas with the live model's numbers, a step to try, a question to
// answer before the page shows the answer, and the live panels its point
// needs.
//
// The chapters are one table, Chapters, in the notes' order; each has a
// stable name (its ID), used by links (lesson=3 or lesson=loss) and tests.
// What a chapter says lives in the catalogs under "lesson.<id>.…"; what it
// shows, applies and asks is here, as plain data and pure functions, so
// that it is tested natively. The page (wasm/ui, page-lesson.go) lays the
// chapters out and runs their demonstrations.
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

	// The plane's pictures: the same model on points in two dimensions.
	PlaneRegions Panel = "plane"         // the plane cut into K regions by straight boundaries, and Train
	PlaneSurface Panel = "plane-surface" // J over θ's two numbers, the paths of GD, SGD and Newton, and α
	PlanePsi     Panel = "plane-psi"     // ψ added to every θ_c of the plane's model: no region changes
)

// A Chapter is one step of the notes' story.
type Chapter struct {
	// ID is the chapter's stable name, for links and tests.
	ID string
	// Panels are the live panels it shows, in reading order.
	Panels []Panel
	// Under are live panels that stand under the text on a wide screen,
	// where the text leaves room, and after Panels on a narrow one.
	Under []Panel
	// Settings changes the Train panel's fields as entering the chapter
	// applies them (the person may change them afterwards); nil leaves
	// them as they are.
	Settings func(f *params.Fields)
	// Axes is what the loss chart shows in the chapter; nil leaves it.
	Axes *chart.Axes
	// Question is the chapter's predict-then-reveal question, if any.
	Question *Question
}

// A Question asks the class to predict before the page shows: its text,
// choices and answer are the catalog's "lesson.<id>.q", ".q.c1" … and
// ".q.a"; choosing runs the chapter's demonstration and shows the answer.
type Question struct {
	Choices int
	// Right returns the choice (from 0) that the live page shows to be
	// right, or -1 while it cannot tell.
	Right func(v Live) int
}

// Chapters is the lesson, in the notes' order.
var Chapters = []Chapter{
	{
		ID:     "task",
		Panels: []Panel{Digit},
		Question: &Question{Choices: 3, Right: func(v Live) int {
			switch n := v.Example.NonZero(); {
			case v.Example == nil:
				return -1
			case n < 50:
				return 0
			case n <= 300:
				return 1
			}
			return 2
		}},
	},
	{ID: "model", Panels: []Panel{Templates, Draw}, Under: []Panel{PlaneRegions}},
	{ID: "loss", Panels: []Panel{Example, Chart}},
	{
		ID:     "update",
		Panels: []Panel{Inspector},
		// The inspector's update is one SGD step, which a Newton run
		// refuses.
		Settings: descend,
		Question: &Question{Choices: 3, Right: func(v Live) int {
			switch {
			case math.IsNaN(v.PAfter) || math.IsNaN(v.PBefore):
				return -1
			case v.PAfter > v.PBefore:
				return 0
			case v.PAfter < v.PBefore:
				return 1
			}
			return 2
		}},
	},
	{
		ID:     "descent",
		Panels: []Panel{Descent, Chart, PlaneSurface},
		Settings: func(f *params.Fields) {
			descend(f)
			f.Pace = params.DefaultPace
		},
		Axes:     &chart.Axes{X: chart.AxisPasses, Y: chart.AxisLinear},
		Question: &Question{Choices: 3, Right: func(Live) int { return 2 }},
	},
	{
		ID:     "redundancy",
		Panels: []Panel{PsiShift, PlanePsi, Templates},
		// The freedom ψ shows only without L2 and with nothing pinned;
		// the chapter then shows what each cure does.
		Settings: func(f *params.Fields) {
			descend(f)
			f.L2, f.Pin = "0", false
		},
		Question: &Question{Choices: 3, Right: func(Live) int { return 2 }},
	},
	{
		ID:     "newton",
		Panels: []Panel{Hessian, Chart},
		// Newton's method needs λ > 0 or a pinned class: H is singular
		// without.
		Settings: func(f *params.Fields) {
			if l2, err := strconv.ParseFloat(f.L2, 64); (err != nil || l2 <= 0) && !f.Pin {
				f.L2 = "0.0001"
			}
		},
		Axes: &chart.Axes{X: chart.AxisPasses, Y: chart.AxisLog},
		Question: &Question{Choices: 3, Right: func(v Live) int {
			switch {
			case v.HessianZero < 0:
				return -1
			case v.HessianZero == 0:
				return 0
			case v.HessianZero < 50:
				return 1
			}
			return 2
		}},
	},
	{ID: "yours", Panels: []Panel{Draw, MyDigits}},
}

// descend makes the method one of gradient descent's, if it is Newton's.
func descend(f *params.Fields) {
	if f.Method == "newton" {
		f.Method = "sgd"
	}
}

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
