package panels

import (
	"softmaxdemo/wasm/ui/i18n"

	"strconv"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// NewtonProgress shows a Newton run's own progress beside the status: the
// outer iteration, the conjugate-gradient steps the latest one took, the
// gradient's norm ‖∇J‖ (the stopping rule's number) and the step length
// the line search accepted (1 is the full Newton step). It is empty for
// the other methods. #newton-iteration, #cg-steps and #grad-norm carry
// data-value with the raw numbers.
type NewtonProgress struct {
	app.Compo

	ILang     i18n.Lang
	IProgress protocol.Progress
}

func (n *NewtonProgress) Render() app.UI {
	l, p := n.ILang, n.IProgress
	if p.Method != "newton" {
		return app.Div().ID("newton-progress").Class("newton-progress empty")
	}
	stat := func(id, label, value, raw string) app.UI {
		return app.Div().Class("stat").Body(
			app.Span().Class("stat-label").Text(label),
			app.Span().ID(id).Class("stat-value").Attr("data-value", raw).Text(value),
		)
	}
	return app.Div().ID("newton-progress").Class("newton-progress").Aria("label", l.T("newton.region")).Body(
		stat("newton-iteration", l.T("newton.iteration"), strconv.Itoa(p.Iteration), strconv.Itoa(p.Iteration)),
		stat("cg-steps", l.T("newton.cg"), strconv.Itoa(p.CGSteps), strconv.Itoa(p.CGSteps)),
		stat("grad-norm", l.T("newton.gradNorm"), strconv.FormatFloat(p.GradNorm, 'e', 2, 64), strconv.FormatFloat(p.GradNorm, 'g', -1, 64)),
		stat("step-length", l.T("newton.step"), strconv.FormatFloat(p.Rate, 'g', 3, 64), strconv.FormatFloat(p.Rate, 'g', -1, 64)),
	)
}
