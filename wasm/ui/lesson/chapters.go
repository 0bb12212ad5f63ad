package lesson

import (
	"math"
	"strconv"
	"strings"

	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"
)

// Chapters is the lesson, in the notes' order. A chapter is one row: a
// new one needs its row here and its text in the two catalogs, and
// nothing else.
var Chapters = []Chapter{
	{
		ID:       "task",
		Panels:   []Panel{Digit},
		Bar:      NoBar,
		Formulas: taskFormulas,
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
		}, Args: func(v Live) []any {
			if v.Example == nil {
				return []any{(&Shown{Pixels: StillPixels()}).NonZero()}
			}
			return []any{v.Example.NonZero()}
		}},
	},
	{ID: "model", Panels: []Panel{Templates, Scrub, Draw}, Under: []Panel{PlaneRegions}, Formulas: modelFormulas},
	{ID: "loss", Panels: []Panel{Example, Chart}, Formulas: lossFormulas},
	{
		ID:       "hand",
		Panels:   []Panel{PlaneHand},
		Bar:      NoBar,
		Formulas: handFormulas,
		Question: &Question{Choices: 3, Right: func(v Live) int { return handRight(v.PlaneFrom, v.PlaneTo) }, Args: func(v Live) []any {
			if math.IsNaN(v.PlaneFrom) || math.IsNaN(v.PlaneTo) {
				return []any{"…", "…", "…"}
			}
			return []any{prose(v.PlaneFrom), prose(v.PlaneTo), strconv.Itoa(v.PlaneSteps)}
		}, Demo: Demo{Plane: PlaneFromHand}},
	},
	{
		ID:        "update",
		Panels:    []Panel{Inspector},
		Inspected: true,
		// The inspector's update is one SGD step, which a Newton run
		// refuses.
		Settings: descend,
		Formulas: updateFormulas,
		Question: &Question{Choices: 3, Right: func(v Live) int { return stepRight(v.Stepped) }, Args: func(v Live) []any {
			return []any{prose(v.Stepped[0]), prose(v.Stepped[1])}
		}, Demo: Demo{Step: true}},
	},
	{
		ID:     "descent",
		Panels: []Panel{Descent, Chart, PlaneSurface},
		Settings: func(f *params.Fields) {
			descend(f)
			f.Pace = params.DefaultPace
		},
		Axes:     &chart.Axes{X: chart.AxisPasses, Y: chart.AxisLinear},
		Formulas: descentFormulas,
		Question: &Question{Choices: 3, Right: func(Live) int { return 2 }, Demo: Demo{
			// Full-batch descent with an α that overshoots, slowly enough
			// to watch the loss jump; and on the plane's surface, gradient
			// descent with an α above 2/λ_max.
			Run: func(m int) params.Fields {
				f := params.PresetFields("full", m, "10")
				f.LR, f.Epochs = "5", "20"
				return f
			},
			Plane: PlaneAlphaAbove,
		}},
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
		Formulas: redundancyFormulas,
		Question: &Question{Choices: 3, Right: func(Live) int { return 2 }, Args: func(v Live) []any {
			if math.IsNaN(v.MaxDP) {
				return []any{"?", "?"}
			}
			return []any{small(v.MaxDP), small(v.DNorm)}
		}, Demo: Demo{Psi: true, Plane: PlaneAddPsi}},
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
		Axes:     &chart.Axes{X: chart.AxisPasses, Y: chart.AxisLog},
		Formulas: newtonFormulas,
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
		}, Args: func(v Live) []any {
			return []any{countOr(v.HessianZero), countOr(v.HessianPinned), countOr(v.HessianL2)}
		}, Demo: Demo{Hessian: true}},
	},
	{ID: "yours", Panels: []Panel{Draw, MyDigits}, Bar: DeskewBar, Formulas: yoursFormulas},
}

// descend makes the method one of gradient descent's, if it is Newton's.
func descend(f *params.Fields) {
	if f.Method == "newton" {
		f.Method = "sgd"
	}
}

// stepRight is the update question's right choice for p_y before and
// after the step: up, down or the same; −1 before the step.
func stepRight(st [2]float64) int {
	switch {
	case st[0] == 0 && st[1] == 0:
		return -1
	case st[1] > st[0]:
		return 0
	case st[1] < st[0]:
		return 1
	}
	return 2
}

// handRight is the hand chapter's right choice for J of the line set by
// hand (from) and after gradient descent from it (to): lower, the same
// (to float32's rounding of J), or higher; −1 before the run has ended.
func handRight(from, to float64) int {
	switch {
	case math.IsNaN(from) || math.IsNaN(to):
		return -1
	case math.Abs(to-from) <= 1e-6*math.Abs(from):
		return 1
	case to < from:
		return 0
	}
	return 2
}

// countOr formats a count, "?" while it is not known.
func countOr(n int) string {
	if n < 0 {
		return "?"
	}
	return strconv.Itoa(n)
}

// small formats a change with three significant digits: 3.91e-07.
// prose formats v, to four significant digits, for a sentence: as text
// when it is plain digits, as a formula when it needs a power of ten
// (p_y can be 10⁻⁸ for an image the model gets badly wrong).
func prose(v float64) string {
	s := mathml.Number(v, 4)
	if strings.ContainsAny(s, `\^`) {
		return "$" + s + "$"
	}
	return s
}

func small(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
