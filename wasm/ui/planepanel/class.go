package planepanel

import (
	"fmt"
	"slices"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/planepanel/store"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane in a class, in the Hand view: a student's #plane-send, and
// the presenter's #plane-class, every student's line over the plane's
// data, each shaded by its J. Outside a class (Part None) neither shows.

// sendLine is a student's #plane-send, which sends the line shown by hand
// to the class, and #plane-send-status after it: data-state idle,
// sending, sent or refused (store.Send…), and data-changed yes once θ
// has moved since the line was sent. A live view (live.go): θ moving
// renders it alone, when whether it changed since it was sent changes.
type sendLine struct {
	app.Compo

	ILang  i18n.Lang
	IClass store.Class
	IBase  *softmax.Model[float32] // the θ shown, which a click sends
}

// OnMount asks for the live θ.
func (v *sendLine) OnMount(ctx app.Context) { watchLive.Post(ctx, watching{ctx: ctx, view: v}) }

// take takes the θ shown, and renders if whether it is the line sent, or
// whether there is one, changed.
func (v *sendLine) take(l live) bool {
	was := v.IBase
	v.IBase = l.base
	return (was == nil) != (l.base == nil) || v.changed(was) != v.changed(l.base)
}

// changed reports whether m is not the line last sent.
func (v *sendLine) changed(m *softmax.Model[float32]) bool {
	s := v.IClass.Sent
	return s != nil && (m == nil || !slices.Equal(m.W, s.W) || !slices.Equal(m.B, s.B))
}

// Render shows the button and what became of the line.
func (v *sendLine) Render() app.UI {
	l, c := v.ILang, v.IClass
	state := c.Send
	if state == "" {
		state = store.SendIdle
	}
	changed := v.changed(v.IBase)
	text := map[string]string{store.SendIdle: "", store.SendSending: l.T("plane.send.sending"), store.SendSent: l.T("plane.send.sent")}[state]
	if state == store.SendRefused {
		text = l.M(c.Why)
	}
	if changed && (state == store.SendSending || state == store.SendSent) {
		text += " " + l.T("plane.send.changed")
	}
	return app.Div().Class("plane-send-row").Body(
		app.Button().ID("plane-send").Class("plane-send").Type("button").Attr("data-state", state).
			Disabled(v.IBase == nil).OnClick(func(ctx app.Context, e app.Event) {
			ctx.PreventUpdate() // the owner's answer renders
			sendMine.Post(ctx)
		}).Text(l.T("plane.send")),
		app.Span().ID("plane-send-status").Class("plane-send-status "+state).Attr("role", "status").
			Attr("data-state", state).Attr("data-changed", kit.YesNo(changed)).Text(text),
	)
}

// classPicture is the presenter's #plane-class: the plane's data and
// every student's line over them (the boundaries of its model), each
// shaded by its J from the best (green) to the worst (red), on
// #plane-class-canvas; data-lines is the number of lines drawn, and
// data-other the lines not drawn (of another K than the plane's). For a
// test or a screen reader, #plane-class-lines lists the lines best first
// (data-slot, data-j), and #plane-class-summary says the best and worst J
// (data-best, data-worst). #plane-class-descend runs gradient descent
// from the best line and from the worst, and the picture draws where
// each ends (dashed); #plane-class-descents says it (data-slot,
// data-from: best or worst, data-start-j, data-end-j, data-steps,
// data-stop).
type classPicture struct {
	app.Compo

	ILang  i18n.Lang
	IData  plane.Data
	IClass store.Class

	size paint.Size
	buf  []byte
}

// OnMount draws once the canvas is in.
func (v *classPicture) OnMount(ctx app.Context) { v.measure(ctx) }

// OnUpdate draws the lines again.
func (v *classPicture) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { v.draw() }) }

// OnResize measures the canvas again and redraws it.
func (v *classPicture) OnResize(ctx app.Context) { v.measure(ctx) }

func (v *classPicture) measure(ctx app.Context) {
	v.size.Reset()
	ctx.Defer(func(app.Context) { v.draw() })
}

// Render shows the canvas, the summary and the list.
func (v *classPicture) Render() app.UI {
	l, c := v.ILang, v.IClass
	lines := c.Lines
	summary := app.P().ID("plane-class-summary").Class("note plane-class-summary").Attr("aria-live", "polite")
	switch n := len(lines); {
	case n == 0:
		summary = summary.Text(l.T("plane.class.none"))
	default:
		best, worst := lines[0].J, lines[n-1].J
		summary = summary.Attr("data-best", kit.Exact64(best)).Attr("data-worst", kit.Exact64(worst)).
			Text(l.T("plane.class.summary", n, i18n.Loss(best), i18n.Loss(worst)))
	}
	return app.Figure().ID("plane-class").Class("plane-class").Attr("data-lines", len(lines)).Attr("data-other", c.Other).Body(
		app.Canvas().ID("plane-class-canvas").Attr("role", "img").Aria("label", l.T("plane.class.canvas")),
		app.FigCaption().Body(
			summary,
			app.If(c.Other > 0, func() app.UI {
				return app.P().Class("note").Text(l.T("plane.class.other", c.Other))
			}),
			app.Button().ID("plane-class-descend").Class("plane-class-descend").Type("button").Disabled(len(lines) == 0).
				OnClick(func(ctx app.Context, e app.Event) {
					ctx.PreventUpdate() // the owner's answer renders
					descend.Post(ctx)
				}).Text(l.T("plane.class.descend")),
			v.descents(),
			app.Ol().ID("plane-class-lines").Class("sr-only").Body(app.Range(lines).Slice(func(i int) app.UI {
				x := lines[i]
				return app.Li().Attr("data-slot", x.Slot).Attr("data-j", kit.Exact64(x.J)).
					Text(l.T("plane.class.line", x.Slot, i18n.Loss(x.J)))
			})),
		),
	)
}

// descents is #plane-class-descents: where gradient descent from the
// best and the worst line ends.
func (v *classPicture) descents() app.UI {
	l, ds := v.ILang, v.IClass.Descents
	return app.Ul().ID("plane-class-descents").Class("plane-class-descents").Attr("aria-live", "polite").Body(
		app.Range(ds).Slice(func(i int) app.UI {
			d := ds[i]
			from, key := "worst", "plane.class.fromWorst"
			if d.Best {
				from, key = "best", "plane.class.fromBest"
			}
			return app.Li().Attr("data-slot", d.Slot).Attr("data-from", from).Attr("data-start-j", kit.Exact64(d.From)).
				Attr("data-end-j", kit.Exact64(d.To)).Attr("data-steps", d.Steps).Attr("data-stop", d.Stop.String()).
				Text(l.T(key, d.Slot, i18n.Loss(d.From), i18n.Loss(d.To), d.Steps))
		}))
}

// draw paints the data's points, and each line's boundaries over them,
// the worst first so that the best lie on top.
func (v *classPicture) draw() {
	c, w, h, ratio := v.size.Context("plane-class-canvas")
	if !c.Truthy() || w == 0 {
		return
	}
	c.Call("clearRect", 0, 0, w, h)
	f := planeview.Frame{W: w, H: h}
	hp := paint.Helpers()
	for k := range v.IData.K {
		if pts := f.Points(v.IData, k); len(pts) > 0 {
			hp.Call("marks", c, paint.Points(&v.buf, pts), len(pts), classCSS(k), "#111", 3*ratio, ratio)
		}
	}
	lines := v.IClass.Lines
	for i := len(lines) - 1; i >= 0; i-- {
		segs := f.Segments(plane.Boundaries(lines[i].Model))
		if len(segs) > 0 {
			hp.Call("segments", c, paint.Points(&v.buf, segs), len(segs), jColor(lines, i), 2.5*ratio)
		}
	}
	c.Call("setLineDash", app.ValueOf([]any{6 * ratio, 4 * ratio}))
	for _, d := range v.IClass.Descents {
		if segs := f.Segments(plane.Boundaries(d.End)); len(segs) > 0 {
			hp.Call("segments", c, paint.Points(&v.buf, segs), len(segs), planeview.PathColors[plane.GD], 3*ratio)
		}
	}
	c.Call("setLineDash", app.ValueOf([]any{}))
}

// jColor is line i's colour among lines (best first): green for the
// best J, red for the worst, through yellow; every line green when all
// have the same J.
func jColor(lines []store.ClassLine, i int) string {
	t := 0.0
	if best, worst := lines[0].J, lines[len(lines)-1].J; worst > best {
		t = (lines[i].J - best) / (worst - best)
	}
	stops := [3][3]float64{{26, 152, 80}, {230, 190, 40}, {215, 48, 39}}
	a, b, u := stops[0], stops[1], 2*t
	if t > 0.5 {
		a, b, u = stops[1], stops[2], 2*t-1
	}
	var rgb [3]int
	for j := range 3 {
		rgb[j] = int(a[j] + u*(b[j]-a[j]) + 0.5)
	}
	return fmt.Sprintf("rgb(%d, %d, %d)", rgb[0], rgb[1], rgb[2])
}
