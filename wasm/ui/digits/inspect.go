package digits

import (
	"softmaxdemo/wasm/ui/digits/panels"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"

	"math/rand/v2"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The instrument's part of the inspector (panels.Inspector): choosing
// the image, asking the worker for a cell's test images or a training
// image, and applying the update.

// handleInspector registers the inspector's actions.
func (d *Instrument) handleInspector(ctx app.Context) {
	ctx.Handle(store.ActionInspect, func(ctx app.Context, a app.Action) {
		if e, ok := a.Value.(predict.Example); ok {
			if e.Source == predict.SourceGallery {
				e.Pixels = predict.Input(e.Pixels, e.Label, d.st.ModelDeskew())
			}
			d.st.Inspecting(&e)
		}
	})
	ctx.Handle(store.ActionInspectRate, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(float64); ok {
			d.inspectRate = v
		}
	})
	ctx.Handle(store.ActionPickTrain, func(ctx app.Context, a app.Action) {
		d.send(protocol.PickTrain{Index: rand.IntN(1 << 30)})
	})
	ctx.Handle(store.ActionFindExamples, func(ctx app.Context, a app.Action) {
		if c, ok := a.Value.([2]int); ok {
			d.send(protocol.FindExamples{True: c[0], Predicted: c[1], Max: panels.MaxCellExamples})
		}
	})
	ctx.Handle(store.ActionApply, func(ctx app.Context, a app.Action) {
		e, ok := a.Value.(predict.Example)
		c, errs := params.Check(d.fields, d.st.TrainN).Result()
		if !ok || !errs.OK() || len(e.Pixels) != 784 {
			return
		}
		c.LearningRate = d.inspectRate
		d.st.AppliedOne()
		d.send(protocol.Apply{Config: c, Label: e.Label, Pixels: e.Pixels})
		if x := d.st.CellExamples; x != nil {
			// The confusion matrix will show the changed model: so does
			// the open cell's list.
			d.send(protocol.FindExamples{True: x.True, Predicted: x.Predicted, Max: panels.MaxCellExamples})
		}
	})
}

// ApplyInspected makes the inspector's update on its image, as its
// Apply button does; it reports whether there was one.
func (d *Instrument) ApplyInspected(ctx app.Context) bool {
	if d.st.Inspect == nil {
		return false
	}
	ctx.NewActionWithValue(store.ActionApply, *d.st.Inspect)
	return true
}
