package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"

	"strconv"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// HessianView shows Newton's Hessian for the small problem the notes warn
// about: H = Σ xxᵀ ⊗ (diag μ − μμᵀ) for 7×7 images (49 pixels and the
// bias, 500 parameters) at θ = 0, as an image in which the 10×10 blocks of
// the Kronecker form show, and for λ = 0, for digit 0 pinned and for the
// panel's λ, how many of its eigenvalues are zero and the smallest others.
// The worker computes it on request (#hessian-show): about a second.
type HessianView struct {
	app.Compo

	ILang   i18n.Lang
	IView   *protocol.HessianView
	IBusy   bool // the worker is computing it
	IL2     string
	IDeskew bool

	rgba []byte
}

func (h *HessianView) OnMount(ctx app.Context)  { ctx.Defer(func(app.Context) { h.draw() }) }
func (h *HessianView) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { h.draw() }) }

func (h *HessianView) Render() app.UI {
	l, v := h.ILang, h.IView
	return app.Section().Class("panel hessian-panel").Aria("label", l.T("hessian.title")).Body(
		app.H2().Text(l.T("hessian.title")),
		app.P().Class("note").Body(kit.Rich(l.T("hessian.note"))...),
		app.Button().ID("hessian-show").Text(l.T("hessian.show")).Disabled(h.IBusy).
			OnClick(func(ctx app.Context, e app.Event) { store.Hessian.Post(ctx) }),
		app.If(v != nil, func() app.UI {
			plain := v.Cases[0]
			blank := max(0, (plain.Zero-v.Features-1)/9)
			return app.Div().Class("hessian-body").Body(
				app.Canvas().ID("hessian").Width(v.N).Height(v.N).Class("pixelated").Attr("role", "img").
					Attr("data-n", v.N).Aria("label", l.T("hessian.image", v.N, v.N)),
				app.Div().Body(
					app.P().Text(l.T("hessian.sum", v.Images)),
					app.Table().ID("hessian-eigen").Class("eigen").Body(
						app.THead().Body(app.Tr().Body(
							app.Th().Text(l.T("hessian.objective")),
							app.Th().Text(l.T("hessian.zero")),
							app.Th().Text(l.T("hessian.smallest")),
							app.Th().Text(l.T("hessian.largest")),
						)),
						app.TBody().Body(app.Range(v.Cases).Slice(func(i int) app.UI {
							c := v.Cases[i]
							name := l.T("hessian.plain")
							switch {
							case c.Pinned:
								name = l.T("hessian.pinned")
							case c.Lambda > 0:
								name = l.T("hessian.l2", strconv.FormatFloat(c.Lambda, 'g', -1, 64))
							}
							small := "–"
							if c.Zero < len(c.Smallest) {
								small = strconv.FormatFloat(c.Smallest[c.Zero], 'e', 2, 64)
							}
							return app.Tr().Attr("data-zero", c.Zero).Attr("data-lambda", c.Lambda).Attr("data-pinned", c.Pinned).Body(
								app.Td().Text(name),
								app.Td().Class("num").Text(strconv.Itoa(c.Zero)),
								app.Td().Class("num").Text(small),
								app.Td().Class("num").Text(strconv.FormatFloat(c.Largest, 'e', 2, 64)),
							)
						})),
					),
					app.P().ID("hessian-why").Body(kit.Rich(l.T("hessian.why", plain.Zero, v.Features+1, blank, v.Cases[1].Zero))...),
				),
			)
		}),
	)
}

// draw paints H on its diverging scale: red positive, blue negative,
// white zero, the shade on a logarithmic scale of the magnitude.
func (h *HessianView) draw() {
	v := h.IView
	if v == nil || len(v.Image) != v.N*v.N {
		return
	}
	if len(h.rgba) != 4*len(v.Image) {
		h.rgba = make([]byte, 4*len(v.Image))
	}
	for i, b := range v.Image {
		r, g, bl := paint.Diverging(float64(b) / 127)
		h.rgba[4*i], h.rgba[4*i+1], h.rgba[4*i+2], h.rgba[4*i+3] = r, g, bl, 255
	}
	_, c := paint.Context2D("hessian")
	paint.PutRGBA(c, h.rgba, v.N, v.N, 0, 0)
}
