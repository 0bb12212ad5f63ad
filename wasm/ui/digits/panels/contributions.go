package panels

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"

	"strconv"
	"strings"

	"softmaxdemo/core/softmax"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// contributions shows, next to the prediction, the images x ⊙ θ_c of the
// most probable digits on the templates' scale, with their sums: the
// logits z_c that the probabilities come from.
type contributions struct {
	app.Compo

	ILang     i18n.Lang
	IExplain  *predict.Explanation
	IVersion  int
	rgba      []byte
	drawn     int
	drawnOnce bool
}

func (c *contributions) OnMount(ctx app.Context) {
	c.drawnOnce = false
	ctx.Defer(func(app.Context) { c.draw() })
}

func (c *contributions) OnUpdate(ctx app.Context) {
	if !c.drawnOnce || c.drawn != c.IVersion {
		ctx.Defer(func(app.Context) { c.draw() })
	}
}

func (c *contributions) Render() app.UI {
	l, e := c.ILang, c.IExplain
	box := app.Div().ID("contributions").Class("contributions").Aria("label", l.T("contrib.region"))
	if e == nil || !e.Ready {
		return box.Attr("data-logits", "").Body(
			app.H3().Body(kit.Rich(l.T("contrib.title"))...),
			app.P().Class("note").Text(l.T("contrib.empty")),
		)
	}
	logits := make([]string, softmax.K)
	for k, z := range e.Z {
		logits[k] = strconv.FormatFloat(float64(z), 'g', -1, 32)
	}
	return box.Attr("data-logits", strings.Join(logits, ",")).Body(
		app.H3().Body(kit.Rich(l.T("contrib.title"))...),
		app.Div().Class("terms").Body(
			app.Range(e.Terms[:]).Slice(func(i int) app.UI {
				t := e.Terms[i]
				z := e.Z[t.Class]
				return app.Figure().Class("term").Attr("data-class", t.Class).
					Attr("data-z", strconv.FormatFloat(float64(z), 'g', -1, 32)).
					Attr("data-b", strconv.FormatFloat(float64(t.B), 'g', -1, 32)).
					Attr("data-sum", strconv.FormatFloat(float64(t.Sum), 'g', -1, 32)).
					Attr("data-p", strconv.FormatFloat(float64(e.P[t.Class]), 'g', -1, 32)).Body(
					app.Canvas().ID("contribution-"+strconv.Itoa(i)).Width(28).Height(28).Class("pixelated").Attr("role", "img").
						Aria("label", l.T("contrib.image", t.Class)),
					app.FigCaption().Body(
						app.Strong().Text(l.T("contrib.digit", t.Class, i18n.Percent(float64(e.P[t.Class])))),
						app.Span().Class("sum").Body(kit.Rich(l.T("contrib.sum", t.Class, i18n.Weight(float64(t.Sum)), i18n.Weight(float64(t.B)), i18n.Weight(float64(z))))...),
					),
				)
			}),
		),
		scaleLegend(l, "contributions-legend", e.Scale),
		app.P().Class("note").Body(kit.Rich(l.T("contrib.note"))...),
	)
}

func (c *contributions) draw() {
	e := c.IExplain
	if e == nil || !e.Ready {
		return
	}
	c.drawn, c.drawnOnce = c.IVersion, true
	if c.rgba == nil {
		c.rgba = make([]byte, 4*784)
	}
	for i, t := range e.Terms {
		paint.ValuesImage(c.rgba, t.X[:], e.Scale)
		_, ctx := paint.Context2D("contribution-" + strconv.Itoa(i))
		paint.PutRGBA(ctx, c.rgba, 28, 28, 0, 0)
	}
}
