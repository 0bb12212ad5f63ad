package ui

import (
	"fmt"
	"strconv"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// gallery shows test digits with the current model's predictions; the
// mistakes are marked. The page classifies them itself from the latest
// weights (60 images: microseconds).
type gallery struct {
	app.Compo

	ISamples protocol.Samples
	IModel   *softmax.Model[float32] // the model at the latest evaluation

	preds  []int // -1 before there is a model
	drawn  int   // samples drawn onto their canvases
	rgba   []byte
	sparse *softmax.Examples[float32] // the samples as model input, built once
}

func newGallery() *gallery { return &gallery{} }

func (g *gallery) OnMount(ctx app.Context) {
	g.rgba = make([]byte, 4*784)
	g.predict()
	ctx.Defer(func(app.Context) { g.draw() })
}

func (g *gallery) OnUpdate(ctx app.Context) {
	g.predict()
	ctx.Defer(func(app.Context) { g.draw() })
}

func (g *gallery) predict() {
	n := len(g.ISamples.Labels)
	if g.sparse == nil || g.sparse.Len() != n {
		g.sparse = samplesAsExamples(g.ISamples)
		g.drawn = 0
	}
	g.preds = g.preds[:0]
	for i := range n {
		if g.IModel == nil || g.IModel.D != 784 {
			g.preds = append(g.preds, -1)
			continue
		}
		c, _ := g.IModel.Predict(g.sparse.Example(i))
		g.preds = append(g.preds, c)
	}
}

func (g *gallery) Render() app.UI {
	wrong := 0
	for i, p := range g.preds {
		if p >= 0 && p != int(g.ISamples.Labels[i]) {
			wrong++
		}
	}
	note := "Test digits the model has never trained on."
	if g.IModel != nil && len(g.preds) > 0 {
		note = fmt.Sprintf("%d of %d test digits misread (marked red).", wrong, len(g.preds))
	}
	return app.Section().Class("panel gallery-panel").Aria("label", "Test digits").Body(
		app.H2().Text("Test digits and predictions"),
		app.P().ID("gallery-note").Class("note").Text(note),
		app.Div().ID("gallery").Class("gallery").Body(
			app.Range(g.preds).Slice(func(i int) app.UI {
				label := int(g.ISamples.Labels[i])
				cls, text := "sample", "·"
				if p := g.preds[i]; p >= 0 {
					text = strconv.Itoa(p)
					if p != label {
						cls += " wrong"
					}
				}
				return app.Figure().Class(cls).Attr("data-label", label).Attr("data-predicted", text).Body(
					app.Canvas().ID("sample-"+strconv.Itoa(i)).Width(28).Height(28).Class("pixelated").
						Aria("label", fmt.Sprintf("a test %d", label)),
					app.FigCaption().Text(text),
				)
			}),
		),
	)
}

// draw paints each sample once; the images never change.
func (g *gallery) draw() {
	n := len(g.ISamples.Labels)
	if g.drawn > n {
		g.drawn = 0
	}
	for i := g.drawn; i < n; i++ {
		_, c := context2D("sample-" + strconv.Itoa(i))
		if !c.Truthy() {
			return
		}
		greyImage(g.rgba, g.ISamples.Pixels[784*i:784*(i+1)])
		putRGBA(c, g.rgba, 28, 28, 0, 0)
		g.drawn = i + 1
	}
}
