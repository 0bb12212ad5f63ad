package panels

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"
	"strings"

	"strconv"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Inspector shows one update of the model on one image, in the notes'
// notation: x, z = θx + b, z − max z, p = softmax(z), y, p − y, the loss
// −log p_y, the gradients ∇θ_c as images, the update θ_c := θ_c − α∇θ_c,
// and p and the loss after it. Its Apply button asks the worker to make
// that update (protocol.Apply). The numbers are recomputed when the model,
// the image, α or λ change.
type Inspector struct {
	app.Compo

	ILang    i18n.Lang
	IModel   *softmax.Model[float32]
	IExample *predict.Example
	IRate    float64 // the inspector's own α
	IL2      float64 // and λ
	IPin     bool    // the model keeps class 0 at zero
	IApplied int     // updates applied so far

	in      *train.Inspection
	err     error
	key     inspectKey // what in was computed from
	drawn   *predict.Example
	rgba    []byte
	label   int  // the digit chosen for the drawing
	rateBad bool // the α typed is refused
}

type inspectKey struct {
	m        *softmax.Model[float32]
	e        *predict.Example
	rate, l2 float64
	pin      bool
}

// OnInit computes before the first render, OnUpdate before the others.
func (c *Inspector) OnInit()                 { c.compute() }
func (c *Inspector) OnMount(ctx app.Context) { ctx.Defer(func(app.Context) { c.draw() }) }
func (c *Inspector) OnUpdate(ctx app.Context) {
	c.compute()
	ctx.Defer(func(app.Context) { c.draw() })
}

func (c *Inspector) compute() {
	k := inspectKey{c.IModel, c.IExample, c.IRate, c.IL2, c.IPin}
	if k == c.key {
		return
	}
	c.key, c.in, c.err = k, nil, nil
	if c.IModel == nil || c.IModel.D != dataset.Pixels || c.IExample == nil || len(c.IExample.Pixels) != dataset.Pixels {
		return
	}
	c.in, c.err = predict.Inspect(c.IModel, c.IExample, c.IRate, softmax.Objective{Lambda: c.IL2, PinFirst: c.IPin})
}

func (c *Inspector) draw() {
	if c.in == nil {
		return
	}
	if c.rgba == nil {
		c.rgba = make([]byte, 4*dataset.Pixels)
	}
	paint.GreyImage(c.rgba, c.IExample.Pixels)
	_, x := paint.Context2D("inspect-x")
	paint.PutRGBA(x, c.rgba, 28, 28, 0, 0)
	// The ten gradients share one symmetric scale, so their sizes compare.
	scale := paint.WeightScale(c.in.GW)
	for k := range softmax.K {
		paint.TemplateImage(c.rgba, c.in.GW, k, scale)
		_, g := paint.Context2D("inspect-grad-" + strconv.Itoa(k))
		paint.PutRGBA(g, c.rgba, 28, 28, 0, 0)
	}
	if c.drawn != c.IExample {
		c.drawn = c.IExample
		// For tools/browsertest: when the inspector last showed a new image.
		app.Window().Get("performance").Call("mark", "softmax:inspect-filled")
	}
}

// onDrawing inspects the drawing in the pad's preview (the model's input,
// dark ink on white) as the digit chosen beside the button.
func (c *Inspector) onDrawing(ctx app.Context, e app.Event) {
	_, pc := paint.Context2D("input-preview")
	if !pc.Truthy() {
		return
	}
	data := pc.Call("getImageData", 0, 0, 28, 28).Get("data")
	rgba := make([]byte, 4*dataset.Pixels)
	if app.CopyBytesToGo(rgba, data) != len(rgba) {
		return
	}
	px := make([]byte, dataset.Pixels)
	ink := false
	for j := range px {
		if rgba[4*j+3] != 0 {
			px[j] = 255 - rgba[4*j]
		}
		ink = ink || px[j] != 0
	}
	if !ink {
		return
	}
	store.Inspect.Post(ctx, predict.Example{Source: predict.SourceDrawing, Index: -1, Label: uint8(c.label), Pixels: px})
}

func (c *Inspector) onLabel(ctx app.Context, e app.Event) {
	if n, err := strconv.Atoi(ctx.JSSrc().Get("value").String()); err == nil && n >= 0 && n < softmax.K {
		c.label = n
	}
}

func (c *Inspector) Render() app.UI {
	l := c.ILang
	return app.Section().Class("panel inspect-panel").Aria("label", l.T("inspect.region")).Body(
		app.H2().Text(l.T("inspect.title")),
		app.P().Class("note").Text(l.T("inspect.note")),
		app.Div().Class("inspect-controls").Body(
			app.Button().ID("inspect-train").Text(l.T("inspect.pickTrain")).
				OnClick(func(ctx app.Context, e app.Event) {
					browser.Mark("softmax:inspect-click")
					store.PickTrain.Post(ctx)
				}),
			app.Span().Class("inspect-draw").Body(
				app.Button().ID("inspect-draw").Text(l.T("inspect.drawing")).OnClick(c.onDrawing),
				app.Label().For("inspect-draw-label").Text(l.T("inspect.drawingAs")),
				app.Select().ID("inspect-draw-label").OnChange(c.onLabel).Body(
					app.Range(make([]struct{}, softmax.K)).Slice(func(k int) app.UI {
						return app.Option().Value(strconv.Itoa(k)).Text(strconv.Itoa(k)).Selected(k == c.label)
					}),
				),
			),
		),
		app.Div().Class("inspect-rate").Body(
			app.Label().For("inspect-lr").Text(l.T("inspect.lr")),
			app.Input().ID("inspect-lr").Type("text").Attr("inputmode", "decimal").Size(6).Value(kit.Exact64(c.IRate)).
				Title(l.T("inspect.lrWhy")).Aria("invalid", strconv.FormatBool(c.rateBad)).OnInput(c.onRate),
		),
		c.body(),
	)
}

// onRate takes the inspector's α as it is typed: a number above 0 and at
// most 10 (one step on one image; the Train panel's bound is for
// minibatches).
func (c *Inspector) onRate(ctx app.Context, e app.Event) {
	v, err := strconv.ParseFloat(strings.TrimSpace(ctx.JSSrc().Get("value").String()), 64)
	c.rateBad = err != nil || !(v > 0 && v <= 10)
	if !c.rateBad {
		store.InspectRate.Post(ctx, v)
	}
}

// body is the inspection, or a line saying why there is none.
func (c *Inspector) body() app.UI {
	l, in := c.ILang, c.in
	switch {
	case c.IExample == nil:
		return app.Div().ID("inspect").Attr("data-state", "empty").Body(app.P().Class("note").Text(l.T("inspect.empty")))
	case c.err != nil:
		return app.Div().ID("inspect").Attr("data-state", "error").Body(app.P().Class("note").Text(l.T("inspect.error", c.err.Error())))
	case in == nil:
		return app.Div().ID("inspect").Attr("data-state", "noModel").Body(app.P().Class("note").Text(l.T("inspect.noModel")))
	}
	y := in.Label
	return app.Div().ID("inspect").Attr("data-state", "filled").
		Attr("data-source", c.IExample.Source).Attr("data-index", c.IExample.Index).Attr("data-label", y).
		Attr("data-predicted", softmax.Argmax(&in.P)).Attr("data-p", kit.ExactList(in.P[:])).Attr("data-p-after", kit.ExactList(in.PAfter[:])).
		Attr("data-loss", strconv.FormatFloat(in.Loss, 'g', -1, 64)).Attr("data-loss-after", strconv.FormatFloat(in.LossAfter, 'g', -1, 64)).
		Attr("data-model", kit.Checksum(c.IModel)).Attr("data-after", kit.Checksum(in.After)).Body(
		app.Div().Class("inspect-top").Body(
			app.Figure().Class("inspect-x").Body(
				app.Canvas().ID("inspect-x").Width(28).Height(28).Class("pixelated").Attr("role", "img").Aria("label", l.T("inspect.xLabel", y)),
				app.FigCaption().Text(l.T("inspect.x", y, sourceText(l, c.IExample.Source))),
			),
			app.Div().Class("inspect-loss").Body(
				app.P().ID("inspect-loss").Body(kit.Rich(l.T("inspect.loss", y, i18n.Loss(in.Loss)))...),
				app.P().ID("inspect-loss-after").Text(l.T("inspect.lossAfter", i18n.Loss(in.LossAfter))),
				app.P().Class("note").Body(kit.Rich(l.T("inspect.max", fmtLogit(in.Max)))...),
			),
		),
		app.Table().ID("inspect-table").Class("inspect-table").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.class"))...),
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.z"))...),
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.shifted"))...),
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.p"))...),
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.y"))...),
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.diff"))...),
				app.Th().Attr("scope", "col").Body(kit.Rich(l.T("inspect.col.pAfter"))...),
			)),
			app.TBody().Body(app.Range(make([]struct{}, softmax.K)).Slice(func(k int) app.UI {
				one, cls := "0", ""
				if k == y {
					one, cls = "1", "true"
				}
				return app.Tr().Class(cls).Attr("data-class", k).Body(
					app.Th().Attr("scope", "row").Text(strconv.Itoa(k)),
					app.Td().Text(fmtLogit(in.Z[k])),
					app.Td().Text(fmtLogit(in.Shifted[k])),
					app.Td().Class("p").Text(kit.Prob(in.P[k])),
					app.Td().Text(one),
					app.Td().Text(kit.Prob(in.Diff[k])),
					app.Td().Class("p").Text(kit.Prob(in.PAfter[k])),
				)
			})),
		),
		app.H3().Body(kit.Rich(l.T("inspect.grad", kit.Exact64(c.IL2)))...),
		app.Div().Class("inspect-grads").Body(
			app.Range(make([]struct{}, softmax.K)).Slice(func(k int) app.UI {
				return app.Figure().Class("template").Body(
					app.Canvas().ID("inspect-grad-"+strconv.Itoa(k)).Width(28).Height(28).Class("pixelated").Attr("role", "img").
						Aria("label", kit.Plain(l.T("inspect.gradLabel", k))),
					app.FigCaption().Text(strconv.Itoa(k)),
				)
			}),
		),
		app.P().Class("inspect-update").Body(kit.Rich(l.T("inspect.update", kit.Exact64(in.Rate), kit.Exact64(c.IL2)))...),
		app.Button().ID("inspect-apply").Text(l.T("inspect.apply")).Title(l.T("inspect.applyWhy")).
			OnClick(func(ctx app.Context, e app.Event) { store.ApplyUpdate.Post(ctx, *c.IExample) }),
		app.If(c.IApplied > 0, func() app.UI {
			return app.P().ID("inspect-applied").Class("note").Attr("data-applied", c.IApplied).Text(l.T("inspect.applied", c.IApplied))
		}),
	)
}

// fmtLogit formats a logit, or a difference of logits, with three decimals.
func fmtLogit(v float32) string { return strconv.FormatFloat(float64(v), 'f', 3, 64) }

// sourceText says where an inspected image came from.
func sourceText(l i18n.Lang, source string) string {
	switch source {
	case predict.SourceGallery:
		return l.T("inspect.from.gallery")
	case predict.SourceCell:
		return l.T("inspect.from.cell")
	case predict.SourceTrain:
		return l.T("inspect.from.train")
	}
	return l.T("inspect.from.drawing")
}
