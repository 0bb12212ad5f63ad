package planepanel

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/planeview"

	"strconv"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pathList lists the three paths of the loss surface (#plane-paths), one
// item per method in its colour: its steps, final J, ‖∇J‖ and ‖θ‖, and why
// it stopped (IShort: its steps, J and why); the attributes carry the
// numbers at full precision.
type pathList struct {
	app.Compo

	ILang  i18n.Lang
	IScene *plane.Scene
	IShort bool
}

func (pp *pathList) Render() app.UI {
	l, sc := pp.ILang, pp.IScene
	list := app.Ol().ID("plane-paths").Class("plane-paths")
	if sc == nil {
		return list
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return list.Body(app.Range(sc.Paths[:]).Slice(func(i int) app.UI {
		p := sc.Paths[i]
		last := len(p.Loss) - 1
		name := l.T("plane.pathGD")
		switch p.Method {
		case plane.SGD:
			name = l.T("plane.pathSGD", max(sc.Settings.Batch, 1))
		case plane.Newton:
			name = l.T("plane.pathNewton")
		}
		why := l.T("plane.stopConverged")
		switch p.Stop {
		case plane.Converged:
			if !sc.HasMin {
				why = l.T("plane.stopFlat") // ∇J fell with J on a slope that never ends
			}
		case plane.Budget:
			why = l.T("plane.stopBudget", p.Steps)
			if pp.IShort {
				why = l.T("plane.lesson.stopBudget")
			}
		case plane.Diverged:
			why = l.T("plane.stopDiverged")
			if pp.IShort {
				why = l.T("plane.lesson.stopDiverged")
			}
		case plane.Stalled:
			why = l.T("plane.stopStalled")
		}
		row := l.T("plane.pathRow", p.Steps, i18n.Loss(p.Loss[last]), strconv.FormatFloat(p.Grad, 'e', 1, 64), i18n.Loss(p.Norm[last]))
		if pp.IShort {
			row = l.T("plane.lesson.pathRow", p.Steps, i18n.Loss(p.Loss[last]))
		}
		return app.Li().Attr("data-method", p.Method.String()).Attr("data-steps", p.Steps).
			Attr("data-final-loss", g(p.Loss[last])).Attr("data-grad-norm", g(p.Grad)).
			Attr("data-theta-norm", g(p.Norm[last])).Attr("data-stop", p.Stop.String()).Attr("data-zigzags", p.ZigZags).Body(
			app.Span().Class("swatch").Style("background", planeview.PathColors[p.Method]),
			app.Strong().Text(name),
			app.Text(" "+row+" · "+why),
			// SGD's noise turns it back too; the short list keeps the
			// zig-zags of a step too long, gradient descent's.
			app.If(p.ZigZags > p.Steps/3 && p.Method != plane.Newton && !(pp.IShort && p.Method == plane.SGD), func() app.UI {
				return app.Text(" · " + l.T("plane.zigzags", p.ZigZags, p.Steps))
			}),
		)
	}))
}
