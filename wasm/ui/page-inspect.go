package ui

import (
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"
	"softmaxdemo/wasm/ui/store"

	"math/rand/v2"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page's part of the inspector (inspector.go): choosing the image,
// asking the worker for a cell's test images or a training image, and
// applying the update.

// handleInspector registers the inspector's actions.
func (p *page) handleInspector(ctx app.Context) {
	ctx.Handle(store.ActionInspect, func(ctx app.Context, a app.Action) {
		if e, ok := a.Value.(predict.Example); ok {
			if e.Source == predict.SourceGallery {
				e.Pixels = predict.Input(e.Pixels, e.Label, p.st.ModelDeskew())
			}
			p.st.Inspect, p.st.Applied = &e, 0
		}
	})
	ctx.Handle(store.ActionInspectRate, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(float64); ok {
			p.inspectRate = v
		}
	})
	ctx.Handle(store.ActionPickTrain, func(ctx app.Context, a app.Action) {
		p.send(protocol.PickTrain{Index: rand.IntN(1 << 30)})
	})
	ctx.Handle(store.ActionFindExamples, func(ctx app.Context, a app.Action) {
		if c, ok := a.Value.([2]int); ok {
			p.send(protocol.FindExamples{True: c[0], Predicted: c[1], Max: maxCellExamples})
		}
	})
	ctx.Handle(store.ActionApply, func(ctx app.Context, a app.Action) {
		e, ok := a.Value.(predict.Example)
		c, errs := params.Parse(p.link.Fields, p.st.TrainN)
		if !ok || !errs.OK() || len(e.Pixels) != 784 {
			return
		}
		c.LearningRate = p.inspectRate
		p.st.Applied++
		p.send(protocol.Apply{Config: c, Label: e.Label, Pixels: e.Pixels})
		if x := p.st.CellExamples; x != nil {
			// The confusion matrix will show the changed model: so does
			// the open cell's list.
			p.send(protocol.FindExamples{True: x.True, Predicted: x.Predicted, Max: maxCellExamples})
		}
	})
}

// inspector is the inspector panel for the page's state, with its own α
// and the Train panel's λ.
func (p *page) inspector() app.UI {
	s := p.st
	c, _ := params.Parse(p.link.Fields, s.TrainN)
	pin := c.PinFirst
	if r := s.Current(); r != nil {
		pin = r.Cfg.PinFirst
	}
	return &inspector{ILang: s.Lang, IModel: s.Model, IExample: s.Inspect, IRate: p.inspectRate, IL2: c.L2, IPin: pin, IApplied: s.Applied}
}
