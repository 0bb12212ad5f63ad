package ui

import (
	"fmt"
	"strconv"

	"softmaxdemo/core/softmax"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// weightGrid shows the ten learned templates θ_c as 28×28 images on a
// diverging scale: red pixels vote for the digit, blue ones against it.
type weightGrid struct {
	app.Compo

	IModel   *softmax.Model[float32]
	IVersion int

	rgba  []byte
	scale [softmax.K]float64
}

func newWeightGrid() *weightGrid { return &weightGrid{} }

func (g *weightGrid) OnMount(ctx app.Context)  { ctx.Defer(func(app.Context) { g.draw() }) }
func (g *weightGrid) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { g.draw() }) }

func (g *weightGrid) Render() app.UI {
	return app.Section().Class("panel weights").Aria("label", "Learned weights").Body(
		app.H2().Text("What each digit's weights look like"),
		app.P().Class("note").Text("θ for each class as an image: red pixels raise that digit's score, blue pixels lower it."),
		app.Div().ID("weights").Class("templates").Attr("data-version", g.IVersion).Body(
			app.Range(make([]struct{}, softmax.K)).Slice(func(c int) app.UI {
				return app.Figure().Class("template").Body(
					app.Canvas().ID("weight-"+strconv.Itoa(c)).Width(28).Height(28).Class("pixelated").
						Aria("label", fmt.Sprintf("weights of digit %d", c)),
					app.FigCaption().Text(strconv.Itoa(c)),
				)
			}),
		),
	)
}

func (g *weightGrid) draw() {
	if g.IModel == nil || len(g.IModel.W) != 784*softmax.K {
		return
	}
	if g.rgba == nil {
		g.rgba = make([]byte, 4*784)
	}
	for c := range softmax.K {
		g.scale[c] = templateImage(g.rgba, g.IModel.W, c)
		_, ctx := context2D("weight-" + strconv.Itoa(c))
		putRGBA(ctx, g.rgba, 28, 28, 0, 0)
	}
}
