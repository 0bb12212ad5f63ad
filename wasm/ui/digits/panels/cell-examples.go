package panels

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"

	"strconv"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// MaxCellExamples caps the test images of one confusion cell that the
// page asks the worker for.
const MaxCellExamples = 60

// cellExamples lists the test images of the confusion cell a person
// clicked, with the probability the model gives the predicted digit;
// clicking one opens it in the inspector. The worker finds them
// (protocol.FindExamples) among the images the model was measured on.
type cellExamples struct {
	app.Compo

	ILang     i18n.Lang
	IExamples *protocol.Examples

	drawn *protocol.Examples
	rgba  []byte
}

func (c *cellExamples) OnMount(ctx app.Context) {
	c.drawn = nil
	ctx.Defer(func(app.Context) { c.draw() })
}
func (c *cellExamples) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { c.draw() }) }

func (c *cellExamples) Render() app.UI {
	l, e := c.ILang, c.IExamples
	if e == nil {
		return app.Div().Class("cell-examples").Body(
			app.P().ID("confusion-examples-note").Class("note").Text(l.T("confusion.pick")),
			app.Div().ID("confusion-examples").Class("cell-list"),
		)
	}
	note := l.T("confusion.examples", e.Count, e.True, e.Predicted)
	if len(e.Index) < e.Count {
		note = l.T("confusion.examplesCapped", e.Count, e.True, e.Predicted, len(e.Index))
	}
	return app.Div().Class("cell-examples").Body(
		app.P().ID("confusion-examples-note").Class("note").Text(note),
		app.Div().ID("confusion-examples").Class("cell-list").
			Attr("data-true", e.True).Attr("data-predicted", e.Predicted).Attr("data-count", e.Count).Attr("data-run", e.Run).Body(
			app.Range(e.Index).Slice(func(k int) app.UI {
				p := e.Probs[10*k+e.Predicted]
				name := l.T("confusion.exampleTitle", e.Index[k], e.Predicted, kit.Prob(p))
				return app.Button().Class("cell-example").
					Attr("data-true", e.True).Attr("data-predicted", e.Predicted).Attr("data-p", kit.Exact32(p)).Attr("data-index", e.Index[k]).
					Title(name).Aria("label", name).
					OnClick(func(ctx app.Context, ev app.Event) { c.onPick(ctx, k) }).Body(
					app.Canvas().ID("cell-ex-"+strconv.Itoa(k)).Width(28).Height(28).Class("pixelated").Aria("hidden", "true"), // the button's name says it
					app.Span().Text(kit.Prob(p)),
				)
			}),
		),
	)
}

func (c *cellExamples) onPick(ctx app.Context, k int) {
	e := c.IExamples
	if e == nil || k >= len(e.Index) {
		return
	}
	browser.Mark("softmax:inspect-click")
	px := e.Pixels[dataset.Pixels*k : dataset.Pixels*(k+1)]
	store.Inspect.Post(ctx, predict.Example{Source: predict.SourceCell, Index: e.Index[k], Label: uint8(e.True), Pixels: px})
}

func (c *cellExamples) draw() {
	e := c.IExamples
	if e == nil || e == c.drawn {
		return
	}
	c.drawn = e
	if c.rgba == nil {
		c.rgba = make([]byte, 4*dataset.Pixels)
	}
	for k := range e.Index {
		paint.GreyImage(c.rgba, e.Pixels[dataset.Pixels*k:dataset.Pixels*(k+1)])
		_, ctx := paint.Context2D("cell-ex-" + strconv.Itoa(k))
		paint.PutRGBA(ctx, c.rgba, 28, 28, 0, 0)
	}
}
