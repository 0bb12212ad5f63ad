package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// runList is the loss chart's legend of runs (#runs): one entry per run
// of the session, in its colour, naming its method and settings, with its
// final loss and test accuracy, and buttons to hide it from the chart or
// forget it, and, for a run that keeps its keyframes, to rewind it with
// the slider #scrub and keep them (the run selected). Each entry carries
// data-method, data-final-loss and data-test-accuracy with the raw values,
// and a branch data-from-run and data-from-step.
type runList struct {
	app.Compo

	ILang     i18n.Lang
	IRuns     []*store.Run
	ICurrent  int
	ISelected int // the run whose keyframes are kept beside the last's
	IVersion  int // grows when a run's record changes: the records are pointers
}

func newRunList() *runList { return &runList{} }

func (l *runList) Runs(la i18n.Lang, runs []*store.Run, current, selected, version int) *runList {
	l.ILang, l.IRuns, l.ICurrent, l.ISelected, l.IVersion = la, runs, current, selected, version
	return l
}

func (l *runList) Render() app.UI {
	la := l.ILang
	return app.Ol().ID("runs").Class("runs").Aria("label", la.T("runs.region")).Body(
		app.Range(l.IRuns).Slice(func(i int) app.UI {
			// Newest first: the current run leads the list.
			r := l.IRuns[len(l.IRuns)-1-i]
			loss, acc := "–", "–"
			lossAttr, accAttr := "", ""
			if !math.IsNaN(r.Loss) {
				loss, lossAttr = i18n.Loss(r.Loss), strconv.FormatFloat(r.Loss, 'g', -1, 64)
			}
			if !math.IsNaN(r.Accuracy) {
				acc, accAttr = i18n.Percent(r.Accuracy), strconv.FormatFloat(r.Accuracy, 'f', 4, 64)
			}
			cls := "run"
			if r.ID == l.ICurrent {
				cls += " current"
			}
			if r.Hidden {
				cls += " hidden"
			}
			id := r.ID
			fromRun, fromStep := "", ""
			if n := len(r.From); n > 0 {
				fromRun, fromStep = strconv.Itoa(r.From[n-1].Run), strconv.Itoa(r.From[n-1].Step)
			}
			selected := id == l.ISelected
			pick := 0
			if !selected {
				pick = id
			}
			return app.Li().Class(cls).Attr("data-run", id).Attr("data-method", r.Method()).
				Attr("data-final-loss", lossAttr).Attr("data-test-accuracy", accAttr).Attr("data-state", r.State).
				Attr("data-from-run", fromRun).Attr("data-from-step", fromStep).Attr("data-keyframes", len(r.Frames)).Body(
				app.Span().Class("swatch").Style("background", r.Color()),
				app.Span().Class("run-label").Text(r.Label(la)),
				app.Span().Class("run-result").Text(la.T("runs.result", loss, acc)),
				app.Button().Class("run-toggle").Aria("pressed", r.Hidden).Title(la.T("runs.hideWhy")).
					Text(la.T(map[bool]string{false: "runs.hide", true: "runs.show"}[r.Hidden])).
					OnClick(func(ctx app.Context, e app.Event) { store.ToggleRun.Post(ctx, id) }),
				app.If(len(r.Frames) > 1, func() app.UI {
					return app.Button().Class("run-pick").Aria("pressed", selected).Title(la.T("scrub.pickWhy")).Text(la.T("scrub.pick")).
						OnClick(func(ctx app.Context, e app.Event) { store.SelectRun.Post(ctx, pick) })
				}),
				app.If(r.ID != l.ICurrent, func() app.UI {
					return app.Button().Class("run-remove").Title(la.T("runs.removeWhy")).Text(la.T("runs.remove")).
						OnClick(func(ctx app.Context, e app.Event) { store.RemoveRun.Post(ctx, id) })
				}),
			)
		}),
	)
}
