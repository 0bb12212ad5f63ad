package panels

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"

	"strconv"

	"softmaxdemo/core/softmax"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// WeightGrid shows the ten learned templates θ_c as 28×28 images on one
// symmetric diverging scale, with its legend: red pixels vote for the
// digit, blue ones against it, white is 0. Pointing at a pixel (a mouse
// over it, a tap on it) shows that pixel's ten weights θ_{c,j}.
type WeightGrid struct {
	app.Compo

	ITasks   *kit.Tasks // the page's queue: each redraw is a task of its own
	ILang    i18n.Lang
	IModel   *softmax.Model[float32]
	IVersion int

	rgba     []byte
	drawn    int  // the IVersion last drawn, -1 for none
	pointing bool // a pixel was pointed at: probe
	probe    int
	queued   bool // a redraw is queued (kit.Tasks.DrawLater)
}

func (g *WeightGrid) OnMount(ctx app.Context) {
	g.drawn = -1
	ctx.Defer(func(app.Context) { g.draw() })
}

// OnUpdate redraws the templates when new weights arrive, not when only
// the pointed pixel changed.
func (g *WeightGrid) OnUpdate(ctx app.Context) {
	if g.drawn != g.IVersion {
		g.ITasks.DrawLater(ctx, g, &g.queued, g.draw)
	}
}

func (g *WeightGrid) Render() app.UI {
	l := g.ILang
	scale := 0.0
	if g.ok() {
		scale = paint.WeightScale(g.IModel.W)
	}
	return app.Section().Class("panel weights").Aria("label", l.T("weights.region")).Body(
		app.H2().Text(l.T("weights.title")),
		app.P().Class("note").Body(kit.Rich(l.T("weights.note"))...),
		app.Div().Class("weights-row").Body(
			app.Div().ID("weights").Class("templates").Attr("data-version", g.IVersion).Attr("data-checksum", kit.Checksum(g.IModel)).
				Attr("data-scale", strconv.FormatFloat(scale, 'g', -1, 64)).Body(
				app.Range(make([]struct{}, softmax.K)).Slice(func(c int) app.UI {
					return app.Figure().Class("template").Body(
						app.Div().Class("template-img").Body(
							app.Canvas().ID("weight-"+strconv.Itoa(c)).Width(28).Height(28).Class("pixelated").Attr("role", "img").
								Aria("label", l.T("weights.digit", c)).
								On("pointermove", g.onPoint).On("pointerdown", g.onPoint),
							g.marker(),
						),
						app.FigCaption().Text(strconv.Itoa(c)),
					)
				}),
			),
			app.Div().Class("weights-side").Body(
				scaleLegend(l, "weights-legend", scale),
				g.probeView(scale),
			),
		),
	)
}

// probeView shows the ten weights of the pixel pointed at.
func (g *WeightGrid) probeView(scale float64) app.UI {
	l := g.ILang
	box := app.Div().ID("weight-probe").Class("probe").Attr("aria-live", "polite")
	if !g.pointing || !g.ok() {
		return box.Attr("data-pixel", "").Body(app.P().Class("note").Body(kit.Rich(l.T("weights.point"))...))
	}
	j := g.probe
	w := pixelWeights(g.IModel.W, j)
	return box.Attr("data-pixel", j).Attr("data-row", j/28).Attr("data-col", j%28).Body(
		app.P().Class("probe-head").Body(kit.Rich(l.T("weights.pixel", j/28, j%28, j))...),
		app.Ol().Class("probe-values").Body(
			app.Range(w[:]).Slice(func(c int) app.UI {
				return app.Li().Attr("data-class", c).Attr("data-w", strconv.FormatFloat(float64(w[c]), 'g', -1, 32)).Body(
					app.Span().Class("swatch").Style("background", paint.DivergingCSS(float64(w[c]), scale)),
					app.Span().Class("probe-class").Body(kit.Rich(l.T("weights.theta", c))...),
					app.Span().Class("probe-w").Text(i18n.Weight(float64(w[c]))),
				)
			}),
		),
	)
}

// marker outlines the pointed pixel on a template, so the class sees
// which pixel's weights are shown.
func (g *WeightGrid) marker() app.UI {
	if !g.pointing {
		return app.Span().Class("marker hidden")
	}
	pct := func(v int) string { return strconv.FormatFloat(100*float64(v)/28, 'f', 3, 64) + "%" }
	return app.Span().Class("marker").Style("left", pct(g.probe%28)).Style("top", pct(g.probe/28))
}

// onPoint shows the weights of the pixel under the pointer.
func (g *WeightGrid) onPoint(ctx app.Context, e app.Event) {
	c := ctx.JSSrc()
	j, ok := pixelAt(e.Get("offsetX").Float(), e.Get("offsetY").Float(), c.Get("clientWidth").Float(), c.Get("clientHeight").Float())
	if !ok || (g.pointing && j == g.probe) {
		ctx.PreventUpdate()
		return
	}
	g.pointing, g.probe = true, j
}

func (g *WeightGrid) ok() bool { return g.IModel != nil && len(g.IModel.W) == 784*softmax.K }

func (g *WeightGrid) draw() {
	if !g.ok() {
		return
	}
	if g.rgba == nil {
		g.rgba = make([]byte, 4*784)
	}
	g.drawn = g.IVersion
	scale := paint.WeightScale(g.IModel.W)
	for c := range softmax.K {
		paint.TemplateImage(g.rgba, g.IModel.W, c, scale)
		_, ctx := paint.Context2D("weight-" + strconv.Itoa(c))
		paint.PutRGBA(ctx, g.rgba, 28, 28, 0, 0)
	}
}

// pixelWeights returns the ten weights θ_{c,j} of pixel j, one per class.
// w is D×10 as in softmax.Model; it panics if j is not a pixel of w.
func pixelWeights(w []float32, j int) [softmax.K]float32 {
	return [softmax.K]float32(w[j*softmax.K : (j+1)*softmax.K])
}

// pixelAt returns the pixel j = 28·row + col under the point (x, y) of a
// 28×28 image shown w×h CSS pixels large, and whether the point is on it.
func pixelAt(x, y, w, h float64) (int, bool) {
	if !(w > 0 && h > 0 && x >= 0 && y >= 0 && x < w && y < h) {
		return -1, false
	}
	col, row := int(x*28/w), int(y*28/h)
	return 28*min(row, 27) + min(col, 27), true
}

// scaleLegend shows the diverging scale [−scale, scale] with its end
// values and 0 (white) in the middle.
func scaleLegend(l i18n.Lang, id string, scale float64) app.UI {
	end := func(v float64) string {
		if scale == 0 {
			return "–"
		}
		return i18n.Weight(v)
	}
	return app.Div().ID(id).Class("scale-legend").Attr("data-min", strconv.FormatFloat(-scale, 'g', -1, 64)).
		Attr("data-max", strconv.FormatFloat(scale, 'g', -1, 64)).Aria("label", l.T("weights.legend", end(-scale), end(scale))).Body(
		app.Span().Class("scale-end").Text(end(-scale)),
		app.Span().Class("ramp neg"),
		app.Span().Class("scale-zero").Text("0"),
		app.Span().Class("ramp pos"),
		app.Span().Class("scale-end").Text(end(scale)),
	)
}
