package digits

import (
	"strconv"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// handle registers the instrument's handlers of the store's actions,
// which its panels post. They run on go-app's goroutine, and the page
// renders after each.
func (d *Instrument) handle(ctx app.Context) {
	ctx.Handle(store.ActionTrain, d.onTrain)
	ctx.Handle(store.ActionStep, d.onStep)
	ctx.Handle(store.ActionReset, d.onReset)
	ctx.Handle(store.ActionPause, d.onPause)
	ctx.Handle(store.ActionDataset, d.onDataset)
	ctx.Handle(store.ActionRetry, d.onRetry)
	ctx.Handle(store.ActionRestart, d.onRestart)
	ctx.Handle(store.ActionDismiss, func(ctx app.Context, a app.Action) { d.st.Dismiss() })
	ctx.Handle(store.ActionWorkerNoticeOK, func(ctx app.Context, a app.Action) { d.st.DismissWorkerNotice() })
	ctx.Handle(store.ActionSettings, d.onSettings)
	ctx.Handle(store.ActionPace, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(string); ok {
			d.fields.Pace = v
			d.sendPace()
		}
	})
	ctx.Handle(store.ActionHessian, func(ctx app.Context, a app.Action) { d.Hessian() })
	ctx.Handle(store.ActionAxes, func(ctx app.Context, a app.Action) {
		if ax, ok := a.Value.(chart.Axes); ok {
			d.st.SetAxes(ax)
		}
	})
	ctx.Handle(store.ActionToggleRun, func(ctx app.Context, a app.Action) {
		if id, ok := a.Value.(int); ok {
			d.st.ToggleRun(id)
		}
	})
	ctx.Handle(store.ActionRemoveRun, func(ctx app.Context, a app.Action) {
		if id, ok := a.Value.(int); ok {
			d.st.RemoveRun(id)
		}
	})
	ctx.Handle(store.ActionScrub, d.onScrub)
	ctx.Handle(store.ActionSelectRun, d.onSelectRun)
	d.handleInspector(ctx)
	d.handleFiles(ctx)
}

// onSettings follows the Train panel's accepted fields: the page's link
// takes them, and #alpha-max is measured for them.
func (d *Instrument) onSettings(ctx app.Context, a app.Action) {
	if f, ok := a.Value.(params.Fields); ok {
		d.fields = f
		d.page.Changed()
		d.askCurvature() // λ, the pinning or the images may have changed
	}
}

// Hessian asks the worker for the Hessian of the 7×7 problem, with the
// Train panel's λ (the notes' cure needs some λ to show, so 1e-4 where it
// is 0) and images.
func (d *Instrument) Hessian() {
	l2, _ := strconv.ParseFloat(d.fields.L2, 64)
	if l2 <= 0 {
		l2 = 1e-4
	}
	d.st.HessianAsked()
	d.send(protocol.Hessian{L2: l2, Deskew: d.fields.Deskew})
}
