package digits

import (
	"math/rand/v2"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/panels"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// handle registers the owner's handlers of the room's actions: its
// panels' (package store) and the page's (actions.go). They run on
// go-app's goroutine, and the page renders after each.
func (o *owner) handle(ctx app.Context) {
	st := o.st
	store.Train.Handle(ctx, func(ctx app.Context) { o.train(ctx, false) })
	store.Step.Handle(ctx, func(ctx app.Context) { o.train(ctx, true) })
	store.Reset.Handle(ctx, o.reset)
	store.Pause.Handle(ctx, o.pause)
	store.Edit.Handle(ctx, o.edit)
	store.Preset.Handle(ctx, o.preset)
	store.Dataset.Handle(ctx, o.dataset)
	store.Retry.Handle(ctx, o.c.retry)
	store.Restart.Handle(ctx, o.c.restart)
	store.Dismiss.Handle(ctx, func(app.Context) { st.Dismiss() })
	store.WorkerNoticeOK.Handle(ctx, func(app.Context) { st.DismissWorkerNotice() })
	store.Hessian.Handle(ctx, o.hessian)
	store.Axes.Handle(ctx, func(_ app.Context, a chart.Axes) { st.SetAxes(a) })
	store.ToggleRun.Handle(ctx, func(_ app.Context, id int) { st.ToggleRun(id) })
	store.RemoveRun.Handle(ctx, func(_ app.Context, id int) { st.RemoveRun(id) })
	store.ScrubTo.Handle(ctx, func(_ app.Context, to store.Scrub) { o.scrubbed(st.ScrubTo(to)) })
	store.SelectRun.Handle(ctx, func(_ app.Context, id int) { o.scrubbed(st.SelectRun(id)) })

	store.Inspect.Handle(ctx, o.inspect)
	store.InspectRate.Handle(ctx, func(_ app.Context, a float64) { st.SetInspectRate(a) })
	store.PickTrain.Handle(ctx, func(app.Context) { o.c.send(protocol.PickTrain{Index: rand.IntN(1 << 30)}) })
	store.FindExamples.Handle(ctx, func(_ app.Context, c store.Cell) {
		o.c.send(protocol.FindExamples{True: c.True, Predicted: c.Predicted, Max: panels.MaxCellExamples})
	})
	store.ApplyUpdate.Handle(ctx, o.applyUpdate)

	store.DownloadModel.Handle(ctx, o.files.downloadModel)
	store.UploadModel.Handle(ctx, func(ctx app.Context, f browser.File) { o.files.readFile(ctx, f, false) })
	store.ForgetModel.Handle(ctx, o.forgetModel)
	store.AddDigit.Handle(ctx, o.files.addDigit)
	store.RemoveDigit.Handle(ctx, o.files.removeDigit)
	store.MyDigitsRate.Handle(ctx, o.files.myDigitsRate)
	store.DownloadDigits.Handle(ctx, o.files.downloadDigits)
	store.UploadDigits.Handle(ctx, func(ctx app.Context, f browser.File) { o.files.readFile(ctx, f, true) })

	Apply.Handle(ctx, o.apply)
	SetFields.Handle(ctx, func(ctx app.Context, f params.Fields) {
		set := o.View().Settings()
		set.Fields = f
		o.apply(ctx, set)
	})
	TrainWith.Handle(ctx, o.trainWith)
	Fresh.Handle(ctx, o.fresh)
	UseModel.Handle(ctx, o.useModel)
	Follow.Handle(ctx, o.follow)
	SetMyDigits.Handle(ctx, o.files.setClassDigits)
	Show.Handle(ctx, o.show)
	ApplyInspected.Handle(ctx, func(ctx app.Context) {
		if e := st.Inspect; e != nil {
			o.applyUpdate(ctx, *e)
		}
	})
	Lang.Handle(ctx, func(_ app.Context, l i18n.Lang) { st.SetLang(l) })
}

// inspect makes e the inspector's image; a gallery image is read as the
// model reads its test images, straightened if it was trained so.
func (o *owner) inspect(_ app.Context, e predict.Example) {
	if e.Source == predict.SourceGallery {
		e.Pixels = predict.Input(e.Pixels, e.Label, o.st.ModelDeskew())
	}
	o.st.Inspecting(&e)
}

// applyUpdate asks the worker to make the inspector's update on e, with
// the inspector's α and the Train panel's λ; the open confusion cell's
// images follow the changed model.
func (o *owner) applyUpdate(_ app.Context, e predict.Example) {
	st := o.st
	set := st.Controls.Settings
	if !set.OK() || st.TrainN == 0 || len(e.Pixels) != 784 {
		return
	}
	c := set.Config
	c.LearningRate = st.Controls.InspectRate
	st.AppliedOne()
	o.c.send(protocol.Apply{Config: c, Label: e.Label, Pixels: e.Pixels})
	if x := st.CellExamples; x != nil {
		o.c.send(protocol.FindExamples{True: x.True, Predicted: x.Predicted, Max: panels.MaxCellExamples})
	}
}

// show does what a chapter needs on entering it: the chart's axes, and
// an image for the inspector if it asks for one and has none.
func (o *owner) show(_ app.Context, s Shown) {
	if s.Axes != nil {
		o.st.SetAxes(*s.Axes)
	}
	if s.Inspect && o.st.Inspect == nil && o.st.TrainN > 0 {
		o.c.send(protocol.PickTrain{Index: rand.IntN(1 << 30)})
	}
}
